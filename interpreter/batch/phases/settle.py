"""The end of every hand: the Fool's last debts, then the settlement rules paid once all
cards are played.

Where it sits: the last batch phase (`tarot.batch.phases`); the scalar engine's is
`tarot.engine.phases.settle`.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.phases import exchange
from tarot.batch.program import Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, Value
from tarot.engine.events import AT_SETTLEMENT


def settle(program: Program, state: BatchState, names: dict[str, Value]) -> None:
    state.trick_number = state.total_tricks + 1
    rules = state.ruleset.play.excuse_exchange
    if rules is not None and (state.debtors[:, :1] >= 0).any():
        exchange.pay_debts(program, state, names, at_the_end=True)
        if rules.unpaid == "fool_surrendered":
            exchange.surrender(state)
    ctx = Ctx(state, np.arange(state.size), names)
    program.fire_rules(state, program.settlement, ctx, AT_SETTLEMENT)
