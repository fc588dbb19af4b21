"""Driving a run from the command line: progress bar, rows on disk, the store, stopping.

Where it sits: between `tarot.cli.simulate` and `runner`. `drive` feeds every hand's
results to the callers' accumulators as they arrive, shows a progress bar (tqdm, on a
terminal only), writes rows when asked, reads and fills the results store when given one
(saying on standard error how many hands it read and added), and turns a stop (Ctrl-C,
SIGTERM, SIGHUP) or a failed write of the rows or the store into a clean end that keeps what
was finished.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tqdm import tqdm

from tarot.core.output_files import OutputError, held_signals
from tarot.core.ruleset import Ruleset
from tarot.engine.collector import few_collections
from tarot.measure.rows import RowWriter
from tarot.measure.runner import Executor, HandResults, RunPlan, quick_start, run_chunks
from tarot.measure.store import PlanStore, ResultStore


@dataclass(frozen=True)
class RunEnd:
    """How a run ended: every hand played, stopped from outside, or stopped by a failed
    write (`failure`, the message); the hands finished before are kept in every case."""

    interrupted: bool = False
    failure: str | None = None

    @property
    def early(self) -> bool:
        return self.interrupted or self.failure is not None


class _Bar(tqdm):
    """The progress bar, without tqdm's monitor thread (which only watches for a bar left
    behind), so that the workers can be forked from a process of one thread."""

    monitor_interval = 0


def drive(
    plan: RunPlan,
    rulesets: Sequence[Ruleset],
    jobs: int | Executor,
    consume: Callable[[Sequence[HandResults]], None],
    rows: RowWriter | None = None,
    label: str = "hands",
    store: ResultStore | None = None,
) -> RunEnd:
    """Play the plan (in `jobs` processes, started as `quick_start` says, or by an
    executor), giving the results of each chunk of hands played together to `consume` (a
    list, in hand order) and each hand's to `rows`; with a `store`, the hands it holds are
    read from it and the others played and added to it."""
    bar = _Bar(total=plan.hands, unit="hand", desc=label, file=sys.stderr, disable=None)
    end = RunEnd()
    seen: PlanStore | None = None
    try:
        if store is not None:
            seen = PlanStore(store, plan.keys(rulesets))
        # what is loaded is frozen before workers fork (a collection would copy its pages);
        # the results read and added are many objects with few cycles
        with few_collections():
            for chunk in run_chunks(plan, rulesets, jobs, seen, quick_start()):
                with held_signals():  # a hand is in the rows and the report, or in neither
                    _take(chunk, consume, rows)
                bar.update(len(chunk))
    except KeyboardInterrupt:
        end = RunEnd(interrupted=True)
    except OutputError as error:
        end = RunEnd(failure=str(error))
    finally:
        bar.close()
        if rows is not None:
            try:
                rows.close()
            except OutputError as error:
                end = RunEnd(end.interrupted, end.failure or str(error))
        if store is not None:
            end = _close_store(store, seen, end)
    return end


def _take(
    chunk: Sequence[HandResults],
    consume: Callable[[Sequence[HandResults]], None],
    rows: RowWriter | None,
) -> None:
    """The chunk's rows written, then the chunk consumed; when a write fails, the hands
    written before it are consumed still, and the failure goes on."""
    written = 0
    try:
        if rows is not None:
            for results in chunk:
                rows.write(results)
                written += 1
        written = len(chunk)
    finally:
        if written:
            consume(chunk[:written])


def _close_store(store: ResultStore, seen: PlanStore | None, end: RunEnd) -> RunEnd:
    """Close the store and say what it gave and got (each hand counted once per ruleset)."""
    try:
        store.close()
    except OutputError as error:
        end = RunEnd(end.interrupted, end.failure or str(error))
    if seen is not None:
        print(
            f"--store {store.path}: {seen.read} hand(s) read from it, {seen.played} played "
            "and added",
            file=sys.stderr,
        )
    return end
