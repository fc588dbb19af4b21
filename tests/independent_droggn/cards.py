"""The 66 cards of Droggn for the checker: suit, rank, tarock number, the Gstiess, their
order within a suit and their card points counted in threes, built from a game record's
`deck` (never from the ruleset)."""

from __future__ import annotations

from dataclasses import dataclass

RED_SUITS = {"hearts", "diamonds"}
# in the red suits the Ace (1) is the highest pip and the 7 the lowest
COURT_ORDER = {"Jack": 20, "Cavalier": 21, "Queen": 22, "King": 23}
COURT_POINTS = {"King": 5, "Queen": 4, "Cavalier": 3, "Jack": 2}
TRULL_POINTS = 5
PAGAT, MOND = 1, 21


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
    def is_trull(self) -> bool:
        return self.fool or self.trump in (PAGAT, MOND)

    @property
    def is_king(self) -> bool:
        return self.rank == "King"

    @property
    def order_in_suit(self) -> int:
        if isinstance(self.rank, str):
            return COURT_ORDER[self.rank]
        assert isinstance(self.rank, int)
        return -self.rank if self.suit in RED_SUITS else self.rank

    @property
    def points(self) -> int:
        if self.is_trull:
            return TRULL_POINTS
        if isinstance(self.rank, str):
            return COURT_POINTS[self.rank]
        return 1

    @property
    def one_point(self) -> bool:
        """A card that may be given for the Gstiess: a pip, or a tarock other than the trull."""
        return self.points == 1


def cards_of(deck: list[dict]) -> dict[str, Card]:
    return {
        e["id"]: Card(e["id"], e.get("suit"), e.get("rank"), e.get("trump"), bool(e.get("fool")))
        for e in deck
    }


def counted_in_threes(pile: list[Card]) -> int:
    """Each counting card its value less one, one point for each whole three cards, and one
    for two cards left over (one card left over adds nothing)."""
    whole, left = divmod(len(pile), 3)
    return sum(card.points - 1 for card in pile) + whole + (1 if left == 2 else 0)
