"""What every request to `tarot serve` passes before the app sees it: the host it names, the
page it comes from, the kind and the size of its body.

Where it sits: an ASGI middleware wrapped around the Starlette app of `tarot.web.app` (by
`create_app`). It answers a refusal itself, as the app does (`{"error": MESSAGE}`), and
never reads more of a body than the limit:

- `Host` must name one of the allowed hosts (the loopback names by default, those given to
  `tarot serve --allow-host` besides), so that a web page cannot reach the server by making
  its own name point at this machine (DNS rebinding): 421;
- `Origin`, when the browser sends one, must be a page of an allowed host, and a browser's
  `Sec-Fetch-Site: cross-site` is refused for anything but a GET: 403;
- a request that changes something (any method but GET and HEAD) with a body must say
  `Content-Type: application/json`: a form or a `text/plain` body, which any site may send
  without asking, is refused with 415;
- a body over `max_body` bytes is refused with 413 from its `Content-Length` before a byte
  of it is read, or as soon as its chunks pass the limit.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The names of this machine that no other machine can be: allowed by default.
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
SAFE_METHODS = frozenset({"GET", "HEAD"})
JSON_TYPE = "application/json"


def host_name(value: str) -> str | None:
    """The host of a `Host` header or a URL's authority, without its port, lower-cased
    (`[::1]:8000` -> `::1`); None when it cannot be read."""
    value = value.strip().lower()
    if not value or any(c.isspace() or c in "/@?#\\" for c in value):
        return None
    if value.startswith("["):
        end = value.find("]")
        if end < 0 or (value[end + 1 :] and not value[end + 1 :].startswith(":")):
            return None
        return value[1:end]
    host, _, port = value.partition(":")
    if port and not port.isdecimal():
        return None
    return host or None


class Guard:
    """The checks above, in front of `app`."""

    def __init__(
        self, app: App, allowed_hosts: Iterable[str] = (), max_body: int = 2_000_000
    ) -> None:
        self.app = app
        self.allowed = LOOPBACK | {name.strip().strip("[]").lower() for name in allowed_hosts}
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self.refusal(scope["method"], headers)
        if refusal is not None:
            await _answer(send, *refusal)
            return
        if scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        body = await self._read(headers, receive)
        if isinstance(body, tuple):
            await _answer(send, *body)
            return
        if body and _media_type(headers.get("content-type", "")) != JSON_TYPE:
            await _answer(send, 415, f"a request that changes something is {JSON_TYPE}")
            return
        await self.app(scope, _replay(body, receive), send)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A WebSocket is checked as a page's request is (its Host, and the Origin every
        browser sends with one): refused, it is closed before it is accepted."""
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if self.refusal("GET", headers) is not None:
            await receive()  # the client's `websocket.connect`
            await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, send)

    def refusal(self, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
        """Why the request is refused before its body is read (status, message); None: it
        may go on."""
        host = host_name(headers.get("host", ""))
        if host not in self.allowed:
            return 421, "this server answers only to the names it was started for"
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or host_name(parts.netloc) not in self.allowed:
                return 403, "requests from another site's pages are refused"
        if method not in SAFE_METHODS and headers.get("sec-fetch-site") == "cross-site":
            return 403, "requests from another site's pages are refused"
        length = headers.get("content-length")
        if length is not None:
            if not length.strip().isdecimal():
                return 400, "Content-Length is a whole number of bytes"
            if int(length) > self.max_body:
                return 413, f"the request is {int(length):,} bytes; at most {self.max_body:,}"
        return None

    async def _read(self, headers: dict[str, str], receive: Receive) -> bytes | tuple[int, str]:
        """The whole body, read chunk by chunk up to the limit; (status, message) past it."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return 413, f"the request is more than {self.max_body:,} bytes"
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _media_type(value: str) -> str:
    return value.split(";", 1)[0].strip().lower()


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands the app the body already read, then waits as the server's."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _answer(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
