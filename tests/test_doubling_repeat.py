"""A doubling repeated without a fixed end (`doubling.repeat`): past the named steps the
sides go on doubling in turn, each further doubling named `repeat.step`, until a side
declines, the `limit` expression is reached, or the multiplier would leave the numbers'
range; on a small game written for the test (tests/data/rulesets/doubling-repeat.yaml)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tarot.compile.loader import load_ruleset
from tarot.core.actions import Double
from tarot.engine.game import play_game
from tarot.engine.state import HandState
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent
from tarot.presentation.seat_screen import action_label
from tarot.presentation.transcript import hand_transcript
from tarot.records.record import game_record
from tarot.records.replay import replay_record
from tests.commands import tarot
from tests.small_games import compiled, edited, problems, replayed_games, say

GAME = Path(__file__).parent / "data" / "rulesets" / "doubling-repeat.yaml"
RULESET = load_ruleset(GAME)


def doubling_under(ruleset, contract: str) -> HandState:
    """A hand of seat 0's deal won by seat 1 with `contract`, at the first doubling (the
    defenders, seats 2 and 0, double first)."""
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    say(state, (1, contract), (2, "pass"), (0, "pass"))
    while state.decision.kind == "discard":
        state.apply_action(state.legal_actions()[0])
    assert state.decision.kind == "double" and state.current_player() == 2
    return state


def variant(tmp_path: Path, change) -> Path:
    """The game changed by `change`, written beside a copy of the game it extends."""
    shutil.copy(GAME.parent / "flow-base.yaml", tmp_path / "flow-base.yaml")
    return edited(GAME, tmp_path, change)


def factor(state: HandState) -> object:
    return state.evaluate(compiled(state.ruleset, "doubling_factor('game')"))


def test_the_sides_go_on_doubling_past_the_named_steps():
    state = doubling_under(RULESET, "high")
    say(state, (2, "pass:game"), (0, "double:game"), (1, "redouble:game"))
    # past the two named steps each further doubling is `again`, the sides still alternating
    for seat in (2, 1, None, 0, 1):
        if seat is None:  # one defender declines, the other doubles
            say(state, (2, "pass:game"))
            continue
        assert state.current_player() == seat
        assert state.legal_actions() == ["again:game", "pass:game"]
        state.apply_action("again:game")
    assert state.double.doubled == {"game": 6} and factor(state) == 64
    say(state, (2, "pass:game"), (0, "pass:game"))  # the defenders decline: play begins
    assert state.decision.kind == "play"
    transcript = hand_transcript(state)
    assert "  Seat 0: again (The game), doubling 5, x32" in transcript
    assert "The game: doubled 6 time(s), x64" in transcript
    assert action_label(RULESET, Double("game", "again")) == "again: The game"


def test_the_limit_expression_closes_the_target():
    # under the low contract the limit is 4 doublings in all
    state = doubling_under(RULESET, "low")
    say(state, (2, "double:game"), (1, "redouble:game"), (2, "again:game"), (1, "again:game"))
    assert state.double.doubled == {"game": 4}
    assert state.decision.kind == "play"


def test_a_limit_below_the_named_steps_stops_them_too(tmp_path: Path):
    def change(document: dict) -> None:
        document["doubling"]["repeat"]["limit"] = 1

    state = doubling_under(load_ruleset(variant(tmp_path, change)), "high")
    say(state, (2, "double:game"))
    assert state.decision.kind == "play"


def test_without_a_limit_the_doublings_end_at_the_numbers_range(tmp_path: Path):
    def change(document: dict) -> None:
        del document["doubling"]["repeat"]["limit"]

    state = doubling_under(load_ruleset(variant(tmp_path, change)), "high")
    while state.decision.kind == "double":
        state.apply_action(next(a for a in state.legal_actions() if not a.startswith("pass")))
    # 2 ** 49 is within 10 ** 15, 2 ** 50 past it
    assert state.double.doubled == {"game": 49} and factor(state) == 2**49


def test_misused_repeats_are_refused_with_their_place(tmp_path: Path):
    def named_pass(document: dict) -> None:
        document["doubling"]["repeat"]["step"] = "pass"

    message = problems(variant(tmp_path, named_pass))
    assert "$.doubling.repeat.step: a doubling cannot be named 'pass'" in message

    def endless(document: dict) -> None:
        del document["doubling"]["repeat"]["limit"]
        document["doubling"]["factor"] = 1

    message = problems(variant(tmp_path, endless))
    assert "$.doubling.repeat: with a `factor` of 1 the doublings would never reach" in message

    def not_a_number(document: dict) -> None:
        document["doubling"]["repeat"]["limit"] = "taker"

    message = problems(variant(tmp_path, not_a_number))
    assert "$.doubling.repeat.limit" in message and "NUMBER" in message


def test_heuristic_and_search_players_take_the_repeated_doublings():
    agents = [HeuristicAgent(1), SearchAgent(2, samples=2), RandomAgent(3)]
    states = play_game(RULESET, 4, agents, hands=3)
    assert all(state.is_terminal() for state in states)
    replay_record(game_record(RULESET, 4, [agent.name for agent in agents], states), RULESET)
    assert any(d["kind"] == "double" for state in states for d in state.decisions)


def test_random_players_reach_the_repeated_doubling():
    seen = set()
    for seed in range(1, 9):
        states = replayed_games(RULESET, seed, 2, False)
        seen |= {d["choice"] for state in states for d in state.decisions}
    assert "again:game" in seen


def test_the_rules_page_says_the_doublings_go_on():
    page = " ".join(tarot("explain", str(GAME)).stdout.split())
    assert (
        "After the last of these, the sides may go on doubling in turn, each further doubling"
        " called again, until a target has had `if contract == 'low' then 4 else 40`"
        " doublings in all (the named ones included) (source: test)."
    ) in page
