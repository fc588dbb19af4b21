"""Cards that score for a seat the rules name once play is over: `discard.scored_by` and a
talon's `scored_by`, on a small game written for these tests
(tests/data/rulesets/scored-at-the-end.yaml; the hand the scenario plays is in
tests/scenarios/scored-at-the-end.yaml)."""

from __future__ import annotations

from pathlib import Path

from batch_checks import replayed

from tarot.batch.support import supports
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
from tests.small_games import edited, pack_for, problems, say

GAME = Path(__file__).parent / "data" / "rulesets" / "scored-at-the-end.yaml"
RULESET = load_ruleset(GAME)

HANDS = {
    0: ["swords-K", "cups-K", "coins-1", "trump-1", "batons-2"],
    1: ["swords-2", "cups-1", "coins-K", "trump-5", "batons-1"],
    2: ["swords-1", "cups-2", "coins-2", "trump-2", "trump-3"],
}
TALON = ["batons-K", "trump-4"]
#: seat 0 takes the first two tricks, seat 1 the third, seat 2 the last
PLAY = [
    (1, "swords-2"), (2, "swords-1"), (0, "swords-K"),
    (0, "cups-K"), (1, "cups-1"), (2, "cups-2"),
    (0, "coins-1"), (1, "trump-5"), (2, "coins-2"),
    (1, "batons-1"), (2, "trump-2"), (0, "trump-1"),
]  # fmt: skip


def discarded(ruleset=RULESET) -> HandState:
    """Seat 1 lays the King of coins away, seat 2 a trump, seat 0 a card worth nothing."""
    state = HandState(ruleset, 0, pack_for(ruleset, HANDS, TALON))
    say(state, (1, "coins-K"), (2, "trump-3"), (0, "batons-2"))
    return state


def test_until_play_is_over_the_discards_and_the_talon_score_for_nobody():
    state = discarded()
    say(state, *PLAY[:-1])
    # seat 1 laid away a King (5) and took trump-5 (1): only the trump is his so far
    assert state.card_points() == [10, 1, 0]
    assert state.play.discards_to is None and state.play.talon_to is None


def test_once_play_is_over_they_score_for_the_seats_the_rules_name_then():
    state = discarded()
    say(state, *PLAY)
    assert state.is_terminal()
    assert (state.play.discards_to, state.play.talon_to) == (2, 0)
    assert state.card_points() == [16, 1, 8]
    assert sum(state.card_points()) == 25  # every card of the pack counted once
    # what the discards' own seats are told about their discards is unchanged
    assert [len(d) for d in state.discards] == [1, 1, 1]


def test_a_rule_that_names_nobody_leaves_the_cards_to_nobody(tmp_path: Path):
    def change(document: dict) -> None:
        document["discard"]["scored_by"] = "[s in seats if tricks_won(s) > 3]"

    ruleset = load_ruleset(edited(GAME, tmp_path, change))
    state = discarded(ruleset)
    say(state, *PLAY)
    assert state.play.discards_to is None
    assert state.card_points() == [16, 1, 2]  # the discards' 6 points are nobody's
    assert "The discards (3 cards, 6 card points) score for nobody" in hand_transcript(state)


def test_wrong_uses_are_placed_and_explained(tmp_path: Path):
    def change(document: dict) -> None:
        document["discard"]["scores_for"] = "discarder"
        document["talon"]["to"] = "pile"
        document["talon"]["seat"] = "dealer"

    message = problems(edited(GAME, tmp_path, change))
    assert "$.discard.scored_by: `scored_by` names who the discards score for" in message
    assert "keep one of the two" in message
    assert "$.talon.scored_by: the talon goes to 'pile', so none of it is left" in message

    def not_a_seat(document: dict) -> None:
        document["discard"]["scored_by"] = "tricks_played()"

    message = problems(edited(GAME, tmp_path, not_a_seat))
    assert "$.discard.scored_by: expected a seat or seats, got NUMBER" in message


def test_the_batch_back_end_runs_them_as_the_scalar_engine():
    """Each batch hand replayed through the scalar engine, payment by payment: the seat with
    the most card points is paid, so whose points the discards and the talon became shows."""
    assert supports(RULESET) == []
    records, _kinds, fired = replayed(RULESET, 3, 200)
    assert sum(fired.values()) > 0
    assert all(r["payments"] for r in records)


def test_every_player_plays_it_and_its_records_replay():
    agents = [HeuristicAgent(1), SearchAgent(2, samples=2), RandomAgent(3)]
    states = play_game(RULESET, 5, agents, hands=3)
    assert all(state.is_terminal() for state in states)
    assert all(sum(state.card_points()) == 25 for state in states)
    record = game_record(RULESET, 5, [agent.name for agent in agents], states)
    replay_record(record, RULESET)


def test_the_play_command_and_the_rules_page_show_it():
    played = tarot("play", str(GAME), "--seed", "1")
    assert played.returncode == 0, played.stderr
    assert "The discards (3 cards, 2 card points) score for seat 1 (discard.scored_by)" in (
        played.stdout
    )
    page = " ".join(tarot("explain", str(GAME)).stdout.split())
    assert "Every discard counts, once play is over, for the first seat of" in page
    assert "what of it is still on the table when play ends scores for the first seat" in page
