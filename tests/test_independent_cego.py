"""Cego records checked hand by hand against an independent reading of the rules text
(`tests/independent_cego`, written from Peter Winckles' text, not from the ruleset or the
interpreter): seeded games of random, heuristic and search players under each reading of the
options. For each hand the checker deals the pack again, checks every Solo answer, bid, hold,
card laid away, announcement and card played legal by the text, and must find the same game
and declarer, trick winners, declarer's card points and net for every seat. A game or two is
in the fast tier, the rest in the slow one."""

from __future__ import annotations

import copy

import pytest
from commands import recorded_game
from independent_cego.hand import record_differences
from tiers import one_fast

VARIANTS = ("against_solo_doubled=doubled", "face_up_first=first_tricks")

# (players' kind, seed, hands, options)
GAMES = [
    ("random", 1, 30, ()),
    ("heuristic", 2, 12, VARIANTS),
    *(("random", seed, 60, ()) for seed in range(3, 9)),
    *(("random", seed, 60, VARIANTS) for seed in range(9, 15)),
    # each game one `tarot play` run within the helper's minute
    *(("heuristic", seed, 12, ()) for seed in (15, 16)),
    *(("heuristic", seed, 12, VARIANTS) for seed in (17, 18)),
    *(("search", seed, 3, ()) for seed in (19, 20)),
]


def _game_id(game: tuple) -> str:
    agent, seed, hands, options = game
    return "-".join([agent, f"seed{seed}", f"{hands}hands", *(o.split("=")[1] for o in options)])


@pytest.mark.parametrize("game", one_fast([pytest.param(g, id=_game_id(g)) for g in GAMES]))
def test_records_agree_with_the_text_hand_by_hand(game):
    agent, seed, hands, options = game
    record = recorded_game("cego", seed, agent, hands=hands, options=options)
    assert len(record["hands"]) == hands
    assert record_differences(record) == []


def test_the_checker_finds_a_changed_payment_a_kept_card_and_a_wrong_winner():
    """The checker is not blind: a record changed in a payment, a card laid away or a trick
    winner is reported for the hand changed."""
    record = recorded_game("cego", 1, "random", hands=30)
    assert record_differences(record) == []
    paid = copy.deepcopy(record)
    paid["hands"][0]["net"][0] += 5
    assert [d.split(":")[0] for d in record_differences(paid)] == ["hand 1"]

    hands = record["hands"]
    empty = next(n for n, h in enumerate(hands) if h["sides"]["contract"] == "one_empty")
    laid = copy.deepcopy(record)
    hand = laid["hands"][empty]
    taker = hand["sides"]["taker"]
    discards = [d for d in hand["decisions"] if d["kind"] == "discard"]
    kept = next(c for c in hand["hands_dealt"][taker] if c not in [d["choice"] for d in discards])
    discards[0]["choice"], kept = kept, discards[0]["choice"]  # lay the pip away, keep another
    found = record_differences(laid)
    assert len(found) == 1 and found[0].startswith(f"hand {empty + 1}:")

    winner = copy.deepcopy(record)
    winner["hands"][1]["tricks"][0]["winner"] = (winner["hands"][1]["tricks"][0]["winner"] + 1) % 3
    found = record_differences(winner)
    assert len(found) == 1 and "trick winners" in found[0]
