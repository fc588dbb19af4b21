"""Expression results as the engine uses them: the seats a seat expression selects (or the
first of them, which must be there), and numbers tidied for records.

Where it sits: under the hand state (`tarot.engine.state`) and its phases.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tarot.expressions import EvaluationError
from tarot.expressions.builtins import Number
from tarot.expressions.numbers import exact

if TYPE_CHECKING:
    from tarot.engine.state import HandState


def selected_seats(value: int | Sequence[int]) -> Sequence[int]:
    """The seats a seat expression gives, leaving out the -1 that stands for no seat (as
    `last_trick_winner()` before any trick): from or to nobody, a rule pays nothing."""
    if isinstance(value, int):
        return (value,) if value >= 0 else ()
    return value if min(value, default=0) >= 0 else [s for s in value if s >= 0]


def first_seat(state: HandState, expression: Callable[..., Any], what: str) -> int:
    """The first seat a seat expression gives; an EvaluationError naming `what` and its place
    in the file when it gives nobody."""
    seats = selected_seats(expression(state._scope({})))
    if not seats:
        error = EvaluationError(f"{what} selects nobody; it must give a seat")
        error.where = getattr(expression, "where", "")
        raise error
    return seats[0]


def tidy(number: Number | float) -> Number:
    """The exact number (`expressions.numbers.exact`): an int when whole, else a Fraction, so
    records and reports read 3 rather than 3.0 and a third stays a third."""
    return number if type(number) is int else exact(number)


def magnitude(number: Number) -> Number:
    """`abs(number)`, an int staying an int in a compiled build (mypyc would read `abs` of an
    int or float as a float)."""
    if isinstance(number, int):
        return abs(number)
    return abs(number)
