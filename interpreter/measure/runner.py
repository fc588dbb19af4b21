"""Running many hands, in this process or spread over worker processes, in hand order.

Where it sits: between the command line and the statistics. `run_hands` plays hand numbers
1..N (or sittings 1..N, for a ruleset with lasting state and a game end) under one or more
rulesets (every ruleset on every hand number, with the same seeds) and
yields, hand by hand and in order, a tuple of `HandSummary`s, one per ruleset (`run_chunks`:
the same, a list for each chunk of hands played together). Each hand
depends only on (seed, hand number), so the results are the same for any number of jobs.
Given a results store (`store.PlanStore`), each chunk of hand numbers is looked up in it
first: only the hands it lacks, under the rulesets that lack them, are handed out to be
played, and the parent alone gives the new ones to the store as they come back.

The work is handed out lazily, a few chunks of hand numbers ahead of the results, so a run of
any length starts at once and holds little. Who plays the chunks is an `Executor`: this
machine's worker processes (`ProcessPool`, here) or a cluster (`tarot.measure.cluster`).
Compiled rulesets hold closures and do not pickle: a worker forked from the parent
(`quick_start`) has them already; a spawned one builds them again from the very documents
the parent read (`Ruleset.written`, no file is read again) and checks that each comes out
with the parent's content hash; a difference stops the run with `RulesetMismatch`. Each
local worker is a process with a pipe of its own, and no queue or lock is shared between
processes, so a worker killed at any moment (a signal to the whole process group) can block
neither the parent nor another worker. Workers never receive Ctrl-C or SIGHUP (blocked from
birth, then ignored) and are stopped by the parent with SIGTERM, which keeps what it
received.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import queue
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Protocol

from tarot.compile.loader import build_ruleset, load_ruleset
from tarot.core.agent import Agent
from tarot.core.output_files import held_signals
from tarot.core.ruleset import Ruleset
from tarot.core.summary import HandSummary
from tarot.engine.collector import few_collections
from tarot.engine.game import plays_sittings, sitting_seed
from tarot.errors import RulesetError, TarotError
from tarot.measure.hand_summary import sitting_summarized, summarized
from tarot.measure.provenance import RunKey
from tarot.measure.store import PlanStore
from tarot.players.lineup import seat_agents
from tarot.players.together import Playing, play_together, pools_playouts

HandResults = tuple[HandSummary, ...]  # one summary per ruleset, for one hand number


@dataclass(frozen=True)
class RulesetSpec:
    """A ruleset of the plan as the command line named it. Workers do not load it again:
    they build what the parent loaded (`Written`)."""

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
    backend: str = "scalar"  # or "batch", "auto": `tarot.batch.backend` chose it

    @property
    def pools_playouts(self) -> bool:
        """Whether a chunk's hands are played side by side (`agents.together`)."""
        return self.backend == "scalar" and pools_playouts(
            seat_agents(self.agents, 0, 1, len(self.agents))
        )

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


#: the agents of every seat for one hand: (seed, hand number, players) -> agents
Seating = Callable[[int, int, int], Sequence[Agent]]


@dataclass
class Table:
    plan: RunPlan
    rulesets: list[Ruleset] = field(default_factory=list)
    #: who sits at the table (the plan's agent texts when None; the Python API seats its
    #: users' own agents here, in this process)
    seating: Seating | None = None

    def seat(self, seed: int, number: int, players: int) -> Sequence[Agent]:
        if self.seating is not None:
            return self.seating(seed, number, players)
        return seat_agents(self.plan.agents, seed, number, players)

    def play(self, work: Work) -> list[tuple[HandSummary, ...]]:
        """Each hand of `work` played under the rulesets it names, in that order."""
        if self.plan.backend != "scalar":
            return self._play_batch(work)
        if self.plan.pools_playouts:
            return self._play_together(work)
        return [self.play_hand(number, which) for number, which in work]

    def _play_together(self, work: Work) -> list[tuple[HandSummary, ...]]:
        """`play` with the hands (or sittings) side by side, their search players' play-outs
        batched together (`agents.together`): the same hands as one at a time, in less time."""
        units = [(number, index) for number, which in work for index in which]
        playing = [self._unit_playing(self.rulesets[index], number) for number, index in units]
        with few_collections():
            played = dict(zip(units, play_together(playing), strict=True))
        return [tuple(played[number, index] for index in which) for number, which in work]

    def _play_batch(self, work: Work) -> list[tuple[HandSummary, ...]]:
        """`play` on the batch back end: the hands each ruleset lacks, played at once."""
        from tarot.batch.run import play_summaries
        from tarot.batch.sittings import sitting_summaries

        # `auto`'s sample of hands replayed through the scalar engine is the runner's
        # (`_Sampled`), checked as the chunks come back
        played: dict[tuple[int, int], HandSummary] = {}
        for index, ruleset in enumerate(self.rulesets):
            numbers = [number for number, which in work if index in which]
            # a ruleset whose hands depend on the hands before plays sittings, as here
            play = sitting_summaries if plays_sittings(ruleset) else play_summaries
            with few_collections():  # a batch's summaries are many objects, few cycles
                found = play(ruleset, self.plan.seed, numbers)
            for summary in found:
                played[summary.number, index] = summary
        return [tuple(played[number, index] for index in which) for number, which in work]

    def play_hand(self, number: int, which: Sequence[int]) -> tuple[HandSummary, ...]:
        return tuple(self._unit(self.rulesets[index], number) for index in which)

    def _unit(self, ruleset: Ruleset, number: int) -> HandSummary:
        """Hand `number`, or sitting `number` for a ruleset that plays sittings."""
        with few_collections():
            return play_together([self._unit_playing(ruleset, number)])[0]

    def _unit_playing(self, ruleset: Ruleset, number: int) -> Playing[HandSummary]:
        """`_unit` as a coroutine (`agents.together`)."""
        plan = self.plan
        if plays_sittings(ruleset):
            seed = sitting_seed(plan.seed, number)
            return sitting_summarized(
                ruleset,
                plan.seed,
                number,
                lambda hand: self.seat(seed, hand, ruleset.players),
            )
        agents = self.seat(plan.seed, number, ruleset.players)
        return summarized(ruleset, plan.seed, number, agents)


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
        if store is None:  # nothing was stored: every hand was played, under every ruleset
            return list(played)
        new = iter(played)
        kept: list[tuple[int, HandSummary]] = []
        results = [
            _joined(hands, next(new) if None in hands else (), kept) for hands in self.stored
        ]
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
#: the same, for hands played side by side (`agents.together`): larger batches of play-outs
#: cost less a hand up to about this many (`benchmarks/family_chunk.py`)
POOLED_CHUNK = 100
BATCH_CHUNK = 8192  # the same, for the batch back end (`batch.run.BATCH`, played at once)
AHEAD = 4  # chunks handed out per worker before their results are taken
WAIT_STEP = 0.2  # seconds the main thread waits for a result before looking at signals
STOP_WAIT = 5.0  # seconds a worker is given to end on SIGTERM before it is killed


class RulesetMismatch(TarotError, RuntimeError):
    """A worker built a ruleset that is not the one the parent loaded."""


@dataclass(frozen=True)
class Written:
    """A loaded ruleset as a worker receives it: what it was built from, and its hash."""

    path: str
    document: dict
    options: dict[str, str]
    content_hash: str
    removed: frozenset[tuple[tuple, str]] = frozenset()  # `Ruleset.removed`

    @staticmethod
    def of(ruleset: Ruleset) -> Written:
        return Written(
            ruleset.path,
            ruleset.written,
            dict(ruleset.options),
            ruleset.content_hash,
            ruleset.removed,
        )

    def build(self) -> Ruleset:
        try:
            ruleset = build_ruleset(self.path, self.document, self.options, self.removed)
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


class WorkerDied(TarotError, RuntimeError):
    """A worker process ended without answering (killed from outside, or out of memory)."""


#: what a terminal sends to the whole process group, which workers never receive
_DEAF_TO = tuple(getattr(signal, name) for name in ("SIGINT", "SIGHUP") if hasattr(signal, name))


def _worker_main(
    connection: Connection, plan: RunPlan, rulesets: list[Written] | list[Ruleset]
) -> None:
    """A worker's whole life: chunks of work in, their results out, until told to stop
    (None) or killed. An error goes back to the parent as ("error", exception). `rulesets`:
    what to build them from (a spawned worker), or the parent's own (a forked one)."""
    for signum in _DEAF_TO:
        signal.signal(signum, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # started while the parent held its stopping signals (`held_signals`), which a process
    # inherits blocked: SIGTERM must reach this one
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    table: Table | None = None
    for work in _received(connection):
        try:
            if table is None:  # built here, not at start: a mismatch reaches the parent
                table = Table(plan, [_built(ruleset) for ruleset in rulesets])
            connection.send(("done", table.play(work)))
        except Exception as error:  # noqa: BLE001 - every failure is the parent's to report
            try:
                connection.send(("error", error))
            except Exception:  # noqa: BLE001 - an error that does not pickle goes as text
                connection.send(("error", RuntimeError(f"{type(error).__name__}: {error}")))
            return


def _received(connection: Connection) -> Iterator[Work]:
    """The chunks the parent sends, until it sends None or is gone. A thread reads them as
    they come: the parent hands chunks out ahead, and a chunk waiting in a full pipe while
    this worker sends a large result back would leave each waiting for the other."""
    chunks: queue.SimpleQueue[Work | None] = queue.SimpleQueue()

    def read() -> None:
        try:
            while (work := connection.recv()) is not None:
                chunks.put(work)
        except (EOFError, OSError):
            pass  # the parent is gone: the worker ends
        chunks.put(None)

    threading.Thread(target=read, name="chunks", daemon=True).start()
    while (work := chunks.get()) is not None:
        yield work


def _built(ruleset: Written | Ruleset) -> Ruleset:
    return ruleset.build() if isinstance(ruleset, Written) else ruleset


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
def deaf_children() -> Iterator[None]:
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


def _chunk_size(hands: int, jobs: int, backend: str = "scalar", pooled: bool = False) -> int:
    if backend != "scalar":  # many hands at once pay: a few large chunks per worker, even
        pieces = max(2, -(-hands // (jobs * BATCH_CHUNK)))  # chunks a worker plays
        return max(1, -(-hands // (jobs * pieces)))
    if pooled:  # hands side by side pay too (`agents.together`)
        return max(1, min(POOLED_CHUNK, -(-hands // (jobs * 2))))
    return max(1, min(CHUNK, -(-hands // (jobs * 8))))


def _chunks(first: int, hands: int, size: int) -> Iterator[range]:
    last = first + hands
    for start in range(first, last, size):
        yield range(start, min(start + size, last))


def quick_start() -> str:
    """The quickest safe way to start workers here: "fork" on Linux while this process runs
    no other thread (a copy of this process, its modules imported and its rulesets built,
    which does neither again), else "spawn"."""
    forks = sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
    return "fork" if forks and threading.active_count() == 1 else "spawn"


def _start_workers(
    plan: RunPlan, rulesets: Sequence[Ruleset], jobs: int, start: str = "spawn"
) -> list[_Worker]:
    given: list[Written] | list[Ruleset]
    context: multiprocessing.context.BaseContext
    if start == "fork":  # a copy of this process: its rulesets are there already
        context = multiprocessing.get_context("fork")
        given = list(rulesets)
        sys.stdout.flush()  # what waits in a buffer would be written by every copy too
        sys.stderr.flush()
    else:
        context = multiprocessing.get_context("spawn")
        given = [Written.of(ruleset) for ruleset in rulesets]
    workers = []
    with deaf_children():
        for _ in range(jobs):
            ours, theirs = context.Pipe()
            process = context.Process(target=_worker_main, args=(theirs, plan, given), daemon=True)
            process.start()
            theirs.close()
            workers.append(_Worker(process, ours))
    return workers


def _lookup(numbers: range, rulesets: int, store: PlanStore | None) -> _Chunk:
    if store is None:
        return _Chunk(numbers, [[None] * rulesets for _ in numbers])
    return _Chunk(numbers, store.lookup(numbers))


class Executor(Protocol):
    """Where the chunks of a run are played: this machine's worker processes (`ProcessPool`)
    or a cluster (`tarot.measure.cluster`). Results never depend on which."""

    @property
    def width(self) -> int:
        """How many chunks it plays at once (the chunks are sized from it)."""
        ...

    def play(
        self, plan: RunPlan, rulesets: Sequence[Ruleset], works: Iterator[Work]
    ) -> Generator[list[tuple[HandSummary, ...]], None, None]:
        """The results of each work of `works`, yielded in the order the works came.
        `works` is read lazily, a few chunks ahead of the results."""
        ...


@dataclass(frozen=True)
class ProcessPool:
    """`jobs` worker processes on this machine, each with a pipe of its own, started by the
    multiprocessing start method `start` ("spawn": a fresh interpreter that imports the
    caller's main module again; "fork": a copy of this process, which runs nothing again)."""

    jobs: int
    start: str = "spawn"

    @property
    def width(self) -> int:
        return self.jobs

    def play(
        self, plan: RunPlan, rulesets: Sequence[Ruleset], works: Iterator[Work]
    ) -> Generator[list[tuple[HandSummary, ...]], None, None]:
        """Chunks are numbered in order and a worker answers its own in order, so the next
        chunk to yield is always the oldest of the worker holding it; a worker that answers
        gets the next chunk, so a slower worker is given less."""
        workers: list[_Worker] = []
        try:
            with held_signals():  # a stop while starting waits until every worker is known
                workers = _start_workers(plan, rulesets, self.jobs, self.start)
            holder: dict[int, _Worker] = {}  # chunk number -> the worker it was given to
            numbered = enumerate(works)

            def hand_out(worker: _Worker) -> None:
                for index, work in itertools.islice(numbered, 1):
                    worker.give(work)
                    holder[index] = worker

            for _ in range(AHEAD):
                for worker in workers:
                    hand_out(worker)
            next_index = 0
            while holder:
                worker = holder.pop(next_index)
                answer = worker.answer()
                next_index += 1
                hand_out(worker)
                yield answer
            for worker in workers:
                worker.finish()
        finally:
            with held_signals():  # a second stop waits until the workers are gone
                for worker in workers:
                    worker.stop()


def run_hands(
    plan: RunPlan,
    rulesets: Sequence[Ruleset],
    jobs: int | Executor = 1,
    store: PlanStore | None = None,
    start: str = "spawn",
) -> Iterator[HandResults]:
    """Yield each hand's results in hand order. `rulesets` are the plan's rulesets already
    loaded in this process, played here when `jobs` is 1 (or the hands to play fit in one
    chunk), given to that many worker processes when it is a larger number, and to the
    executor when it is one. With a `store`, the hands it holds are read from it, and only
    the others are played (and given to it). `start` is how worker processes start
    (`ProcessPool`)."""
    chunks = run_chunks(plan, rulesets, jobs, store, start)
    try:
        for chunk in chunks:
            yield from chunk
    finally:
        chunks.close()


def run_chunks(
    plan: RunPlan,
    rulesets: Sequence[Ruleset],
    jobs: int | Executor = 1,
    store: PlanStore | None = None,
    start: str = "spawn",
) -> Generator[list[HandResults], None, None]:
    """`run_hands` a chunk at a time: the results of the hands played together (in a worker,
    or here), in hand order, as soon as they are all in."""
    width = jobs if isinstance(jobs, int) else jobs.width
    size = _chunk_size(plan.hands, width, plan.backend, plan.pools_playouts)
    whole = range(plan.first, plan.first + plan.hands)
    missing = plan.hands if store is None else store.missing(whole)
    chunks = (
        _lookup(numbers, len(rulesets), store) for numbers in _chunks(plan.first, plan.hands, size)
    )
    if isinstance(jobs, int):
        jobs = max(1, min(jobs, -(-missing // size)))
        if jobs == 1:
            yield from _play_here(plan, rulesets, chunks, store)
            return
    executor = ProcessPool(jobs, start) if isinstance(jobs, int) else jobs
    given: deque[tuple[_Chunk, Work]] = deque()  # handed out, oldest first: as answers come
    sampled = _Sampled.of(plan, rulesets)

    def works() -> Iterator[Work]:
        for chunk in chunks:
            work = chunk.work()
            given.append((chunk, work))
            yield work

    answers = executor.play(plan, rulesets, works())
    try:
        for answer in answers:
            chunk, work = given.popleft()
            if sampled is not None:
                sampled.check(work, answer)
            yield chunk.results(answer, store)
    finally:
        answers.close()  # ends the executor's run at once when the caller stops early


def _play_here(
    plan: RunPlan, rulesets: Sequence[Ruleset], chunks: Iterator[_Chunk], store: PlanStore | None
) -> Iterator[list[HandResults]]:
    """`run_chunks` in this process."""
    table = Table(plan, list(rulesets))
    sampled = _Sampled.of(plan, rulesets)
    for chunk in chunks:
        if plan.backend != "scalar" or plan.pools_playouts:  # a chunk at once pays
            work = chunk.work()
            played = table.play(work)
            if sampled is not None:
                sampled.check(work, played)
            yield chunk.results(played, store)
            continue
        for number, stored in zip(chunk.numbers, chunk.stored, strict=True):
            single = _Chunk(range(number, number + 1), [stored])
            # a hand at a time: each is given to the store as soon as it is played
            yield single.results(table.play(single.work()), store)


class _Sampled:
    """`--backend auto`'s check of a run: one hand (or sitting) in `SAMPLE` of each ruleset
    replayed through the scalar engine, the sample of many chunks played again together
    (`records.batch_agreement.SampleCheck`), and each hand of the sample that the run plays
    checked as its chunk comes back, before its results are given on; BatchDisagreement
    stops the run at the first that differs."""

    def __init__(self, plan: RunPlan, rulesets: Sequence[Ruleset]) -> None:
        from tarot.records.batch_agreement import SAMPLE, SampleCheck

        last = plan.first + plan.hands - 1
        self.first, self.every = plan.first, SAMPLE
        self.checks = [SampleCheck(ruleset, plan.seed, plan.first, last) for ruleset in rulesets]

    @staticmethod
    def of(plan: RunPlan, rulesets: Sequence[Ruleset]) -> _Sampled | None:
        """The check of a run played with `--backend auto`; None for any other."""
        return _Sampled(plan, rulesets) if plan.backend == "auto" else None

    def check(self, work: Work, played: Sequence[tuple[HandSummary, ...]]) -> None:
        """The hands of the sample among those `played` (for `work`, in its order)."""
        hands: list[list[HandSummary]] = [[] for _ in self.checks]
        for (number, which), results in zip(work, played, strict=True):
            if (number - self.first) % self.every == 0:
                for index, hand in zip(which, results, strict=True):
                    hands[index].append(hand)
        for check, sample in zip(self.checks, hands, strict=True):
            if sample:
                check.check(sample)
