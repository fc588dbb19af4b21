"""The deck's tables as arrays: each card's suit, trump flag, strength and value, and every
named card set as a mask.

Where it sits: built once per compiled ruleset (`DeckTables.of`) from its `Deck` and
`Counting`, and read by the batch back end's phases and expressions (`tarot.batch`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tarot.batch.masks import Ints, Layout, Masks
from tarot.batch.seating import SeatingTables, dealt_by
from tarot.core.ruleset import Ruleset

Floats = np.ndarray


@dataclass(frozen=True)
class DeckTables:
    layout: Layout
    suit: Ints  # each card's suit index; -1 for a trump or a Fool
    strength: Ints
    trumps: Masks
    fools: Masks
    suits: Masks  # [suits, words]: the cards of each suit
    # [strength + 1, words]: the trumps that beat a trump of that strength played before them
    # (stronger ones, and equal ones of a group whose last played wins: `Pack.beats_equal`)
    beating_trumps: Masks
    values: Floats  # each card's counting value
    is_trump: np.ndarray  # by card, and False at [-1] (no card)
    is_fool: np.ndarray
    beats_equal: np.ndarray  # by card, and False at [-1]: beats an equal card played before it
    sets: dict[str, Masks]
    # the deal, by dealer and seat: the places of the pack dealt to it in order, -1 past its
    # last ([dealers, seats, places]), and the packet (from 1) each place is in
    places: Ints
    packet_numbers: Ints
    talon_places: Ints  # [dealers, talon cards]: the places of the pack laid in the talon
    seating: SeatingTables  # by dealer: who plays the hand and in what order

    @staticmethod
    def of(ruleset: Ruleset) -> DeckTables:
        deck = ruleset.deck
        cards = deck.cards
        layout = Layout(len(cards))
        seating = SeatingTables.of(ruleset)
        names = {name: i for i, name in enumerate(deck.suits)}
        suit = np.array(
            [
                -1 if c.trump is not None or c.fool or c.suit is None else names[c.suit]
                for c in cards
            ],
            dtype=np.int64,
        )
        strength = np.array([c.strength for c in cards], dtype=np.int64)
        trumps = [c.index for c in cards if c.trump is not None]
        by_card = np.zeros(len(cards) + 1, dtype=np.bool_)
        is_trump, is_fool, beats_equal = by_card.copy(), by_card.copy(), by_card.copy()
        is_trump[trumps] = True
        is_fool[list(deck.fools)] = True
        beats_equal[list(cards.beats_equal)] = True
        top = int(strength.max(initial=0)) + 1
        beating = np.stack(
            [
                layout.of(t for t in trumps if _beats(cards[t].strength, beats_equal[t], s))
                for s in range(top + 1)
            ]
        )
        return DeckTables(
            layout=layout,
            suit=suit,
            strength=strength,
            trumps=layout.of(trumps),
            fools=layout.of(deck.fools),
            suits=np.stack([layout.of(np.flatnonzero(suit == i)) for i in range(len(deck.suits))])
            if deck.suits
            else layout.empty(0),
            beating_trumps=beating,
            values=np.array(ruleset.counting.values, dtype=np.float64),
            is_trump=is_trump,
            is_fool=is_fool,
            beats_equal=beats_equal,
            sets={name: layout.of(members) for name, members in deck.sets.items()},
            **_deal_tables(ruleset),
            seating=seating,
        )


def _beats(strength: int, beats_equal: bool, best: int) -> bool:
    """Whether a trump of `strength` beats one of strength `best` played before it."""
    return strength > best or (beats_equal and strength == best)


def _deal_tables(ruleset: Ruleset) -> dict[str, Ints]:
    """Where each place of the pack goes, for each dealer (`deal_packets` of the places)."""
    n = ruleset.players
    dealt = []
    for dealer in range(n):
        dealt.append(dealt_by(ruleset, dealer))
    width = max(1, max(sum(map(len, d.packets[s])) for d in dealt for s in range(n)))
    places = np.full((n, n, width), -1, dtype=np.int64)
    packets = np.zeros((n, n, width), dtype=np.int64)
    for dealer, deal in enumerate(dealt):
        for seat, packet_list in enumerate(deal.packets):
            flat = [(place, k + 1) for k, packet in enumerate(packet_list) for place in packet]
            for i, (place, k) in enumerate(flat):
                places[dealer, seat, i], packets[dealer, seat, i] = place, k
    talon = np.array([d.talon for d in dealt], dtype=np.int64).reshape(n, -1)
    return {"places": places, "packet_numbers": packets, "talon_places": talon}
