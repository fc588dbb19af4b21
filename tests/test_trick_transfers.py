"""Payments into an account as a trick is lost (`lasting.transfers[].at: trick`): made after
each trick, once it is taken, seeing the trick's names; on a small game written for the test
(tests/data/rulesets/trick-transfers.yaml)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.engine.state import HandState
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent
from tarot.presentation.transcript import hand_transcript
from tarot.records.record import game_record
from tarot.records.replay import replay_record
from tests.commands import tarot
from tests.small_games import edited, problems, say

DATA = Path(__file__).parent / "data" / "rulesets"
GAME = DATA / "trick-transfers.yaml"
RULESET = load_ruleset(GAME)


def taken_by_seat_1() -> HandState:
    """Seat 1 bids high, lays away two cards, and play begins; every later move is the first
    legal one."""
    state = HandState(RULESET, 0, list(range(len(RULESET.deck))))
    say(state, (1, "high"), (2, "pass"), (0, "pass"), (1, "swords-K"), (1, "swords-4"))
    assert state.decision.kind == "play"
    return state


def first_choices(state: HandState, tricks: int) -> None:
    while state.play.trick_number <= tricks and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])


def test_the_taker_pays_into_the_pot_as_each_trick_is_lost():
    state = taken_by_seat_1()
    first_choices(state, 1)  # trick 1: seat 2 trumps the taker's lead
    assert state.play.trick_log[0][3] == 2
    assert [(m.rule, m.seat, m.amount, m.trick) for m in state.transfers] == [
        ("trick_lost", 1, 1, 1)
    ]
    assert state.lasting.table["pot"] == 1  # paid at once, before the next trick
    first_choices(state, 2)  # trick 2: the taker's own; he pays nothing
    assert len(state.transfers) == 1
    first_choices(state, 5)
    assert state.is_terminal()
    # tricks 3 and 4 one each, the last trick two; the taker lost the game: the pot stays
    assert [(m.amount, m.trick) for m in state.transfers] == [(1, 1), (1, 3), (1, 4), (2, 5)]
    assert state.lasting.table["pot"] == 5
    assert state.returns()[1] == -4 - 5  # the settlement's loss and what went into the pot
    lines = hand_transcript(state).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  Trick  5:"))
    paid = "    pay: seat 1 -> pot  2 points  The taker pays for a trick he loses [test]"
    assert lines[at + 1] == paid


def test_the_record_says_at_which_trick_and_replays():
    agents = [RandomAgent(1), RandomAgent(2), RandomAgent(3)]
    states = play_game(RULESET, 2, agents, hands=3)
    record = game_record(RULESET, 2, ["random"] * 3, states)
    moves = [m for hand in record["hands"] for m in hand["lasting"]["transfers"]]
    at_tricks = [m for m in moves if m["at"] == "trick"]
    assert at_tricks and all(m["rule"] == "trick_lost" and m["to"] == "pot" for m in at_tricks)
    assert all(1 <= m["trick"] <= 5 for m in at_tricks)
    assert all("trick" not in m for m in moves if m["at"] != "trick")
    replay_record(json.loads(json.dumps(record)), RULESET)


def test_heuristic_and_search_players_play_it():
    agents = [HeuristicAgent(1), SearchAgent(2, samples=2), RandomAgent(3)]
    states = play_game(RULESET, 4, agents, hands=2)
    assert all(state.is_terminal() for state in states)
    replay_record(game_record(RULESET, 4, [a.name for a in agents], states), RULESET)


def test_the_trick_names_are_seen_only_at_a_trick(tmp_path: Path):
    shutil.copy(DATA / "flow-base.yaml", tmp_path / "flow-base.yaml")

    def change(document: dict) -> None:
        document["lasting"]["transfers"][1]["when"] = "winner == taker"

    message = problems(edited(GAME, tmp_path, change))
    assert "$.lasting.transfers[1].when" in message and "winner" in message


def test_the_rules_page_says_when_the_pot_is_paid():
    page = " ".join(tarot("explain", str(GAME)).stdout.split())
    assert (
        "After each trick, once it is taken, each of `taker` pays into pot"
        " `if last_trick then 2 else 1`, if `winner != taker`"
    ) in page
