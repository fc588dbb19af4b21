"""The talon given to the trick winners (`talon.to: trick_winners`): it stays on the table,
and after each trick its winner takes its top cards (`per_trick`, one unless the ruleset
says more) onto his tricks, face up, while any are left.

Where it sits: laid by the talon's placing (`tarot.batch.phases.discard.place_talon`) and
taken from at the end of each trick (`tarot.batch.phases.play`); the scalar engine's is
`give_to_winner` in `tarot.engine.phases.talon`. The talon keeps the order it was dealt in
(`talon_takes.talon_order`); its mask loses each card taken, and `BatchState.per_trick`
holds how many each trick's winner takes (0: the talon went elsewhere).
"""

from __future__ import annotations

import numpy as np

from tarot.batch.masks import Ints, any_card
from tarot.batch.phases.talon_takes import talon_order
from tarot.batch.state import BatchState


def lay(state: BatchState, rows: Ints, per_trick: int) -> None:
    """The talon of the hands `rows` left on the table for the trick winners."""
    state.per_trick[rows] = per_trick


def give(state: BatchState, winner: Ints) -> None:
    """After a trick: its winner takes the talon's top cards, in the hands that give them."""
    if state.per_trick.shape[:1] != (state.size,) or not state.per_trick.any():
        return
    every = np.arange(state.size)
    rows = every[(state.per_trick > 0) & any_card(state.talon)]
    if not len(rows):
        return
    layout = state.tables.layout
    cards = talon_order(state, rows)
    lying = layout.contains(state.talon[rows][:, None, :], cards)
    top = lying & (np.cumsum(lying, axis=1) <= state.per_trick[rows][:, None])
    taken = np.bitwise_or.reduce(layout.from_cards(np.where(top, cards, -1)), axis=1)
    state.won[rows, winner[rows]] |= taken
    state.talon[rows] &= ~taken
