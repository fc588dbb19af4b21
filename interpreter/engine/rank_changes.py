"""Cards that rank otherwise for one hand: the play rules' `rank_changes`, applied to the pack
as the hand's tricks play it.

Where it sits: under trick play (`engine.phases.play`), once when play begins. The trick rules
read every card's suit, strength and trumpness from the hand's own `Pack` (`state.play.
trick_pack`); this module makes that pack's copy with the cards moved, leaving the deck's pack
and its card sets as they are. A card moved among the trumps follows no suit; a card moved
within its suit keeps it (a trump stays a trump). Cards moved by one change keep their order
among themselves, placed above (or below) every other card of the group they join.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tarot.core.cards import TRUMP_SUIT, Pack

#: where a change puts its cards: (among the trumps, above the others)
PLACES = {
    "highest_trump": (True, True),
    "lowest_trump": (True, False),
    "highest_in_suit": (False, True),
    "lowest_in_suit": (False, False),
}


def changed_pack(pack: Pack, changes: Sequence[tuple[Iterable[int], str]]) -> Pack:
    """A copy of `pack` with each change's cards moved to its place, in order."""
    new = Pack(pack)
    suit, strength = list(pack.suit), list(pack.strength)
    trumps, beats_equal = set(pack.trumps), set(pack.beats_equal)
    # trumps played as a plain suit: they are the cards of that suit, and none is a trump
    plain = not pack.trumps and TRUMP_SUIT in pack.suit
    for cards, place in changes:
        to_trumps, above = PLACES[place]
        moved = sorted(set(cards), key=lambda c: (c in trumps, strength[c]))
        if not moved:
            continue
        if to_trumps:
            for card in moved:
                if plain:
                    suit[card] = TRUMP_SUIT
                else:
                    trumps.add(card)
                    suit[card] = None
        by_group: dict[object, list[int]] = {}
        for card in moved:  # in one suit or among the trumps, each group apart
            by_group.setdefault(_group(card, suit, trumps), []).append(card)
        for key, members in by_group.items():
            others = [
                strength[c]
                for c in range(len(pack))
                if c not in members and _group(c, suit, trumps) == key
            ]
            start = max(others, default=0) + 1 if above else min(others, default=1) - len(members)
            for offset, card in enumerate(members):
                strength[card] = start + offset
                beats_equal.discard(card)  # alone at its new strength
    new.suit, new.strength = tuple(suit), tuple(strength)
    new.trumps, new.beats_equal = frozenset(trumps), frozenset(beats_equal)
    new.fools = pack.fools - trumps
    return new


def _group(card: int, suit: Sequence[str | None], trumps: set[int]) -> object:
    """The group a card plays in: the trumps (True), or its suit."""
    return True if card in trumps else suit[card]
