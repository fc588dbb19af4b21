"""The `runs(C, n)` fact: the cards of a group that lie in a run of at least n cards next to
each other in rank, the trumps by number and each suit in its own order.

Where it sits: a game fact of the expression language, registered in `contexts.FACTS` and
called by compiled expressions with the hand's state; the places come from the deck
(`Deck.run_places`), worked out once per pack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tarot.engine.state import HandState


def cards_in_runs(
    places: Sequence[tuple[str, int] | None], cards: Sequence[int], length: int
) -> tuple[int, ...]:
    """The cards of `cards` (in their order, repeats kept) whose place lies in a stretch of
    at least `length` consecutive places of one group (the trumps, or one suit) that the
    cards of `cards` fill; a card with no place (the Excuse) is in no run."""
    by_group: dict[str, set[int]] = {}
    for card in cards:
        place = places[card]
        if place is not None:
            by_group.setdefault(place[0], set()).add(place[1])
    in_run: set[tuple[str, int]] = set()
    for group, numbers in by_group.items():
        for number in numbers:
            if number - 1 in numbers:
                continue  # not the start of a stretch
            end = number
            while end + 1 in numbers:
                end += 1
            if end - number + 1 >= length:
                in_run.update((group, n) for n in range(number, end + 1))
    return tuple(card for card in cards if places[card] in in_run)


def runs(state: HandState, cards: tuple[int, ...], length: float) -> tuple[int, ...]:
    """The fact `runs(C, n)`: the cards of C in a run of at least n (n below 1 counts as 1)."""
    return cards_in_runs(state.ruleset.deck.run_places, cards, max(1, int(length)))
