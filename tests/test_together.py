"""Hands and sittings played side by side (`tarot.players.together`): the search players'
play-outs of many hands batched at once give every hand (and sitting) exactly as it is
played alone, in fewer batches than decisions."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.game import plays_sittings
from tarot.measure.hand_summary import play_summarized, summarized
from tarot.measure.runner import RulesetSpec, RunPlan, Table, run_hands
from tarot.players import batched_playouts as playouts
from tarot.players.lineup import seat_agents
from tarot.players.together import play_together, pools_playouts

# the slow tier (`python -m pytest -m slow`): runs of hands played side by side and alone
pytestmark = pytest.mark.slow

AGENTS = ("search:samples=2",)
SITTINGS = Path(__file__).parent / "data" / "rulesets" / "lasting-state.yaml"


@pytest.mark.parametrize("ruleset_id", ["marolles-1637", "french-tarot", "marolles-1637-wickson"])
def test_hands_side_by_side_are_the_hands_played_alone(
    ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset = load_ruleset(ruleset_id)
    numbers = range(1, 5)

    def agents(number: int) -> list:
        return seat_agents(AGENTS, 3, number, ruleset.players)

    alone = [play_summarized(ruleset, 3, number, agents(number)) for number in numbers]
    batches: list[int] = []
    decisions: list[int] = []
    play_states, finish = playouts.play_states, playouts.finish

    def counted_play_states(*args, **kwargs):  # type: ignore[no-untyped-def]
        batches.append(len(args[0]))
        return play_states(*args, **kwargs)

    def counted_finish(pendings):  # type: ignore[no-untyped-def]
        decisions.extend(pendings)
        return finish(pendings)

    monkeypatch.setattr(playouts, "play_states", counted_play_states)
    monkeypatch.setattr(playouts, "finish", counted_finish)
    together = play_together([summarized(ruleset, 3, n, agents(n)) for n in numbers])
    assert together == alone
    assert decisions, "the search players batched no play-outs"
    assert len(batches) < len(decisions)  # decisions of several hands shared a batch


def test_a_run_of_search_players_plays_its_chunk_side_by_side() -> None:
    plan = RunPlan((RulesetSpec("marolles-1637"),), seed=8, hands=3, agents=AGENTS)
    assert plan.pools_playouts
    assert not RunPlan(plan.rulesets, seed=8, hands=3, agents=("heuristic",)).pools_playouts
    rulesets = [spec.load() for spec in plan.rulesets]
    one_at_a_time = [Table(plan, rulesets).play_hand(n, (0,)) for n in range(1, 4)]
    assert list(run_hands(plan, rulesets)) == one_at_a_time


def test_only_agents_that_decide_as_coroutines_pool_their_playouts() -> None:
    assert pools_playouts(seat_agents(("random", "search"), 1, 1, 2))
    assert not pools_playouts(seat_agents(("random", "heuristic"), 1, 1, 2))


def test_sittings_side_by_side_are_the_sittings_played_alone_hand_by_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a ruleset that plays sittings (lasting state, a game that ends by rule)
    plan = RunPlan((RulesetSpec(str(SITTINGS)),), seed=5, hands=3, agents=AGENTS)
    rulesets = [spec.load() for spec in plan.rulesets]
    assert plays_sittings(rulesets[0]) and playouts.runs(rulesets[0])
    work = [(number, (0,)) for number in range(1, 4)]
    batches: dict[str, list[set[int]]] = {"alone": [], "together": []}
    into = batches["alone"]
    play_states = playouts.play_states

    def noted_play_states(*args, **kwargs):  # type: ignore[no-untyped-def]
        into.append({state.number for state in args[0]})  # the hands of their sittings
        return play_states(*args, **kwargs)

    monkeypatch.setattr(playouts, "play_states", noted_play_states)
    alone = [Table(plan, rulesets).play_hand(number, which) for number, which in work]
    into = batches["together"]
    together = Table(plan, rulesets).play(work)
    assert together == alone
    assert batches["alone"], "the search players batched no play-outs"
    assert len(batches["together"]) < len(batches["alone"])  # the sittings shared batches
    # each batch holds play-outs of the same hand of their sittings
    assert all(len(hands) == 1 for hands in batches["together"])
