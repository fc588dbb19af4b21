"""Cego (rulesets/cego/): the pack and its 69 card points counted in threes, the two phases
of the auction (Solo asked first, then the games bid one step at a time with holds), the
exchange with the twelve-card blind in each game, the Pagat to the first trick or kept for
ultimo, and the value of a game (points over 35 times the factor, rounded up to 5). The text
has no worked hands: its scoring rule is checked here on hands dealt for the purpose. Records
checked hand by hand against the independent reading of the text (tests/independent_cego)
are in tests/test_independent_cego.py."""

from __future__ import annotations

import random

import pytest
from independent_cego.cards import counted, pack

import tarot
from tarot.compile.loader import load_ruleset
from tarot.engine.state import HandState
from tests.commands import run_in_process

CEGO = load_ruleset("cego")

# the auction's order with seat 0 dealing: forehand 1, middlehand 2, the dealer 0
SUIT_CARDS = {
    "hearts": ["K", "Q", "C", "J", "10", "9", "8", "7"],
    "diamonds": ["K", "Q", "C", "J", "10", "9", "8"],
    "spades": ["K", "Q", "C", "J", "10", "9", "8"],
    "clubs": ["K", "Q", "C", "J", "10", "9", "8"],
}


def engine_count(cards: list[str]) -> float:
    """The card points the engine counts for a pile of these cards."""
    state = HandState(CEGO, 0, list(range(len(CEGO.deck))))
    return state.count([CEGO.deck.by_id[c] for c in cards])


def dealt(hands: list[list[str]]) -> dict:
    """A deal for dealer 0: the seats' cards as given, filled up to thirteen from the rest of
    the pack (the trumps but the Pagat first, then the courts, the Pagat, the pip cards), the
    blind the last twelve; so a seat holds no pip card and no Pagat it was not given."""
    every = pack()
    order = (
        [c for c in every if c.startswith("trump-") and c != "trump-1"]
        + ["fool"]
        + [c for c in every if c[-1] in "KQCJ"]
        + ["trump-1"]
        + [c for c in every if c.split("-")[-1].isdigit() and not c.startswith("trump-")]
    )
    rest = [c for c in order if not any(c in h for h in hands)]
    full = []
    for cards in hands:
        need = 13 - len(cards)
        full.append(list(cards) + rest[:need])
        rest = rest[need:]
    assert len(rest) == 12
    return {"dealer": 0, "hands": full, "talon": rest}


def legal(state) -> list[str]:
    """The legal actions as a record writes them."""
    return [str(action) for action in state.legal_actions()]


def held(state, seat: int) -> list[str]:
    """The cards the seat holds, by id."""
    return [CEGO.deck.cards[i].id for i in state.engine.zones.hands[seat]]


def say(state, *actions: str) -> None:
    for action in actions:
        state.apply(action)


# --- the pack and the counting (Preliminaries) ---------------------------------------------


def test_the_pack_has_51_cards_and_69_points_counted_in_threes() -> None:
    ids = sorted(card.id for card in CEGO.deck.cards)
    assert ids == sorted(pack()) and len(ids) == 51
    every = pack()
    assert sum(engine_count(every[i : i + 3]) for i in range(0, 51, 3)) == 69
    assert counted(every) == 69


@pytest.mark.parametrize(
    ("pile", "points"),
    [
        (["trump-21", "trump-1", "fool"], 13),  # three honours: 4 + 4 + 4, and 1 for the batch
        (["hearts-K", "hearts-Q", "hearts-C"], 10),
        (["hearts-J", "hearts-10", "trump-5"], 2),
        (["hearts-9", "hearts-8", "trump-2"], 1),  # three empty cards: the batch's 1
    ],
)
def test_a_batch_of_three_counts_the_table_and_one(pile, points) -> None:
    assert engine_count(pile) == points == counted(pile)


def test_every_hand_shares_out_the_69_points() -> None:
    for seed in range(1, 6):
        state = tarot.load("cego").new_hand(seed)
        while not state.is_terminal():
            say(state, legal(state)[0])
        assert sum(state.card_points()) == 69


# --- the auction (Bidding) -----------------------------------------------------------------


def test_solo_is_asked_in_turn_and_nobody_after_a_solo() -> None:
    state = tarot.load("cego").new_hand(deal=dealt([[], [], []]))
    assert state.current_player == 1 and legal(state) == ["solo_first:yes", "solo_first:no"]
    say(state, "solo_first:no")
    assert state.current_player == 2
    say(state, "solo_second:yes")
    # phase 2: the Solo bidder's left-hand neighbour (the dealer, seat 0) starts, seat 1 follows
    assert state.decision_kind == "bid" and state.current_player == 0
    assert "pass" in legal(state) and "cego" in legal(state)
    assert "eine" not in legal(state)  # no jump bids
    say(state, "pass")
    assert state.current_player == 1
    say(state, "pass")  # both pass: the Solo is played
    record_sides = state.engine.auction
    assert (record_sides.contract, record_sides.taker) == ("solo", 2)


def test_forehand_must_bid_cego_when_nobody_bid_solo() -> None:
    state = tarot.load("cego").new_hand(deal=dealt([[], [], []]))
    say(state, "solo_first:no", "solo_second:no", "solo_third:no")
    assert state.current_player == 1
    assert legal(state) == ["cego"]


def test_an_earlier_player_only_holds_or_passes() -> None:
    pair = ["hearts-10", "hearts-9"]
    state = tarot.load("cego").new_hand(
        deal=dealt([["spades-10", "spades-9", "clubs-10"], pair, []])
    )
    say(state, "solo_first:no", "solo_second:no", "solo_third:no", "cego")
    assert state.current_player == 2
    say(state, "pass")
    say(state, "eine")  # the dealer, later than forehand
    assert state.current_player == 1 and sorted(legal(state)) == ["hold:eine", "pass"]
    say(state, "hold:eine")
    assert sorted(legal(state)) == ["one_empty", "pass"]  # the next game only
    say(state, "one_empty", "hold:one_empty", "two_empty", "hold:two_empty")
    assert sorted(legal(state)) == ["pass", "two_different"]
    say(state, "two_different")
    # forehand holds pips of one suit only: he cannot hold Two Different, and may not go over it
    assert state.current_player == 1 and legal(state) == ["pass"]


# --- the exchange (Games) ------------------------------------------------------------------


def _won_by_forehand(hands: list[list[str]], game: str, *path: str):
    """Forehand (seat 1) takes `game` after the others pass."""
    state = tarot.load("cego").new_hand(deal=dealt(hands))
    say(state, "solo_first:no", "solo_second:no", "solo_third:no", "cego", "pass")
    say(state, *path)
    assert state.engine.auction.contract == game
    return state


def test_two_empty_keeps_a_pair_and_lays_away_the_lowest_trump_shown() -> None:
    forehand = ["hearts-10", "hearts-9", "spades-K", "trump-3", "trump-9"]
    dealer = ["diamonds-10", "diamonds-9", "clubs-10"]
    state = _won_by_forehand(
        [dealer, forehand, []],
        "two_empty",
        "eine",
        "hold:eine",
        "one_empty",
        "hold:one_empty",
        "two_empty",
        "hold:two_empty",
        "pass",
    )
    assert state.current_player == 1 and state.decision_kind == "discard"
    laid = 0
    while laid < 11:
        allowed = legal(state)
        assert "hearts-10" not in allowed and "hearts-9" not in allowed  # the only pair stays
        say(state, allowed[0])
        laid += 1
    kept = sorted(c for c in held(state, 1) if c not in state.deal["talon"])
    assert kept == ["hearts-10", "hearts-9"]
    trumps = [c for c in held(state, 1) if c.startswith("trump-")]
    lowest = min(trumps, key=lambda c: int(c.split("-")[1]))
    assert legal(state) == [lowest]
    say(state, lowest)
    while not state.is_terminal():
        say(state, legal(state)[0])
    record = state.record()["hands"][0]
    assert {"seat": 1, "what": "face_up", "cards": ["hearts-10", "hearts-9"]} in record["shown"]


def test_two_different_lays_away_the_fool_as_the_highest_trump() -> None:
    forehand = ["hearts-10", "spades-9", "diamonds-10", "diamonds-9", "trump-3"]
    dealer = ["clubs-10", "clubs-9", "hearts-8", "fool"]  # the Fool goes to the dealer...
    hands = dealt([dealer, forehand, []])
    # ...and is swapped into the blind, so that forehand finds it there
    fool_at = hands["hands"][0].index("fool")
    hands["hands"][0][fool_at], hands["talon"][0] = hands["talon"][0], "fool"
    state = tarot.load("cego").new_hand(deal=hands)
    say(state, "solo_first:no", "solo_second:no", "solo_third:no", "cego", "pass")
    say(
        state,
        "eine",
        "hold:eine",
        "one_empty",
        "hold:one_empty",
        "two_empty",
        "hold:two_empty",
        "two_different",
        "hold:two_different",
        "pass",
    )
    for _ in range(11):
        say(state, legal(state)[0])
    kept = [c for c in held(state, 1) if c not in state.deal["talon"]]
    assert len(kept) == 2 and kept[0].split("-")[0] != kept[1].split("-")[0]
    assert legal(state) == ["fool"]


def test_cego_keeps_two_and_lays_one_more_away_eine_keeps_one() -> None:
    state = _won_by_forehand([[], [], []], "cego", "pass")
    for _ in range(11):
        say(state, legal(state)[0])
    assert len(held(state, 1)) == 14  # two kept, the blind's twelve
    assert len(legal(state)) == 14  # any card of them
    say(state, legal(state)[0])
    assert state.decision_kind != "discard" and len(held(state, 1)) == 13

    state = _won_by_forehand([["hearts-10"], [], []], "eine", "eine", "hold:eine", "pass")
    for _ in range(12):
        say(state, legal(state)[0])
    assert len(held(state, 1)) == 13 and state.decision_kind != "discard"


def test_solo_takes_no_card_and_the_blind_counts_for_the_declarer() -> None:
    state = tarot.load("cego").new_hand(deal=dealt([[], [], []]))
    say(state, "solo_first:yes", "pass", "pass")
    assert state.decision_kind == "play" and state.current_player == 1  # the declarer leads
    while not state.is_terminal():
        say(state, legal(state)[0])
    record = state.record()["hands"][0]
    assert not any(d["kind"] == "discard" for d in record["decisions"])
    won = [c["card"] for t in record["tricks"] if t["winner"] == 1 for c in t["cards"]]
    assert record["card_points"][1] == counted(won + record["talon"])


# --- the Pagat (Play) ----------------------------------------------------------------------


def _pagat_game(ultimo: bool):
    """Seat 0 bids up to Pagat over a Solo of forehand; seat 2 holds to Two Different."""
    dealer = ["trump-1", "hearts-10", "hearts-9", "spades-10"]
    middle = ["diamonds-10", "diamonds-9", "clubs-10"]
    state = tarot.load("cego").new_hand(deal=dealt([dealer, [], middle]))
    say(
        state,
        "solo_first:yes",
        "cego",
        "eine",
        "hold:eine",
        "one_empty",
        "hold:one_empty",
        "two_empty",
        "hold:two_empty",
        "two_different",
        "hold:two_different",
        "pagat",
    )
    assert legal(state) == ["pass"]  # middlehand has no Pagat to hold
    say(state, "pass")
    assert (state.engine.auction.contract, state.engine.auction.taker) == ("pagat", 0)
    for _ in range(12):
        assert "trump-1" not in legal(state)
        say(state, legal(state)[0])
    assert state.decision_kind == "announce"
    say(state, "announce:ultimo" if ultimo else "pass")
    while state.decision_kind == "announce":
        say(state, "pass")
    return state


def test_the_pagat_goes_to_the_first_trick_unless_taken_back_for_ultimo() -> None:
    state = _pagat_game(ultimo=False)
    assert state.current_player == 0 and legal(state) == ["trump-1"]

    state = _pagat_game(ultimo=True)
    assert state.current_player == 0 and "trump-1" not in legal(state)
    while not state.is_terminal():
        say(state, legal(state)[0])
    record = state.record()["hands"][0]
    last = record["tricks"][-1]
    made = any(c["card"] == "trump-1" for c in last["cards"]) and last["winner"] == 0
    # failed, the declarer loses as if he took no trick: the defenders' 69, factor 7 over a Solo
    if not made:
        assert record["net"][0] == -2 * 240 and record["payments"][0]["rule"] == "game_lost"


# --- the value of a game (Scoring) ---------------------------------------------------------


def _value(points: int, factor: int) -> int:
    """The rule: (points - 35) x factor, rounded up to a multiple of 5."""
    return -(-(points - 35) * factor // 5) * 5


@pytest.mark.parametrize(
    ("points", "factor", "value"),
    [(36, 1, 5), (40, 1, 5), (41, 1, 10), (36, 7, 10), (69, 7, 240), (50, 3, 45), (35, 2, 0)],
)
def test_the_value_is_rounded_up_to_a_multiple_of_five(points, factor, value) -> None:
    assert _value(points, factor) == value


def test_every_hand_pays_the_value_its_card_points_give() -> None:
    """Seeded hands: each opponent pays (or is paid) the winning side's points over 35 times
    the factor of the game (Solo 2 won, 1 lost; a game over a Solo one more), rounded up."""
    factors = {"cego": 1, "eine": 2, "one_empty": 3, "two_empty": 4, "two_different": 5, "pagat": 6}
    rng = random.Random(5)
    seen = set()
    for seed in rng.sample(range(1000), 30):
        state = tarot.load("cego").new_hand(seed)
        agents = random.Random(seed)
        while not state.is_terminal():
            say(state, agents.choice(legal(state)))
        record = state.record()["hands"][0]
        taker, game = record["sides"]["taker"], record["sides"]["contract"]
        solo_bid = any(d["choice"].endswith(":yes") for d in record["decisions"])
        took = any(t["winner"] == taker for t in record["tricks"])
        ultimo = any(d["choice"] == "announce:ultimo" for d in record["decisions"])
        declarer = record["card_points"][taker] + 1 if took else 0
        if ultimo and not (
            record["tricks"][-1]["winner"] == taker
            and any(c["card"] == "trump-1" for c in record["tricks"][-1]["cards"])
        ):
            declarer = 0
        won = declarer >= 36
        if game == "solo":
            factor = 2 if won else 1
        else:
            factor = factors[game] + (1 if solo_bid else 0)
        value = _value(declarer if won else (70 - declarer if declarer else 69), factor)
        assert record["net"][taker] == (2 if won else -2) * value, seed
        seen.add((game == "solo", won))
    assert seen == {(True, True), (True, False), (False, True), (False, False)}


# --- the commands --------------------------------------------------------------------------


def test_the_commands_play_validate_and_explain_cego(capsys) -> None:
    status, out, _ = run_in_process(capsys, "validate", "cego")
    assert status == 0
    status, out, _ = run_in_process(capsys, "play", "cego", "--seed", "3", "--hands", "3")
    assert status == 0 and "Totals after 3 hand(s)" in out
    status, out, _ = run_in_process(capsys, "explain", "cego")
    assert status == 0 and "Two Different" in out and "ultimo" in out.lower()
