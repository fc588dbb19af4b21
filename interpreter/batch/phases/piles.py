"""Piles dealt face down on the table (`deal.packets[].piles`): each seat's piles, their top
card face up and playable beside its hand, the card beneath turned up when the top is played.

Where it sits: under the batch deal (`tarot.batch.phases.deal`), which lays the piles, and
trick play (`tarot.batch.phases.play`), which plays from them; the scalar engine keeps them
in `Zones.piles` (`tarot.engine.phases.deal`, `HandState.playable`). A pile is kept in the
state as the cards of its places, bottom first ([hands, seats, piles, depth], -1 where there
is no card): its top is its last card.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.masks import Ints, Masks
from tarot.batch.seating import dealt_by
from tarot.batch.state import BatchState
from tarot.core.ruleset import Ruleset


def pile_places(ruleset: Ruleset) -> Ints:
    """For each dealer, the places of the pack laid on each seat's piles, bottom first:
    [dealers, seats, piles, depth], -1 past a pile's last."""
    n = ruleset.players
    dealt = [dealt_by(ruleset, dealer).piles for dealer in range(n)]
    count = max((len(piles) for by_seat in dealt for piles in by_seat), default=0)
    depth = max((len(p) for by_seat in dealt for piles in by_seat for p in piles), default=0)
    table = np.full((n, n, count, depth), -1, dtype=np.int64)
    for dealer, by_seat in enumerate(dealt):
        for seat, piles in enumerate(by_seat):
            for k, pile in enumerate(piles):
                table[dealer, seat, k, : len(pile)] = pile
    return table


def lay(ruleset: Ruleset, packs: Ints, dealer: Ints, start: int, end: int) -> Ints:
    """The cards the places start..end-1 of each hand's pack lay on the piles:
    [hands, seats, piles, depth], -1 where no card of those places lies."""
    places = pile_places(ruleset)[dealer]  # [hands, seats, piles, depth]
    hands = len(packs)
    flat = places.reshape(hands, -1)
    cards = np.take_along_axis(packs, np.maximum(flat, 0), axis=1).reshape(places.shape)
    return np.where((places >= start) & (places < end), cards, -1)


def tops(state: BatchState, rows: Ints, seats: Ints) -> Ints:
    """Each seat's pile tops: [rows, piles], -1 for a pile with no card left."""
    piles = state.piles[rows, seats]  # [rows, piles, depth]
    if not piles.shape[-1]:
        return np.full(piles.shape[:2], -1, dtype=np.int64)
    lying = piles >= 0
    depth = piles.shape[-1]
    top = depth - 1 - np.argmax(lying[..., ::-1], axis=-1)
    cards = np.take_along_axis(piles, top[..., None], axis=-1)[..., 0]
    return np.where(lying.any(axis=-1), cards, -1)


def playable(state: BatchState, rows: Ints, seats: Ints) -> Masks:
    """What each seat may play from: its hand and the face-up tops of its piles."""
    hand = state.hands[rows, seats]
    if not state.piles.shape[2]:
        return hand
    faces = state.tables.layout.from_cards(tops(state, rows, seats))
    return hand | np.bitwise_or.reduce(faces, axis=1)


def take_top(state: BatchState, rows: Ints, seats: Ints, cards: Ints) -> None:
    """The cards played that are a pile's top leave it (the card beneath is now its top)."""
    if not state.piles.shape[2]:
        return
    piles = state.piles[rows, seats]  # [rows, piles, depth]
    on_top = (piles == cards[:, None, None]) & (cards >= 0)[:, None, None]
    state.piles[rows, seats] = np.where(on_top, -1, piles)


def cards_on_piles(state: BatchState, rows: Ints, seats: Ints) -> Ints:
    """How many cards lie on each seat's piles."""
    return (state.piles[rows, seats] >= 0).sum(axis=(1, 2))
