"""What one seat may see, as the Python API hands it out: `Observation`, with `Payment`s.

Where it sits: read from the engine's `SeatView` (`tarot.engine.seat_view`), the one
place that decides what a seat may know, and turned into plain values with `Card`s: the
seat's own hand and discards, the cards shown and played, the decisions others took (a
private one, such as a discard, only as made), the sides as far as the seat may know them,
every payment. Nothing of another seat's hidden cards is in it, but how many there are, and
an observation holds no reference to the hand it was read from (an agent of the user's could
follow one to every hidden card).

A built-in player asked directly by a user's agent (`BuiltinAgent.act`) decides from a hand
whose hidden cards are guessed from the observation (`guessed_hand`, dealt by the search
player's sampler when the observation is made): what it sees is what the seat sees, and the
hand it was taken from is not kept.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tarot.api.cards import Card, pack_cards
from tarot.core.ruleset import Ruleset as CompiledRuleset
from tarot.engine.events import Payment as EnginePayment
from tarot.engine.seat_view import SeatView
from tarot.expressions.builtins import Number

if TYPE_CHECKING:
    from tarot.engine.state import HandState

_CARDS: list[tuple[CompiledRuleset, tuple[Card, ...]]] = []  # the last rulesets' cards
_KEPT = 8


def cards_of(ruleset: CompiledRuleset) -> tuple[Card, ...]:
    """The ruleset's pack as `Card`s, by the engine's card number (built once per ruleset)."""
    for known, cards in _CARDS:
        if known is ruleset:
            return cards
    cards = pack_cards(ruleset)
    _CARDS.insert(0, (ruleset, cards))
    del _CARDS[_KEPT:]
    return cards


@dataclass(frozen=True)
class Payment:
    """A payment made in a hand: the rule (`rule`, its id; `name`; `source`, the source of
    the rule and of the option readings it rests on), who paid whom, how much, and when
    (`at`: `trick 3`, `settlement`... as records write it)."""

    rule: str
    name: str
    payer: int
    payee: int
    amount: Number
    at: str
    source: str


def payments_of(ruleset: CompiledRuleset, payments: Sequence[EnginePayment]) -> list[Payment]:
    return [
        Payment(
            p.rule,
            ruleset.rule_label(p.rule),
            p.payer,
            p.payee,
            p.amount,
            p.at,
            ruleset.citation(p.rule),
        )
        for p in payments
    ]


@dataclass(frozen=True)
class Play:
    """A card played to a trick, and by whom."""

    seat: int
    card: Card


@dataclass(frozen=True)
class Trick:
    """A finished trick: its cards in the order played, and who won it."""

    number: int
    plays: tuple[Play, ...]
    winner: int


@dataclass(frozen=True)
class Decided:
    """A decision taken: `choice` is None when it was private to another seat (a discard)."""

    seat: int
    kind: str
    choice: str | None


@dataclass(frozen=True)
class Shown:
    """Cards shown to every seat: by whom, and what showed them (a declaration's id, `talon`,
    `discard`...)."""

    seat: int
    what: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class TalonTaken:
    """Cards of the talon taken into a hand: by whom, how many, and which (`cards`) when the
    observing seat may know them (its own take, or one shown to all; else empty)."""

    seat: int
    count: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Observation:
    """What `seat` may know of the hand now. Seats are numbered 0, 1, 2... in the order of
    play; card lists are `Card`s."""

    seat: int
    hand_number: int
    dealer: int
    hand: tuple[Card, ...]  # the seat's own cards
    discards: tuple[Card, ...]  # its own discards
    pile_tops: tuple[tuple[Card, ...], ...]  # per seat, the face-up top of each pile
    hand_sizes: tuple[int, ...]  # how many cards each seat holds
    discard_sizes: tuple[int, ...]
    talon_size: int
    talon_taken: tuple[TalonTaken, ...]  # the talon's takes into hands, in order
    cut_card: Card | None
    shown: tuple[Shown, ...]
    decisions: tuple[Decided, ...]  # of the deal in play, in order
    tricks: tuple[Trick, ...]  # finished
    trick: tuple[Play, ...]  # on the table
    trick_number: int
    leader: int
    taker: int | None
    contract: str | None
    called_card: Card | None
    partner: int | None  # None when there is none or the seat may not know him yet
    payments: tuple[Payment, ...]
    returns: tuple[Number, ...]  # net per seat so far
    to_decide: int | None  # the seat the hand waits for
    kind: str | None  # the kind of decision this seat faces (None: not its turn)
    over: bool
    card_points: tuple[Number, ...] | None  # once the hand is over
    sitting_out: tuple[int, ...] = ()  # the seats sitting this hand out (`players.sit_out`)


#: per observation (by id, while it lives), the hand its built-in players decide from: the
#: seat's own cards and everything shown, the hidden cards guessed
_GUESSED: dict[int, HandState] = {}


def observe(state: HandState, seat: int) -> Observation:
    """What `seat` may know of `state` now."""
    view = SeatView(state, seat)
    ruleset = state.ruleset
    cards = cards_of(ruleset)

    def named(indexes: Sequence[int]) -> tuple[Card, ...]:
        return tuple(cards[c] for c in indexes)

    observation = Observation(
        seat=seat,
        hand_number=view.number,
        dealer=view.dealer,
        hand=named(view.hand),
        discards=named(view.discards),
        pile_tops=tuple(named(tops) for tops in view.pile_tops),
        hand_sizes=view.hand_sizes,
        discard_sizes=view.discard_sizes,
        talon_size=view.talon_size,
        talon_taken=tuple(
            TalonTaken(taker, count, named(taken)) for taker, count, taken in view.talon_taken
        ),
        cut_card=None if view.cut_card is None else cards[view.cut_card],
        shown=tuple(Shown(s, what, named(shown)) for s, what, shown in view.shown),
        decisions=tuple(Decided(d.seat, d.kind, d.choice) for d in view.decisions),
        tricks=tuple(
            Trick(t.number, tuple(Play(s, cards[c]) for s, c in t.plays), t.winner)
            for t in view.tricks
        ),
        trick=tuple(Play(s, cards[c]) for s, c in view.trick),
        trick_number=view.trick_number,
        leader=view.leader,
        taker=view.taker,
        contract=view.contract,
        called_card=None if view.called_card is None else cards[view.called_card],
        partner=view.partner,
        payments=tuple(payments_of(ruleset, view.payments)),
        returns=view.returns,
        to_decide=view.to_decide,
        kind=None if view.facing is None else view.facing.kind.value,
        over=view.over,
        card_points=view.card_points,
        sitting_out=view.sitting_out,
    )
    if view.facing is not None:  # the seat decides: a built-in player may be asked
        _GUESSED[id(observation)] = _guess(state, seat, view)
        weakref.finalize(observation, _GUESSED.pop, id(observation), None)
    return observation


def _guess(state: HandState, seat: int, view: SeatView) -> HandState:
    """The hand as the seat may imagine it: a guess of the cards it cannot see, the same
    guess for the same hand, seat and moment."""
    from tarot.players.sampling import Sampler  # the players' package imports this one

    seed = f"tarot-api-guess/{view.number}/{seat}/{len(view.decisions)}"
    return Sampler(state, seat, view).sample(random.Random(seed))


def guessed_hand(observation: Observation) -> HandState:
    """The hand a built-in player decides from when asked with `observation` (made by
    `observe` while the seat was to decide); ValueError for any other observation."""
    guessed = _GUESSED.get(id(observation))
    if guessed is None:
        raise ValueError(
            "a built-in player decides from an observation the API made while its seat was "
            "to decide (state.observation(seat), or the one an agent is handed)"
        )
    return guessed
