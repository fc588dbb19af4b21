"""The cards of source 004 for the Jeu de Tarot checker: suit, rank, trump number, the Fool,
and 004's card points, built from a game record's `deck` (never from the ruleset)."""

from __future__ import annotations

from dataclasses import dataclass

COURT_ORDER = {"Jack": 11, "Cavalier": 12, "Queen": 13, "King": 14}
# 004: Honours and Kings 5, Queens 4, Cavaliers 3, Jacks 2, all others 1.
COURT_POINTS = {"King": 5, "Queen": 4, "Cavalier": 3, "Jack": 2}
HONOUR_POINTS = 5
OTHER_POINTS = 1
MAGICIAN, WORLD = 1, 21


@dataclass(frozen=True)
class Card:
    id: str
    suit: str | None = None
    rank: str | int | None = None
    trump: int | None = None
    fool: bool = False

    @property
    def is_trump(self) -> bool:
        return self.trump is not None

    @property
    def is_honour(self) -> bool:
        """004's Honours: the Magician, the World and the Fool."""
        return self.fool or self.trump in (MAGICIAN, WORLD)

    @property
    def order_in_suit(self) -> int:
        return self.rank if isinstance(self.rank, int) else COURT_ORDER[str(self.rank)]

    @property
    def points(self) -> int:
        if self.is_honour:
            return HONOUR_POINTS
        if isinstance(self.rank, str):
            return COURT_POINTS[self.rank]
        return OTHER_POINTS


def cards_of(deck: list[dict]) -> dict[str, Card]:
    return {
        e["id"]: Card(e["id"], e.get("suit"), e.get("rank"), e.get("trump"), bool(e.get("fool")))
        for e in deck
    }


def counted_in_pairs(pile: list[Card]) -> float:
    """004 counts cards in pairs, one point off each pair (91 in the pack); an odd card left
    over loses half a point, as if paired with half a card."""
    return sum(card.points for card in pile) - len(pile) / 2
