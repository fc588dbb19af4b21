"""Jeu de Tarot records checked hand by hand against an independent reading of source 004
(`tests/independent_jeu`, written from the text, not from the ruleset or the interpreter):
seeded four-player games with random and heuristic players. One point where the records read
004 otherwise (who pays for the Fool when its owner took no trick) is named and checked
under the record's reading; every other difference fails."""

from __future__ import annotations

import copy
import json
from functools import cache

import pytest
from independent_jeu.hand import hand_difference

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.players.lineup import seat_agents
from tarot.records.record import game_record
from tarot.records.record_json import record_text

# the slow tier (`python -m pytest -m slow`): whole hands checked against an independent program
pytestmark = pytest.mark.slow

# (players' kind, hands, seed): hands 1, 2, 3... of one seed, each checked on its own, played
# past the end of the four-hand game (`tarot play` stops there; the engine plays what it is
# asked), so that many deals are checked
GAMES = [("random", 100, 1), ("random", 100, 2), ("heuristic", 12, 3), ("heuristic", 12, 4)]


@cache
def _record(agent: str, hands: int, seed: int) -> dict:
    """The hands as `tarot play --record` writes them, in one record (not replayed)."""
    ruleset = load_ruleset("jeu-de-tarot")

    def seating(number: int) -> list:
        return seat_agents([agent], seed, number, ruleset.players)

    states = play_game(ruleset, seed, seating, hands)
    names = [a.name for a in seating(1)]
    return json.loads(record_text(game_record(ruleset, seed, names, states)))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-seed{g[2]}")
def test_every_hand_agrees_with_the_independent_reading_of_004(game):
    agent, hands, seed = game
    record = _record(*game)
    assert len(record["hands"]) == hands
    options = record["ruleset"]["options"]
    for hand in record["hands"]:
        literal = hand_difference(hand, options)
        if literal is None:
            continue
        side = hand_difference(hand, options, fool_side=True)
        assert side is None, (
            f"--agents {agent} --seed {seed}, hand {hand['number']}: {side} (004 literal: "
            f"{literal})"
        )


def test_the_checker_finds_a_tampered_record():
    record = _record(*GAMES[0])
    hand = copy.deepcopy(next(h for h in record["hands"] if h["thrown_in"] is None))
    options = record["ruleset"]["options"]
    assert hand_difference(hand, options, fool_side=True) is None
    trick = hand["tricks"][5]
    trick["winner"] = next(c["seat"] for c in trick["cards"] if c["seat"] != trick["winner"])
    assert "trick 6" in hand_difference(hand, options, fool_side=True)


def test_the_checker_finds_a_net_that_does_not_follow_from_the_play():
    record = _record(*GAMES[0])
    hand = copy.deepcopy(next(h for h in record["hands"] if h["thrown_in"] is None))
    hand["net"][0] += 1
    assert "net per seat" in hand_difference(hand, record["ruleset"]["options"], fool_side=True)
