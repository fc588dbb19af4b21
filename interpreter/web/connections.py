"""Connections to `tarot serve`: how many at once, and how long one may take to send its
request.

Where it sits: under uvicorn, which `tarot.web.serve` (and the tests) start with
`server_config`. uvicorn's own settings bound the requests served at once
(`limit_concurrency`, answered 503 past it), idle keep-alive connections and the size of
headers not yet complete (set by `server_config`); what they leave
open is a connection that sends its headers or its body slowly, or never: that one holds a
file descriptor for as long as it likes, and a thousand of them exhaust the process's files.
The protocol here, uvicorn's h11 protocol with two checks added, makes room for a connection
beyond `ServeLimits.connections` by closing the one that has waited longest for a request
still not whole (or, when every one is being answered, closes the new one), and closes a
connection whose request is not whole `ServeLimits.request_seconds` after it connected (or
after its previous answer). A client that sends its request at once is therefore served
however many connections others hold open.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from starlette.types import ASGIApp
from uvicorn import Config
from uvicorn.protocols.http.h11_impl import H11Protocol

from tarot.web.limits import ServeLimits


class BoundedProtocol(H11Protocol):
    """uvicorn's h11 protocol, closing connections past the limit and slow requests."""

    max_connections = 200
    request_seconds = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._request_timer: asyncio.TimerHandle | None = None
        self._waiting_since = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._waiting_since = self.loop.time()
        live = [
            other
            for other in self.connections
            if isinstance(other, BoundedProtocol) and not other.transport.is_closing()
        ]
        if len(live) > self.max_connections:
            waiting = [other for other in live if other is not self and other.waiting()]
            if not waiting:
                transport.abort()
                return
            min(waiting, key=lambda other: other._waiting_since).transport.abort()
        self._arm()

    def waiting(self) -> bool:
        """Whether the connection is waiting for a request still not whole."""
        if self.conn.their_state is h11.SEND_BODY:
            return True
        return self.conn.their_state is h11.IDLE and (
            self.cycle is None or self.cycle.response_complete
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._waiting_since = self.loop.time()
        self._arm()  # the next request on this connection gets its own time

    def _arm(self) -> None:
        self._disarm()
        self._request_timer = self.loop.call_later(self.request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _too_slow(self) -> None:
        """Close the connection if its request is still arriving (headers or body)."""
        self._request_timer = None
        if self.waiting() and not self.transport.is_closing():
            self.transport.abort()


def server_config(app: ASGIApp, host: str, port: int, limits: ServeLimits) -> Config:
    """uvicorn's configuration of a server of `app` bounded by `limits`."""
    protocol = type(
        "TableProtocol",
        (BoundedProtocol,),
        {"max_connections": limits.connections, "request_seconds": limits.request_seconds},
    )
    return Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        http=protocol,
        # a second bound, on connections not yet closed and requests being answered
        limit_concurrency=2 * limits.connections,
        backlog=limits.connections,
        timeout_keep_alive=limits.keep_alive,
        h11_max_incomplete_event_size=limits.incomplete_headers,
        timeout_graceful_shutdown=limits.graceful_seconds,
    )
