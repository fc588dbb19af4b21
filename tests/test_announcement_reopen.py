"""Who has passed in the announcements, as a fact (`announce_passes(seat)`), and a round of
announcements that reopens for some seats (`announcements.reopen`): on the test game of
announcements (tests/data/rulesets/announcements.yaml) with its partner allowed to speak again
(tests/data/rulesets/announcement-reopen.yaml)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tarot.compile.loader import load_ruleset
from tarot.engine.state import HandState
from tarot.presentation.transcript import hand_transcript
from tests.commands import tarot
from tests.small_games import compiled, edited, pack_for, problems, replayed_games, say
from tests.test_announcements import HANDS, TALON, to_announcements

DATA = Path(__file__).parent / "data" / "rulesets"
GAME = DATA / "announcement-reopen.yaml"
RULESET = load_ruleset(GAME)
BASE = load_ruleset(DATA / "announcements.yaml")


def hand_of(ruleset) -> HandState:
    """Seat 1 takes the game and calls seat 0's King: the announcements begin with seat 1,
    then seats 2, 3 and 0 (seat 0 is seat 1's partner)."""
    return to_announcements(HandState(ruleset, 0, pack_for(ruleset, HANDS, TALON)))


def passes(state: HandState, seat: int) -> object:
    """`announce_passes` of the seat, written as a rule writes it (dealer is seat 0, and
    each next seat in order of play is one more)."""
    expression = "announce_passes(" + "next_seat(" * seat + "dealer" + ")" * seat + ")"
    return state.evaluate(compiled(state.ruleset, expression))


def test_the_passes_are_counted_as_they_are_said():
    state = hand_of(BASE)
    assert [passes(state, s) for s in range(4)] == [0, 0, 0, 0]
    say(state, (1, "pass"), (2, "pass"))
    assert [passes(state, s) for s in range(4)] == [0, 1, 1, 0]
    say(state, (3, "announce:honours"))
    # nothing is left open to seat 3: it passes unasked, and that counts
    assert state.current_player() == 0 and passes(state, 3) == 1
    say(state, (0, "pass"))
    assert state.decision.kind == "double"
    assert [passes(state, s) for s in range(4)] == [1, 1, 1, 1]
    assert state.announce.passes == [1, 2, 3, 0]


def test_a_partners_announcement_reopens_the_round_for_the_seat_that_passed():
    state = hand_of(RULESET)
    say(state, (1, "pass"), (2, "pass"), (3, "pass"))
    say(state, (0, "announce:honours"))
    # the taker passed before his partner spoke: he speaks again once seat 0 has passed (here
    # unasked, nothing being left open to him)
    assert state.current_player() == 1 and state.decision.kind == "announce"
    assert state.legal_actions() == ["announce:ultimo", "pass"]
    say(state, (1, "announce:ultimo"))
    # seat 0 is asked again in turn, but nothing is left open to him: the doublings come
    assert state.decision.kind == "double"
    assert state.announce.reopened == [(1, (1,)), (2, (0,))]
    assert [passes(state, s) for s in range(4)] == [2, 2, 1, 1]
    said = hand_transcript(state)
    assert "  Seat 0 announces The three honours\n  The announcements reopen for seat 1\n" in said


def test_without_reopen_a_seat_that_passed_is_not_asked_again():
    state = hand_of(BASE)
    say(state, (1, "pass"), (2, "pass"), (3, "pass"), (0, "announce:honours"))
    assert state.decision.kind == "double"


def test_reopen_reads_who_has_passed():
    state = hand_of(RULESET)
    # seat 1 announces first: his partner, seat 0, has not passed, so nothing reopens
    say(state, (1, "announce:honours"), (1, "pass"), (2, "pass"), (3, "pass"))
    assert state.decision.kind == "double" and state.announce.reopened == []


def test_a_seat_still_to_speak_is_not_asked_twice(tmp_path: Path):
    shutil.copy(DATA / "announcements.yaml", tmp_path / "announcements.yaml")

    def change(document: dict) -> None:
        document["announcements"]["reopen"] = "[s in side(player) if s != player]"

    state = hand_of(load_ruleset(edited(GAME, tmp_path, change)))
    say(state, (1, "announce:honours"))
    assert state.announce.queue == [1, 2, 3, 0] and state.announce.reopened == []


def test_games_of_each_player_replay():
    for mixed in (False, True):
        states = replayed_games(RULESET, 5, hands=3, mixed=mixed)
        assert all(state.is_terminal() for state in states)


def test_reopen_must_give_seats(tmp_path: Path):
    shutil.copy(DATA / "announcements.yaml", tmp_path / "announcements.yaml")

    def change(document: dict) -> None:
        document["announcements"]["reopen"] = "announce_passes(player)"

    message = problems(edited(GAME, tmp_path, change))
    assert "$.announcements.reopen: expected a seat or seats, got NUMBER" in message


def test_the_rules_page_says_who_speaks_again():
    page = " ".join(tarot("explain", str(GAME)).stdout.split())
    assert (
        "Once a player announces a bonus, the announcements reopen to `[s in side(player) if"
        " s != player and announce_passes(s) > 0]` (`player` is the announcer)"
    ) in page
