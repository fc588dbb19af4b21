"""The live updates of `tarot serve`: every person at a table is told, through a WebSocket
(Starlette's own), as soon as the table changes, and who has the table open.

Where it sits: beside the tables (`tarot.web.tables`), used by the web app
(`tarot.web.app`). A page opens `/api/tables/ID/live?token=...` for its seat; after any
action, deal, arrival or departure at the table, every page open at it is sent
`{"changed": N, "by": SEAT}` (N counts the changes; SEAT is whose doing it was) and a page of
another seat fetches its own view through the ordinary route, so a seat's cards only ever
travel in its own view. A page whose connection drops opens it again (a closed tab reopened
from its link does the same): the seat is the same, the table as it was.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict

from starlette.websockets import WebSocket, WebSocketDisconnect

MAX_PER_SEAT = 4  # open pages per seat (tabs of the same link); more are refused


class Live:
    """The pages open at each table, per seat."""

    def __init__(self) -> None:
        self._open: dict[str, dict[int, set[WebSocket]]] = defaultdict(lambda: defaultdict(set))
        self._changes: dict[str, int] = defaultdict(int)

    def present(self, table_id: str) -> frozenset[int]:
        """The seats whose people have the table open now."""
        return frozenset(seat for seat, pages in self._open[table_id].items() if pages)

    async def follow(self, table_id: str, seat: int, socket: WebSocket) -> None:
        """Keep `socket` told of the table's changes until it closes."""
        pages = self._open[table_id][seat]
        if len(pages) >= MAX_PER_SEAT:
            await socket.close(code=1008, reason=f"seat {seat} is open in too many pages")
            return
        await socket.accept()
        pages.add(socket)
        try:
            await self.changed(table_id, seat)  # the others see this seat arrive
            while True:
                await socket.receive_text()  # nothing is read from the page; it may only leave
        except WebSocketDisconnect:
            pass
        finally:
            pages.discard(socket)
            await self.changed(table_id, seat)

    async def changed(self, table_id: str, by: int) -> None:
        """Tell every page open at the table that it changed, by seat `by`'s doing."""
        self._changes[table_id] += 1
        message = {"changed": self._changes[table_id], "by": by}
        pages = [page for seat_pages in self._open[table_id].values() for page in seat_pages]
        await asyncio.gather(*(_send(page, message) for page in pages))


async def _send(page: WebSocket, message: dict) -> None:
    try:
        await page.send_json(message)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # a page gone: its own loop takes it off
