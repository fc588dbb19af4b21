"""The 78 cards of 002 as the checker reads them from a record's deck: suit or trump, rank in
play and the scoring values of rules-facts (002's own table is lost)."""

from __future__ import annotations

from dataclasses import dataclass

FOOL = "fool"
TRUMPS = "trumps"
COURT_VALUES = {"King": 4, "Queen": 3, "Cavalier": 2, "Jack": 1}
COURT_ORDER = {"Jack": 11, "Cavalier": 12, "Queen": 13, "King": 14}
HONOUR_VALUE = 4  # the World (21) and the Magician (1)
FOOL_VALUE = 5


@dataclass(frozen=True)
class Card:
    id: str
    suit: str  # a suit's name, TRUMPS, or FOOL
    order: int  # higher beats lower within the suit (pips 1-10, Jack to King 11-14)
    value: int  # scoring value, beyond the one point every card counts


def card_of(entry: dict) -> Card:
    """A record's deck entry as a card."""
    if entry.get("fool"):
        return Card(entry["id"], FOOL, 0, FOOL_VALUE)
    if "trump" in entry:
        number = entry["trump"]
        return Card(entry["id"], TRUMPS, number, HONOUR_VALUE if number in (1, 21) else 0)
    rank = entry["rank"]
    if isinstance(rank, int):
        return Card(entry["id"], entry["suit"], rank, 0)
    return Card(entry["id"], entry["suit"], COURT_ORDER[rank], COURT_VALUES[rank])


def cards_of(deck: list[dict]) -> dict[str, Card]:
    """Each card of a record's deck by its id."""
    return {entry["id"]: card_of(entry) for entry in deck}


def check_pack(cards: dict[str, Card]) -> None:
    """002's pack: four suits of fourteen, 21 trumps and the Fool."""
    suits: dict[str, int] = {}
    for card in cards.values():
        suits[card.suit] = suits.get(card.suit, 0) + 1
    trumps, fools = suits.pop(TRUMPS, 0), suits.pop(FOOL, 0)
    if (trumps, fools, sorted(suits.values())) != (21, 1, [14] * 4):
        raise ValueError(f"not a 78-card Tarot pack: {trumps} trumps, {fools} fool, {suits}")
