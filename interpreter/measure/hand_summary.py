"""One hand played and boiled down to what the measures need: a `HandSummary`.

Where it sits: the unit of work of a simulation. `play_summarized` deals hand N of a seeded
game (`play_sitting_summarized`: plays sitting N, for rulesets whose hands depend on the hands
before), lets the agents play it, and on the way notes the running result after every decision
(who leads, when the eventual winner took the lead for good), the number of legal choices at
each decision, and how often each rule paid. Summaries are small and picklable, so worker
processes send them back to the process that folds them into statistics.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from interpreter.agents.base import Agent
from interpreter.engine.collector import few_collections
from interpreter.engine.game import deal_hand, play_hands, sitting_seed
from interpreter.engine.state import HandState
from interpreter.engine.values import tidy
from interpreter.ruleset import Ruleset


@dataclass(frozen=True)
class HandSummary:
    number: int
    dealer: int
    net: tuple[float, ...]  # per seat
    decisions: int
    choices: int  # legal choices summed over the decisions
    winner: int | None  # the one seat with the best result; None when the best is shared
    decided_at: int | None  # decisions taken before the winner led for good
    lead_changes: int  # times the sole leader of the running result changed
    fired: dict[str, int] = field(default_factory=dict)  # rule -> times it paid

    @property
    def decided_share(self) -> float | None:
        """Share of the hand's decisions taken before the winner led for good."""
        if self.decided_at is None:
            return None
        return self.decided_at / self.decisions if self.decisions else 0.0


def sole_leader(net: Sequence[float]) -> int | None:
    best = max(net)
    leaders = [seat for seat, value in enumerate(net) if value == best]
    return leaders[0] if len(leaders) == 1 else None


def play_summarized(
    ruleset: Ruleset, seed: int, number: int, agents: Sequence[Agent]
) -> HandSummary:
    state = deal_hand(ruleset, seed, number)
    running = _Running(ruleset.players)
    with few_collections():
        running.play(state, agents)
    return running.summary(number, state.dealer, tuple(state.returns()), dict(state.fired))


def play_sitting_summarized(
    ruleset: Ruleset, seed: int, number: int, agents: Callable[[int], Sequence[Agent]]
) -> HandSummary:
    """Sitting `number` of a run seeded `seed` (the game `sitting_seed` gives), played to its
    end and summarized as one unit: its net is the sitting's, its decisions all of its
    hands', its dealer the first hand's (`agents`: the agents for each hand number)."""
    running = _Running(ruleset.players)
    net = [0.0] * ruleset.players
    fired: dict[str, int] = {}
    dealer = None
    for state in play_hands(ruleset, sitting_seed(seed, number), agents, None, running.play):
        dealer = state.dealer if dealer is None else dealer
        net = [n + r for n, r in zip(net, state.returns(), strict=True)]
        for rule, times in state.fired.items():
            fired[rule] = fired.get(rule, 0) + times
    assert dealer is not None  # a sitting has at least one hand
    return running.summary(number, dealer, tuple(tidy(n) for n in net), fired)


class _Running:
    """The running result after every decision of one or more hands, and what the
    measures make of it."""

    def __init__(self, players: int) -> None:
        self.running = [0.0] * players
        self.leaders: list[int | None] = []  # the sole leader after 0, 1, 2... decisions
        self.decisions = self.choices = 0

    def play(self, state: HandState, agents: Sequence[Agent]) -> None:
        """Let the agents play the hand out, noting the leader after each decision."""
        counted = [0, 0]  # payments and transfers already in the running result

        def note_leader() -> None:
            if (len(state.payments), len(state.transfers)) == tuple(counted) and self.leaders:
                self.leaders.append(self.leaders[-1])  # nothing paid: the leader stays
                return
            for payment in state.payments[counted[0] :]:
                self.running[payment.payer] -= payment.amount
                self.running[payment.payee] += payment.amount
            for move in state.transfers[counted[1] :]:
                self.running[move.seat] -= move.amount
            counted[:] = [len(state.payments), len(state.transfers)]
            self.leaders.append(sole_leader(self.running))

        note_leader()
        while not state.is_terminal():
            decision = state.decision
            assert decision is not None  # a hand not over waits on a decision
            seat = decision.seat
            self.choices += len(decision.choices)
            state.apply_action(agents[seat].choose(state, seat))
            self.decisions += 1
            note_leader()

    def summary(
        self, number: int, dealer: int, net: tuple[float, ...], fired: dict[str, int]
    ) -> HandSummary:
        leaders = self.leaders
        winner = sole_leader(net)
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
            dealer=dealer,
            net=net,
            decisions=self.decisions,
            choices=self.choices,
            winner=winner,
            decided_at=decided_at,
            lead_changes=changes,
            fired=fired,
        )


def rule_keys(ruleset: Ruleset) -> list[str]:
    """Every name a payment can carry: each rule's id and each declaration level."""
    keys = [rule.id for rules in ruleset.payments.values() for rule in rules]
    keys += [rule.id for rule in ruleset.settlement]
    for declaration in ruleset.declarations:
        keys += [f"{declaration.id}:{level.id}" for level in declaration.levels]
    return keys
