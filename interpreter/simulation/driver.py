"""Driving a run from the command line: progress bar, rows on disk, Ctrl-C.

Where it sits: between `interpreter.cli` and `runner`. `drive` feeds every hand's results to
the callers' accumulators as they arrive, shows a progress bar (tqdm, on a terminal only),
writes rows when asked, and turns Ctrl-C into a clean stop that keeps what was finished.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from tqdm import tqdm

from interpreter.ruleset import Ruleset
from interpreter.simulation.rows import RowWriter
from interpreter.simulation.runner import HandResults, RunPlan, run_hands


def drive(
    plan: RunPlan,
    rulesets: Sequence[Ruleset],
    jobs: int,
    consume: Callable[[HandResults], None],
    rows: RowWriter | None = None,
    label: str = "hands",
) -> bool:
    """Play the plan; returns True when it was interrupted (what finished is kept)."""
    bar = tqdm(total=plan.hands, unit="hand", desc=label, file=sys.stderr, disable=None)
    try:
        for results in run_hands(plan, rulesets, jobs):
            consume(results)
            if rows is not None:
                rows.write(results)
            bar.update()
    except KeyboardInterrupt:
        return True
    finally:
        bar.close()
        if rows is not None:
            rows.close()
    return False
