"""The computer players' thinking at the tables of `tarot serve`: bounded in time per
decision, and run where it cannot stop the server answering.

Where it sits: between the web app (`tarot.web.app`), which hands every step that may make
computer players move (a new table, an action, the next hand, a table rebuilt from its
folder) to `Thinkers.run`, and the tables (`tarot.web.table`). A few threads of its own
take those steps from a queue of bounded length; the event loop only awaits them, so views,
the page and other tables keep being answered while players think, and a full queue is
refused at once (503) rather than growing. The threads are daemons: on SIGTERM uvicorn stops
answering, and the process ends without waiting for a decision to finish (the table's
folder already holds every action taken before it).

`check_agents` refuses, when a table is set up, a computer player whose settings would think
longer than the table allows; the table puts the same bound on every agent it seats
(`time_cap`), so that players who count their work in deals or iterations stop at it too.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

from tarot.players.lineup import agent_settings
from tarot.web.table import Refused

Result = TypeVar("Result")
#: deals per decision a search player may be set to at a table: its batched play-outs run a
#: stage whole, so its count is bounded besides its time
MAX_SAMPLES = 256

_Job = tuple[Callable[[], object], concurrent.futures.Future]


class Thinkers:
    """`workers` daemon threads running steps from a queue of at most `waiting`."""

    def __init__(self, workers: int, waiting: int) -> None:
        self._jobs: queue.Queue[_Job] = queue.Queue(maxsize=waiting)
        self._workers = workers
        self._threads: list[threading.Thread] = []
        self._start = threading.Lock()

    async def run(self, step: Callable[[], Result]) -> Result:
        """The step's result, computed on a thread of the pool; 503 when the queue is full."""
        self._started()
        future: concurrent.futures.Future = concurrent.futures.Future()
        try:
            self._jobs.put_nowait((step, future))
        except queue.Full:
            raise Refused(
                503, "the computer players are busy at other tables: try again in a moment"
            ) from None
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:  # the server stops (SIGTERM) while players think
            raise Refused(
                503, "the server is stopping; the table keeps every action taken"
            ) from None

    def _started(self) -> None:
        with self._start:
            while len(self._threads) < self._workers:
                thread = threading.Thread(target=self._work, name="tarot-thinker", daemon=True)
                thread.start()
                self._threads.append(thread)

    def _work(self) -> None:
        while True:
            step, future = self._jobs.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(step())
            except BaseException as error:  # noqa: BLE001 - handed to the awaiting request
                future.set_exception(error)


def check_agents(kinds: Sequence[str], think_seconds: float) -> None:
    """Refuse (400) a computer player set to think longer than `think_seconds` per decision,
    or to more deals than `MAX_SAMPLES`."""
    for spec in kinds:
        kind, settings = agent_settings(spec)
        seconds = settings.get("seconds")
        if isinstance(seconds, float) and seconds > think_seconds:
            raise Refused(
                400,
                f"agents {spec}: at this table a computer player thinks at most "
                f"{think_seconds:g} seconds per decision",
            )
        samples = settings.get("samples")
        if isinstance(samples, int) and samples > MAX_SAMPLES:
            raise Refused(
                400, f"agents {spec}: at this table a search player samples at most {MAX_SAMPLES}"
            )
