"""What a seat decides: decision kinds and actions as small typed values, and their text.

Where it sits: inside the engine (`tarot.engine.state` and its phases) every action is one of
the values below; text exists only at the boundary, where a record is written or read back
(`tarot.records.replay`), an agent is handed its choices, or a person types a move.
`action_text` gives the text a record holds; `parse_action` finds the legal action a text
names; `read_action` reads back, from a decision's kind, the action a text of a hand's log
names (the transcript and a seat's screen read the log's actions typed, never its texts).
Texts: a card's id, a contract's id, `hold:CONTRACT`, `pass`, `DECLARATION:LEVEL` (or `:none`),
`RULE:redeal` or `RULE:play_on`, `packet:N`, `join` or `stay_out`, `STEP:TARGET` for a doubling
or `pass:TARGET` for none, `announce:ID` for a bonus announced.

A card action is the card's index (an int): the decision's kind says whether it is played,
discarded, called, shown or given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING

from tarot.core.cards import Deck
from tarot.errors import TarotError
from tarot.expressions.builtins import Number

if TYPE_CHECKING:
    from tarot.core.ruleset import Declaration


class DecisionKind(StrEnum):
    """What a decision is about; the value is the word records use."""

    REDEAL = "redeal"
    ASK = "ask"  # a yes-or-no answer to a question of the flow
    BID = "bid"
    CALL = "call"
    DISCARD = "discard"
    DECLARE = "declare"
    SHOW = "show"  # cards picked one at a time to show after a declaration
    GIVE = "give"  # a card given back for one handed over after a declaration
    NAME = "name"  # a card named after a declaration, for whoever holds it to hand over
    PACKET = "packet"  # a packet of the talon laid out, taken
    JOIN = "join"  # whether to join the taker's side
    DOUBLE = "double"  # whether to double a target
    ANNOUNCE = "announce"  # a bonus announced before play, or a pass
    PLAY = "play"

    @property
    def verb(self) -> str:
        """What a seat does in such a decision, for messages: `seat 1 may not <verb> X`."""
        return _VERBS.get(self, self.value)


_VERBS = {
    DecisionKind.REDEAL: "answer the offer of a new deal with",
    DecisionKind.ASK: "answer",
    DecisionKind.GIVE: "give back",
    DecisionKind.NAME: "ask for",
    DecisionKind.PACKET: "take the talon's packet",
    DecisionKind.JOIN: "answer the call to join with",
}


class IllegalAction(TarotError, ValueError):
    """An action that is not among the legal ones; the state is left unchanged."""


@dataclass(frozen=True, slots=True)
class Bid:
    contract: str


@dataclass(frozen=True, slots=True)
class Hold:
    """The contract already bid by another seat, taken over at the same level."""

    contract: str


@dataclass(frozen=True, slots=True)
class JoinBid:
    """The standing bid (`contract`) joined at its rank in the bidding, on the bidder's side
    (a contract's `join_at: bidding`)."""

    contract: str


@dataclass(frozen=True, slots=True)
class Pass:
    """No bid."""


@dataclass(frozen=True, slots=True)
class TakePacket:
    """One of the talon's packets laid out on the table, numbered from 1."""

    number: int


@dataclass(frozen=True, slots=True)
class Join:
    """The answer to an offer to join the taker's side."""

    joins: bool


@dataclass(frozen=True, slots=True)
class Double:
    """A doubling of `target` (`step`: the name of this doubling), or None: declined."""

    target: str
    step: str | None


@dataclass(frozen=True, slots=True)
class Announce:
    """A bonus of the ruleset's `announcements` announced."""

    announcement: str


@dataclass(frozen=True, slots=True)
class Declare:
    declaration: str
    level: str


@dataclass(frozen=True, slots=True)
class NoDeclaration:
    declaration: str


@dataclass(frozen=True, slots=True)
class Redeal:
    """The answer to a redeal rule that lets a player have the deal thrown in."""

    rule: str
    redeal: bool  # False: play on


@dataclass(frozen=True, slots=True)
class Answer:
    """A seat's answer to a question the flow asks (`question`: its id)."""

    question: str
    yes: bool


PASS = Pass()
PASS_TEXT = "pass"
YES_TEXT, NO_TEXT = "yes", "no"  # after the question's id: `QUESTION:yes`
NO_LEVEL_TEXT = "none"  # the level word of "no declaration" in records
REDEAL_TEXT, PLAY_ON_TEXT = "redeal", "play_on"
HOLD_TEXT = "hold"  # before the contract held: `hold:CONTRACT`
PACKET_TEXT = "packet"  # before the packet's number: `packet:2`
JOIN_TEXT, STAY_OUT_TEXT = "join", "stay_out"
ANNOUNCE_TEXT = "announce"  # before the bonus announced: `announce:ID`

Action = (
    int
    | Bid
    | Hold
    | JoinBid
    | Pass
    | Declare
    | NoDeclaration
    | Redeal
    | TakePacket
    | Join
    | Double
    | Announce
    | Answer
)


_NO_LEVELS: Mapping[str, Number] = MappingProxyType({})


class Decision:
    """A seat to choose one of `actions`; `choices` are their texts, in the same order (what
    agents are handed and records hold)."""

    __slots__ = ("seat", "kind", "actions", "choices", "declaration", "level_values")

    def __init__(
        self,
        seat: int,
        kind: DecisionKind,
        actions: Sequence[Action],
        choices: list[str],
        declaration: Declaration | None = None,
        level_values: Mapping[str, Number] | None = None,
    ) -> None:
        self.seat = seat
        self.kind = kind
        self.actions = actions
        self.choices = choices
        self.declaration = declaration  # what a DECLARE decision is about
        # and its levels' worth (one empty mapping shared by every other decision)
        self.level_values = _NO_LEVELS if level_values is None else level_values


def action_text(action: Action, deck: Deck) -> str:
    """The text a record holds for `action` (a card's id, a contract, `rule:redeal`...)."""
    if isinstance(action, int):
        return deck.cards[action].id
    if isinstance(action, Bid):
        return action.contract
    if isinstance(action, Pass):
        return PASS_TEXT
    if isinstance(action, Declare):
        return f"{action.declaration}:{action.level}"
    if isinstance(action, NoDeclaration):
        return f"{action.declaration}:{NO_LEVEL_TEXT}"
    if isinstance(action, Hold):
        return f"{HOLD_TEXT}:{action.contract}"
    if isinstance(action, JoinBid):  # `join:CONTRACT`: no contract's id holds a colon
        return f"{JOIN_TEXT}:{action.contract}"
    if isinstance(action, TakePacket):
        return f"{PACKET_TEXT}:{action.number}"
    if isinstance(action, Join):
        return JOIN_TEXT if action.joins else STAY_OUT_TEXT
    if isinstance(action, Double):  # `pass:TARGET` declines
        return f"{action.step or PASS_TEXT}:{action.target}"
    if isinstance(action, Announce):
        return f"{ANNOUNCE_TEXT}:{action.announcement}"
    if isinstance(action, Answer):
        return f"{action.question}:{YES_TEXT if action.yes else NO_TEXT}"
    return f"{action.rule}:{REDEAL_TEXT if action.redeal else PLAY_ON_TEXT}"


def parse_action(text: str, legal: Sequence[Action], deck: Deck) -> Action:
    """The legal action whose text is `text`; IllegalAction when none is."""
    for action in legal:
        if action_text(action, deck) == text:
            return action
    raise IllegalAction(f"{text!r} is not a legal action")


_CARD_KINDS = frozenset(
    {
        DecisionKind.CALL,
        DecisionKind.DISCARD,
        DecisionKind.SHOW,
        DecisionKind.GIVE,
        DecisionKind.NAME,
        DecisionKind.PLAY,
    }
)


def read_action(kind: DecisionKind | str, text: str, deck: Deck) -> Action:
    """The action that `text` (as `action_text` writes it) names in a decision of `kind`: the
    way back from a record's text to the typed value, for what reads a hand's log of
    decisions (a transcript, a seat's news). It does not check that the action was legal
    (`parse_action` does); a ValueError when `text` has not the form of `kind`'s actions."""
    kind = DecisionKind(kind)
    if kind in _CARD_KINDS:
        if text not in deck.by_id:
            raise ValueError(f"{text!r} is not a card of the pack")
        return deck.by_id[text]
    if kind == DecisionKind.JOIN and text in (JOIN_TEXT, STAY_OUT_TEXT):
        return Join(text == JOIN_TEXT)
    if text == PASS_TEXT and kind in (DecisionKind.BID, DecisionKind.ANNOUNCE):
        return PASS
    word, colon, rest = text.partition(":")
    if kind == DecisionKind.BID:
        if colon and word == JOIN_TEXT:
            return JoinBid(rest)
        return Hold(rest) if colon and word == HOLD_TEXT else Bid(text)
    if colon and rest:
        if kind == DecisionKind.DECLARE:
            return NoDeclaration(word) if rest == NO_LEVEL_TEXT else Declare(word, rest)
        if kind == DecisionKind.REDEAL and rest in (REDEAL_TEXT, PLAY_ON_TEXT):
            return Redeal(word, rest == REDEAL_TEXT)
        if kind == DecisionKind.ASK and rest in (YES_TEXT, NO_TEXT):
            return Answer(word, rest == YES_TEXT)
        if kind == DecisionKind.PACKET and word == PACKET_TEXT and rest.isdecimal():
            return TakePacket(int(rest))
        if kind == DecisionKind.ANNOUNCE and word == ANNOUNCE_TEXT:
            return Announce(rest)
        if kind in (DecisionKind.DOUBLE, DecisionKind.ANNOUNCE):  # `STEP:TARGET`, `pass:TARGET`
            return Double(rest, None if word == PASS_TEXT else word)
    raise ValueError(f"{text!r} is not an action of a {kind.value} decision")
