"""Expression results as the engine uses them: the seats a seat expression selects, and
numbers tidied for records.

Where it sits: under the hand state (`interpreter.engine.state`) and its phases.
"""

from __future__ import annotations

from collections.abc import Sequence


def selected_seats(value: int | Sequence[int]) -> Sequence[int]:
    """The seats a seat expression gives, leaving out the -1 that stands for no seat (as
    `last_trick_winner()` before any trick): from or to nobody, a rule pays nothing."""
    if isinstance(value, int):
        return (value,) if value >= 0 else ()
    return value if min(value, default=0) >= 0 else [s for s in value if s >= 0]


def tidy(number: float) -> float:
    """Whole numbers as ints, so records and reports read 3 rather than 3.0."""
    return int(number) if float(number).is_integer() else number
