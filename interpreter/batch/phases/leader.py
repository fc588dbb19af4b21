"""Who leads to the first trick when the play rules name him by an expression
(`play.first_leader`), for every hand of a batch at once.

Where it sits: run by the batch's runner (`tarot.batch.run`) on reaching the step of the
flow that settles the hand's play rules (`FlowStep.settles_play`), as the scalar engine's
`tarot.engine.phases.play.settle_rules` does; the expression is compiled with the program
(`Program.first_leader`).
"""

from __future__ import annotations

import numpy as np

from tarot.batch.program import Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, seat_mask
from tarot.expressions import EvaluationError


def settle_leader(program: Program, state: BatchState) -> None:
    """The first leader of every hand still on, where the play rules give him by a rule."""
    rule = program.first_leader
    if rule is None:
        return
    rows = np.flatnonzero(~state.thrown)
    if not len(rows):
        return
    chosen = seat_mask(rule.fn(Ctx(state, rows, state.names(rows))), len(rows), state.players)
    if not chosen.any(axis=1).all():
        raise EvaluationError("`first_leader` selects nobody; it must give a seat")
    state.leader[rows] = np.argmax(chosen, axis=1)
