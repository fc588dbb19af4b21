"""Droggn records checked hand by hand against an independent reading of the rules
(`tests/independent_droggn`, written from the rules as `docs/games/droggn.md` states them, not
from the ruleset or the interpreter): for each hand the checker deals the pack again, replays
the auction, the discard, the doubling and every card by those rules, and must find the same
trick winners, the same card points for each side and the same net for every seat. A few
seeds run in the fast tier; the slow tier plays many more, with both readings of each option
and with heuristic players."""

from __future__ import annotations

import copy
from functools import cache

import pytest
from commands import recorded_game
from independent_droggn.hand import hand_difference

FAST = [("random", 40, 1, ()), ("heuristic", 3, 2, ())]
SLOW = [
    ("random", 300, 3, ()),
    ("random", 300, 4, ("needed=more_than_half", "margin=card_points")),
    ("random", 200, 5, ("margin=card_points",)),
    ("heuristic", 30, 6, ()),
    ("heuristic", 20, 7, ("needed=more_than_half",)),
]


def _game_id(game: tuple) -> str:
    agent, hands, seed, options = game
    return "-".join([agent, f"seed{seed}", *options])


@cache
def _record(agent: str, hands: int, seed: int, options: tuple[str, ...]) -> dict:
    return recorded_game("droggn", seed, agent, hands, options)


def _assert_every_hand_agrees(game: tuple) -> None:
    record = _record(*game)
    assert len(record["hands"]) == game[1]
    options = record["ruleset"]["options"]
    differences = []
    for hand in record["hands"]:
        difference = hand_difference(hand, options)
        if difference is not None:
            differences.append(f"hand {hand['number']}: {difference}")
    assert not differences, f"{len(differences)} hands differ; {differences[0]}"


@pytest.mark.parametrize("game", FAST, ids=_game_id)
def test_every_hand_agrees_with_the_independent_reading(game):
    _assert_every_hand_agrees(game)


@pytest.mark.slow
@pytest.mark.parametrize("game", SLOW, ids=_game_id)
def test_every_hand_of_many_agrees_with_the_independent_reading(game):
    _assert_every_hand_agrees(game)


@pytest.mark.slow
def test_the_slow_games_reach_the_rules_the_checker_reads():
    """Every contract, the doubling and redoubling, the Gstiess paid for and not, and a hand
    thrown in come up in the slow games, so that none is checked vacuously."""
    seen = set()
    for game in SLOW:
        for hand in _record(*game)["hands"]:
            if hand["thrown_in"]:
                seen.add(f"thrown:{hand['thrown_in']}")
                continue
            seen.add(f"contract:{hand['sides']['contract']}")
            seen.update(d["choice"] for d in hand["decisions"] if d["kind"] == "double")
            seen.add(f"exchanges:{min(len(hand['excuse_exchanges']), 1)}")
    expected = {
        "thrown:all_passed",
        "contract:spiel",
        "contract:solo",
        "contract:mord",
        "contract:super_mord",
        "double:game",
        "redouble:game",
        "pass:game",
        "exchanges:0",
        "exchanges:1",
    }
    assert expected <= seen, expected - seen


def _a_played_hand() -> dict:
    record = _record(*FAST[0])
    return copy.deepcopy(next(h for h in record["hands"] if h["thrown_in"] is None))


def test_the_checker_finds_a_trick_given_to_the_wrong_seat():
    hand = _a_played_hand()
    options = {"needed": "half", "margin": "game_value"}
    assert hand_difference(hand, options) is None
    trick = hand["tricks"][5]
    trick["winner"] = next(c["seat"] for c in trick["cards"] if c["seat"] != trick["winner"])
    assert "trick 6" in hand_difference(hand, options)


def test_the_checker_finds_a_net_that_does_not_follow_from_the_play():
    hand = _a_played_hand()
    options = {"needed": "half", "margin": "game_value"}
    hand["net"][0] += 1
    assert "net per seat" in hand_difference(hand, options)


def test_the_checker_finds_a_card_played_against_the_rules():
    hand = _a_played_hand()
    options = {"needed": "half", "margin": "game_value"}
    plays = [d for d in hand["decisions"] if d["kind"] == "play"]
    # the second card of the first trick swapped for a card of the same seat's that may
    # not be played there (another suit while it holds the one led, or a card it lacks)
    first = plays[0]
    second = plays[1]
    second["choice"] = first["choice"]
    assert "forbids" in hand_difference(hand, options)
