"""What a ruleset's expressions may see, event by event, and the game facts they may ask for.

Shared by the loader (which type-checks each expression against the names available where
it stands, and bounds its cost with what each fact costs) and the engine (which fills the
same names in when a rule fires).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from tarot.compile.card_runs import runs
from tarot.expressions import FactFunction, Type
from tarot.expressions.builtins import Number
from tarot.expressions.types import Scope, Value

if TYPE_CHECKING:
    from tarot.engine.state import HandState

#: deals thrown in and dealt again in one hand before it is given up
MAX_REDEALS = 20

#: the most bids (each with its contracts) counted for in the cost of a bid's condition
BIDS_PER_HAND = 200

COMMON = {"seats": Type.SEATS, "dealer": Type.SEAT, "players": Type.NUMBER}

_PLAYER = {"player": Type.SEAT}
_CARD_OF_PLAYER = {"player": Type.SEAT, "card": Type.CARD}
_TRICK = {
    "player": Type.SEAT,
    "card": Type.CARD,
    "trick": Type.CARDS,
    "trick_number": Type.NUMBER,
    "last_trick": Type.BOOL,
    "leader": Type.SEAT,
}

#: names known once an auction has a taker (in rulesets with `bidding`)
TAKER = {
    "taker": Type.SEAT,
    "contract": Type.STRING,
    "attackers": Type.SEATS,
    "defenders": Type.SEATS,
}

#: events that happen before the auction is over: the taker is not known there
BEFORE_TAKER = frozenset(
    {
        "cut",
        "redeal",
        "static",
        "auction",
        "bid_check",
        "hold",
        "lasting_deal",
        "lasting_deal_seat",
        "show_deal",
        "step_before_taker",
        "step_seat_before_taker",
    }
)

EVENT_VARIABLES: dict[str, dict[str, Type]] = {
    "cut": {"cut_card": Type.CARD},
    "redeal": _PLAYER,
    "hand_score": _PLAYER,
    "game": {},
    "call": {},
    "auction": {},  # who speaks first, who may hold, a forced contract's taker
    # whether `player` may bid a contract, and how many bids it leaps over
    "bid_check": {**_PLAYER, "jump": Type.NUMBER},
    "hold": {"highest_bidder": Type.SEAT, "highest_bid": Type.STRING},  # who may hold it
    "doubling": {},
    "announcement": _PLAYER,  # whether `player` may announce a bonus, the cards it keeps
    "talon": {},
    "play": {},
    "discard": _CARD_OF_PLAYER,
    "discards_done": _PLAYER,
    "card_played": _TRICK,
    # the play rules' card rules (`forced`, `lead_forbidden`, `held_back`): a seat to play
    "playing": {name: kind for name, kind in _TRICK.items() if name != "card"},
    "after_trick": {},  # the play rules' `ends_when`, after each trick
    "sides": {},  # the play rules' `sides`, with the seat under its own name
    "trick_end": {**_TRICK, "winner": Type.SEAT, "keeper": Type.SEAT},
    # a finished trick, before it is taken: who wins it by the trick rules
    "trick_won": {
        "trick": Type.CARDS,
        "trick_number": Type.NUMBER,
        "last_trick": Type.BOOL,
        "leader": Type.SEAT,
        "winner": Type.SEAT,
    },
    "settlement": {},
    "declaration": _PLAYER,
    "declaration_shown": {**_PLAYER, "level": Type.STRING},
    "discard_check": _CARD_OF_PLAYER,
    "discard_group": _PLAYER,  # cards `player` must discard all together or none of
    "static": {},
    # state that lasts between hands: a rule's seats, then each seat's own expressions
    "lasting_deal": {},
    "lasting_deal_seat": _PLAYER,
    "lasting": {},
    "lasting_seat": _PLAYER,
    # cards shown to all: after the deal, after a trick
    "show_deal": {},
    # a flow step's settings (`when`, an `ask`'s seats, a `bid`'s bidders; a discard's
    # `count` for each `player`), before the auction is over or after it
    "step": {},
    "step_before_taker": {},
    "step_seat": _PLAYER,
    "step_seat_before_taker": _PLAYER,
    "show_trick": {},
}

AMOUNT_VARIABLES = {"payer": Type.SEAT, "payee": Type.SEAT}


def evaluations_per_hand(event: str, cards: int, seats: int) -> int:
    """The most times one expression standing at `event` is worked out in a hand (a
    payment's amount: that many times for each payer and payee), for the cost estimate."""
    per_card = {
        "card_played",
        "trick_end",
        "discard",
        "playing",
        "after_trick",
        "discard_group",
        "trick_won",
    }
    if event in per_card:
        return cards
    if event == "sides":  # once per seat
        return seats
    if event == "discard_check":  # each card in hand, at each discard
        return cards * cards
    if event in ("bid_check", "hold"):  # each contract, at each bid: a generous bound on both
        return BIDS_PER_HAND
    if event == "doubling":  # each target, at each doubling asked for
        return 4 * seats
    if event == "redeal":  # each seat, at each deal thrown in and dealt again
        return seats * (MAX_REDEALS + 1)
    if event == "announcement":  # each bonus, for each seat, at each of its announcements
        return 2 * seats * seats
    if event in (
        "declaration",
        "hand_score",
        "discards_done",
        "lasting_deal_seat",
        "lasting_seat",
        "step_seat",
        "step_seat_before_taker",
    ):
        return 2 * seats
    return 1


def variables_for(event: str, amount: bool = False, bidding: bool = False) -> dict[str, Type]:
    """The context names an expression may use at `event` (with `payer` and `payee` in a
    payment's amount, and the taker's names after an auction)."""
    names = dict(COMMON) if event != "static" else {}
    names.update(EVENT_VARIABLES[event])
    if bidding and event not in BEFORE_TAKER:
        names.update(TAKER)
    if amount:
        names.update(AMOUNT_VARIABLES)
    return names


def _hand(state: HandState, seat: int) -> list[int]:
    return state.zones.hands[seat]


def _discards(state: HandState, seat: int) -> list[int]:
    return state.zones.discards[seat]


def _told_discards(state: HandState, seat: int) -> int:
    """How many cards of `discard.told` the seat laid away, as told to all once the discards
    are done (0 before, and when the ruleset tells nothing)."""
    told = state.told
    return told[seat] if 0 <= seat < len(told) else 0


def _tricks(state: HandState, seat: int) -> list[int]:
    return state.zones.won[seat]


def _played(state: HandState, seat: int) -> list[int]:
    return state.zones.played[seat]


#: the facts that give a seat's own cards: a declaration that reads nothing of the hand but
#: these of its declarer is worked out once for the same cards (`Ruleset.reused_declarations`)
OWN_CARDS: dict[str, Callable[[HandState, int], list[int]]] = {
    "hand": _hand,
    "discards": _discards,
    "played": _played,
}


def own_cards(state: HandState, seat: int) -> tuple[tuple[int, ...], ...]:
    """What the facts of `OWN_CARDS` give for the seat, as they stand."""
    return tuple(tuple(fact(state, seat)) for fact in OWN_CARDS.values())


def _pile(state: HandState, seat: int) -> list[int]:
    return state.pile(seat)


def _points(state: HandState, seat: int) -> Number:
    return state.card_points()[seat]


def _opponents(state: HandState, seat: int) -> tuple[int, ...]:
    return _others(state.ruleset.players)[seat]


@cache
def _others(players: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the other seats in order."""
    return tuple(tuple(s for s in range(players) if s != seat) for seat in range(players))


def _declared(state: HandState, seat: int, declaration_id: str) -> bool:
    return declaration_id in state.declared[seat]


def _trump_number(state: HandState, card: int) -> int:
    return state.ruleset.deck.cards[card].trump or 0


def _next_seat(state: HandState, seat: int) -> int:
    return (seat + 1) % state.ruleset.players


def _side(state: HandState, seat: int) -> tuple[int, ...]:
    return state.side_of(seat)


def _side_pile(state: HandState, seat: int) -> tuple[int, ...]:
    return tuple(state.side_pile(seat))


def _side_points(state: HandState, seat: int) -> Number:
    return state.side_points(seat)


def _tricks_won(state: HandState, seat: int) -> int:
    return sum(1 for winner, _cards in state.zones.trick_cards if winner == seat)


def _tricks_played(state: HandState) -> int:
    return len(state.zones.trick_cards)


def _last_trick_cards(state: HandState) -> tuple[int, ...]:
    trick_cards = state.zones.trick_cards
    return tuple(trick_cards[-1][1]) if trick_cards else ()


def _last_trick_winner(state: HandState) -> int:
    trick_cards = state.zones.trick_cards
    return trick_cards[-1][0] if trick_cards else -1


def _declared_value(state: HandState, seat: int, declaration_id: str) -> Number:
    return state.declared_values[seat].get(declaration_id, 0)


def _winning_card(state: HandState, number: Number) -> tuple[int, ...]:
    """The card with which the `number`-th finished trick was won (from 1), as a group of
    one; empty when there is no such trick."""
    index = int(number) - 1
    if not 0 <= index < len(state.trick_log):
        return ()
    _number, _leader, trick, winner = state.trick_log[index]
    return tuple(card for seat, card in trick if seat == winner)


def _hand_number(state: HandState) -> int:
    return state.number


def _first_cards(state: HandState, seat: int, number: Number) -> tuple[int, ...]:
    dealt = [card for packet in state.packets_dealt[seat] for card in packet]
    return tuple(dealt[: max(int(number), 0)])


def _talon(state: HandState) -> tuple[int, ...]:
    return tuple(state.talon_dealt)


#: the one fact whose value a payment changes, and the key its value is remembered under
#: with the seat (a payment forgets it; see `Ruleset.definitions_read_payments`)
PAYMENTS_READ_BY = "total"
TOTAL_MEMO = "total()"


def _total(state: HandState, seat: int) -> Number:
    return state.remember((TOTAL_MEMO, seat), lambda: state.total(seat))


def _packet(state: HandState, seat: int, number: Number) -> tuple[int, ...]:
    packets = state.packets_dealt[seat]
    return tuple(packets[int(number) - 1]) if 1 <= number <= len(packets) else ()


def _doublings(state: HandState, target: str) -> int:
    return state.doubled.get(target, 0)


def _doubling_factor(state: HandState, target: str) -> Number:
    doubling = state.ruleset.doubling
    level = state.doubled.get(target, 0)
    return doubling.factor**level if doubling is not None and level else 1


def _called_card(state: HandState) -> tuple[int, ...]:
    called = state.called_card
    return () if called is None else (called,)


def _fallen(state: HandState, cards: tuple[int, ...]) -> tuple[int, int, int] | None:
    """(trick number, seat that played it, trick winner) of the first finished trick in
    which a card of `cards` fell; None when none has."""
    wanted = set(cards)
    for number, _leader, trick, winner in state.trick_log:
        for seat, card in trick:
            if card in wanted:
                return number, seat, winner
    return None


def _trick_of(state: HandState, cards: tuple[int, ...]) -> int:
    fallen = _fallen(state, cards)
    return 0 if fallen is None else fallen[0]


def _taken_by(state: HandState, cards: tuple[int, ...]) -> int:
    fallen = _fallen(state, cards)
    return -1 if fallen is None else fallen[2]


def _played_by(state: HandState, cards: tuple[int, ...]) -> int:
    fallen = _fallen(state, cards)
    if fallen is not None:
        return fallen[1]
    wanted = set(cards)
    return next((seat for seat, card in state.zones.trick if card in wanted), -1)


def _position_in_trick(state: HandState, cards: tuple[int, ...]) -> int:
    wanted = set(cards)
    trick = state.zones.trick
    return next((i for i, (_seat, card) in enumerate(trick, 1) if card in wanted), 0)


def _announced(state: HandState, seat: int, bonus: str) -> bool:
    return (seat, bonus) in state.announced


def _announced_by(state: HandState, bonus: str) -> tuple[int, ...]:
    return tuple(sorted({seat for seat, made in state.announced if made == bonus}))


def _bids_made(state: HandState, seat: int) -> int:
    return state.bids_made[seat] if 0 <= seat < len(state.bids_made) else 0


def _bid_held(state: HandState) -> bool:
    return state.bid_held


def _latest(state: HandState, seat: int, bid: bool) -> int:
    """The place in the auction's log of the seat's latest bid or hold (`bid`) or pass
    (-1 if none)."""
    log = state.auction_log
    return next(
        (i for i in range(len(log) - 1, -1, -1) if log[i].seat == seat and log[i].bid == bid), -1
    )


def _bid_jump(state: HandState, seat: int) -> int:
    latest = _latest(state, seat, True)
    return 0 if latest < 0 else state.auction_log[latest].jump


def _bid_number(state: HandState, seat: int) -> int:
    return _latest(state, seat, True) + 1


def _pass_number(state: HandState, seat: int) -> int:
    return _latest(state, seat, False) + 1


def _passed_over(state: HandState, seat: int) -> str:
    latest = _latest(state, seat, False)
    return "" if latest < 0 else state.auction_log[latest].standing


def _thrown_in(state: HandState, reason: str) -> int:
    return sum(1 for deal in state.abandoned if deal["thrown_in"] == reason)


def _bid_position(state: HandState, seat: int) -> int:
    from tarot.engine.phases.auction import bid_order  # the engine imports this module

    order = bid_order(state)
    return order.index(seat) + 1 if seat in order else 0


#: the steps a fact takes, by the size it works on ("cards": the pack, "seats": the players)
_COSTS = {
    "pile": "cards",
    "points": "cards",
    "opponents": "seats",
    "side": "seats",
    "side_pile": "cards",
    "side_points": "cards",
    "tricks_won": "cards",
    "last_trick_cards": "seats",
    "talon": "cards",
    "packet": "cards",
    "trick_of": "cards",
    "taken_by": "cards",
    "played_by": "cards",
    "position_in_trick": "seats",
    "bid_position": "seats",
    "bid_jump": "seats",
    "bid_number": "seats",
    "pass_number": "seats",
    "passed_over": "seats",
    "runs": "cards",
    "announced": "seats",
    "announced_by": "seats",
}

FACTS: dict[str, FactFunction] = {
    "hand": FactFunction((Type.SEAT,), Type.CARDS, _hand),
    "discards": FactFunction((Type.SEAT,), Type.CARDS, _discards),
    "told_discards": FactFunction((Type.SEAT,), Type.NUMBER, _told_discards),
    "tricks": FactFunction((Type.SEAT,), Type.CARDS, _tricks),
    "played": FactFunction((Type.SEAT,), Type.CARDS, _played),
    "pile": FactFunction((Type.SEAT,), Type.CARDS, _pile),
    "points": FactFunction((Type.SEAT,), Type.NUMBER, _points),
    "opponents": FactFunction((Type.SEAT,), Type.SEATS, _opponents),
    "declared": FactFunction((Type.SEAT, Type.STRING), Type.BOOL, _declared),
    "trump_number": FactFunction((Type.CARD,), Type.NUMBER, _trump_number),
    "next_seat": FactFunction((Type.SEAT,), Type.SEAT, _next_seat),
    "side": FactFunction((Type.SEAT,), Type.SEATS, _side),
    "side_pile": FactFunction((Type.SEAT,), Type.CARDS, _side_pile),
    "side_points": FactFunction((Type.SEAT,), Type.NUMBER, _side_points),
    "tricks_won": FactFunction((Type.SEAT,), Type.NUMBER, _tricks_won),
    "tricks_played": FactFunction((), Type.NUMBER, _tricks_played),
    "last_trick_cards": FactFunction((), Type.CARDS, _last_trick_cards),
    "last_trick_winner": FactFunction((), Type.SEAT, _last_trick_winner),
    "declared_value": FactFunction((Type.SEAT, Type.STRING), Type.NUMBER, _declared_value),
    "talon": FactFunction((), Type.CARDS, _talon),
    "packet": FactFunction((Type.SEAT, Type.NUMBER), Type.CARDS, _packet),
    PAYMENTS_READ_BY: FactFunction((Type.SEAT,), Type.NUMBER, _total),
    "winning_card": FactFunction((Type.NUMBER,), Type.CARDS, _winning_card),
    "hand_number": FactFunction((), Type.NUMBER, _hand_number),
    "first_cards": FactFunction((Type.SEAT, Type.NUMBER), Type.CARDS, _first_cards),
    "doublings": FactFunction((Type.STRING,), Type.NUMBER, _doublings),
    "doubling_factor": FactFunction((Type.STRING,), Type.NUMBER, _doubling_factor),
    "called_card": FactFunction((), Type.CARDS, _called_card),
    "trick_of": FactFunction((Type.CARDS,), Type.NUMBER, _trick_of),
    "taken_by": FactFunction((Type.CARDS,), Type.SEAT, _taken_by),
    "played_by": FactFunction((Type.CARDS,), Type.SEAT, _played_by),
    "position_in_trick": FactFunction((Type.CARDS,), Type.NUMBER, _position_in_trick),
    "bid_position": FactFunction((Type.SEAT,), Type.NUMBER, _bid_position),
    "announced": FactFunction((Type.SEAT, Type.STRING), Type.BOOL, _announced),
    "announced_by": FactFunction((Type.STRING,), Type.SEATS, _announced_by),
    "thrown_in": FactFunction((Type.STRING,), Type.NUMBER, _thrown_in),
    "bids_made": FactFunction((Type.SEAT,), Type.NUMBER, _bids_made),
    "bid_held": FactFunction((), Type.BOOL, _bid_held),
    "bid_jump": FactFunction((Type.SEAT,), Type.NUMBER, _bid_jump),
    "bid_number": FactFunction((Type.SEAT,), Type.NUMBER, _bid_number),
    "pass_number": FactFunction((Type.SEAT,), Type.NUMBER, _pass_number),
    "passed_over": FactFunction((Type.SEAT,), Type.STRING, _passed_over),
    "runs": FactFunction((Type.CARDS, Type.NUMBER), Type.CARDS, runs),
}


def facts_for(cards: int, seats: int, hand_score_steps: int) -> dict[str, FactFunction]:
    """FACTS with the cost of each in a game of `cards` cards and `seats` players, `total()`
    counted with a hand score of `hand_score_steps` for every seat together (the limit, until
    the hand score is compiled: see `total_fact`)."""
    facts = {}
    for name, fact in FACTS.items():
        cost = {"cards": cards, "seats": seats}.get(_COSTS.get(name, ""), 1)
        facts[name] = replace(fact, cost=cost)
    facts[PAYMENTS_READ_BY] = total_fact(cards, seats, memo={"hand score": hand_score_steps})
    return facts


def total_fact(
    cards: int, seats: int, own_cost: int = 0, memo: Mapping[str, int] | None = None
) -> FactFunction:
    """`total()` with its cost. A seat's total adds up the hand's payments and works out its
    hand score (`own_cost` steps besides the definitions it uses, `memo`); it is remembered
    for the state like a definition of a seat, so counted once per seat; the definitions the
    hand score uses are remembered for the state and shared by every seat's score, so each
    counts once, under its own name (with the same definitions used elsewhere)."""
    per_seat = (seats + 1) * (cards * seats + own_cost)
    return replace(FACTS[PAYMENTS_READ_BY], memo={**(memo or {}), TOTAL_MEMO: per_seat})


def hand_score_steps(own_cost: int, memo: Mapping[str, int], seats: int) -> int:
    """What every seat's hand score costs in one state: its own steps once per seat, each
    definition it uses once (a definition of a seat already counts once per seat)."""
    return (seats + 1) * own_cost + sum(memo.values())


class RememberedDefinition:
    """A named definition computed once per state of the hand: later uses in the same state
    read the value back (`HandState.remember`; the engine forgets it whenever the state
    changes). Called as the compiled expression's `fn`, in place of a closure that made a
    lambda at every use, so that the compiled build runs it as C."""

    def __init__(self, compute: Callable[[Scope], Value], name: str) -> None:
        self.compute = compute
        self.name = name

    def __call__(self, scope: Scope) -> Value:
        state: HandState = scope.state  # type: ignore[assignment]
        return state.remember(self.name, self.compute, scope)


class SeatDefinition:
    """A definition `of_seat` as a game fact: called with a seat, it evaluates with that seat
    standing for `seat_name`, once per seat and state of the hand."""

    def __init__(self, compute: Callable[[Scope], Value], seat_name: str, name: str) -> None:
        self.compute = compute
        self.seat_name = seat_name
        self.name = name

    def __call__(self, state: HandState, seat: int) -> Value:
        variables = {self.seat_name: seat}
        return state.remember((self.name, seat), state.evaluate, self.compute, variables)
