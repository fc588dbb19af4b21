"""The cards of source 003 for the independent checker: what a card is, how it ranks in its
suit and what it is worth in card points. Built from a game record's `deck`, so the checker
never reads the ruleset's deck."""

from __future__ import annotations

from dataclasses import dataclass

COURT_RANKS = {"Jack": 11, "Cavalier": 12, "Queen": 13, "King": 14}
COURT_POINTS = {"King": 4.5, "Queen": 3.5, "Cavalier": 2.5, "Jack": 1.5}
BOUT_POINTS = 4.5
LOW_CARD_POINTS = 0.5


@dataclass(frozen=True)
class Card:
    """One card: a suit card (suit and rank), a trump (number) or the Excuse."""

    id: str
    suit: str | None = None
    rank: str | int | None = None
    trump: int | None = None
    fool: bool = False

    @property
    def is_trump(self) -> bool:
        return self.trump is not None

    @property
    def is_king(self) -> bool:
        return self.rank == "King"

    @property
    def is_queen(self) -> bool:
        return self.rank == "Queen"

    @property
    def is_bout(self) -> bool:
        """The 1 and 21 of trumps and the Excuse (003: "bouts")."""
        return self.fool or self.trump in (1, 21)

    @property
    def order_in_suit(self) -> int:
        """Rank within a suit, 1 (low) to 14 (King)."""
        if isinstance(self.rank, int):
            return self.rank
        return COURT_RANKS[str(self.rank)]

    @property
    def points(self) -> float:
        """003's card points: bouts and Kings 4.5, Queens 3.5, Knights 2.5, Jacks 1.5, the
        rest 0.5."""
        if self.is_bout:
            return BOUT_POINTS
        if isinstance(self.rank, str):
            return COURT_POINTS[self.rank]
        return LOW_CARD_POINTS


def cards_of(deck: list[dict]) -> dict[str, Card]:
    """The record's deck as cards by id."""
    cards = {}
    for entry in deck:
        card = Card(
            id=entry["id"],
            suit=entry.get("suit"),
            rank=entry.get("rank"),
            trump=entry.get("trump"),
            fool=bool(entry.get("fool", False)),
        )
        cards[card.id] = card
    return cards


def points_of(cards: list[Card]) -> float:
    return sum(card.points for card in cards)
