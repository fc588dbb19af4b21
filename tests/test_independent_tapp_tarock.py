"""Tapp-Tarock records checked hand by hand against an independent reading of the rules text
(`tests/independent_tapp`, written from Brian's text, not from the ruleset or the
interpreter): seeded games of twelve deals, random and heuristic players, the default
readings, the German text's readings and the simplified counting. For each hand the checker
deals the pack again, checks every bid, tapp choice, discard, announcement, kontra and card
legal by the text, and must find the same contract, trick winners, card points and net for
every seat. A game or two is in the fast tier, the rest in the slow one."""

from __future__ import annotations

import copy

import pytest
from commands import recorded_game
from independent_tapp.hand import record_differences
from tiers import one_fast

GERMAN = (
    "hold=hold",
    "bid_steps=one_step",
    "kontra=played",
    "stakes=german",
    "pagat_ultimo=pagat_taken",
)
TWELVE = ("sitting_rounds=twelve",)

# (ruleset, players' kind, seed, options): each a game of twelve deals
GAMES = [
    ("tapp-tarock", "random", 1, TWELVE),
    ("tapp-tarock", "random", 2, (*TWELVE, *GERMAN)),
    *(("tapp-tarock", "random", seed, TWELVE) for seed in range(3, 13)),
    *(("tapp-tarock", "random", seed, (*TWELVE, *GERMAN)) for seed in range(13, 23)),
    ("tapp-tarock", "random", 23, (*TWELVE, "hold=hold")),
    ("tapp-tarock", "random", 24, (*TWELVE, "bid_steps=one_step")),
    ("tapp-tarock", "heuristic", 25, TWELVE),
    ("tapp-tarock", "heuristic", 26, (*TWELVE, *GERMAN)),
    ("tapp-tarock-simplified", "random", 27, TWELVE),
    ("tapp-tarock-simplified", "heuristic", 28, TWELVE),
]


def _game_id(game: tuple) -> str:
    ruleset, agent, seed, options = game
    return "-".join([ruleset, agent, f"seed{seed}", *(o for o in options if o not in TWELVE)])


@pytest.mark.parametrize("game", one_fast([pytest.param(g, id=_game_id(g)) for g in GAMES]))
def test_records_agree_with_the_text_hand_by_hand(game):
    ruleset, agent, seed, options = game
    record = recorded_game(ruleset, seed, agent, options=options)
    assert len(record["hands"]) == 12
    assert record_differences(record) == []


def test_the_checker_finds_a_changed_payment_an_illegal_discard_and_a_wrong_winner():
    """The checker is not blind: a record changed in a payment, a discard or a trick winner
    is reported for the hand changed."""
    record = recorded_game("tapp-tarock", 2, "random", options=(*TWELVE, *GERMAN))
    assert record_differences(record) == []
    paid = copy.deepcopy(record)
    paid["hands"][0]["net"][0] += 10
    assert [d.split(":")[0] for d in record_differences(paid)] == ["hand 1"]

    hands = record["hands"]
    with_discard = next(
        n for n, h in enumerate(hands) if any(d["kind"] == "discard" for d in h["decisions"])
    )
    laid = copy.deepcopy(record)
    decisions = laid["hands"][with_discard]["decisions"]
    first = next(d for d in decisions if d["kind"] == "discard")
    dealt = laid["hands"][with_discard]["hands_dealt"][first["seat"]]
    first["choice"] = next(c for c in dealt if c.endswith("-K") or c in ("fool", "trump-21"))
    found = record_differences(laid)
    assert len(found) == 1 and "may not be laid away" in found[0]

    winner = copy.deepcopy(record)
    winner["hands"][1]["tricks"][0]["winner"] = (winner["hands"][1]["tricks"][0]["winner"] + 1) % 3
    found = record_differences(winner)
    assert len(found) == 1 and "trick winners" in found[0]
