"""The discard: each seat in dealing order lays its cards away one at a time, none the
ruleset protects unless only protected cards are left, with the payments for each.

Where it sits: a batch phase (`interpreter.batch.phases`) after the deal; the scalar
engine's is `interpreter.engine.phases.talon` (without a talon: the batch runs none).
"""

from __future__ import annotations

import numpy as np

from interpreter.batch.masks import Masks, any_card
from interpreter.batch.players import choose_card
from interpreter.batch.program import Program
from interpreter.batch.state import BatchState
from interpreter.batch.values import Ctx
from interpreter.engine.events import AT_DISCARD


def allowed(program: Program, state: BatchState, ctx: Ctx, hand: Masks) -> Masks:
    """The cards each hand's seat may lay away (`discard_choices`)."""
    choices = hand
    for rule in (program.discard_never, program.discard_forbidden):
        if rule is None:
            continue
        kept = choices & ~rule(ctx)
        choices = np.where(any_card(kept)[:, None], kept, choices)
    return choices


def discard(program: Program, state: BatchState) -> None:
    n, rows = state.players, np.arange(state.size)
    dealer_count, others_count = state.ruleset.discard_counts
    layout = state.tables.layout
    for position in range(n):
        seats = (state.dealer + 1 + position) % n
        times = dealer_count if position == n - 1 else others_count
        for time in range(times):
            base = Ctx(state, rows, {"dealer": state.dealer, "player": seats})
            hand = state.hands[rows, seats]
            cards, counts = choose_card(
                state, rows, seats, allowed(program, state, base, hand), "discard"
            )
            bits = layout.from_cards(cards)
            state.hands[rows, seats] &= ~bits
            state.discards[rows, seats] |= bits
            program.fire(state, "discard", base.with_vars(card=cards), AT_DISCARD)
            if time == times - 1:
                program.fire(state, "discards_done", base, AT_DISCARD)
            state.decided(rows, counts)
