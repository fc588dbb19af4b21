"""The pack: builds the cards a ruleset's `deck` section describes, and its named card sets.

Sits after loading and before the engine: `build_deck` turns the (already schema-checked)
`deck` mapping into a `Deck` of `Card`s indexed 0..n-1. At run time cards are those indexes;
the deck's `Pack` keeps, beside the cards, the per-card tables the trick rules read on every
decision (which cards are trumps and Fools, each card's suit and strength, which cards beat an
equal one played before them). The deck's `trump_order` ranks the trumps: the Fool as the
Excuse or as the highest trump, and groups of trumps of equal rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
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
    beats_equal: bool = False  # beats a card of equal strength played before it

    @property
    def is_trump(self) -> bool:
        return self.trump is not None

    @property
    def is_excuse(self) -> bool:
        """Whether it plays as the Excuse by default: the Fool, unless it ranks as a trump."""
        return self.fool and self.trump is None

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
            return "the Fool"  # also when it ranks as a trump
        if self.trump is not None:
            return f"trump {roman(self.trump)}"
        return f"{self.rank} of {self.suit}"


#: the suit the trumps make in a pack whose trumps play as a plain suit (no suit is named so)
TRUMP_SUIT = "\0trumps"


class Pack(list[Card]):
    """The cards in index order, with tables by card index for the hot paths of play.
    `beats_equal`: the cards that beat a card of equal strength played before them (a group of
    equal trumps where the last played wins, marked on each card); elsewhere the first of
    equals wins."""

    def __init__(self, cards: Sequence[Card]) -> None:
        super().__init__(cards)
        self.trumps = frozenset(card.index for card in cards if card.trump is not None)
        self.fools = frozenset(card.index for card in cards if card.is_excuse)
        self.suit: tuple[str | None, ...] = tuple(card.suit for card in cards)
        self.strength = tuple(card.strength for card in cards)
        self.ids = tuple(card.id for card in cards)
        self.beats_equal = frozenset(card.index for card in cards if card.beats_equal)

    @staticmethod
    def of(cards: Sequence[Card]) -> Pack:
        """`cards` with their tables (a deck's own cards already have them)."""
        return cards if isinstance(cards, Pack) else Pack(cards)

    @cached_property
    def trick_keys(self) -> tuple[int, ...]:
        """Each card's strength as one number, a trump's above every plain card's: the
        order of the trick rules' (1, strength) and (0, strength) keys, without the tuples."""
        low = min(self.strength, default=0)
        above = max(self.strength, default=0) - low + 1
        trumps = self.trumps
        return tuple(s - low + (above if i in trumps else 0) for i, s in enumerate(self.strength))

    @cached_property
    def plain_trumps(self) -> Pack:
        """The same cards with the trumps played as a plain suit: they follow and win only
        when a trump is led, and nothing obliges a player to trump."""
        pack = Pack(self)
        pack.suit = tuple(TRUMP_SUIT if i in self.trumps else s for i, s in enumerate(self.suit))
        pack.trumps = frozenset()
        return pack


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
        """The cards that play as excuses by default: the Fool, unless it ranks as a trump."""
        return self.cards.fools

    @cached_property
    def run_places(self) -> tuple[tuple[str, int] | None, ...]:
        """Each card's place in the order runs are counted in: a trump's (the Fool ranked as a
        trump included) is ("", its number); a suit card's is (its suit, its place from the
        lowest card of the suit up); a Fool playing as the Excuse has none."""
        places: list[tuple[str, int] | None] = [None] * len(self.cards)
        for card in self.cards:
            if card.trump is not None:
                places[card.index] = ("", card.trump)
        for suit in self.suits:
            in_suit = sorted((c for c in self.cards if c.suit == suit), key=lambda c: c.strength)
            for place, card in enumerate(in_suit, 1):
                places[card.index] = (suit, place)
        return tuple(places)


def roman(number: int) -> str:
    numerals = [(50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
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
    trumps = int(spec.get("trumps", 0))
    rank, later = trump_strengths(spec), _beats_equal(spec)
    for number in range(1, trumps + 1):
        cards.append(
            Card(
                len(cards),
                f"trump-{number}",
                trump=number,
                strength=rank[number],
                beats_equal=number in later,
            )
        )
    if spec.get("fool"):
        if fool_is_trump(spec):  # the highest trump, numbered after the others
            number = trumps + 1
            cards.append(
                Card(
                    len(cards),
                    "fool",
                    trump=number,
                    fool=True,
                    strength=rank[number],
                    beats_equal=number in later,
                )
            )
        else:
            cards.append(Card(len(cards), "fool", fool=True))
    return cards


def fool_is_trump(spec: Mapping) -> bool:
    """Whether the deck's Fool ranks as its highest trump rather than playing as the Excuse."""
    return bool(spec.get("fool")) and spec.get("trump_order", {}).get("fool") == "highest"


def trump_strengths(spec: Mapping) -> dict[int, int]:
    """Each trump number's strength: its number, but in a group of equal trumps (the deck's
    `trump_order.equal`) the group's highest number. The Fool ranked as the highest trump
    has the number after the last trump."""
    last = int(spec.get("trumps", 0)) + (1 if fool_is_trump(spec) else 0)
    strength = {number: number for number in range(1, last + 1)}
    for group in spec.get("trump_order", {}).get("equal", []):
        members = [n for n in group["trumps"] if n in strength]
        for number in members:
            strength[number] = max(members)
    return strength


def _beats_equal(spec: Mapping) -> frozenset[int]:
    """The numbers of the trumps in groups whose last-played card wins among equals."""
    return frozenset(
        number
        for group in spec.get("trump_order", {}).get("equal", [])
        if group.get("wins", "first") == "last"
        for number in group["trumps"]
    )


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
    cards = [replace(card, index=i) for i, card in enumerate(kept)]
    by_id = {card.id: card.index for card in cards}
    named_ids: dict[str, frozenset[str]] = {}
    for name in set_order:
        named_ids[name] = frozenset(select(cards, spec["card_sets"][name], named_ids))
    sets = {name: frozenset(by_id[i] for i in ids) for name, ids in named_ids.items()}
    suits = [suit["name"] for suit in spec.get("suits", [])]
    return Deck(cards=Pack(cards), suits=suits, sets=sets, by_id=by_id)
