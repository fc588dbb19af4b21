"""The end of every hand: the Fool's last debts, then the settlement rules paid once all
cards are played.

Where it sits: the last batch phase (`tarot.batch.phases`); the scalar engine's is
`tarot.engine.phases.settle`.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.phases import exchange
from tarot.batch.program import Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, Value, per_row
from tarot.core.ruleset import HAND_SCORE
from tarot.engine.events import AT_SETTLEMENT


def settle(program: Program, state: BatchState, names: dict[str, Value]) -> None:
    """The settlement of every hand of `state`, then each seat's score in rulesets that
    score hands (added to its net, and counted under `HAND_SCORE` for each seat that
    scored, as `measure.hand_summary` counts it)."""
    state.settled = True
    # past the last trick played: the last of the hand, or the one after which play ended
    state.trick_number = min(state.trick_number, state.total_tricks) + 1
    rules = state.ruleset.play.excuse_exchange
    if rules is not None and (state.debtors[:, :1] >= 0).any():
        exchange.pay_debts(program, state, names, at_the_end=True)
        if rules.unpaid == "fool_surrendered":
            exchange.surrender(state)
    ctx = Ctx(state, np.arange(state.size), names)
    with program.compiler.remembering():  # the cards lie still: definitions are worked out once
        program.fire_rules(state, program.settlement, ctx, AT_SETTLEMENT)
    if program.hand_score is not None:
        _score(program.hand_score, state, names)


def _score(rule: Node, state: BatchState, names: dict[str, Value]) -> None:
    rows = np.arange(state.size)
    scores = np.stack(
        [
            per_row(
                rule.fn(Ctx(state, rows, {**names, "player": np.full(state.size, seat)})),
                state.size,
            )
            for seat in range(state.players)
        ],
        axis=1,
    )
    state.net += scores
    key = state.rule_keys[HAND_SCORE]
    state.fired[:, key] += (scores != 0).sum(axis=1).astype(state.fired.dtype)
    state.paid[:, key] += np.abs(scores).sum(axis=1)
