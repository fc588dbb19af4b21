"""The 54 cards of the Tarock pack as the text describes them: trick rank within a suit, the
tarots by number with the Sküs above the 21, and each card's points (traditional or
simplified). Card ids are the record's (`hearts-K`, `spades-10`, `trump-21`, `fool` for the
Sküs)."""

from __future__ import annotations

TAROT = "trump"
SKUS = "fool"
PAGAT = "trump-1"
HONNEURS = (SKUS, "trump-21", PAGAT)
KINGS = ("hearts-K", "diamonds-K", "spades-K", "clubs-K")
COURTS = {"K": 4, "Q": 3, "C": 2, "J": 1}  # King over Queen over Knight over Jack
COURT_POINTS = {"K": 5, "Q": 4, "C": 3, "J": 2}


def suit(card: str) -> str:
    """The card's suit; the tarots (and the Sküs) are the suit `trump`."""
    return TAROT if card == SKUS else card.split("-")[0]


def rank(card: str) -> int:
    """Trick rank within the card's suit: tarots by number, the Sküs 22; courts above the
    pips; red pips A-2-3-4 from the top (the Ace highest), black 10-9-8-7."""
    if card == SKUS:
        return 22
    kind, face = card.split("-")
    if kind == TAROT:
        return int(face)
    if face in COURTS:
        return 100 + COURTS[face]
    number = int(face)
    return 10 - number if kind in ("hearts", "diamonds") else number


def points(card: str, simplified: bool = False) -> int:
    """The card's value: honneurs and Kings 5, Queens 4, Knights 3, Jacks 2, any other 1
    (0 in the simplified count)."""
    if card in HONNEURS:
        return 5
    face = card.split("-")[1]
    if face in COURT_POINTS:
        return COURT_POINTS[face]
    return 0 if simplified else 1


def counted(pile: list[str], simplified: bool = False) -> int:
    """A pile's card points: in threes, each group its sum less 2 and one or two cards left
    over their sum less 1; simplified, the values added up."""
    total = sum(points(card, simplified) for card in pile)
    if simplified:
        return total
    whole, left = divmod(len(pile), 3)
    return total - 2 * whole - (1 if left else 0)


def trick_winner(trick: list[tuple[int, str]]) -> int:
    """The seat whose card takes the trick: the highest tarot, else the highest card of the
    suit led."""
    led = suit(trick[0][1])

    def strength(card: str) -> tuple[int, int]:
        if suit(card) == TAROT:
            return (2, rank(card))
        return (1, rank(card)) if suit(card) == led else (0, 0)

    return max(trick, key=lambda played: strength(played[1]))[0]
