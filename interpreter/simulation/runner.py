"""Running many hands, in this process or spread over worker processes, in hand order.

Where it sits: between the command line and the statistics. `run_hands` plays hand numbers
1..N under one or more rulesets (every ruleset on every hand number, with the same seeds) and
yields, hand by hand and in order, a tuple of `HandSummary`s, one per ruleset. Each hand
depends only on (seed, hand number), so the results are the same for any number of jobs.

The work is handed out lazily, a few chunks of hand numbers ahead of the results, so a run of
any length starts at once and holds little. Compiled rulesets hold closures and do not
pickle: each worker builds them again from the very documents the parent read
(`Ruleset.written`, no file is read again) and checks that each comes out with the parent's
content hash; a difference stops the run with `RulesetMismatch`. Workers never receive
Ctrl-C or SIGHUP (blocked from birth, then ignored) and are stopped by the parent with
SIGTERM, which keeps what it received.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.pool import AsyncResult

from interpreter.agents.lineup import seat_agents
from interpreter.errors import RulesetError
from interpreter.loading.ruleset_loader import build_ruleset, load_ruleset
from interpreter.output_files import held_signals
from interpreter.ruleset import Ruleset
from interpreter.simulation.hand_summary import HandSummary, play_summarized

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


@dataclass
class _Table:
    plan: RunPlan
    rulesets: list[Ruleset] = field(default_factory=list)

    def play(self, numbers: Sequence[int]) -> list[HandResults]:
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
AHEAD = 4  # chunks handed out per worker before their results are taken
WAIT_STEP = 0.2  # seconds the main thread waits for a result before looking at signals


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


_worker_plan: RunPlan | None = None
_worker_written: list[_Written] = []
_worker_table: _Table | None = None


def _start_worker(plan: RunPlan, written: list[_Written]) -> None:
    global _worker_plan, _worker_written
    for name in ("SIGINT", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    _worker_plan, _worker_written = plan, written


def _play_in_worker(numbers: range) -> list[HandResults]:
    global _worker_table
    assert _worker_plan is not None, "worker not started"
    if _worker_table is None:  # built here, not at start: a mismatch reaches the parent
        _worker_table = _Table(_worker_plan, [w.build() for w in _worker_written])
    return _worker_table.play(numbers)


@contextmanager
def _deaf_children() -> Iterator[None]:
    """Processes started within the block (the workers, multiprocessing's resource tracker,
    and the pool's threads that start replacement workers) never receive Ctrl-C or SIGHUP,
    which a terminal sends to the whole process group: the parent stops them with SIGTERM.
    In this process the signals wait until the block ends."""
    deaf = [getattr(signal, name) for name in ("SIGINT", "SIGHUP") if hasattr(signal, name)]
    before = signal.pthread_sigmask(signal.SIG_BLOCK, deaf)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _waited(result: AsyncResult) -> list[HandResults]:
    """A chunk's results, waited for in short steps: a stopping signal the system delivers to
    one of the pool's threads instead of the main thread is only handled when the main thread
    runs again, and a worker killed by the same signal would never answer a longer wait."""
    while True:
        try:
            return result.get(timeout=WAIT_STEP)
        except multiprocessing.TimeoutError:
            continue


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _chunk_size(hands: int, jobs: int) -> int:
    return max(1, min(CHUNK, -(-hands // (jobs * 8))))


def _chunks(first: int, hands: int, size: int) -> Iterator[range]:
    last = first + hands
    for start in range(first, last, size):
        yield range(start, min(start + size, last))


def run_hands(plan: RunPlan, rulesets: Sequence[Ruleset], jobs: int = 1) -> Iterator[HandResults]:
    """Yield each hand's results in hand order. `rulesets` are the plan's rulesets already
    loaded in this process (played here when jobs is 1; sent to the workers otherwise)."""
    size = _chunk_size(plan.hands, jobs)
    jobs = max(1, min(jobs, -(-plan.hands // size)))
    chunks = _chunks(plan.first, plan.hands, size)
    if jobs == 1:
        table = _Table(plan, list(rulesets))
        for numbers in chunks:
            yield from table.play(numbers)
        return
    written = [_Written.of(ruleset) for ruleset in rulesets]
    context = multiprocessing.get_context("spawn")
    with _deaf_children():
        pool = context.Pool(jobs, initializer=_start_worker, initargs=(plan, written))
    try:
        pending: deque = deque()
        for numbers in chunks:
            pending.append(pool.apply_async(_play_in_worker, (numbers,)))
            if len(pending) >= jobs * AHEAD:
                yield from _waited(pending.popleft())
        while pending:
            yield from _waited(pending.popleft())
        pool.close()
    finally:
        with held_signals():  # a second stop waits until the workers are gone
            pool.terminate()
            pool.join()
