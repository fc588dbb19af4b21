"""Illustrated Tarokk (rulesets/hungarian-tarokk/hungarian-tarokk-illustrated.yaml): hands
played by fixed decisions and paid as checked by hand for each of the six bonuses (centrum,
kismadar, nagymadar, pagat uhu, king ultimo made; king uhu made and a kontra'd centrum lost),
the cards they bind (held back before their trick, forced in it, the earliest first, freed
once a bird is lost), the trick rules the binding reads checked against the engine's, and
validate, play and replay on the command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.state import HandState
from tests.commands import tarot
from tests.small_games import pack_for, replayed_games, say

# the slow tier (`python -m pytest -m slow`): three kinds of players play and replay hands
pytestmark = pytest.mark.slow

GAME = Path(__file__).parents[1] / "rulesets" / "hungarian-tarokk"
RULESET = load_ruleset(GAME / "hungarian-tarokk-illustrated.yaml")
BY_ID = RULESET.deck.by_id
IDS = RULESET.deck.cards.ids

# seat 0 deals; seats play 1, 2, 3, 0; seat 1 holds the three honours, seat 3 the XX
HANDS = {
    1: ["fool", "trump-21", "trump-1", "trump-19", "trump-18", "trump-17"]
    + ["hearts-K", "spades-K", "hearts-Q"],
    2: ["trump-13", "trump-12", "trump-11", "hearts-C", "hearts-J", "hearts-1"]
    + ["diamonds-C", "diamonds-J", "diamonds-1"],
    3: ["trump-20", "trump-16", "trump-15", "trump-14", "diamonds-K", "clubs-K"]
    + ["diamonds-Q", "spades-Q", "clubs-Q"],
    0: ["trump-10", "trump-9", "trump-8", "spades-C", "spades-J", "spades-10"]
    + ["clubs-C", "clubs-J", "clubs-10"],
}
TALON = ["trump-7", "trump-6", "trump-5", "trump-4", "trump-3", "trump-2"]


def to_the_announcements(ruleset=RULESET) -> HandState:
    """Seat 1 bids Three alone and keeps the VII; each seat lays away what it took but the
    VII (seat 1 the hearts Queen instead); seat 1 calls the XX: seat 3 is its partner."""
    state = HandState(ruleset, 0, pack_for(ruleset, HANDS, TALON))
    say(state, (1, "harom"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (1, "hearts-Q"), (1, "trump-6"), (1, "trump-5"))
    say(state, (2, "trump-4"), (3, "trump-3"), (0, "trump-2"))
    say(state, (1, "trump-20"))
    assert state.auction.partner == 3
    return state


def paid(state: HandState) -> dict[str, float]:
    """The total each settlement rule paid (every pair of seats summed)."""
    totals: dict[str, float] = {}
    for payment in state.payments:
        totals[payment.rule] = totals.get(payment.rule, 0) + payment.amount
    return totals


def play(state: HandState, tricks: list[tuple[int, list[str]]]) -> None:
    """Each trick as (leader, cards in order of play from the leader; the last may stop
    before its end)."""
    for leader, trick in tricks:
        seats = [(leader + i) % 4 for i in range(len(trick))]
        say(state, *zip(seats, trick, strict=True))


def test_five_bonuses_made_by_one_side_with_their_cards_bound():
    state = to_the_announcements()
    say(state, (1, "announce:kismadar"), (1, "announce:nagymadar"), (1, "announce:pagat_uhu"))
    say(state, (1, "announce:kiraly_ultimo_hearts"), (1, "pass"), (2, "pass"))
    say(state, (3, "announce:centrum"), (3, "pass"), (0, "pass"), (1, "pass"), (2, "pass"))
    assert state.decision.kind == "play"
    say(state, (1, "trump-19"), (2, "trump-13"))
    # the partner's XX is bound to the fifth trick: held back while he has other tarokks
    assert sorted(state.legal_actions()) == ["trump-14", "trump-15", "trump-16"]
    say(state, (3, "trump-14"), (0, "trump-10"))
    play(
        state,
        [
            (1, ["trump-18", "trump-12", "trump-15", "trump-9"]),
            (1, ["trump-17", "trump-11", "trump-16", "trump-8"]),
            (1, ["spades-K", "hearts-1", "spades-Q", "spades-10"]),
            (1, ["trump-7", "diamonds-1", "trump-20", "clubs-10"]),  # 5th: the XX
            (3, ["diamonds-K", "clubs-J"]),
        ],
    )
    # the sixth trick: seat 1 must trump and must play the XXI, bound to it
    assert state.legal_actions() == ["trump-21"]
    say(state, (1, "trump-21"), (2, "diamonds-J"))
    assert state.legal_actions() == ["fool"]  # the seventh: the Skiz leads
    play(state, [(1, ["fool", "hearts-J", "diamonds-Q", "clubs-C"])])
    assert state.legal_actions() == ["trump-1"]  # the eighth: the Pagat, the King kept
    play(
        state,
        [
            (1, ["trump-1", "hearts-C", "clubs-Q", "spades-J"]),
            (1, ["hearts-K", "diamonds-C", "clubs-K", "spades-C"]),
        ],
    )
    assert state.is_terminal()
    assert [winner for _n, _l, _t, winner in state.play.trick_log] == [1, 1, 1, 1, 3, 1, 1, 1, 1]
    # by hand, per pair of opponents (four pairs, each amount x 1/2 for a side of two):
    # centrum, kismadar, nagymadar 10 each, pagat uhu 20, king ultimo 15; the silent volat
    # 3 x the game of Three cancels the game, trull and four Kings (basic rules)
    assert paid(state) == {
        "centrum_made": 20,
        "kismadar_made": 20,
        "nagymadar_made": 20,
        "pagat_uhu_made": 40,
        "kiraly_ultimo_hearts_made": 30,
        "volat_made": 6,
    }
    assert state.returns() == [-68, 68, -68, 68]


SECOND_HAND = [  # seat 2 trumps the first trick; seat 1's hearts King wins the eighth
    (1, ["spades-K", "trump-13", "spades-Q", "spades-10"]),
    (2, ["trump-12", "trump-14", "trump-10", "trump-19"]),
    (1, ["trump-18", "trump-11", "trump-15", "trump-9"]),
    (1, ["trump-17", "diamonds-1", "trump-16", "trump-8"]),
    (1, ["trump-7", "diamonds-J", "trump-20", "spades-C"]),
    (3, ["clubs-K", "clubs-10", "trump-21", "diamonds-C"]),
    (1, ["fool", "hearts-J", "diamonds-K", "clubs-J"]),
    (1, ["hearts-K", "hearts-C", "diamonds-Q", "clubs-C"]),
    (1, ["trump-1", "hearts-1", "clubs-Q", "spades-J"]),
]


def test_king_uhu_made_and_a_kontrad_centrum_lost_frees_the_xx():
    state = to_the_announcements()
    say(state, (1, "announce:kiraly_uhu_hearts"), (1, "pass"), (2, "pass"))
    # one side announces no ultimo of the card it bound to the eighth trick
    say(state, (3, "announce:centrum"))
    assert "announce:kiraly_ultimo_hearts" not in state.legal_actions()
    say(state, (3, "pass"), (0, "kontra:attackers_centrum"), (0, "pass"))
    say(state, (1, "pass"), (2, "pass"), (3, "pass"))
    assert state.double.doubled == {"attackers_centrum": 1}
    play(state, SECOND_HAND[:1])  # seat 2 takes the first trick: the centrum is lost
    say(state, (2, "trump-12"))
    assert "trump-20" in state.legal_actions()  # the XX is free again
    say(state, (3, "trump-14"), (0, "trump-10"), (1, "trump-19"))
    play(state, SECOND_HAND[2:6])
    # the hearts King is held back before the eighth trick, led in it
    assert "hearts-K" not in state.legal_actions()
    play(state, SECOND_HAND[6:7])
    assert state.legal_actions() == ["hearts-K"]
    play(state, SECOND_HAND[7:])
    assert state.is_terminal()
    rules = paid(state)
    # king uhu 20 for the attackers, the centrum kontra'd 10 x 2 to the defenders (each
    # amount x 1/2 for a side of two, four pairs);
    # the silent Pagat ultimo 5 (basic rules)
    assert rules["kiraly_uhu_hearts_made"] == 40 and rules["attackers_centrum_failed"] == 40
    assert rules["ultimo_made"] == 10
    for payment in state.payments:
        if payment.rule == "attackers_centrum_failed":
            assert (payment.payer, payment.payee) in {(1, 0), (1, 2), (3, 0), (3, 2)}
        if payment.rule == "kiraly_uhu_hearts_made":
            assert (payment.payer, payment.payee) in {(0, 1), (0, 3), (2, 1), (2, 3)}
    assert sum(state.returns()) == 0


def test_both_sides_announce_the_king_uhu_and_only_the_attackers_is_kontrad():
    """Each side's announcement of a bonus has its own kontra count, as in the basic game
    (X): the attackers' King uhu kontra'd once, the defenders' not at all."""
    state = to_the_announcements()
    say(state, (1, "announce:kiraly_uhu_hearts"), (1, "pass"))
    say(state, (2, "announce:kiraly_uhu_hearts"), (2, "kontra:attackers_kiraly_uhu_hearts"))
    say(state, (2, "pass"))
    # the partner may answer the kontra on his side's uhu, or kontra the defenders' own
    assert state.legal_actions()[-3:] == [
        "rekontra:attackers_kiraly_uhu_hearts",
        "kontra:defenders_kiraly_uhu_hearts",
        "pass",
    ]
    say(state, (3, "pass"), (0, "pass"), (1, "pass"))
    assert state.double.doubled == {"attackers_kiraly_uhu_hearts": 1}
    play(state, SECOND_HAND)
    assert state.is_terminal()
    # by hand, for each attacker (each defender pays it; x 1/2 per pair of opponents):
    # seat 1's hearts King wins the eighth trick: the attackers' uhu made, 20 x 2 (one
    # kontra) = 40; the defenders' uhu failed, 20 x 1 = 20 (on one count for both it would be
    # 40); 73 + 8 = 81 card points: the silent double game 2 x 1 = 2, which drops the game;
    # the silent trull 1; the silent Pagat ultimo 5: 68 each
    assert paid(state) == {
        "kiraly_uhu_hearts_made": 80,
        "defenders_kiraly_uhu_hearts_failed": 40,
        "double_game_made": 4,
        "trull_made": 2,
        "ultimo_made": 10,
    }
    assert state.returns() == [-68, 68, -68, 68]


def test_a_player_left_with_bound_cards_plays_the_earliest_bound():
    state = to_the_announcements()
    say(state, (1, "announce:kismadar"), (1, "announce:nagymadar"))
    say(state, (1, "announce:pagat_ultimo"), (1, "pass"))
    say(state, (2, "pass"), (3, "pass"), (0, "pass"))
    play(
        state,
        [
            (1, ["trump-19", "trump-13", "trump-14", "trump-10"]),
            (1, ["trump-18", "trump-12", "trump-15", "trump-9"]),
            (1, ["trump-17", "trump-11", "trump-16", "trump-8"]),
            (1, ["trump-7", "diamonds-1", "trump-20", "clubs-10"]),
            (3, ["diamonds-K", "clubs-J"]),
        ],
    )
    # fifth trick, seat 1 void in diamonds: its tarokks are the Skiz (bound to the seventh),
    # the XXI (the sixth) and the Pagat (the ninth): the XXI must go, losing the kismadar
    assert state.legal_actions() == ["trump-21"]
    say(state, (1, "trump-21"), (2, "diamonds-J"))
    # the side won every trick: the Skiz stays bound to the seventh, the Pagat to the ninth
    assert sorted(state.legal_actions()) == ["hearts-K", "spades-K"]
    while not state.is_terminal():
        say(state, (state.current_player(), state.legal_actions()[0]))
    rules = paid(state)
    assert rules["attackers_kismadar_failed"] == 20 and "kismadar_made" not in rules


def test_the_binding_reads_the_same_trick_rules_as_the_engine():
    """`legal_of` (the trick rules as the binding reads them) gives the engine's legal cards
    at every card of hands played at random without announcements."""
    legal_of = next(d for d in RULESET.definitions if d.name == "legal_of")
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        state = HandState(RULESET, 0, rng.sample(range(len(RULESET.deck)), len(RULESET.deck)))
        while not state.is_terminal():
            if state.decision.kind == "announce":
                say(state, (state.current_player(), "pass"))
                continue
            if state.decision.kind == "play":
                seat = state.current_player()
                mine = state.evaluate(legal_of.expression, {legal_of.of_seat: seat})
                assert sorted(IDS[c] for c in mine) == sorted(state.legal_actions()), seed
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 100


def test_the_pagat_uhu_may_be_scored_15():
    state = to_the_announcements(
        load_ruleset(GAME / "hungarian-tarokk-illustrated.yaml", {"pagat_uhu_value": "fifteen"})
    )
    say(state, (1, "announce:pagat_uhu"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))
    while not state.is_terminal():
        say(state, (state.current_player(), state.legal_actions()[0]))
    rules = paid(state)
    assert rules.get("pagat_uhu_made", rules.get("attackers_pagat_uhu_failed")) == 30


def test_heuristic_search_and_random_players_play_and_replay():
    for state in replayed_games(RULESET, 4, 2, mixed=True):
        if state.thrown_in is None:
            assert sum(state.returns()) == 0


def test_validate_play_and_replay(tmp_path):
    path = GAME / "hungarian-tarokk-illustrated.yaml"
    assert tarot("validate", str(path)).returncode == 0
    record = tmp_path / "hand.json"
    played = tarot("play", "hungarian-tarokk-illustrated", "--seed", "3", "--record", str(record))
    assert played.returncode == 0, played.stderr
    assert json.loads(record.read_text())["hands"]
    assert tarot("replay", str(record)).returncode == 0
