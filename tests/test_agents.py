"""Agents and seating: HandState.clone, the heuristic agent, --agents."""

from __future__ import annotations

import pytest
from hands import SEATS, new_hand, play_checking

from tarot.cli import main
from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_hand
from tarot.engine.state import IllegalAction, Phase
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.lineup import LineupError, parse_agents, seat_agents

MAROLLES = load_ruleset("marolles-1637")


def marolles_hand(seed: int):
    return new_hand(MAROLLES, seed)


def snapshot(state) -> tuple:
    return (
        [list(h) for h in state.hands],
        [list(w) for w in state.won],
        list(state.payments),
        list(state.decisions),
        dict(state.fired),
        state.current_player(),
    )


def test_clone_is_independent_of_the_original() -> None:
    state = marolles_hand(4)
    agents = seat_agents(("random",), 4, 1, SEATS)
    for _ in range(30):  # into the play, past the discards and declarations
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, seat))
    before = snapshot(state)
    trial = state.clone()
    play_hand(trial, seat_agents(("random",), 9, 1, SEATS))
    assert trial.is_terminal()
    assert snapshot(state) == before
    assert not state.is_terminal()


def test_clone_plays_on_exactly_like_the_original() -> None:
    state = marolles_hand(6)
    twin = state.clone()
    play_hand(state, seat_agents(("random",), 6, 1, SEATS))
    play_hand(twin, seat_agents(("random",), 6, 1, SEATS))
    assert twin.returns() == state.returns()
    assert twin.decisions == state.decisions


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_heuristic_agent_plays_legal_reproducible_hands(seed: int) -> None:
    def played() -> list[dict]:
        agents = [HeuristicAgent(f"{seed}/{seat}") for seat in range(SEATS)]
        return play_checking(marolles_hand(seed), agents)

    assert played() == played()


def test_heuristic_agent_avoids_a_penalised_discard() -> None:
    """Marolles charges a marque for each trump or Tarot discarded; with other cards in hand
    the heuristic player never pays it."""
    for seed in range(1, 9):
        state = marolles_hand(seed)
        agents = [HeuristicAgent(seat) for seat in range(SEATS)]
        while state.phase == Phase.DISCARD:
            seat = state.current_player()
            state.apply_action(agents[seat].choose(state, seat))
        assert "illegal_discard" not in state.fired, seed


def test_parse_agents() -> None:
    assert parse_agents("heuristic", 3) == ("heuristic",)
    assert parse_agents("heuristic,random,random", 3) == ("heuristic", "random", "random")
    with pytest.raises(LineupError, match="no agent kind 'clever'"):
        parse_agents("clever", 3)
    with pytest.raises(LineupError, match="one per seat"):
        parse_agents("random,heuristic", 3)


def test_illegal_actions_still_refused_after_clone() -> None:
    state = marolles_hand(2).clone()
    with pytest.raises(IllegalAction):
        state.apply_action("no-such-card")


def test_agents_flag_on_the_commands(capsys) -> None:
    assert (
        main(
            [
                "simulate",
                "marolles-1637",
                "--hands",
                "6",
                "--jobs",
                "1",
                "--agents",
                "heuristic,random,random",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "heuristic,random,random players" in out
    assert (
        main(
            [
                "diff",
                "marolles-1637",
                "marolles-1637-ultimo-literal",
                "--hands",
                "20",
                "--jobs",
                "1",
                "--agents",
                "heuristic",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "--hand" in out and "--agents heuristic" in out, "replay commands seat the same"
    assert main(["play", "marolles-1637", "--agents", "random,random"]) == 2
    assert "one per seat" in capsys.readouterr().err
