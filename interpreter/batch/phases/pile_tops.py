"""Pile tops taken into the hand (`play.pile_tops_to_hand`), for every hand of a batch at once:
each seat's face-up pile tops that the rule's cards hold go into its hand, and the cards
beneath turn up, until none of its piles shows one or they are empty.

Where it sits: called by the batch's trick play (`tarot.batch.phases.play`) when play
begins and once each trick is taken (after its payments, the talon drawn from and the Fool's
debts), before play may end; the piles are those of `tarot.batch.phases.piles`. The scalar
engine's is `tarot.engine.pile_tops.take_pile_tops`: seat by seat in seat order, the rule
worked out again after each round of tops taken (it may read the hand), with the names it
sees there (`player`, an empty `trick`, `trick_number`, `last_trick` false, `leader`). The
cards taken are shown to all, which changes what each seat knows and nothing the batch
reads: the batch keeps no list of them (a hand replayed through the scalar engine shows
them).
"""

from __future__ import annotations

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.masks import Ints
from tarot.batch.phases.piles import tops
from tarot.batch.state import BatchState
from tarot.batch.values import Cards, Ctx


def take_pile_tops(rule: Node, state: BatchState, trick_number: int) -> None:
    """Every seat's pile tops that `rule` names, taken into its hand in every hand of
    `state` (see the module): when play begins (`trick_number` 1) or once trick
    `trick_number` is taken."""
    if not state.piles.shape[2]:
        return
    for seat in range(state.players):
        going = np.flatnonzero((state.piles[:, seat] >= 0).any(axis=(1, 2)))
        while len(going):
            going = _take_round(rule, state, going, seat, trick_number)


def _take_round(rule: Node, state: BatchState, rows: Ints, seat: int, trick_number: int) -> Ints:
    """One round for `seat` in the hands `rows`: every pile top the rule holds into the hand;
    the hands where some top was taken (the rule is worked out again for them)."""
    layout = state.tables.layout
    seats = np.full(len(rows), seat, dtype=np.int64)
    names = {
        **state.names(rows),
        "player": seats,
        "trick": Cards((layout.empty(len(rows)),)),
        "trick_number": trick_number,
        "last_trick": False,
        "leader": state.leader[rows],
    }
    wanted = rule.fn(Ctx(state, rows, names)).union()
    faces = tops(state, rows, seats)  # [rows, piles]
    taken = layout.contains(np.broadcast_to(wanted, (len(rows), layout.words))[:, None, :], faces)
    moving = taken.any(axis=1)
    if not moving.any():
        return rows[:0]
    cards = np.where(taken, faces, -1)
    state.hands[rows, seat] |= np.bitwise_or.reduce(layout.from_cards(cards), axis=1)
    piles = state.piles[rows, seat]  # [rows, piles, depth]
    on_top = (piles == cards[:, :, None]) & (cards >= 0)[:, :, None]
    state.piles[rows, seat] = np.where(on_top, -1, piles)
    return rows[moving]
