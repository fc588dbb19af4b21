"""Who leads to the first trick under the hand's play rules (the ruleset's, or its
contract's own), for every hand of a batch at once.

Where it sits: run by the batch's runner (`tarot.batch.run`) on reaching the step of the
flow that settles the hand's play rules (`FlowStep.settles_play`), as the scalar engine's
`tarot.engine.phases.play.settle_rules` does: a leader given by an expression
(`play.first_leader`, compiled with the program's `plays`), else the taker where the rules
say so and there is one, else, under a contract's own rules, the dealer or the seat after
him; under the ruleset's own rules the leader set at the deal (and by the auction) stays.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.program import Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, seat_mask
from tarot.expressions import EvaluationError


def settle_leader(program: Program, state: BatchState) -> None:
    """The first leader of every hand still on, by the play rules it plays under."""
    plays = program.plays
    if len(plays.plays) == 1 and plays.own.leader is None:
        return  # the leader set at the deal and by the auction stands
    going = np.flatnonzero(~state.thrown)
    for play, group in plays.groups(state.contract[going]):
        rows = going[group]
        rules = play.rules
        if play.leader is not None:
            chosen = seat_mask(
                play.leader.fn(Ctx(state, rows, state.names(rows))), len(rows), state.players
            )
            if not chosen.any(axis=1).all():
                raise EvaluationError("`first_leader` selects nobody; it must give a seat")
            state.leader[rows] = np.argmax(chosen, axis=1)
            continue
        taker = state.taker[rows]
        by_taker = (taker >= 0) & (rules.first_leader == "taker")
        if play.own:
            state.leader[rows] = np.where(by_taker, taker, state.leader[rows])
            continue
        dealer = state.dealer[rows]
        otherwise = state.tables.seating.first_leader(dealer, rules.first_leader)
        state.leader[rows] = np.where(by_taker, taker, otherwise)
