"""Running many hands, in this process or spread over worker processes, in hand order.

Where it sits: between the command line and the statistics. `run_hands` plays hand numbers
1..N under one or more rulesets (every ruleset on every hand number, with the same seeds) and
yields, hand by hand and in order, a tuple of `HandSummary`s, one per ruleset. Each hand
depends only on (seed, hand number), so the results are the same for any number of jobs.

Workers load the rulesets themselves from `RulesetSpec`s (compiled rulesets hold closures and
do not pickle), ignore Ctrl-C, and are stopped by the parent, which keeps what it received.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from interpreter.agents.lineup import seat_agents
from interpreter.loading.ruleset_loader import load_ruleset
from interpreter.ruleset import Ruleset
from interpreter.simulation.hand_summary import HandSummary, play_summarized

HandResults = tuple[HandSummary, ...]  # one summary per ruleset, for one hand number


@dataclass(frozen=True)
class RulesetSpec:
    """How to load a ruleset again in another process."""

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


_worker_table: _Table | None = None


def _start_worker(plan: RunPlan) -> None:
    global _worker_table
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_table = _Table(plan, [spec.load() for spec in plan.rulesets])


def _play_in_worker(numbers: range) -> list[HandResults]:
    assert _worker_table is not None, "worker not started"
    return _worker_table.play(numbers)


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _chunks(first: int, hands: int, jobs: int) -> list[range]:
    size = max(1, min(50, math.ceil(hands / (jobs * 8))))
    last = first + hands
    return [range(start, min(start + size, last)) for start in range(first, last, size)]


def run_hands(plan: RunPlan, rulesets: Sequence[Ruleset], jobs: int = 1) -> Iterator[HandResults]:
    """Yield each hand's results in hand order. `rulesets` are the plan's rulesets already
    loaded in this process (used when jobs is 1; workers load their own)."""
    chunks = _chunks(plan.first, plan.hands, jobs)
    jobs = max(1, min(jobs, len(chunks)))
    if jobs == 1:
        table = _Table(plan, list(rulesets))
        for numbers in chunks:
            yield from table.play(numbers)
        return
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(jobs, initializer=_start_worker, initargs=(plan,))
    try:
        for results in pool.imap(_play_in_worker, chunks):
            yield from results
        pool.close()
    finally:
        pool.terminate()
        pool.join()
