"""Illustrated Tarock records checked hand by hand against an independent reading of the rules
text (`tests/independent_illustrated`, written from Winckles's text, not from the ruleset or
the interpreter): seeded games (each to 100 points), random and heuristic players, both
readings of the contra. For each hand the checker deals the pack again, checks every bid,
announcement, exchange, discard, contra and card legal by the text, and must find the same
contract and declarer, trick winners, declarer's card points and score for every seat; and
the game's end and winners. A game is in the fast tier, the rest in the slow one."""

from __future__ import annotations

import copy

import pytest
from commands import recorded_game
from independent_illustrated.hand import record_differences
from tiers import one_fast

# (ruleset, players' kind, seed): each a whole game, to 100 points
GAMES = [
    ("illustrated-tarock", "random", 1),
    *(("illustrated-tarock", "random", seed) for seed in range(2, 41)),
    *(("illustrated-tarock", "heuristic", seed) for seed in range(41, 53)),
    *(("illustrated-tarock-contra-doubles", "random", seed) for seed in range(53, 73)),
    *(("illustrated-tarock-contra-doubles", "heuristic", seed) for seed in range(73, 79)),
]


@pytest.mark.parametrize(
    "game", one_fast([pytest.param(g, id=f"{g[0]}-{g[1]}-seed{g[2]}") for g in GAMES])
)
def test_records_agree_with_the_text_hand_by_hand(game):
    ruleset, agent, seed = game
    record = recorded_game(ruleset, seed, agent)
    assert record["hands"]
    assert record_differences(record) == []


def test_the_checker_finds_a_changed_score_an_illegal_discard_and_a_wrong_winner():
    """The checker is not blind: a record changed in a score, a discard or a trick winner is
    reported for the hand changed."""
    record = next(
        r
        for r in (recorded_game("illustrated-tarock", seed, "random") for seed in range(1, 30))
        if any(d["kind"] == "discard" for d in r["hands"][-1]["decisions"])
    )
    assert record_differences(record) == []
    hand = len(record["hands"]) - 1
    scored = copy.deepcopy(record)
    scored["hands"][hand]["net"][0] += 1
    assert any(d.startswith(f"hand {hand + 1}: scores") for d in record_differences(scored))

    laid = copy.deepcopy(record)
    decisions = laid["hands"][hand]["decisions"]
    first = next(d for d in decisions if d["kind"] == "discard")
    held = laid["hands"][hand]["hands_dealt"][first["seat"]]
    first["choice"] = next(c for c in held if c.endswith("-K") or c in ("fool", "trump-21"))
    found = record_differences(laid)
    assert any("may not be laid away" in d for d in found)

    winner = copy.deepcopy(record)
    trick = winner["hands"][hand]["tricks"][0]
    trick["winner"] = (trick["winner"] + 1) % 3
    assert any("trick winners" in d for d in record_differences(winner))
