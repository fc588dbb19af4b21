"""Who plays a hand, and in what order: every seat at the table, or all but those sitting out.

Where it sits: in the engine, at the start of each deal (`HandState._start`), read by every
phase that goes round the table (the deal, the auction, the announcements, the doubling, each
trick). A ruleset with `players.sit_out` has more seats at the table than play a hand; the
seats sitting out (the dealer, or those its expression gives) are dealt nothing, asked nothing
and left out of the order of play, which goes round the seats in play only; they take no part
in the payments, or with `pays: as_defender` a defender's share of them (`pay_as_defenders`, at
the settlement). Without it every seat plays and the order is the table's, `(seat + i) %
players`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from tarot.core.ruleset import Ruleset
from tarot.engine.events import At, Payment
from tarot.engine.values import magnitude, selected_seats
from tarot.expressions import EvaluationError, Scope
from tarot.expressions.builtins import Number
from tarot.expressions.numbers import ratio

if TYPE_CHECKING:
    from tarot.engine.state import HandState


@dataclass(frozen=True)
class Seating:
    """The seats of one deal: those in play and those sitting out, and the order of play."""

    players: int  # seats at the table
    out: tuple[int, ...]  # the seats sitting this hand out, in seat order
    in_play: tuple[int, ...]  # the others, in seat order
    #: for each seat at the table, the seats in play in order of play from it (from the next
    #: one in play, for a seat sitting out)
    rounds: tuple[tuple[int, ...], ...]
    next_seats: tuple[int, ...]  # each seat's next seat in play
    others: tuple[tuple[int, ...], ...]  # for each seat, the other seats in play, in seat order

    def from_next(self, seat: int) -> tuple[int, ...]:
        """Every seat in play, in order of play from the one after `seat` (`seat` last when
        it plays)."""
        return self.rounds[self.next_seats[seat]]

    def after(self, seat: int) -> tuple[int, ...]:
        """The seats in play after `seat`, in order of play, `seat` left out."""
        order = self.rounds[seat]
        return order[1:] if order[0] == seat else order


@cache
def seating(players: int, out: tuple[int, ...] = ()) -> Seating:
    """The seating of a table of `players` seats with the seats `out` sitting out."""
    in_play = tuple(s for s in range(players) if s not in out)
    rounds = tuple(
        tuple(s for s in ((seat + i) % players for i in range(players)) if s not in out)
        for seat in range(players)
    )
    following = tuple(next(s for s in order if s != seat) for seat, order in enumerate(rounds))
    others = tuple(tuple(s for s in in_play if s != seat) for seat in range(players))
    return Seating(players, out, in_play, rounds, following, others)


@dataclass(frozen=True)
class _Table:
    """What the expression choosing who sits out may read: the ruleset, and the order round
    the whole table (no hand is dealt yet)."""

    ruleset: Ruleset

    @property
    def seating(self) -> Seating:
        return seating(self.ruleset.players)


def seating_of(ruleset: Ruleset, dealer: int) -> Seating:
    """Who plays the hand `dealer` deals: every seat, or all but those `players.sit_out`
    names (the dealer by default); an EvaluationError when its expression gives a number of
    seats other than those that must sit out."""
    rule, n = ruleset.sit_out, ruleset.players
    if rule is None:
        return seating(n)
    if rule.seats is None:
        return seating(n, (dealer,))
    scope = Scope(_Table(ruleset), {"seats": tuple(range(n)), "players": n, "dealer": dealer})
    try:
        out = tuple(sorted(set(selected_seats(rule.seats(scope)))))
    except EvaluationError as error:
        error.where = error.where or getattr(rule.seats, "where", "")
        raise
    wanted = n - rule.in_hand
    if len(out) != wanted:
        wrong = EvaluationError(
            f"`players.sit_out.seats` gives {len(out)} seat(s) {list(out)} with seat {dealer} "
            f"dealing; {wanted} must sit out ({n} at the table, {rule.in_hand} in each hand)"
        )
        wrong.where = getattr(rule.seats, "where", "")
        raise wrong
    return seating(n, out)


def first_leader(seating: Seating, dealer: int, rule: str) -> int:
    """Who leads to the first trick by the play rules' `first_leader` word: the dealer (the
    first seat in play after him when he sits out), or the seat in play after him."""
    if rule == "dealer" and dealer not in seating.out:
        return dealer
    return seating.after(dealer)[0]


def pay_as_defenders(state: HandState) -> None:
    """`pays: as_defender`: once the hand's rules have paid, each seat sitting out pays or is
    paid, rule by rule and moment by moment, each seat of the taker's side the defenders'
    average share of what that rule moved between that seat and the defenders. Nothing in a
    hand without a taker."""
    attackers, defenders = state.attackers(), state.defenders()
    if not attackers or not defenders:
        return
    moved: dict[tuple[str, At, int], Number] = {}  # what each attacker received, net
    for payment in state.payments:
        if payment.payee in attackers and payment.payer in defenders:
            key, amount = (payment.rule, payment.when, payment.payee), payment.amount
        elif payment.payer in attackers and payment.payee in defenders:
            key, amount = (payment.rule, payment.when, payment.payer), -payment.amount
        else:
            continue
        moved[key] = moved.get(key, 0) + amount
    for seat in state.seating.out:
        for (rule, when, attacker), amount in moved.items():
            share = ratio(amount, len(defenders))
            if share:
                payer, payee = (seat, attacker) if share > 0 else (attacker, seat)
                state.payments.append(Payment(rule, payer, payee, magnitude(share), when))
    state._forget_totals()
