"""The web app of `tarot serve`: the page, its files, and the JSON the page asks for.

Where it sits: under `tarot.web.serve` (which runs it with uvicorn), over the tables
(`tarot.web.tables`) and the seat's view (`tarot.web.view`). Starlette routes:

- `GET /` the page (a new table), `GET /t/ID` the page at table ID, `GET /static/...` its
  script and style sheet;
- `GET /api/rulesets` the built-in rulesets, `GET /api/rulesets/NAME` one with its options;
- `POST /api/tables` a new table: `{"ruleset", "options", "seat", "agents", "seed",
  "upload": {"name", "text"}, "people": [SEAT, ...]}` (`people`: the seats friends take; the
  answer then holds a link per person's seat, `links`);
- `GET /api/tables/ID?token=T` the view of the seat token T opens (`tarot.web.seats`; a
  table with one person needs no token; `?seat=N` must be that seat);
  `POST /api/tables/ID/actions?token=T` `{"action"}`; `POST /api/tables/ID/next?token=T`
  the next hand; `GET /api/tables/ID/record` the game record; `GET /t/ID/rules` the rules
  page; `WS /api/tables/ID/live?token=T` the table's changes (`tarot.web.live`).

A refusal is a JSON `{"error": MESSAGE}` with a 4xx status (400 a bad request, 403 another
seat, 404 no such table, 409 not now, 422 an illegal action), or 503 when the computer
players are busy; its message names no folder of the server (`tarot.web.redact`). Every
request passes the guard first (`tarot.web.guard`: host, origin, JSON, size), and every step
that may make computer players move runs on their own threads (`tarot.web.thinking`), within
the server's limits (`tarot.web.limits`).
"""

from __future__ import annotations

import html
import json
from collections.abc import Awaitable, Callable
from functools import cache
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from tarot.compile.loader import load_confined
from tarot.errors import RulesetError
from tarot.load import paths
from tarot.load.listing import builtin_listings
from tarot.presentation.explain import explain_page, render
from tarot.records.record_json import record_text
from tarot.web.guard import Guard
from tarot.web.limits import ServeLimits
from tarot.web.live import Live
from tarot.web.redact import Redactor
from tarot.web.seats import links, new_tokens, seat_of
from tarot.web.table import Refused, Table
from tarot.web.tables import Tables, busy, guarded
from tarot.web.thinking import Thinkers
from tarot.web.view import table_json

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 2_000_000  # bytes of a request's JSON (an uploaded ruleset is at most half)
MAX_OPTIONS = 1000  # options chosen in one request (a ruleset has a few dozen at most)
DEFAULT_AGENTS = "heuristic"

Endpoint = Callable[[Request], Awaitable[Response]]


def create_app(folder: Path, limits: ServeLimits | None = None) -> Guard:
    """The app, keeping its tables in `folder`, behind its guard (`.state` is the app's)."""
    limits = limits or ServeLimits()
    tables = Tables(folder, limits)
    thinkers = Thinkers(limits.thinkers, limits.waiting)
    redact = Redactor(folder)
    live = Live()

    async def page(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def rulesets(_request: Request) -> Response:
        return JSONResponse(_rulesets())

    async def ruleset(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(_ruleset_options, request.path_params["name"]))

    async def create(request: Request) -> Response:
        body = await _body(request)
        upload = body.get("upload")
        seat = _whole(body, "seat", 0)
        people = _people(body, seat)
        given = (
            _text(body, "ruleset", "") if upload is None else "",
            _options(body.get("options", {})),
            seat,
            _text(body, "agents", DEFAULT_AGENTS) or DEFAULT_AGENTS,
            None if body.get("seed") in (None, "") else _whole(body, "seed", 0),
            None if upload is None else _upload(upload),
            new_tokens(people) if len(people) > 1 else None,
        )

        def step() -> dict:
            table = tables.create(*given)
            shown = guarded(table, tables, lambda: table_json(table))
            if table.setup.tokens:  # only whoever opens the table is given every seat's link
                shown["links"] = links(table)
            return shown

        return JSONResponse(await thinkers.run(step), status_code=201)

    async def find(request: Request) -> Table:
        """The request's table: rebuilding one from its folder may make players think."""
        table_id = request.path_params["table_id"]
        if tables.held(table_id):
            return await run_in_threadpool(tables.find, table_id)
        return await thinkers.run(lambda: tables.find(table_id))

    async def view(request: Request) -> Response:
        table = await find(request)
        claimed = request.query_params.get("seat")
        seat = seat_of(table, request.query_params.get("token"), _claimed(claimed))
        present = live.present(table.id)
        return JSONResponse(
            await run_in_threadpool(
                guarded, table, tables, lambda: table_json(table, seat, present)
            )
        )

    async def act(request: Request) -> Response:
        table = await find(request)
        body = await _body(request)
        token = request.query_params.get("token") or _text(body, "token", "")
        seat = seat_of(table, token, _whole(body, "seat", -1) if "seat" in body else None)
        action = _text(body, "action", None)

        def step() -> dict:
            table.act(seat, action)
            return table_json(table, seat, live.present(table.id))

        shown = await thinkers.run(lambda: guarded(table, tables, step))
        await live.changed(table.id, seat)
        return JSONResponse(shown)

    async def next_hand(request: Request) -> Response:
        table = await find(request)
        seat = seat_of(table, request.query_params.get("token"))

        def step() -> dict:
            table.deal_next()
            return table_json(table, seat, live.present(table.id))

        shown = await thinkers.run(lambda: guarded(table, tables, step))
        await live.changed(table.id, seat)
        return JSONResponse(shown)

    async def follow(socket: WebSocket) -> None:
        try:
            table = await run_in_threadpool(tables.find, socket.path_params["table_id"])
            seat = seat_of(table, socket.query_params.get("token"))
        except Refused as refused:
            await socket.close(code=1008, reason=redact(refused.message)[:120])
            return
        await live.follow(table.id, seat, socket)

    async def record(request: Request) -> Response:
        table = await find(request)
        with busy(table):
            if not table.finished:
                raise Refused(409, "no hand is finished yet: the record holds finished hands")
            text = record_text(table.record()) + "\n"
            if not table.setup.seed_known:
                table.setup.seed_known = True  # the record holds it
                tables.save(table)
        name = f"{table.ruleset.id}-{table.id[:8]}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def rules(request: Request) -> Response:
        table = await find(request)
        text = render(explain_page(table.ruleset), "text")
        title = html.escape(table.ruleset.title)
        return HTMLResponse(
            f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title}: rules"
            "</title><link rel='stylesheet' href='/static/table.css'>"
            "<link rel='icon' type='image/svg+xml' href='/static/favicon.svg'></head>"
            f"<body class='rules'><pre>{html.escape(text)}</pre></body></html>"
        )

    routes = [
        Route("/", page),
        Route("/t/{table_id}", page),
        Route("/t/{table_id}/rules", rules),
        Route("/api/rulesets", rulesets),
        Route("/api/rulesets/{name}", ruleset),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{table_id}", view),
        Route("/api/tables/{table_id}/actions", act, methods=["POST"]),
        Route("/api/tables/{table_id}/next", next_hand, methods=["POST"]),
        Route("/api/tables/{table_id}/record", record),
        WebSocketRoute("/api/tables/{table_id}/live", follow),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def refused(_request: Request, error: Exception) -> Response:
        assert isinstance(error, Refused)
        return JSONResponse({"error": redact(error.message)}, status_code=error.status)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        path = request.url.path[:80]
        message = f"{path}: no such page" if error.status_code == 404 else str(error.detail)
        return JSONResponse({"error": redact(message)}, status_code=error.status_code)

    async def failed(_request: Request, _error: Exception) -> Response:
        # the server's own fault: its log has the traceback, the answer names nothing
        message = "the server failed on this request (its log says why)"
        return JSONResponse({"error": message}, status_code=500)

    handlers = {Refused: refused, HTTPException: http_error, Exception: failed}
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.state.tables = tables
    guard = Guard(app, limits.allowed_hosts, limits.max_body)
    guard.state = app.state  # type: ignore[attr-defined]
    return guard


async def _body(request: Request) -> dict:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise Refused(413, f"the request is {len(raw):,} bytes; at most {MAX_BODY:,}")
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError) as error:
        raise Refused(400, f"the request is not JSON: {error}") from None
    except RecursionError:
        raise Refused(400, "the request is JSON nested too deeply") from None
    if not isinstance(body, dict):
        raise Refused(400, "the request is a JSON object")
    return body


def _text(body: dict, key: str, default: str | None) -> str:
    value = body.get(key, default)
    if not isinstance(value, str):
        raise Refused(400, f"{key}: text expected, not {json.dumps(value)[:60]}")
    return value


def _whole(body: dict, key: str, default: int) -> int:
    value = body.get(key, default)
    if isinstance(value, str) and value.strip().isdecimal():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(400, f"{key}: a whole number expected, not {json.dumps(value)[:60]}")
    return value


def _options(value: object) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise Refused(400, "options: an object of OPTION: READING texts expected")
    if len(value) > MAX_OPTIONS:
        raise Refused(400, f"options: {len(value):,} given; a table takes at most {MAX_OPTIONS}")
    return {str(name): reading for name, reading in value.items()}


def _people(body: dict, seat: int) -> list[int]:
    """The seats people take (`people`: whole numbers), the opener's `seat` among them."""
    given = body.get("people", [])
    if not isinstance(given, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in given
    ):
        raise Refused(400, "people: a list of seat numbers expected")
    return sorted({seat, *given})


def _claimed(seat: str | None) -> int | None:
    if seat is None:
        return None
    if not seat.strip().isdecimal():
        raise Refused(400, f"seat: a whole number expected, not {seat[:20]!r}")
    return int(seat)


def _upload(value: object) -> tuple[str, str]:
    if not isinstance(value, dict):
        raise Refused(400, "upload: an object {name, text} expected")
    return _text(value, "name", None), _text(value, "text", None)


@cache
def _rulesets() -> list[dict]:
    default = paths.default_builtin()
    return [
        {"name": name, "title": listing.title, "players": listing.players}
        | ({"default": True} if name == default else {})
        for name, (_path, listing) in builtin_listings().items()
        if listing is not None
    ]


@cache
def _ruleset_options(name: str) -> dict:
    """A built-in ruleset's options: each with its readings and the default."""
    found = paths.find_builtin(name)
    if found is None:
        known = ", ".join(paths.list_builtins())
        raise Refused(404, f"no built-in ruleset named {name[:70]!r}; built-in: {known}")
    try:
        loaded = load_confined(found)
    except RulesetError as error:
        raise Refused(500, str(error)) from None
    declared = loaded.document.get("options", {})
    return {
        "name": name,
        "title": loaded.title,
        "players": loaded.players,
        "options": [
            {
                "name": option,
                "description": declared[option].get("description", ""),
                "default": reading,
                "readings": [
                    {"name": reading, "description": about.get("description", "")}
                    for reading, about in declared[option].get("readings", {}).items()
                ],
            }
            for option, reading in loaded.options.items()
        ],
    }
