"""The transcript tells the play rules in force beyond following suit and trumping (the
contract's own, when it gives them) and which trick a winner exception gave to another seat,
on small games written for the tests (tests/data/rulesets/contract-play-rules.yaml and
talon-tricks.yaml)."""

from __future__ import annotations

from tarot.presentation.transcript import hand_transcript
from tests.commands import tarot
from tests.small_games import say
from tests.test_play_rules import contract_hand, play
from tests.test_talon_tricks import new_hand


def test_a_contracts_own_play_rules_are_named_under_play():
    state = contract_hand("misere")
    play(state, "swords-2", "swords-K", "swords-4", "cups-2", "cups-3", "cups-K")
    text = hand_transcript(state)
    assert (
        "  Play rules of misere: must beat the trick when able (must_beat);"
        " play stops once its rule holds (ends_when)"
    ) in text.splitlines()


def test_trumps_as_a_plain_suit_are_named():
    state = contract_hand("colour")
    assert "  Play rules of colour: trumps are a plain suit (trumps_as_suit)" in hand_transcript(
        state
    )


def test_a_game_that_only_follows_suit_and_trumps_says_nothing_more():
    played = tarot("play", "french-tarot", "--seed", "1")
    assert played.returncode == 0, played.stderr
    assert "Play:" in played.stdout and "Play rules" not in played.stdout


def test_a_trick_given_by_a_winner_exception_says_so():
    state = new_hand()
    say(state, (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (1, "trump-7"), (2, "trump-8"), (3, "trump-1"), (0, "trump-4"))
    lines = hand_transcript(state).splitlines()
    assert "  Play rules: winner exception: The lowest trump takes the two highest" in lines
    assert (
        "  Trick  1: 1:trump-7, 2:trump-8, 3:trump-1, 0:trump-4  -> seat 3"
        " (by The lowest trump takes the two highest)"
    ) in lines


def test_a_trick_won_by_the_trick_rules_has_no_note():
    state = new_hand()
    say(state, (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (1, "trump-7"), (2, "trump-8"), (3, "trump-1"), (0, "trump-4"))
    say(state, (3, "cups-4"), (0, "cups-1"), (1, "swords-3"), (2, "cups-K"))
    lines = hand_transcript(state).splitlines()
    assert "  Trick  2: 3:cups-4, 0:cups-1, 1:swords-3, 2:cups-K  -> seat 2" in lines
