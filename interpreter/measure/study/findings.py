"""What a study found: each effect ranked by size, with a verdict.

Where it sits: between `effects` (the estimates) and `report` (the printing). The results of
a hand are the net result of each place at the table and the spread of results in the hand
(how much is at stake), all in the ruleset's unit; the size of an effect is its largest
mean, in absolute value, on one of them, which ranks the effects. A verdict says:

- `CHANGES`: the interval of some effect on the results is clear of zero, and the size is
  above `NOTICEABLE` of the stakes (the mean spread of results in a hand over the whole
  design);
- `SMALL`: an interval on the results is clear of zero, but the size is at most that: a
  real effect, seen over many hands, that no player would notice at the table;
- `UNNOTICED`: no player would notice: every interval, on the results and on the game
  measures, includes zero, and the size is small as above;
- `UNCLEAR`: neither: no interval on the results is clear of zero, but the effects are not
  small, or one on a game measure is; more hands would tell.

At 95% each, about one interval in twenty is clear of zero by chance when there is no
effect: with many effects, a few `SMALL` ones may be chance, which the report says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tarot.measure.statistics import Estimate
from tarot.measure.study.design import Column
from tarot.measure.study.effects import StudyEffects

NOTICEABLE = 0.05  # of the stakes: an effect no larger is small
CHANGES, SMALL = "changes results", "small but real"
UNNOTICED, UNCLEAR = "not noticed", "unclear"


@dataclass(frozen=True)
class Finding:
    column: Column
    label: str
    effects: dict[str, Estimate]  # by response key
    size: float  # the largest |mean effect| on the results, in the unit
    verdict: str
    rule: str | None  # the rule whose payments per hand moved most (None: none moved)


def _is_result(key: str) -> bool:
    return key.startswith("place.") or key == "spread"


def _small(estimate: Estimate) -> bool:
    return not estimate.excludes_zero()


def find(effects: StudyEffects, names: Sequence[str]) -> tuple[list[Finding], float]:
    """A finding per contrast column, ranked by size (mains and interactions apart, in
    the design's order on ties), and the threshold of a small effect, in the unit."""
    keys = [response.key for response in effects.responses]
    threshold = NOTICEABLE * effects.grand_mean(keys.index("spread"))
    found = []
    for index, column in enumerate(effects.columns):
        estimates = {key: effects.estimate(index, q) for q, key in enumerate(keys)}
        results = [e for key, e in estimates.items() if _is_result(key)]
        size = max(abs(e.mean) for e in results)
        measured = [e for key, e in estimates.items() if not key.startswith(("rule.", "seat."))]
        if any(e.excludes_zero() for e in results):
            verdict = CHANGES if size > threshold else SMALL
        elif all(_small(e) for e in measured) and size <= threshold:
            verdict = UNNOTICED
        else:
            verdict = UNCLEAR
        rules = [(-abs(e.mean), key) for key, e in estimates.items() if key.startswith("rule.")]
        moved = min((item for item in rules if item[0] < 0), default=None)  # first on ties
        rule = moved[1] if moved else None
        found.append(Finding(column, column.label(names), estimates, size, verdict, rule))
    order = {id(f): i for i, f in enumerate(found)}
    found.sort(key=lambda f: (not f.column.main, -f.size, order[id(f)]))
    return found, threshold
