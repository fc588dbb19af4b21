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

FAST = [
    ("droggn", "random", 40, 1, ()),
    ("droggn", "heuristic", 3, 2, ()),
    # four at the table, the dealer sitting out (DR-1)
    ("droggn-4", "random", 40, 1, ()),
    ("droggn-4", "search", 2, 2, ()),
]
SLOW = [
    ("droggn", "random", 300, 3, ()),
    ("droggn", "random", 300, 4, ("needed=more_than_half", "margin=card_points")),
    ("droggn", "random", 200, 5, ("margin=card_points",)),
    ("droggn", "heuristic", 30, 6, ()),
    ("droggn", "heuristic", 20, 7, ("needed=more_than_half",)),
    ("droggn-4", "random", 300, 8, ("margin=card_points",)),
    ("droggn-4", "heuristic", 20, 9, ()),
]


def _game_id(game: tuple) -> str:
    ruleset, agent, hands, seed, options = game
    return "-".join([ruleset, agent, f"seed{seed}", *options])


@cache
def _record(ruleset: str, agent: str, hands: int, seed: int, options: tuple[str, ...]) -> dict:
    return recorded_game(ruleset, seed, agent, hands, options)


def _assert_every_hand_agrees(game: tuple) -> None:
    record = _record(*game)
    assert len(record["hands"]) == game[2]
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
    for game in (g for g in SLOW if g[0] == "droggn"):
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


def test_with_four_the_dealer_sits_out_of_every_hand_and_the_deal_goes_round():
    record = _record(*FAST[2])
    assert [hand["dealer"] for hand in record["hands"][:5]] == [0, 1, 2, 3, 0]
    for hand in record["hands"]:
        assert hand["sat_out"] == [hand["dealer"]]
        assert hand["hands_dealt"][hand["dealer"]] == [] and hand["net"][hand["dealer"]] == 0
    assert any(hand["thrown_in"] is None for hand in record["hands"])


def test_the_checker_finds_a_dealer_who_plays_when_four_sit_at_the_table():
    record = _record(*FAST[2])
    hand = copy.deepcopy(next(h for h in record["hands"] if h["thrown_in"] is None))
    options = {"needed": "half", "margin": "game_value"}
    assert hand_difference(hand, options) is None
    hand["sat_out"] = []
    assert "sat out" in hand_difference(hand, options)
    hand = copy.deepcopy(next(h for h in record["hands"] if h["thrown_in"] is None))
    hand["decisions"][0]["seat"] = hand["dealer"]
    assert "sitting out, is asked" in hand_difference(hand, options)


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
