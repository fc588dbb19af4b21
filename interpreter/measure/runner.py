"""Running many hands, in this process or spread over worker processes, in hand order.

Where it sits: between the command line and the statistics. `run_hands` plays hand numbers
1..N under one or more rulesets (every ruleset on every hand number, with the same seeds) and
yields, hand by hand and in order, a tuple of `HandSummary`s, one per ruleset. Each hand
depends only on (seed, hand number), so the results are the same for any number of jobs.

The work is handed out lazily, a few chunks of hand numbers ahead of the results, so a run of
any length starts at once and holds little. Compiled rulesets hold closures and do not
pickle: each worker builds them again from the very documents the parent read
(`Ruleset.written`, no file is read again) and checks that each comes out with the parent's
content hash; a difference stops the run with `RulesetMismatch`. Each worker is a process
with a pipe of its own, and no queue or lock is shared between processes, so a worker killed
at any moment (a signal to the whole process group) can block neither the parent nor another
worker. Workers never receive Ctrl-C or SIGHUP (blocked from birth, then ignored) and are
stopped by the parent with SIGTERM, which keeps what it received.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from interpreter.agents.lineup import seat_agents
from interpreter.errors import RulesetError
from interpreter.measure.hand_summary import HandSummary, play_summarized
from interpreter.output_files import held_signals
from interpreter.ruleset import Ruleset
from interpreter.ruleset_loader import build_ruleset, load_ruleset

HandResults = tuple[HandSummary, ...]  # one summary per ruleset, for one hand number


@dataclass(frozen=True)
class RulesetSpec:
    """A ruleset of the plan as the command line named it. Workers do not load it again:
    they build what the parent loaded (`_Written`)."""

    target: str  # a built-in name or a file path
    options: tuple[tuple[str, str], ...] = ()

    def load(self) -> Ruleset:
        return load_ruleset(self.target, dict(self.options))


@dataclass(frozen=True)
class RunPlan:
    rulesets: tuple[RulesetSpec, ...]
    seed: int
    hands: int
    agents: tuple[str, ...] = ("random",)
    first: int = 1
    backend: str = "scalar"  # or "batch", "auto": `interpreter.batch.backend` chose it


@dataclass
class _Table:
    plan: RunPlan
    rulesets: list[Ruleset] = field(default_factory=list)

    def play(self, numbers: Sequence[int]) -> list[HandResults]:
        if self.plan.backend != "scalar":
            from interpreter.batch.run import play_summaries

            checked = self.plan.first if self.plan.backend == "auto" else None
            per_ruleset = [
                play_summaries(r, self.plan.seed, numbers, checked) for r in self.rulesets
            ]
            return list(zip(*per_ruleset, strict=True))
        results = []
        for number in numbers:
            results.append(
                tuple(
                    play_summarized(
                        ruleset,
                        self.plan.seed,
                        number,
                        seat_agents(self.plan.agents, self.plan.seed, number, ruleset.players),
                    )
                    for ruleset in self.rulesets
                )
            )
        return results


CHUNK = 50  # most hand numbers handed to a worker at once
BATCH_CHUNK = 2048  # the same, for the batch back end
AHEAD = 4  # chunks handed out per worker before their results are taken
WAIT_STEP = 0.2  # seconds the main thread waits for a result before looking at signals
STOP_WAIT = 5.0  # seconds a worker is given to end on SIGTERM before it is killed


class RulesetMismatch(RuntimeError):
    """A worker built a ruleset that is not the one the parent loaded."""


@dataclass(frozen=True)
class _Written:
    """A loaded ruleset as a worker receives it: what it was built from, and its hash."""

    path: str
    document: dict
    options: dict[str, str]
    content_hash: str

    @staticmethod
    def of(ruleset: Ruleset) -> _Written:
        return _Written(ruleset.path, ruleset.written, dict(ruleset.options), ruleset.content_hash)

    def build(self) -> Ruleset:
        try:
            ruleset = build_ruleset(self.path, self.document, self.options)
        except RulesetError as error:
            raise RulesetMismatch(
                f"{self.path}: a worker could not build it again:\n{error}"
            ) from error
        if ruleset.content_hash != self.content_hash:
            raise RulesetMismatch(
                f"{self.path}: a worker built it with content hash {ruleset.content_hash}, "
                f"not the {self.content_hash} the run was started with"
            )
        return ruleset


class WorkerDied(RuntimeError):
    """A worker process ended without answering (killed from outside, or out of memory)."""


#: what a terminal sends to the whole process group, which workers never receive
_DEAF_TO = tuple(getattr(signal, name) for name in ("SIGINT", "SIGHUP") if hasattr(signal, name))


def _worker_main(connection: Connection, plan: RunPlan, written: list[_Written]) -> None:
    """A worker's whole life: chunks of hand numbers in, their results out, until told to
    stop (None) or killed. An error goes back to the parent as ("error", exception)."""
    for signum in _DEAF_TO:
        signal.signal(signum, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    table: _Table | None = None
    while (numbers := connection.recv()) is not None:
        try:
            if table is None:  # built here, not at start: a mismatch reaches the parent
                table = _Table(plan, [w.build() for w in written])
            connection.send(("done", table.play(numbers)))
        except Exception as error:  # noqa: BLE001 - every failure is the parent's to report
            try:
                connection.send(("error", error))
            except Exception:  # noqa: BLE001 - an error that does not pickle goes as text
                connection.send(("error", RuntimeError(f"{type(error).__name__}: {error}")))
            return


@dataclass
class _Worker:
    """One worker process and the connection that is only its own. It answers the chunks it
    is given in the order it was given them."""

    process: BaseProcess
    connection: Connection
    finished: bool = False

    def give(self, numbers: range) -> None:
        self.connection.send(numbers)

    def answer(self) -> list[HandResults]:
        """The results of its oldest chunk, waited for in short steps so that a stopping
        signal is handled at once."""
        while not wait([self.connection, self.process.sentinel], timeout=WAIT_STEP):
            pass
        try:
            kind, payload = self.connection.recv()
        except (EOFError, OSError):
            raise WorkerDied(
                f"a worker process ended without answering (exit code {self.process.exitcode})"
            ) from None
        if kind == "error":
            raise payload
        return payload

    def finish(self) -> None:
        """Tells the worker there is no more work; it ends by itself."""
        self.connection.send(None)
        self.finished = True

    def stop(self) -> None:
        """Ends the process whatever it is doing: nothing it holds is shared with another
        process, so killing it can block nobody."""
        if not self.finished and self.process.is_alive():
            self.process.terminate()
        self.process.join(timeout=STOP_WAIT)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()


@contextmanager
def _deaf_children() -> Iterator[None]:
    """Processes started within the block (the workers) never receive Ctrl-C or SIGHUP,
    which a terminal sends to the whole process group: the parent stops them with SIGTERM.
    In this process the signals wait until the block ends."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _DEAF_TO)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _chunk_size(hands: int, jobs: int, backend: str = "scalar") -> int:
    if backend != "scalar":  # many hands at once pay: a few large chunks per worker
        return max(1, min(BATCH_CHUNK, -(-hands // (jobs * 2))))
    return max(1, min(CHUNK, -(-hands // (jobs * 8))))


def _chunks(first: int, hands: int, size: int) -> Iterator[range]:
    last = first + hands
    for start in range(first, last, size):
        yield range(start, min(start + size, last))


def _start_workers(plan: RunPlan, rulesets: Sequence[Ruleset], jobs: int) -> list[_Worker]:
    written = [_Written.of(ruleset) for ruleset in rulesets]
    context = multiprocessing.get_context("spawn")
    workers = []
    with _deaf_children():
        for _ in range(jobs):
            ours, theirs = context.Pipe()
            process = context.Process(
                target=_worker_main, args=(theirs, plan, written), daemon=True
            )
            process.start()
            theirs.close()
            workers.append(_Worker(process, ours))
    return workers


def run_hands(plan: RunPlan, rulesets: Sequence[Ruleset], jobs: int = 1) -> Iterator[HandResults]:
    """Yield each hand's results in hand order. `rulesets` are the plan's rulesets already
    loaded in this process (played here when jobs is 1; sent to the workers otherwise).

    Chunks are numbered in order and a worker answers its own in order, so the next chunk to
    yield is always the oldest of the worker holding it; a worker that answers gets the next
    chunk, so a slower worker is given less."""
    size = _chunk_size(plan.hands, jobs, plan.backend)
    jobs = max(1, min(jobs, -(-plan.hands // size)))
    chunks = enumerate(_chunks(plan.first, plan.hands, size))
    if jobs == 1:
        table = _Table(plan, list(rulesets))
        for _, numbers in chunks:
            yield from table.play(numbers)
        return
    workers: list[_Worker] = []
    try:
        with held_signals():  # a stop while starting waits until every worker is known
            workers = _start_workers(plan, rulesets, jobs)
        holder: dict[int, _Worker] = {}  # chunk number -> the worker it was given to

        def hand_out(worker: _Worker) -> None:
            for index, numbers in itertools.islice(chunks, 1):
                worker.give(numbers)
                holder[index] = worker

        for _ in range(AHEAD):
            for worker in workers:
                hand_out(worker)
        next_index = 0
        while holder:
            worker = holder.pop(next_index)
            results = worker.answer()
            next_index += 1
            hand_out(worker)
            yield from results
        for worker in workers:
            worker.finish()
    finally:
        with held_signals():  # a second stop waits until the workers are gone
            for worker in workers:
                worker.stop()
