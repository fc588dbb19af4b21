"""The 51 cards of the Cego pack as the text describes them: trick rank within a suit, the
trumps by number with the Fool above the 21, and each card's points counted in threes. Card
ids are the record's (`hearts-K`, `spades-10`, `trump-21`, `fool`)."""

from __future__ import annotations

TRUMP = "trump"
SUITS = ("hearts", "diamonds", "spades", "clubs")
COURTS = {"K": 4, "Q": 3, "C": 2, "J": 1}  # King over Queen over Cavalier over Jack
# the text's table: each card's points as counted in threes (a batch of three adds 1)
TABLE = {"K": 4, "Q": 3, "C": 2, "J": 1}
HONOURS = ("fool", "trump-21", "trump-1")


def pack() -> list[str]:
    """Every card: 7-10 and the courts of hearts, 8-10 and the courts of the others, the 21
    trumps and the Fool."""
    cards = []
    for name in SUITS:
        low = 7 if name == "hearts" else 8
        cards += [f"{name}-{face}" for face in ("K", "Q", "C", "J")]
        cards += [f"{name}-{number}" for number in range(10, low - 1, -1)]
    return cards + [f"trump-{n}" for n in range(1, 22)] + ["fool"]


def suit(card: str) -> str:
    """The card's suit; the trumps and the Fool are the suit `trump`."""
    return TRUMP if card == "fool" else card.split("-")[0]


def is_pip(card: str) -> bool:
    return suit(card) != TRUMP and card.split("-")[1].isdigit()


def rank(card: str) -> int:
    """Trick rank within the card's suit: trumps by number, the Fool 22; courts above the
    pips, 10 the highest pip."""
    if card == "fool":
        return 22
    kind, face = card.split("-")
    if kind == TRUMP:
        return int(face)
    if face in COURTS:
        return 100 + COURTS[face]
    return int(face)


def table_points(card: str) -> int:
    """The text's table: honours and Kings 4, Queens 3, Cavaliers 2, Jacks 1, others 0."""
    if card in HONOURS:
        return 4
    face = card.split("-")[1]
    return TABLE.get(face, 0)


def counted(pile: list[str]) -> int:
    """A pile of whole batches of three: its table points and one for each batch."""
    assert len(pile) % 3 == 0, pile
    return sum(table_points(card) for card in pile) + len(pile) // 3
