"""One hand played and boiled down to what the measures need: a `HandSummary`.

Where it sits: the unit of work of a simulation. `play_summarized` deals hand N of a seeded
game (`play_sitting_summarized`: plays sitting N, for rulesets whose hands depend on the hands
before), lets the agents play it, and on the way notes the running result after every decision
(who leads, when the eventual winner took the lead for good), the number of legal choices at
each decision, how often each rule paid and how much it moved (its payments, its transfers
to and from accounts, and the hand score as one more rule), and, in a game with an auction,
who took and at which contract (in a sitting, for each of its hands). Summaries are small
and picklable, so worker processes send them back to the process that folds them into
statistics.

Results are read by sides, the sides the hand ended with (`HandState.side_of`): the best
result wins when every seat that has it is on one side, and that side is the winner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from tarot.core.agent import Agent
from tarot.core.ruleset import HAND_SCORE, Ruleset
from tarot.core.summary import (
    Deal,
    HandSummary,
    Sides,
    best_seats,
    leading_side,
    paid_by_rule,
    sole_leader,
)
from tarot.engine.collector import few_collections
from tarot.engine.game import deal_hand, dealt_hands, sitting_seed
from tarot.engine.state import HandState
from tarot.expressions.builtins import Number, magnitude
from tarot.expressions.numbers import approximate, measured
from tarot.players.together import Playing, deciding, play_together, staged


def play_summarized(
    ruleset: Ruleset, seed: int, number: int, agents: Sequence[Agent]
) -> HandSummary:
    with few_collections():
        return play_together([summarized(ruleset, seed, number, agents)])[0]


def summarized(
    ruleset: Ruleset, seed: int, number: int, agents: Sequence[Agent]
) -> Playing[HandSummary]:
    """`play_summarized` as a coroutine (`agents.together`), to be played beside others."""
    state = deal_hand(ruleset, seed, number)
    running = _Running(ruleset.players)
    yield from running.playing(state, agents)
    sides = [state.side_of(seat) for seat in range(ruleset.players)]
    fired, paid = moved_by_rule(state)
    return replace(
        running.summary(number, state.dealer, measured(state.returns()), sides),
        fired=fired,
        paid=paid,
        taker=state.auction.taker,
        partner=state.auction.partner,
        contract=state.auction.contract,
    )


def play_sitting_summarized(
    ruleset: Ruleset, seed: int, number: int, agents: Callable[[int], Sequence[Agent]]
) -> HandSummary:
    """Sitting `number` of a run seeded `seed` (the game `sitting_seed` gives), played to its
    end and summarized as one unit: its net is the sitting's, its decisions all of its
    hands', its dealer the first hand's (`agents`: the agents for each hand number). Each seat
    is a side alone: sides may change from hand to hand."""
    with few_collections():
        return play_together([sitting_summarized(ruleset, seed, number, agents)])[0]


def sitting_summarized(
    ruleset: Ruleset, seed: int, number: int, agents: Callable[[int], Sequence[Agent]]
) -> Playing[HandSummary]:
    """`play_sitting_summarized` as a coroutine (`agents.together`), to be played beside
    other sittings or hands."""
    running = _Running(ruleset.players)
    net: list[Number] = [0] * ruleset.players  # added up exactly, measured as floats
    fired: dict[str, int] = {}
    paid: dict[str, float] = {}
    deals: list[Deal] = []
    for stage, state in enumerate(dealt_hands(ruleset, sitting_seed(seed, number), None)):
        yield from staged(running.playing(state, agents(state.number)), stage)
        returns = state.returns()
        net = [n + r for n, r in zip(net, returns, strict=True)]
        hand_fired, hand_paid = moved_by_rule(state)
        for rule, times in hand_fired.items():
            fired[rule] = fired.get(rule, 0) + times
        for rule, amount in hand_paid.items():
            paid[rule] = paid.get(rule, 0.0) + amount
        deals.append(
            Deal(
                state.dealer,
                measured(returns),
                state.auction.taker,
                state.auction.partner,
                state.auction.contract,
            )
        )
    assert deals  # a sitting has at least one hand
    summary = running.summary(number, deals[0].dealer, measured(net))
    return replace(summary, fired=fired, paid=paid, deals=tuple(deals))


class _Running:
    """The running result after every decision of one or more hands, and what the
    measures make of it."""

    def __init__(self, players: int) -> None:
        self.running: list[Number] = [0] * players  # exact, so that ties stay ties
        self.bests: list[tuple[int, ...]] = []  # the best seats after 0, 1, 2... decisions
        self.decisions = self.choices = 0

    def playing(self, state: HandState, agents: Sequence[Agent]) -> Playing[None]:
        """Let the agents play the hand out, noting the best seats after each decision: a
        coroutine (`agents.together`)."""
        counted = [0, 0]  # payments and transfers already in the running result

        def note_leader() -> None:
            if (len(state.payments), len(state.transfers)) == tuple(counted) and self.bests:
                self.bests.append(self.bests[-1])  # nothing paid: the leaders stay
                return
            for payment in state.payments[counted[0] :]:
                self.running[payment.payer] -= payment.amount
                self.running[payment.payee] += payment.amount
            for move in state.transfers[counted[1] :]:
                self.running[move.seat] -= move.amount
            counted[:] = [len(state.payments), len(state.transfers)]
            self.bests.append(best_seats(self.running))

        note_leader()
        while not state.is_terminal():
            decision = state.decision
            assert decision is not None  # a hand not over waits on a decision
            seat = decision.seat
            self.choices += len(decision.choices)
            state.apply_action((yield from deciding(agents[seat], state, seat)))
            self.decisions += 1
            note_leader()

    def summary(
        self, number: int, dealer: int, net: tuple[float, ...], sides: Sides | None = None
    ) -> HandSummary:
        """The summary of what was played, read by `sides` (None: each seat alone)."""
        leaders = [leading_side(best, sides) for best in self.bests]
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
        winners: tuple[int, ...] = ()
        if winner is not None:
            winners = (winner,) if sides is None else tuple(sides[winner])
        return HandSummary(
            number=number,
            dealer=dealer,
            net=net,
            decisions=self.decisions,
            choices=self.choices,
            winner=winner,
            decided_at=decided_at,
            lead_changes=changes,
            winners=winners,
        )


def moved_by_rule(state: HandState) -> tuple[dict[str, int], dict[str, float]]:
    """How often each rule fired in a finished hand and what it moved: its payments'
    amounts, the amounts of its transfers to and from accounts, and under `HAND_SCORE` the
    points every seat scored (fired once for each seat that scored)."""
    fired = dict(state.fired)
    paid = paid_by_rule(state.payments)
    for move in state.transfers:
        paid[move.rule] = paid.get(move.rule, 0.0) + approximate(magnitude(move.amount))
    if state.ruleset.hand_score is not None:
        scored = [magnitude(score) for score in state.scores if score]
        if scored:
            fired[HAND_SCORE] = len(scored)
            paid[HAND_SCORE] = approximate(sum(scored))
    return fired, paid
