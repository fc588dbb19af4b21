"""Early French Tarot records checked hand by hand against an independent reading of source 002
(`tests/independent_early`, written from the text and rules-facts, not from the ruleset or the
interpreter): seeded whole games for two to six players, random and heuristic players, default
readings and each option's other readings. Every hand's deal, every card played, the trick
winners, the Fool's payments, card points and nets, and the game's totals and winners must be
what 002 makes of them."""

from __future__ import annotations

import copy
from functools import cache

import pytest
from commands import recorded_game
from independent_early.game import record_differences

# the slow tier (`python -m pytest -m slow`): whole hands checked against an independent program
pytestmark = pytest.mark.slow

# (ruleset, players' kind, seed, options); each plays a whole game to 50
GAMES = [
    ("early-french", "random", 1, ()),
    ("early-french-2", "random", 2, ()),
    ("early-french-3", "random", 3, ()),
    ("early-french-5", "random", 4, ()),
    ("early-french-6", "random", 5, ()),
    ("early-french", "heuristic", 6, ()),
    ("early-french-3", "heuristic", 7, ()),
    ("early-french", "random", 8, ("fool_last_trick=captured", "direction=clockwise")),
    ("early-french-6", "random", 9, ("tie_break=shared",)),
    ("early-french", "random", 5, ("tie_break=first_to_claim",)),
    ("early-french-5", "random", 11, ("tie_break=first_to_claim",)),
]


def _game_id(game: tuple) -> str:
    ruleset, agent, seed, options = game
    return "-".join([ruleset, agent, f"seed{seed}", *options])


@cache
def _record(ruleset: str, agent: str, seed: int, options: tuple[str, ...]) -> dict:
    return recorded_game(ruleset, seed, agent, options=options)


@pytest.mark.parametrize("game", GAMES, ids=_game_id)
def test_every_hand_agrees_with_the_independent_reading_of_002(game):
    ruleset, agent, seed, options = game
    record = _record(*game)
    assert record["game_winners"], "the game was not played to its end"
    found = record_differences(record)
    assert not found, (
        f"{ruleset} {' '.join(options)} --agents {agent} --seed {seed}, hand "
        f"{found[0].hand}: {found[0].text} ({len(found)} differences)"
    )


def test_the_games_reach_the_rules_the_checker_reads():
    """The Fool's payment, its surrender, a claim and a shared win all come up somewhere."""
    seen = set()
    for game in GAMES:
        record = _record(*game)
        seen.add(f"winners:{len(record['game_winners'])}")
        for hand in record["hands"]:
            seen.add(f"exchanges:{len(hand['excuse_exchanges'])}")
            seen.add(f"claimed:{bool(hand['claimed'])}")
            fool_players = {
                c["seat"] for t in hand["tricks"] for c in t["cards"] if c["card"] == "fool"
            }
            winners = {t["winner"] for t in hand["tricks"]}
            if fool_players and not fool_players & winners:
                seen.add("fool surrendered")
            delayed = [
                e
                for e in hand["excuse_exchanges"]
                if not any(
                    c["card"] == "fool" for c in hand["tricks"][e["after_trick"] - 1]["cards"]
                )
            ]
            if delayed:
                seen.add("fool paid later")
    expected = {"exchanges:1", "fool surrendered", "fool paid later", "claimed:True"}
    assert expected <= seen, expected - seen


def test_the_checker_finds_a_tampered_record():
    record = copy.deepcopy(_record(*GAMES[0]))
    trick = record["hands"][0]["tricks"][0]
    trick["winner"] = (trick["winner"] + 1) % len(record["seats"])
    found = record_differences(record)
    assert found and found[0].hand == 1 and "trick 1" in found[0].text


def test_the_checker_finds_a_net_that_does_not_follow_from_the_cards():
    record = copy.deepcopy(_record(*GAMES[1]))
    hand = record["hands"][-1]
    hand["net"][0] += 1
    record["totals"][0] += 1
    found = record_differences(record)
    assert found and found[0].hand == hand["number"] and found[0].text.startswith("net")


def test_the_checker_finds_a_card_that_breaks_the_rules_of_play():
    record = copy.deepcopy(_record(*GAMES[0]))
    hand = record["hands"][0]
    cards = hand["tricks"][0]["cards"]
    # the second player plays the leader's card instead: a card he does not hold
    cards[1]["card"] = cards[0]["card"]
    found = record_differences(record)
    assert found and "002 forbids" in found[0].text
