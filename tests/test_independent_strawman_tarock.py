"""Strawman Tarock records checked hand by hand against an independent reading of the rules
text (`tests/independent_strawman`, written from Brian's text, not from the ruleset or the
interpreter): seeded sittings played to their end (a player's 100 credits lost), random and
heuristic players, the default readings, the German text's readings and the simplified
counting. For each hand the checker deals the pack again, checks every redeal word, claim and
card legal by the text, and must find the same claimer, trick winners, card points and net
for every seat, and the sitting must end where the text ends it. A sitting or two is in the
fast tier, the rest in the slow one."""

from __future__ import annotations

import copy

import pytest
from commands import recorded_game
from independent_strawman.hand import record_differences
from tiers import one_fast

GERMAN = ("no_tarot_redeal=always", "dealer_claims=dealer_after")
LITERAL = ("pagat_ultimo=pagat_taken",)

# (ruleset, players' kind, seed, options): each a sitting played to its end
GAMES = [
    ("strawman-tarock", "random", 1, ()),
    ("strawman-tarock", "heuristic", 2, GERMAN),
    *(("strawman-tarock", "random", seed, ()) for seed in range(3, 23)),
    *(("strawman-tarock", "random", seed, GERMAN) for seed in range(23, 43)),
    *(("strawman-tarock", "random", seed, LITERAL) for seed in range(43, 53)),
    *(("strawman-tarock", "heuristic", seed, ()) for seed in range(53, 58)),
    *(("strawman-tarock", "heuristic", seed, (*GERMAN, *LITERAL)) for seed in range(58, 63)),
    ("strawman-tarock-simplified", "random", 63, ()),
    *(("strawman-tarock-simplified", "random", seed, GERMAN) for seed in range(64, 74)),
    ("strawman-tarock-simplified", "heuristic", 74, ()),
]


def _game_id(game: tuple) -> str:
    ruleset, agent, seed, options = game
    return "-".join([ruleset, agent, f"seed{seed}", *options])


@pytest.mark.parametrize("game", one_fast([pytest.param(g, id=_game_id(g)) for g in GAMES]))
def test_records_agree_with_the_text_hand_by_hand(game):
    ruleset, agent, seed, options = game
    record = recorded_game(ruleset, seed, agent, options=options)
    assert record["hands"]
    assert record_differences(record) == []


def test_the_checker_finds_a_changed_payment_a_card_from_under_a_pile_and_a_wrong_winner():
    """The checker is not blind: a record changed in a net, in a card played from beneath a
    pile's face-up top, or in a trick winner is reported for the hand changed; a sitting
    cut short is reported too."""
    record = recorded_game("strawman-tarock", 1, "random")
    assert record_differences(record) == []
    paid = copy.deepcopy(record)
    paid["hands"][0]["net"] = [
        n + (10 if s == 0 else -10) for s, n in enumerate(paid["hands"][0]["net"])
    ]
    assert [d.split(":")[0] for d in record_differences(paid)][0] == "hand 1"

    hidden = copy.deepcopy(record)
    hand = hidden["hands"][0]
    first = next(d for d in hand["decisions"] if d["kind"] == "play")
    seat = first["seat"]
    below = hand["piles_dealt"][seat][0][0]  # the bottom card of its first pile, face down
    for decision in hand["decisions"]:
        if decision["kind"] == "play" and decision["choice"] == below:
            decision["choice"] = first["choice"]
    first["choice"] = below
    found = record_differences(hidden)
    assert found and found[0].startswith("hand 1:") and "may not play" in found[0]

    winner = copy.deepcopy(record)
    winner["hands"][0]["tricks"][0]["winner"] = 1 - winner["hands"][0]["tricks"][0]["winner"]
    found = record_differences(winner)
    assert found == [found[0]] and "trick winners" in found[0]

    short = copy.deepcopy(record)
    short["hands"] = short["hands"][:-1]
    assert any("the sitting" in d or "totals" in d for d in record_differences(short))
