"""The pack: builds the cards a ruleset's `deck` section describes, and its named card sets.

Sits after loading and before the engine: `build_deck` turns the (already schema-checked)
`deck` mapping into a `Deck` of `Card`s indexed 0..n-1. At run time cards are those indexes;
the deck's `Pack` keeps, beside the cards, the per-card tables the trick rules read on every
decision (which cards are trumps and Fools, each card's suit and strength).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

COURT_LETTERS = {"King": "K", "Queen": "Q", "Cavalier": "C", "Jack": "J"}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a suit card (suit and rank), a trump (its number) or the Fool."""

    index: int
    id: str
    suit: str | None = None
    rank: str | int | None = None
    trump: int | None = None
    fool: bool = False
    strength: int = 0  # rank within its suit, or the trump's number; higher beats lower

    @property
    def is_trump(self) -> bool:
        return self.trump is not None

    def as_record(self) -> dict:
        """The card as the game record describes it."""
        if self.fool:
            return {"id": self.id, "fool": True}
        if self.trump is not None:
            return {"id": self.id, "trump": self.trump}
        return {"id": self.id, "suit": self.suit, "rank": self.rank}

    def label(self) -> str:
        """A short readable name, e.g. 'King of cups', 'trump XXI', 'the Fool'."""
        if self.fool:
            return "the Fool"
        if self.trump is not None:
            return f"trump {roman(self.trump)}"
        return f"{self.rank} of {self.suit}"


class Pack(list[Card]):
    """The cards in index order, with tables by card index for the hot paths of play."""

    def __init__(self, cards: Sequence[Card]) -> None:
        super().__init__(cards)
        self.trumps = frozenset(card.index for card in cards if card.trump is not None)
        self.fools = frozenset(card.index for card in cards if card.fool)
        self.suit = tuple(card.suit for card in cards)
        self.strength = tuple(card.strength for card in cards)
        self.ids = tuple(card.id for card in cards)

    @staticmethod
    def of(cards: Sequence[Card]) -> Pack:
        """`cards` with their tables (a deck's own cards already have them)."""
        return cards if isinstance(cards, Pack) else Pack(cards)


@dataclass
class Deck:
    cards: Pack
    suits: list[str]
    sets: dict[str, frozenset[int]] = field(default_factory=dict)
    by_id: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.cards)

    @cached_property
    def fools(self) -> frozenset[int]:
        """The Fool (every card marked as one): the cards that play as excuses by default."""
        return frozenset(card.index for card in self.cards if card.fool)


def roman(number: int) -> str:
    numerals = [(10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    text = ""
    for value, letters in numerals:
        while number >= value:
            text += letters
            number -= value
    return text


def _full_pack(spec: Mapping) -> list[Card]:
    cards: list[Card] = []
    courts = list(spec.get("courts", []))
    pips = int(spec.get("pips", 0))
    for suit in spec.get("suits", []):
        name = suit["name"]
        for position, court in enumerate(courts):
            strength = 100 - position
            card_id = f"{name}-{COURT_LETTERS.get(court, court)}"
            cards.append(Card(len(cards), card_id, suit=name, rank=court, strength=strength))
        for pip in range(pips, 0, -1):
            strength = pip if suit.get("pips", "natural") == "natural" else pips + 1 - pip
            cards.append(Card(len(cards), f"{name}-{pip}", suit=name, rank=pip, strength=strength))
    for number in range(1, int(spec.get("trumps", 0)) + 1):
        cards.append(Card(len(cards), f"trump-{number}", trump=number, strength=number))
    if spec.get("fool"):
        cards.append(Card(len(cards), "fool", fool=True))
    return cards


def select(
    cards: Sequence[Card], selector: Mapping, sets: Mapping[str, frozenset[str]]
) -> set[str]:
    """The ids of the cards a card selector picks (see the schema's card selector)."""
    if "any_of" in selector:
        chosen: set[str] = set()
        for part in selector["any_of"]:
            chosen |= select(cards, part, sets)
        return chosen
    chosen = {card.id for card in cards}
    if "suits" in selector:
        chosen &= {c.id for c in cards if c.suit in selector["suits"]}
    if "ranks" in selector:
        chosen &= {c.id for c in cards if c.suit is not None and c.rank in selector["ranks"]}
    if "trumps" in selector:
        wanted = selector["trumps"]
        chosen &= {
            c.id for c in cards if c.trump is not None and (wanted == "all" or c.trump in wanted)
        }
    if selector.get("fool"):
        chosen &= {c.id for c in cards if c.fool}
    if "sets" in selector:
        union: set[str] = set()
        for name in selector["sets"]:
            union |= sets.get(name, frozenset())
        chosen &= union
    return chosen


def set_dependencies(selector: Mapping, where: tuple = ()) -> list[tuple[str, tuple]]:
    """Other card sets a selector refers to, each with its path inside the selector."""
    found = [(name, where + ("sets", i)) for i, name in enumerate(selector.get("sets", []))]
    for i, part in enumerate(selector.get("any_of", [])):
        found += set_dependencies(part, where + ("any_of", i))
    return found


def build_deck(spec: Mapping, set_order: Sequence[str]) -> Deck:
    """The pack after removals, with named sets built in `set_order` (dependencies first)."""
    full = _full_pack(spec)
    removed: set[str] = set()
    for selector in spec.get("removed", []):
        removed |= select(full, selector, {})
    kept = [card for card in full if card.id not in removed]
    cards = [Card(i, c.id, c.suit, c.rank, c.trump, c.fool, c.strength) for i, c in enumerate(kept)]
    by_id = {card.id: card.index for card in cards}
    named_ids: dict[str, frozenset[str]] = {}
    for name in set_order:
        named_ids[name] = frozenset(select(cards, spec["card_sets"][name], named_ids))
    sets = {name: frozenset(by_id[i] for i in ids) for name, ids in named_ids.items()}
    suits = [suit["name"] for suit in spec.get("suits", [])]
    return Deck(cards=Pack(cards), suits=suits, sets=sets, by_id=by_id)
