"""The search agent (tarot.players.search_agent) and agent settings on --agents."""

from __future__ import annotations

import hands
import pytest
from hands import SEATS, new_hand, play_checking

from tarot.cli import main
from tarot.compile.loader import load_ruleset
from tarot.core.actions import DecisionKind
from tarot.engine.state import Phase
from tarot.players.lineup import LineupError, parse_agents, seat_agents
from tarot.players.search_agent import SearchAgent

MAROLLES = load_ruleset("marolles-1637")


def into_play(seed: int, tricks: int = 0):
    """A Marolles hand, with random players, up to the first card of trick `tricks` + 1."""
    return hands.into_play(MAROLLES, seed, tricks)


def test_search_agent_plays_a_whole_hand_legally_and_reproducibly() -> None:
    def played() -> list[str]:
        state = into_play(2, tricks=16)
        agents = [SearchAgent(f"2/{seat}", samples=2) for seat in range(SEATS)]
        return play_checking(state, agents)

    assert played() == played()


def test_search_agent_leaves_the_state_alone() -> None:
    state = into_play(3, tricks=12)
    before = ([list(h) for h in state.hands], list(state.decisions), list(state.payments))
    SearchAgent("x", samples=3).choose(state, state.current_player())
    assert ([list(h) for h in state.hands], list(state.decisions), list(state.payments)) == before


def test_search_agent_takes_discard_decisions() -> None:
    state = new_hand(MAROLLES, 4)
    assert state.decision.kind == DecisionKind.DISCARD
    agent = SearchAgent("d", samples=1, rollout="random")
    assert agent.choose(state, state.current_player()) in state.legal_actions()


def test_search_agent_never_pays_the_discard_penalty_for_a_card_worth_nothing() -> None:
    """Marolles charges for each trump or Tarot discarded; the search sees the payment. A
    King laid away may be worth its price (its points are safe in the discards), but a
    penalised card of the pack's least value never is."""
    values = MAROLLES.counting.values
    penalised = MAROLLES.deck.sets["not_discardable"]
    for seed in (1, 2, 3):
        state = new_hand(MAROLLES, seed)
        agents = [SearchAgent(f"{seed}/{s}", samples=1) for s in range(SEATS)]
        while state.phase == Phase.DISCARD:
            seat = state.current_player()
            state.apply_action(agents[seat].choose(state, seat))
        laid_away = [card for pile in state.discards for card in pile]
        assert not [c for c in laid_away if c in penalised and values[c] == min(values)], seed


@pytest.mark.parametrize("rollout", ["greedy", "random", "heuristic"])
def test_every_rollout_policy_chooses_a_legal_card(rollout: str) -> None:
    state = into_play(5, tricks=17)
    agent = SearchAgent("r", samples=2, rollout=rollout)
    assert agent.choose(state, state.current_player()) in state.legal_actions()


def test_a_time_budget_still_takes_one_sample() -> None:
    state = into_play(6, tricks=18)
    agent = SearchAgent("t", seconds=1e-9)
    assert agent.choose(state, state.current_player()) in state.legal_actions()


def test_names_carry_settings_that_differ_from_the_defaults() -> None:
    assert SearchAgent("s").name == "search"
    assert SearchAgent("s", samples=20).name == "search(samples=20)"
    assert SearchAgent("s", rollout="random").name == "search(rollout=random)"
    assert SearchAgent("s", rollout="greedy").name == "search"


def test_bad_settings_are_refused_by_the_agent() -> None:
    with pytest.raises(ValueError, match="samples must be from 1 to 10,000, not 0"):
        SearchAgent(samples=0)
    with pytest.raises(ValueError, match="rollout must be one of"):
        SearchAgent(rollout="clever")


def test_parse_agents_with_settings() -> None:
    assert parse_agents("search", 3) == ("search",)
    assert parse_agents("search:samples=20,heuristic,random", 3) == (
        "search:samples=20",
        "heuristic",
        "random",
    )
    assert parse_agents("search:rollout=random:samples=4", 3) == (
        "search:samples=4:rollout=random",
    ), "settings in the kind's order"
    assert parse_agents("search:rollout=greedy", 3) == ("search",), "defaults left out"


@pytest.mark.parametrize(
    "text, message",
    [
        ("search:depth=3", "agent 'search' has no setting 'depth'; settings: samples, seconds"),
        ("search:samples=many", "agent 'search': samples must be a whole number, not 'many'"),
        ("search:samples=0", "agent 'search': samples must be from 1 to 10,000, not 0"),
        ("search:samples=10001", "samples must be from 1 to 10,000, not 10001"),
        ("search:seconds=inf", "seconds must be more than 0 and at most 3600, not inf"),
        ("search:seconds=soon", "seconds must be a number"),
        ("search:rollout=clever", "rollout must be one of greedy, random, heuristic"),
        ("search:samples", "settings are key=value, not 'samples'"),
        ("random:samples=3", "agent 'random' has no setting 'samples'; settings: none"),
        ("clever:samples=3", "no agent kind 'clever'"),
    ],
)
def test_parse_agents_refuses_bad_settings(text: str, message: str) -> None:
    with pytest.raises(LineupError, match=message.replace("(", r"\(")):
        parse_agents(text, 3)


def test_seat_agents_builds_agents_from_their_text() -> None:
    agents = seat_agents(("search:samples=3", "heuristic", "random"), 1, 2, 3)
    assert [a.name for a in agents] == ["search(samples=3)", "heuristic", "random"]
    assert agents[0].samples == 3


def test_bad_settings_on_the_command_line_are_a_message(capsys) -> None:
    assert main(["play", "marolles-1637", "--agents", "search:depth=2"]) == 2
    err = capsys.readouterr().err
    assert "no setting 'depth'" in err and "Traceback" not in err


@pytest.mark.slow
def test_search_agents_on_simulate_over_two_workers(capsys) -> None:
    """Workers are spawned and build the agents from their text alone."""
    argv = ["simulate", "marolles-1637", "--hands", "2", "--seed", "3"]
    argv += ["--agents", "search:samples=1:rollout=random,random,random"]
    assert main([*argv, "--jobs", "2"]) == 0
    assert "search:samples=1:rollout=random,random,random players" in capsys.readouterr().out


def test_screening_keeps_a_quarter_of_many_actions_and_leaves_few_alone() -> None:
    from tarot.players.search_agent import _screening

    assert _screening(22, 8) == (2, 6), "a quarter of the deals, a quarter of the actions"
    assert _screening(8, 8) == (2, 3), "at least three actions kept"
    assert _screening(4, 8) == (8, 0), "keeping three of four is not worth a stage"
    assert _screening(22, 2) == (2, 0), "no deal left for a first stage"
    assert _screening(22, 32) == (8, 6)


def test_survivors_are_the_best_means_and_the_conservative_answer() -> None:
    import random

    from tarot.core.actions import Pass
    from tarot.players.judging import survivors

    actions = ["a", "b", Pass(), "c", "d"]  # only the pass's type matters here
    results = [[1.0, 3.0], [5.0, 5.0], [-9.0, -9.0], [4.0, 4.0], [0.0, 0.0]]
    assert survivors(actions, results, 2, random.Random(1)) == [1, 2, 3]
    assert survivors(["a", "b", "c"], [[1.0], [1.0], [0.0]], 2, random.Random(1)) == [0, 1]


def count_playouts(monkeypatch, agent: SearchAgent, state) -> int:
    from tarot.players import judging

    played = []
    real = judging.play_out

    def counting(trial, *args, **kwargs):
        played.append(1)
        return real(trial, *args, **kwargs)

    monkeypatch.setattr(judging, "play_out", counting)
    assert agent.choose(state, state.current_player()) in state.legal_actions()
    return len(played)


def test_a_screened_decision_plays_the_kept_actions_on_the_rest_of_the_deals(
    monkeypatch,
) -> None:
    state = new_hand(MAROLLES, 4)
    actions = len(state.legal_actions())
    assert state.decision.kind == DecisionKind.DISCARD and actions > 16
    off = count_playouts(monkeypatch, SearchAgent("s", screen="off", batch="off"), state)
    on = count_playouts(monkeypatch, SearchAgent("s", batch="off"), state)
    keep = -(-actions // 4)
    assert off == 8 * actions
    assert on == 2 * actions + 6 * keep


def test_screening_off_and_its_name() -> None:
    assert SearchAgent("s", screen="off").name == "search(screen=off)"
    with pytest.raises(ValueError, match="screen must be one of on, off"):
        SearchAgent(screen="sometimes")


def test_a_screened_choice_is_the_same_batched_alone_or_as_a_coroutine() -> None:
    state = into_play(7, tricks=3)
    seat = state.current_player()
    alone = SearchAgent("c").choose(state, seat)
    deciding = SearchAgent("c").deciding(state, seat)
    from tarot.players.batched_playouts import finish

    stages = 0
    try:
        pending = next(deciding)
        while True:
            stages += 1
            finish([pending])
            pending = deciding.send(None)
    except StopIteration as done:
        assert done.value == alone
    assert stages == 2, "a card decision of many actions is judged in two stages"


def into_declaration(seed: int):
    """A Marolles hand, random players up to the first declaration offered (None: none)."""
    from tarot.players.random_agent import RandomAgent

    state = new_hand(MAROLLES, seed)
    agent = RandomAgent(seed)
    while state.decision is not None and state.decision.kind != DecisionKind.DECLARE:
        state.apply_action(agent.choose(state, state.current_player()))
    return state if state.decision is not None else None


def test_a_raced_declaration_stops_once_one_answer_is_clearly_better(monkeypatch) -> None:
    """Declaring pays the same on every guessed deal, so one stage of the agent's own count
    of deals settles it; without racing, every widened deal is played."""
    state = next(
        s for s in map(into_declaration, range(1, 40)) if s and len(s.legal_actions()) == 2
    )
    hand = len(state.zones.hands[state.current_player()])
    widened = max(8, 8 * hand // 2)
    assert widened > 8
    off = count_playouts(monkeypatch, SearchAgent("r", race="off", batch="off"), state)
    on = count_playouts(monkeypatch, SearchAgent("r", batch="off"), state)
    assert off == 2 * widened
    assert on == 2 * 8
    assert SearchAgent("r").choose(state, state.current_player()) == SearchAgent(
        "r", race="off"
    ).choose(state, state.current_player())


def test_clearly_better_by_a_margin() -> None:
    from tarot.players.judging import clearly_better

    assert clearly_better([3.0, 3.0, 3.0], [1.0, 1.0, 1.0], 100.0), "the same gain every deal"
    assert not clearly_better([3.0, 3.0], [3.0, 3.0], 0.0), "equal is not better"
    noisy = [5.0, -1.0, 4.0, 0.0]
    assert clearly_better(noisy, [0.0] * 4, 1.0)
    assert not clearly_better(noisy, [0.0] * 4, 3.0)


def test_racing_off_and_its_name() -> None:
    assert SearchAgent("s", race="off").name == "search(race=off)"
    with pytest.raises(ValueError, match="race must be one of on, off"):
        SearchAgent(race="fast")
