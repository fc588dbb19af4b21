"""Sides from an expression: the seats that share each seat's tricks, worked out once a hand.

Where it sits: under trick play (`tarot.engine.phases.play`), which settles the hand's
play rules once the auction and the call are over; when those rules give `sides`, the state
keeps the table made here and `HandState.side_of` reads it (the Excuse exchange, `side()`,
`side_points()` and the measures of a simulation follow). The expression is worked out for
each seat with the seat standing for the rule's `of_seat` name; the answers must split the
table into sides: each seat in its own side, and every seat of a side giving the same side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tarot.engine.values import selected_seats
from tarot.expressions import EvaluationError

if TYPE_CHECKING:
    from tarot.core.ruleset import SideRule
    from tarot.engine.state import HandState


def side_table(state: HandState, rule: SideRule) -> tuple[tuple[int, ...], ...]:
    """Each seat's side, in seat order within each side; an EvaluationError naming the rule
    when the answers do not split the seats into sides."""
    players, out = state.ruleset.players, state.seating.out
    table = tuple(
        (seat,)  # a seat sitting the hand out is on no side but its own
        if seat in out
        else tuple(sorted(set(selected_seats(state.evaluate(rule.value, {rule.seat: seat})))))
        for seat in range(players)
    )
    for seat, side in enumerate(table):
        problem = None
        if seat not in side:
            problem = f"seat {seat}'s side {list(side)} does not hold seat {seat}"
        else:
            other = next((s for s in side if table[s] != side), None)
            if other is not None:
                problem = (
                    f"seat {seat}'s side is {list(side)} but seat {other}'s is"
                    f" {list(table[other])}: every seat of a side must give the same side"
                )
        if problem is not None:
            error = EvaluationError(f"`sides` does not split the seats into sides: {problem}")
            error.where = getattr(rule.value, "where", "")
            raise state._reported(error)
    return table
