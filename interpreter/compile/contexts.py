"""What a ruleset's expressions may see, event by event, and the game facts they may ask for.

Shared by the loader (which type-checks each expression against the names available where
it stands, and bounds its cost with what each fact costs) and the engine (which fills the
same names in when a rule fires).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from tarot.compile.card_runs import runs
from tarot.core.vocabulary import FACTS as VOCABULARY
from tarot.core.vocabulary import PAYMENTS_READ_BY, TOTAL_MEMO
from tarot.expressions import FactFunction
from tarot.expressions.builtins import Number
from tarot.expressions.types import Scope, Value

if TYPE_CHECKING:
    from tarot.engine.state import HandState


def _hand(state: HandState, seat: int) -> list[int]:
    return state.zones.hands[seat]


def _discards(state: HandState, seat: int) -> list[int]:
    return state.zones.discards[seat]


def _told_discards(state: HandState, seat: int) -> int:
    """How many cards of `discard.told` the seat laid away, as told to all once the discards
    are done (0 before, and when the ruleset tells nothing)."""
    told = state.discard.told
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
    return state.seating.others[seat]


def _declared(state: HandState, seat: int, declaration_id: str) -> bool:
    return declaration_id in state.declare.declared[seat]


def _trump_number(state: HandState, card: int) -> int:
    return state.ruleset.deck.cards[card].trump or 0


def _next_seat(state: HandState, seat: int) -> int:
    return state.seating.next_seats[seat]


def _side(state: HandState, seat: int) -> tuple[int, ...]:
    return state.side_of(seat)


def _side_pile(state: HandState, seat: int) -> tuple[int, ...]:
    return tuple(state.side_pile(seat))


def _side_points(state: HandState, seat: int) -> Number:
    return state.side_points(seat)


def _tricks_won(state: HandState, seat: int) -> int:
    return sum(1 for *_, winner in state.play.trick_log if winner == seat)


def _tricks_played(state: HandState) -> int:
    return len(state.play.trick_log)


def _last_trick_cards(state: HandState) -> tuple[int, ...]:
    log = state.play.trick_log
    return tuple(card for _seat, card in log[-1][2]) if log else ()


def _last_trick_winner(state: HandState) -> int:
    log = state.play.trick_log
    return log[-1][3] if log else -1


def _declared_value(state: HandState, seat: int, declaration_id: str) -> Number:
    return state.declare.values[seat].get(declaration_id, 0)


def _winning_card(state: HandState, number: Number) -> tuple[int, ...]:
    """The card with which the `number`-th finished trick was won (from 1), as a group of
    one; empty when there is no such trick."""
    index = int(number) - 1
    if not 0 <= index < len(state.play.trick_log):
        return ()
    _number, _leader, trick, winner = state.play.trick_log[index]
    return tuple(card for seat, card in trick if seat == winner)


def _hand_number(state: HandState) -> int:
    return state.number


def _first_cards(state: HandState, seat: int, number: Number) -> tuple[int, ...]:
    dealt = [card for packet in state.deal.packets_dealt[seat] for card in packet]
    return tuple(dealt[: max(int(number), 0)])


def _talon(state: HandState) -> tuple[int, ...]:
    return tuple(state.deal.talon_dealt)


def _total(state: HandState, seat: int) -> Number:
    return state.remember((TOTAL_MEMO, seat), lambda: state.total(seat))


def _packet(state: HandState, seat: int, number: Number) -> tuple[int, ...]:
    packets = state.deal.packets_dealt[seat]
    return tuple(packets[int(number) - 1]) if 1 <= number <= len(packets) else ()


def _doublings(state: HandState, target: str) -> int:
    return state.double.doubled.get(target, 0)


def _doubling_factor(state: HandState, target: str) -> Number:
    doubling = state.ruleset.doubling
    level = state.double.doubled.get(target, 0)
    return doubling.factor**level if doubling is not None and level else 1


def _called_card(state: HandState) -> tuple[int, ...]:
    called = state.auction.called_card
    return () if called is None else (called,)


def _fallen(state: HandState, cards: tuple[int, ...]) -> tuple[int, int, int] | None:
    """(trick number, seat that played it, trick winner) of the first finished trick in
    which a card of `cards` fell; None when none has."""
    wanted = set(cards)
    for number, _leader, trick, winner in state.play.trick_log:
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
    return (seat, bonus) in state.announce.announced


def _announce_passes(state: HandState, seat: int) -> int:
    return state.announce.passes.count(seat)


def _answer(state: HandState, question: str) -> tuple[int, ...]:
    answered = state.ask.answers.get(question)
    return () if answered is None else answered[2]


def _asker(state: HandState, question: str) -> int:
    answered = state.ask.answers.get(question)
    return -1 if answered is None else answered[0]


def _announced_by(state: HandState, bonus: str) -> tuple[int, ...]:
    return tuple(sorted({seat for seat, made in state.announce.announced if made == bonus}))


def _bids_made(state: HandState, seat: int) -> int:
    return state.auction.bids_made[seat] if 0 <= seat < len(state.auction.bids_made) else 0


def _bid_held(state: HandState) -> bool:
    return state.auction.bid_held


def _latest(state: HandState, seat: int, bid: bool) -> int:
    """The place in the auction's log of the seat's latest bid or hold (`bid`) or pass
    (-1 if none)."""
    log = state.auction.log
    return next(
        (i for i in range(len(log) - 1, -1, -1) if log[i].seat == seat and log[i].bid == bid), -1
    )


def _bid_jump(state: HandState, seat: int) -> int:
    latest = _latest(state, seat, True)
    return 0 if latest < 0 else state.auction.log[latest].jump


def _bid_number(state: HandState, seat: int) -> int:
    return _latest(state, seat, True) + 1


def _pass_number(state: HandState, seat: int) -> int:
    return _latest(state, seat, False) + 1


def _passed_over(state: HandState, seat: int) -> str:
    latest = _latest(state, seat, False)
    return "" if latest < 0 else state.auction.log[latest].standing


def _thrown_in(state: HandState, reason: str) -> int:
    return sum(1 for deal in state.abandoned if deal["thrown_in"] == reason)


def _bid_position(state: HandState, seat: int) -> int:
    order = state.auction.bid_order
    return order.index(seat) + 1 if seat in order else 0


#: the scalar engine's implementation of every fact of the vocabulary, by name
SCALAR_FACTS: dict[str, Callable[..., Value]] = {
    "hand": _hand,
    "discards": _discards,
    "told_discards": _told_discards,
    "tricks": _tricks,
    "played": _played,
    "pile": _pile,
    "points": _points,
    "opponents": _opponents,
    "declared": _declared,
    "trump_number": _trump_number,
    "next_seat": _next_seat,
    "side": _side,
    "side_pile": _side_pile,
    "side_points": _side_points,
    "tricks_won": _tricks_won,
    "tricks_played": _tricks_played,
    "last_trick_cards": _last_trick_cards,
    "last_trick_winner": _last_trick_winner,
    "declared_value": _declared_value,
    "talon": _talon,
    "packet": _packet,
    PAYMENTS_READ_BY: _total,
    "winning_card": _winning_card,
    "hand_number": _hand_number,
    "first_cards": _first_cards,
    "doublings": _doublings,
    "doubling_factor": _doubling_factor,
    "called_card": _called_card,
    "trick_of": _trick_of,
    "taken_by": _taken_by,
    "played_by": _played_by,
    "position_in_trick": _position_in_trick,
    "bid_position": _bid_position,
    "announced": _announced,
    "announced_by": _announced_by,
    "announce_passes": _announce_passes,
    "answer": _answer,
    "asker": _asker,
    "thrown_in": _thrown_in,
    "bids_made": _bids_made,
    "bid_held": _bid_held,
    "bid_jump": _bid_jump,
    "bid_number": _bid_number,
    "pass_number": _pass_number,
    "passed_over": _passed_over,
    "runs": runs,
}

#: each fact of the vocabulary with its scalar implementation, as the compiler binds it
FACTS: dict[str, FactFunction] = {
    name: FactFunction(fact.params, fact.returns, SCALAR_FACTS[name])
    for name, fact in VOCABULARY.items()
}


def facts_for(cards: int, seats: int, hand_score_steps: int) -> dict[str, FactFunction]:
    """FACTS with the cost of each in a game of `cards` cards and `seats` players, `total()`
    counted with a hand score of `hand_score_steps` for every seat together (the limit, until
    the hand score is compiled: see `total_fact`)."""
    facts = {}
    for name, fact in FACTS.items():
        size = VOCABULARY[name].size
        cost = 1 if size is None else {"cards": cards, "seats": seats}[size]
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

    def __init__(
        self, compute: Callable[[Scope], Value], name: str, of_auction: bool = False
    ) -> None:
        self.compute = compute
        self.name = name
        self.of_auction = of_auction  # reads the auction's words alone

    def __call__(self, scope: Scope) -> Value:
        state: HandState = scope.state  # type: ignore[assignment]
        if self.of_auction:
            return state.remember_after_auction(self.name, self.compute, scope)
        return state.remember(self.name, self.compute, scope)


class SeatDefinition:
    """A definition `of_seat` as a game fact: called with a seat, it evaluates with that seat
    standing for `seat_name`, once per seat and state of the hand."""

    def __init__(
        self,
        compute: Callable[[Scope], Value],
        seat_name: str,
        name: str,
        of_auction: bool = False,
    ) -> None:
        self.compute = compute
        self.seat_name = seat_name
        self.name = name
        self.of_auction = of_auction  # reads the auction's words and its seat alone

    def __call__(self, state: HandState, seat: int) -> Value:
        variables = {self.seat_name: seat}
        if self.of_auction:
            return state.remember_after_auction(
                (self.name, seat), state.evaluate, self.compute, variables
            )
        return state.remember((self.name, seat), state.evaluate, self.compute, variables)
