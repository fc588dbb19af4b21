"""Running many hands, in this process or spread over worker processes, in hand order.

Where it sits: between the command line and the statistics. `run_hands` plays hand numbers
1..N (or sittings 1..N, for a ruleset with lasting state and a game end) under one or more
rulesets (every ruleset on every hand number, with the same seeds) and
yields, hand by hand and in order, a tuple of `HandSummary`s, one per ruleset. Each hand
depends only on (seed, hand number), so the results are the same for any number of jobs.
Given a results store (`store.PlanStore`), each chunk of hand numbers is looked up in it
first: only the hands it lacks, under the rulesets that lack them, are handed out to be
played, and the parent alone gives the new ones to the store as they come back.

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
from interpreter.engine.game import plays_sittings, sitting_seed
from interpreter.errors import RulesetError
from interpreter.measure.hand_summary import (
    HandSummary,
    play_sitting_summarized,
    play_summarized,
)
from interpreter.measure.provenance import RunKey
from interpreter.measure.store import PlanStore
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

    @property
    def engine(self) -> str:
        """The engine that plays the hands: "auto" plays them in batch, checked."""
        return "scalar" if self.backend == "scalar" else "batch"

    def keys(self, rulesets: Sequence[Ruleset]) -> list[RunKey]:
        """What names the hands of each ruleset (loaded as the plan's `rulesets` say)."""
        return [
            RunKey.of(spec.target, ruleset, self.agents, self.seed, self.engine)
            for spec, ruleset in zip(self.rulesets, rulesets, strict=True)
        ]


#: the hands to play in a chunk: each hand number with the indices of the rulesets to play it
#: under (every ruleset, but those the store already holds)
Work = list[tuple[int, tuple[int, ...]]]


@dataclass
class _Table:
    plan: RunPlan
    rulesets: list[Ruleset] = field(default_factory=list)

    def play(self, work: Work) -> list[tuple[HandSummary, ...]]:
        """Each hand of `work` played under the rulesets it names, in that order."""
        if self.plan.backend != "scalar":
            return self._play_batch(work)
        return [self.play_hand(number, which) for number, which in work]

    def _play_batch(self, work: Work) -> list[tuple[HandSummary, ...]]:
        """`play` on the batch back end: the hands each ruleset lacks, played at once."""
        from interpreter.batch.run import play_summaries

        # `auto` replays a sample of the hands through the scalar engine as it goes
        checked = self.plan.first if self.plan.backend == "auto" else None
        played: dict[tuple[int, int], HandSummary] = {}
        for index, ruleset in enumerate(self.rulesets):
            numbers = [number for number, which in work if index in which]
            for summary in play_summaries(ruleset, self.plan.seed, numbers, checked):
                played[summary.number, index] = summary
        return [tuple(played[number, index] for index in which) for number, which in work]

    def play_hand(self, number: int, which: Sequence[int]) -> tuple[HandSummary, ...]:
        return tuple(self._unit(self.rulesets[index], number) for index in which)

    def _unit(self, ruleset: Ruleset, number: int) -> HandSummary:
        """Hand `number`, or sitting `number` for a ruleset that plays sittings."""
        plan = self.plan
        if plays_sittings(ruleset):
            seed = sitting_seed(plan.seed, number)
            return play_sitting_summarized(
                ruleset,
                plan.seed,
                number,
                lambda hand: seat_agents(plan.agents, seed, hand, ruleset.players),
            )
        agents = seat_agents(plan.agents, plan.seed, number, ruleset.players)
        return play_summarized(ruleset, plan.seed, number, agents)


@dataclass
class _Chunk:
    """Hand numbers handed out together, with what the store holds of them (every hand
    missing without a store)."""

    numbers: range
    stored: Sequence[Sequence[HandSummary | None]]  # per hand number, per ruleset

    def work(self) -> Work:
        return [
            (number, tuple(i for i, hand in enumerate(hands) if hand is None))
            for number, hands in zip(self.numbers, self.stored, strict=True)
            if None in hands
        ]

    def results(
        self, played: Sequence[tuple[HandSummary, ...]], store: PlanStore | None
    ) -> list[HandResults]:
        """Every hand's results, the stored ones joined by those just `played` (for
        `work()`, in its order), which are given to the store."""
        new = iter(played)
        kept: list[tuple[int, HandSummary]] = []
        results = [
            _joined(hands, next(new) if None in hands else (), kept) for hands in self.stored
        ]
        if store is not None:
            store.keep(kept)
        return results


def _joined(
    stored: Sequence[HandSummary | None],
    played: tuple[HandSummary, ...],
    kept: list[tuple[int, HandSummary]],
) -> HandResults:
    """One hand's results: where the store has none, the next of those `played`, which are
    added to `kept` with the index of their ruleset."""
    fresh = iter(played)
    whole = []
    for index, hand in enumerate(stored):
        if hand is None:
            hand = next(fresh)
            kept.append((index, hand))
        whole.append(hand)
    return tuple(whole)


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
    """A worker's whole life: chunks of work in, their results out, until told to stop
    (None) or killed. An error goes back to the parent as ("error", exception)."""
    for signum in _DEAF_TO:
        signal.signal(signum, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    table: _Table | None = None
    while (work := connection.recv()) is not None:
        try:
            if table is None:  # built here, not at start: a mismatch reaches the parent
                table = _Table(plan, [w.build() for w in written])
            connection.send(("done", table.play(work)))
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

    def give(self, work: Work) -> None:
        self.connection.send(work)

    def answer(self) -> list[tuple[HandSummary, ...]]:
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


def _lookup(numbers: range, rulesets: int, store: PlanStore | None) -> _Chunk:
    if store is None:
        return _Chunk(numbers, [[None] * rulesets for _ in numbers])
    return _Chunk(numbers, store.lookup(numbers))


def run_hands(
    plan: RunPlan, rulesets: Sequence[Ruleset], jobs: int = 1, store: PlanStore | None = None
) -> Iterator[HandResults]:
    """Yield each hand's results in hand order. `rulesets` are the plan's rulesets already
    loaded in this process (played here when jobs is 1; sent to the workers otherwise).
    With a `store`, the hands it holds are read from it, and only the others are played
    (and given to it).

    Chunks are numbered in order and a worker answers its own in order, so the next chunk to
    yield is always the oldest of the worker holding it; a worker that answers gets the next
    chunk, so a slower worker is given less."""
    size = _chunk_size(plan.hands, jobs, plan.backend)
    whole = range(plan.first, plan.first + plan.hands)
    missing = plan.hands if store is None else store.missing(whole)
    jobs = max(1, min(jobs, -(-missing // size)))
    chunks = enumerate(
        _lookup(numbers, len(rulesets), store) for numbers in _chunks(plan.first, plan.hands, size)
    )
    if jobs == 1:
        table = _Table(plan, list(rulesets))
        for _, chunk in chunks:
            if plan.backend != "scalar":  # a chunk at once: one hand alone would not pay
                yield from chunk.results(table.play(chunk.work()), store)
                continue
            for number, stored in zip(chunk.numbers, chunk.stored, strict=True):
                single = _Chunk(range(number, number + 1), [stored])
                # a hand at a time: each is given to the store as soon as it is played
                yield from single.results(table.play(single.work()), store)
        return
    workers: list[_Worker] = []
    try:
        with held_signals():  # a stop while starting waits until every worker is known
            workers = _start_workers(plan, rulesets, jobs)
        # chunk number -> the worker it was given to, and the chunk
        holder: dict[int, tuple[_Worker, _Chunk]] = {}

        def hand_out(worker: _Worker) -> None:
            for index, chunk in itertools.islice(chunks, 1):
                worker.give(chunk.work())
                holder[index] = worker, chunk

        for _ in range(AHEAD):
            for worker in workers:
                hand_out(worker)
        next_index = 0
        while holder:
            worker, chunk = holder.pop(next_index)
            results = chunk.results(worker.answer(), store)
            next_index += 1
            hand_out(worker)
            yield from results
        for worker in workers:
            worker.finish()
    finally:
        with held_signals():  # a second stop waits until the workers are gone
            for worker in workers:
                worker.stop()
