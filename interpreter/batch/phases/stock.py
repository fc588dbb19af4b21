"""The talon as a stock (`talon.to: stock`): it stays face down, and after each trick every
seat, the winner first, draws its top card, while it holds a card for each; or the talon
given to the trick winners (`talon.to: trick_winners`): after each trick its top cards
(`per_trick` of them) go to the winner's tricks, while any are left.

Where it sits: laid by the talon's placing (`tarot.batch.phases.discard.place_talon`) and
drawn from by trick play (`tarot.batch.phases.play`); the scalar engine's are `_draw` in
`tarot.engine.phases.play` and `give_to_winner` in `tarot.engine.phases.talon`, the cards
the talon's zone. Either is kept in the state in its order, top first (`BatchState.stock`,
[hands, cards], -1 past its last card and for the cards gone, which leave from the top);
the talon's mask loses each card drawn or given.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.masks import Ints
from tarot.batch.phases.talon_takes import talon_order
from tarot.batch.program import Program
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


def _given(program: Program, state: BatchState, rows: Ints) -> Ints:
    """How many top cards of its talon each hand gives each trick's winner (0: none, or a
    stock drawn from)."""
    talons = program.hand.talons
    per_trick = np.array(
        [0 if t is None or t.to != "trick_winners" else t.per_trick for t in talons],
        dtype=np.int64,
    )
    if state.ruleset.bidding is None:
        return np.full(len(rows), per_trick[0])
    contract = state.contract[rows]
    return np.where(contract >= 0, per_trick[np.maximum(contract, 0)], 0)


def drawn_left(program: Program, state: BatchState, rows: Ints) -> Ints:
    """How many cards each hand's stock still holds to be drawn by the seats (none of a
    talon given to the trick winners)."""
    return np.where(_given(program, state, rows) > 0, 0, left(state, rows))


def after_trick(program: Program, state: BatchState, winner: Ints) -> None:
    """After a trick: the talon's top cards to the winner where the talon goes to the trick
    winners; a card drawn by each seat from the others' stock."""
    if not state.stock.shape[1]:
        return
    every = np.arange(state.size)
    given = _given(program, state, every)
    if given.any():
        _give(state, winner, given)
    draw(state, winner, given == 0)


def _give(state: BatchState, winner: Ints, given: Ints) -> None:
    layout = state.tables.layout
    for k in range(int(given.max())):
        rows = np.flatnonzero((given > k) & (left(state, np.arange(state.size)) > 0))
        if not len(rows):
            return
        top = np.argmax(state.stock[rows] >= 0, axis=1)
        bits = layout.from_cards(state.stock[rows, top])
        state.won[rows, winner[rows]] |= bits
        state.talon[rows] &= ~bits
        state.stock[rows, top] = -1


def draw(state: BatchState, winner: Ints, drawing: np.ndarray | None = None) -> None:
    """After a trick: each seat, the winner first, draws the top card of its hand's stock,
    in the hands whose stock has a card for each (of those `drawing`, when given)."""
    if not state.stock.shape[1]:
        return
    layout, n = state.tables.layout, state.tables.seating.in_hand
    every = np.arange(state.size)
    ready = left(state, every) >= n
    rows = every[ready if drawing is None else ready & drawing]
    if not len(rows):
        return
    order = state.round_from(rows, winner[rows])  # the seats in play, the winner first
    for i in range(n):
        top = np.argmax(state.stock[rows] >= 0, axis=1)
        cards = state.stock[rows, top]
        bits = layout.from_cards(cards)
        state.hands[rows, order[:, i]] |= bits
        state.talon[rows] &= ~bits
        state.stock[rows, top] = -1
