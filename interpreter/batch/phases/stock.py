"""The talon as a stock (`talon.to: stock`): it stays face down, and after each trick every
seat, the winner first, draws its top card, while it holds a card for each.

Where it sits: laid by the talon's placing (`tarot.batch.phases.discard.place_talon`) and
drawn from by trick play (`tarot.batch.phases.play`); the scalar engine's is `_draw` in
`tarot.engine.phases.play`, its stock the talon's zone. The stock is kept in the state in
its order, top first (`BatchState.stock`, [hands, cards], -1 past its last card and for
the cards drawn, which leave from the top); the talon's mask loses each card drawn.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.masks import Ints
from tarot.batch.phases.talon_takes import talon_order
from tarot.batch.state import BatchState


def lay(state: BatchState, rows: Ints) -> None:
    """The talon of the hands `rows`, as it lies, made their stock, top first."""
    layout = state.tables.layout
    dealt = talon_order(state, rows)
    lying = layout.contains(state.talon[rows][:, None, :], dealt)
    order = np.argsort(~lying, axis=1, kind="stable")  # the cards lying first, in order
    cards = np.take_along_axis(np.where(lying, dealt, -1), order, axis=1)
    state.stock[rows, : cards.shape[1]] = cards


def left(state: BatchState, rows: Ints) -> Ints:
    """How many cards each hand's stock still holds."""
    return (state.stock[rows] >= 0).sum(axis=1)


def draw(state: BatchState, winner: Ints) -> None:
    """After a trick: each seat, the winner first, draws the top card of its hand's stock,
    in the hands whose stock has a card for each."""
    if not state.stock.shape[1]:
        return
    n, layout = state.players, state.tables.layout
    every = np.arange(state.size)
    rows = every[left(state, every) >= n]
    if not len(rows):
        return
    for i in range(n):
        top = np.argmax(state.stock[rows] >= 0, axis=1)
        cards = state.stock[rows, top]
        bits = layout.from_cards(cards)
        state.hands[rows, (winner[rows] + i) % n] |= bits
        state.talon[rows] &= ~bits
        state.stock[rows, top] = -1
