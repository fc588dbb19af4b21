"""Cards and actions as the Python API shows them: one `Card` type, typed `Action` values.

Where it sits: the outer edge of the Python API (`tarot.api`). Inside, the engine
numbers cards 0..N-1 and keeps actions as its own small values (`tarot.core.actions`);
here a card is a `Card`, a `str` equal to its id as the ruleset writes it, carrying its
suit, rank, trump number and points, and an action is an `Action` whose `str()` is the text
a game record holds for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tarot.core.actions import Action as EngineAction
from tarot.core.actions import DecisionKind, action_text
from tarot.core.ruleset import Ruleset as CompiledRuleset
from tarot.expressions.builtins import Number


class Card(str):
    """A card of a ruleset's pack. It is its id (``card == "ID"``, ``str(card)``, a key
    beside plain ids in a dict), with what the pack says of it: ``suit`` and ``rank`` for a
    suit card, ``trump`` (its number) for a trump, ``fool`` for the pack's fool, ``points``
    (its value when card points are counted) and ``label`` (a readable name)."""

    suit: str | None
    rank: str | int | None
    trump: int | None
    fool: bool
    points: Number  # an int, or a Fraction when not whole (4.5 is Fraction(9, 2))
    label: str
    _index: int

    def __new__(
        cls,
        id: str,
        *,
        suit: str | None = None,
        rank: str | int | None = None,
        trump: int | None = None,
        fool: bool = False,
        points: Number = 0,
        label: str = "",
        index: int = -1,
    ) -> Card:
        card = super().__new__(cls, id)
        card.suit, card.rank, card.trump, card.fool = suit, rank, trump, fool
        card.points, card.label, card._index = points, label or id, index
        return card

    @property
    def id(self) -> str:
        """The card's id as the ruleset writes it (the card itself, as a plain string)."""
        return str.__str__(self)

    @property
    def is_trump(self) -> bool:
        return self.trump is not None

    def __repr__(self) -> str:
        return f"Card({self.id!r})"

    def __reduce__(self) -> tuple:
        details = {
            "suit": self.suit,
            "rank": self.rank,
            "trump": self.trump,
            "fool": self.fool,
            "points": self.points,
            "label": self.label,
            "index": self._index,
        }
        return (_card, (self.id, details))


def _card(id: str, details: dict) -> Card:
    return Card(id, **details)


def pack_cards(ruleset: CompiledRuleset) -> tuple[Card, ...]:
    """Every card of the ruleset's pack as a `Card`, in the engine's order."""
    values = ruleset.counting.values
    return tuple(
        Card(
            card.id,
            suit=card.suit,
            rank=card.rank,
            trump=card.trump,
            fool=card.fool,
            points=values[card.index],
            label=card.label(),
            index=card.index,
        )
        for card in ruleset.deck.cards
    )


@dataclass(frozen=True)
class Action:
    """One legal action of a decision. ``str(action)`` is the text a game record holds (a
    card's id, a contract, ``pass``, ``DECLARATION:LEVEL``, ``RULE:redeal``...); ``kind`` is
    the decision's kind (``play``, ``discard``, ``bid``, ``declare``...); ``card`` is the card
    for a decision about a card (played, discarded, called, shown or given), else None."""

    kind: str
    text: str
    card: Card | None = None
    _move: EngineAction | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        return self.text


def actions_of(
    kind: DecisionKind,
    moves: Sequence[EngineAction],
    cards: Sequence[Card],
    ruleset: CompiledRuleset,
) -> list[Action]:
    """The engine's typed actions of one decision as API actions."""
    deck = ruleset.deck
    return [
        Action(
            kind.value,
            action_text(move, deck),
            cards[move] if isinstance(move, int) else None,
            move,
        )
        for move in moves
    ]
