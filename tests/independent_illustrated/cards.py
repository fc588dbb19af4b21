"""The 54 cards as the text and its Basic Concepts describe them: trick rank within a suit,
the trumps by number with the Fool above the 21, each card's value, and the count in batches
of three. Card ids are the record's (`hearts-K`, `spades-10`, `trump-21`, `fool`)."""

from __future__ import annotations

from fractions import Fraction

TRUMP = "trump"
COURTS = {"K": 4, "Q": 3, "C": 2, "J": 1}  # King over Queen over Cavalier over Jack
TRULL = ("fool", "trump-21", "trump-1")
KINGS = ("hearts-K", "diamonds-K", "spades-K", "clubs-K")


def suit(card: str) -> str:
    """The card's suit; the trumps and the Fool are the suit `trump`."""
    return TRUMP if card == "fool" else card.split("-")[0]


def rank(card: str) -> int:
    """Trick rank within the card's suit: trumps by number, the Fool 22; courts above the
    pips; red pips 1-2-3-4 from the top, black 10-9-8-7."""
    if card == "fool":
        return 22
    kind, face = card.split("-")
    if kind == TRUMP:
        return int(face)
    if face in COURTS:
        return 100 + COURTS[face]
    number = int(face)
    return 10 - number if kind in ("hearts", "diamonds") else number


def value(card: str) -> int:
    """The text's table: the 21, the Pagat, the Fool and Kings 4, Queens 3, Cavaliers 2,
    Jacks 1, every other card 0."""
    if card in TRULL:
        return 4
    face = card.split("-")[1]
    return COURTS.get(face, 0)


def counted(pile: list[str]) -> int:
    """A pile's card points (Basic Concepts, Counting Points): the values added up, plus a
    third of a point per card, rounded to the nearest whole number."""
    exact = sum(value(c) for c in pile) + Fraction(len(pile), 3)
    return int(exact + Fraction(1, 2)) if exact >= 0 else -int(-exact + Fraction(1, 2))
