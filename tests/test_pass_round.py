"""A round of announcements or doublings passed whole (`HandState.pass_round`): the play-outs
of a policy that declines them all (the greedy one) pass the round at once instead of
working out, seat by seat, what each may say, and end exactly as when each seat passes in
turn: the same passes, doublings, payments and results, on a doubling phase of its own (a
small game written for the test) and on announcements with doublings in them and a round
that comes round until all pass (Hungarian Tarokk)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.core.actions import DecisionKind, IllegalAction
from tarot.engine.state import HandState
from tarot.players import playouts
from tarot.players.playouts import greedy_policy, play_out, random_policy

DOUBLING = str(Path(__file__).parent / "data" / "rulesets" / "doubling-repeat.yaml")


def _moments(ruleset, hands: int) -> list[HandState]:
    """Every moment of `hands` hands played by random seats (which announce and double)."""
    rng = random.Random(5)
    found = []
    for number in range(1, hands + 1):
        pack = list(range(len(ruleset.deck)))
        rng.shuffle(pack)
        state = HandState(ruleset, number % ruleset.players, pack, number=number)
        while state.decision is not None:
            found.append(state.clone())
            state.apply_action(random_policy(state, rng))
    return found


def _ended(state: HandState) -> tuple:
    return (
        state.returns(),
        state.payments,
        state.announce.passes,
        state.announce.announced,
        state.double.doubled,
    )


@pytest.mark.parametrize(("name", "kind"), [(DOUBLING, "double"), ("hungarian-tarokk", "announce")])
def test_a_round_passed_whole_ends_as_passed_seat_by_seat(monkeypatch, name, kind):
    ruleset = load_ruleset(name)
    moments = _moments(ruleset, 12)
    rounds = [s for s in moments if s.decision.kind == kind]
    assert len(rounds) > 10  # what is tested: the play-outs meet such rounds
    whole = []
    for state in moments:
        whole.append(_ended(play_out(state.clone(), greedy_policy, random.Random(1))))
    monkeypatch.setattr(playouts, "PASSED_WHOLE", frozenset())
    for state, passed in zip(moments, whole, strict=True):
        assert _ended(play_out(state.clone(), greedy_policy, random.Random(1))) == passed


def test_only_an_unlogged_round_of_announcements_or_doublings_passes_whole():
    ruleset = load_ruleset("hungarian-tarokk")
    moments = _moments(ruleset, 4)
    bid = next(s for s in moments if s.decision.kind == DecisionKind.BID)
    with pytest.raises(IllegalAction):
        bid.pass_round()
    announcing = next(s for s in moments if s.decision.kind == DecisionKind.ANNOUNCE)
    with pytest.raises(IllegalAction):
        announcing.pass_round()  # its decisions would go unlogged
    announcing.keeps_log = False
    queue = list(announcing.announce.queue)
    passes = list(announcing.announce.passes)
    announcing.pass_round()
    assert announcing.announce.passes == passes + queue
    assert announcing.decision is None or announcing.decision.kind != DecisionKind.ANNOUNCE


def test_the_greedy_policy_passes_announcements_and_doublings_whole():
    """Its habit declines them and it never chooses them at random (no random number drawn);
    the random policy does not."""
    assert playouts.PASSED_WHOLE == {DecisionKind.ANNOUNCE, DecisionKind.DOUBLE}
