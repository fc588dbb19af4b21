"""The end of every hand: the settlement rules paid once all cards are played.

Where it sits: the last batch phase (`interpreter.batch.phases`); the scalar engine's is
`interpreter.engine.phases.settle`.
"""

from __future__ import annotations

import numpy as np

from interpreter.batch.program import Program
from interpreter.batch.state import BatchState
from interpreter.batch.values import Ctx
from interpreter.engine.events import AT_SETTLEMENT


def settle(program: Program, state: BatchState) -> None:
    state.trick_number = state.total_tricks + 1
    ctx = Ctx(state, np.arange(state.size), {"dealer": state.dealer})
    program.fire_rules(state, program.settlement, ctx, AT_SETTLEMENT)
