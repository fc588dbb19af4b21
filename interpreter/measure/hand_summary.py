"""One hand played and boiled down to what the measures need: a `HandSummary`.

Where it sits: the unit of work of a simulation. `play_summarized` deals hand N of a seeded
game, lets the agents play it, and on the way notes the running result after every decision
(who leads, when the eventual winner took the lead for good), the number of legal choices at
each decision, how often each rule paid and how much it moved, and, in a game with an
auction, who took and at which contract. Summaries are small and picklable, so worker
processes send them back to the process that folds them into statistics.

Results are read by sides, the sides the hand ended with (`HandState.side_of`): the best
result wins when every seat that has it is on one side, and that side is the winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from interpreter.agents.base import Agent
from interpreter.engine.collector import few_collections
from interpreter.engine.events import Payment
from interpreter.engine.game import deal_hand
from interpreter.ruleset import Ruleset


@dataclass(frozen=True)
class HandSummary:
    number: int
    dealer: int
    net: tuple[float, ...]  # per seat
    decisions: int
    choices: int  # legal choices summed over the decisions
    winner: int | None  # the winning side's first seat; None when sides share the best
    decided_at: int | None  # decisions taken before the winner led for good
    lead_changes: int  # times the sole leading side of the running result changed
    fired: dict[str, int] = field(default_factory=dict)  # rule -> times it paid
    paid: dict[str, float] = field(default_factory=dict)  # rule -> sum of its payments' amounts
    taker: int | None = None  # the auction's winner (None: no auction, or nobody took)
    partner: int | None = None  # the taker's partner, when one was called and is not himself
    contract: str | None = None  # the contract the taker played
    winners: tuple[int, ...] = ()  # the winning side (the winner alone when he has no side)

    @property
    def attackers(self) -> tuple[int, ...]:
        """The taker and his partner; empty when nobody took."""
        if self.taker is None:
            return ()
        return (self.taker,) if self.partner is None else (self.taker, self.partner)

    @property
    def decided_share(self) -> float | None:
        """Share of the hand's decisions taken before the winner led for good."""
        if self.decided_at is None:
            return None
        return self.decided_at / self.decisions if self.decisions else 0.0


Sides = Sequence[Sequence[int]]  # each seat's side, itself included


def best_seats(net: Sequence[float]) -> tuple[int, ...]:
    """The seats with the best result."""
    best = max(net)
    return tuple(seat for seat, value in enumerate(net) if value == best)


def leading_side(best: Sequence[int], sides: Sides | None = None) -> int | None:
    """The first seat of the one side that holds every seat of `best`, or None when the best
    is shared across sides (without `sides`, each seat is a side alone)."""
    if len(best) == 1:
        return best[0]
    if sides is None:
        return None
    side = sides[best[0]]
    return min(side) if all(seat in side for seat in best) else None


def sole_leader(net: Sequence[float], sides: Sides | None = None) -> int | None:
    """The first seat of the side alone in the lead (see `leading_side`)."""
    return leading_side(best_seats(net), sides)


def play_summarized(
    ruleset: Ruleset, seed: int, number: int, agents: Sequence[Agent]
) -> HandSummary:
    state = deal_hand(ruleset, seed, number)
    running = [0.0] * ruleset.players
    counted = 0
    bests: list[tuple[int, ...]] = []  # the seats with the best result after 0, 1, 2... decisions
    decisions = choices = 0

    def note_leader() -> None:
        nonlocal counted
        if len(state.payments) == counted and bests:  # nothing paid: the leaders stay
            bests.append(bests[-1])
            return
        for payment in state.payments[counted:]:
            running[payment.payer] -= payment.amount
            running[payment.payee] += payment.amount
        counted = len(state.payments)
        bests.append(best_seats(running))

    note_leader()
    with few_collections():
        while not state.is_terminal():
            decision = state.decision
            assert decision is not None  # a hand not over waits on a decision
            seat = decision.seat
            choices += len(decision.choices)
            state.apply_action(agents[seat].choose(state, seat))
            decisions += 1
            note_leader()

    net = tuple(state.returns())
    sides = [state.side_of(seat) for seat in range(ruleset.players)]
    leaders = [leading_side(best, sides) for best in bests]
    winner = sole_leader(net, sides)
    decided_at = None
    if winner is not None:
        decided_at = len(leaders) - 1
        while decided_at > 0 and leaders[decided_at - 1] == winner:
            decided_at -= 1
    changes = 0
    previous = None
    for leader in leaders:
        if leader is not None:
            changes += previous is not None and leader != previous
            previous = leader
    return HandSummary(
        number=number,
        dealer=state.dealer,
        net=net,
        decisions=decisions,
        choices=choices,
        winner=winner,
        decided_at=decided_at,
        lead_changes=changes,
        fired=dict(state.fired),
        paid=paid_by_rule(state.payments),
        taker=state.taker,
        partner=state.partner,
        contract=state.contract,
        winners=() if winner is None else tuple(sides[winner]),
    )


def paid_by_rule(payments: Sequence[Payment]) -> dict[str, float]:
    """What each rule moved in a hand: the sum of the amounts of its payments."""
    paid: dict[str, float] = {}
    for payment in payments:
        paid[payment.rule] = paid.get(payment.rule, 0.0) + payment.amount
    return paid


def rule_keys(ruleset: Ruleset) -> list[str]:
    """Every name a payment can carry: each rule's id and each declaration level."""
    keys = [rule.id for rules in ruleset.payments.values() for rule in rules]
    keys += [rule.id for rule in ruleset.settlement]
    for declaration in ruleset.declarations:
        keys += [f"{declaration.id}:{level.id}" for level in declaration.levels]
    return keys
