"""Strawman Tarock (rulesets/strawman-tarock/): the text's worked examples (its three groups of
three, the pack's 70 or 71 points, its two scoring examples), a drawn game, the claim and the
redeal under each reading of the English and German texts, the straw men played from, and
the commands. Records checked hand by hand against the independent reading of the text
(tests/independent_strawman) are in tests/test_independent_strawman_tarock.py."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from independent_strawman.cards import counted

import tarot
from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.engine.state import HandState
from tests.commands import run_in_process

STRAWMAN = load_ruleset("strawman-tarock")
SIMPLIFIED = load_ruleset("strawman-tarock-simplified")


def engine_count(ruleset: Ruleset, cards: list[str]) -> object:
    """The card points the engine counts for a pile of these cards."""
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    return state.count([ruleset.deck.by_id[c] for c in cards])


# --- the counting examples (Trick Points) -------------------------------------------------------


@pytest.mark.parametrize(
    ("pile", "points"),
    [
        # the text's "5 of Hearts" is not in the pack (hearts run A-2-3-4): a red pip stands in
        (["hearts-Q", "hearts-4", "trump-3"], 4),
        (["spades-J", "trump-14", "trump-18"], 2),
        (["diamonds-K", "trump-12", "fool"], 9),
    ],
)
def test_the_texts_groups_of_three_count_as_it_says(pile, points):
    assert engine_count(STRAWMAN, pile) == points == counted(pile)


def test_the_pack_counts_seventy_traditionally_and_seventy_one_simplified():
    assert len(STRAWMAN.deck) == 54
    assert engine_count(STRAWMAN, list(STRAWMAN.deck.by_id)) == 70
    assert engine_count(SIMPLIFIED, list(SIMPLIFIED.deck.by_id)) == 71


@pytest.mark.parametrize(
    ("pile", "points"),
    [
        # 35 in groups of three and two one-pointers over: the 36th point, a win
        (["trump-2", "trump-3"], 1),
        # one one-pointer over a group of three adds nothing: 35 and a card is no win
        (["trump-2"], 0),
    ],
)
def test_cards_left_over_a_group_of_three(pile, points):
    assert engine_count(STRAWMAN, pile) == points == counted(pile)


# --- hands played with chosen decisions ---------------------------------------------------------

Chooser = Callable[[tarot.State], str]


def preferring(*cards: str, seed: int = 0) -> Chooser:
    """A player that plays the first of `cards` it may, else a card chosen at random, and
    passes in the claim."""
    pick = random.Random(seed)

    def choose(state: tarot.State) -> str:
        legal = [a.text for a in state.legal_actions()]
        if state.decision_kind != "play":
            return "pass" if "pass" in legal else legal[-1]
        return next((c for c in cards if c in legal), None) or pick.choice(legal)

    return choose


def keeping_pagat(seed: int) -> Chooser:
    """A player that plays at random, the Pagat only when it has no other card it may play."""
    pick = random.Random(seed)

    def choose(state: tarot.State) -> str:
        legal = [a.text for a in state.legal_actions()]
        return pick.choice([c for c in legal if c != "trump-1"] or legal)

    return choose


def played_out(state: tarot.State, bids: list[str], *players: Chooser) -> tarot.State:
    """The hand after the claim words `bids` in turn, played out by `players` (one per seat)."""
    for bid in bids:
        state.apply(bid)
    while not state.is_terminal():
        state.apply(players[state.current_player](state))
    return state


def paid(state: tarot.State) -> list[tuple[str, int, int, object]]:
    return sorted((p.rule, p.payer, p.payee, p.amount) for p in state.payments)


# Example Scoring, the second: nobody claims, player two (seat 1, who did not deal) takes 65
# card points and the three honneurs; player one (seat 0), who holds no tarot and plays on
# rather than ask for a redeal, keeps a King by winning one trick
EXAMPLE_2 = {
    "dealer": 0,
    "hands": [
        (
            "clubs-K clubs-Q clubs-C clubs-J clubs-10 clubs-9 clubs-8 hearts-C hearts-J hearts-1"
            " hearts-2 hearts-3 hearts-4 diamonds-Q diamonds-C"
        ).split(),
        (
            "clubs-7 trump-1 fool trump-21 trump-20 trump-19 trump-18 trump-17 trump-16 trump-15"
            " trump-14 trump-13 trump-12 trump-11 trump-10"
        ).split(),
    ],
    "piles": [
        [
            ["diamonds-J", "diamonds-1", "diamonds-2", "diamonds-3"],
            ["diamonds-4", "spades-Q", "spades-C", "spades-J"],
            ["spades-10", "spades-9", "spades-8", "spades-7"],
        ],
        [
            ["trump-9", "trump-8", "trump-7", "hearts-K"],
            ["trump-6", "trump-5", "trump-4", "hearts-Q"],
            ["trump-3", "trump-2", "diamonds-K", "spades-K"],
        ],
    ],
}


@pytest.mark.parametrize("name", ["strawman-tarock", "strawman-tarock-simplified"])
def test_scoring_example_2_an_unclaimed_game_won_with_grandpoint_and_the_honneurs(name):
    """Player one owes player two 20 for the win, 20 for Grandpoint and 10 for the honneurs."""
    state = tarot.load(name).new_hand(deal=EXAMPLE_2)
    played_out(
        state,
        ["no_tarot:play_on", "pass", "pass"],
        preferring("clubs-K"),  # seat 0 takes the clubs-7 led with its King
        preferring("clubs-7", "trump-1"),  # seat 1 leads the 7, then the Pagat early
    )
    assert state.card_points()[0] == 5  # the King and the 7: 6 less 1 for two cards over
    assert paid(state) == [
        ("grandpoint", 0, 1, 20),
        ("honneurs", 0, 1, 10),
        ("simple_won", 0, 1, 20),
    ]
    assert state.returns() == [-50, 50]


def test_scoring_example_1_a_claim_won_and_the_losers_pagat_ultimo():
    """Player one claims and wins without a bonus, player two makes Pagat ultimo: player two
    owes 30 for the game, player one owes 10 for the Pagat ultimo. Seat 1 (who did not deal)
    claims; seat 0 keeps its Pagat for the last trick; the first seeded deal where the Pagat
    wins that trick, and nobody takes the honneurs or the Kings, is settled as if seat 1 had
    made 36 card points (`State.settlement`)."""
    ruleset = tarot.load("strawman-tarock")
    for seed in range(1, 400):
        state = ruleset.new_hand(seed=seed)
        if "trump-1" not in state.deal["hands"][0]:
            continue
        played_out(state, ["claim", "pass"], keeping_pagat(seed), preferring(seed=seed))
        rules = {p.rule for p in state.payments}
        if "pagat_ultimo" in rules and not rules & {"honneurs", "four_kings"}:
            break
    else:
        raise AssertionError("no seeded deal gives the example")
    settled = sorted((p.rule, p.payer, p.payee, p.amount) for p in state.settlement([34, 36]))
    assert settled == [("claim_won", 0, 1, 30), ("pagat_ultimo", 1, 0, 10)]
    # and with 40 the claimer is paid Absolut besides; with 35 each, the game is a draw
    absolut = {(p.rule, p.payee, p.amount) for p in state.settlement([30, 40])}
    assert ("absolut", 1, 10) in absolut and ("claim_won", 1, 30) in absolut
    drawn = {p.rule for p in state.settlement([35, 35])}
    assert drawn == {"pagat_ultimo"}
    beaten = {(p.rule, p.payer, p.amount) for p in state.settlement([36, 34])}
    assert ("claimer_beaten", 1, 40) in beaten


def test_thirty_five_each_is_a_draw_with_no_game_paid():
    ruleset = tarot.load("strawman-tarock")
    for seed in range(1, 400):
        state = tarot.play(ruleset, seed=seed, agents="random")
        if state.card_points() == [35, 35]:
            break
    else:
        raise AssertionError("no drawn game among the seeds")
    rules = {p.rule for p in state.payments}
    assert not rules & {"claim_won", "claimer_beaten", "simple_won", "absolut", "grandpoint"}


# --- the claim, the redeal, the straw men -------------------------------------------------------


def test_only_the_player_who_did_not_deal_claims_unless_the_german_reading_is_chosen():
    english = tarot.load("strawman-tarock").new_hand(seed=3)
    assert english.dealer == 0 and english.current_player == 1
    english.apply("pass")
    assert [a.text for a in english.legal_actions()] in ([], ["pass"])
    german = tarot.load("strawman-tarock", {"dealer_claims": "dealer_after"}).new_hand(seed=3)
    german.apply("pass")
    assert german.current_player == 0
    assert "claim" in [a.text for a in german.legal_actions()]


def test_a_hand_without_a_tarot_may_ask_for_a_redeal_or_is_dealt_again_at_once():
    asked = tarot.load("strawman-tarock").new_hand(deal=EXAMPLE_2)  # seat 0 holds no tarot
    assert asked.decision_kind == "redeal" and asked.current_player == 0
    assert [a.text for a in asked.legal_actions()] == ["no_tarot:redeal", "no_tarot:play_on"]
    always = tarot.load("strawman-tarock", {"no_tarot_redeal": "always"})
    thrown = always.new_hand(deal=EXAMPLE_2)
    assert thrown.is_terminal() and thrown.record()["hands"][0]["thrown_in"] == "no_tarot_always"


def test_the_straw_men_tarots_and_kings_go_to_the_hand_and_a_suit_card_stops_the_pile():
    """Once the claim is decided, a tarot or King turned up goes into the hand, shown to the
    other player, and the next card is turned; a suit card below a King stays face up, is
    played as if held, and stops its pile until it is played (Flipping the Straw Man Cards)."""
    state = tarot.load("strawman-tarock").new_hand(deal=EXAMPLE_2)
    for word in ("no_tarot:play_on", "pass", "pass"):
        state.apply(word)
    engine, ids = state.engine, STRAWMAN.deck.cards.ids
    # seat 1's first and third piles hold only tarots and Kings: all taken; the second
    # stops at its Queen of hearts; seat 0's piles show suit cards and stay as dealt
    taken = [(s.seat, sorted(c.id for c in s.cards)) for s in state.observation(0).shown]
    assert taken == [
        (1, sorted("hearts-K trump-7 trump-8 trump-9 spades-K diamonds-K trump-2 trump-3".split()))
    ]
    assert [[ids[c] for c in pile] for pile in engine.zones.piles[1]] == [
        [],
        ["trump-6", "trump-5", "trump-4", "hearts-Q"],
        [],
    ]
    assert [ids[c] for c in engine.playable(0)][-3:] == ["diamonds-3", "spades-J", "spades-7"]
    legal = [a.text for a in state.legal_actions()]
    assert state.current_player == 1  # nobody claimed: the player who did not deal leads
    assert {"hearts-Q", "diamonds-K", "trump-2"} <= set(legal)
    assert "trump-4" not in legal  # under the Queen, face down
    state.apply("hearts-Q")
    state.apply("hearts-C")
    # after the trick the next card is turned: three tarots, each taken into the hand
    assert not any(engine.zones.piles[1])
    assert {"trump-4", "trump-5", "trump-6"} <= {ids[c] for c in engine.zones.hands[1]}


# --- the commands ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["strawman-tarock", "strawman-tarock-simplified"])
def test_validates_plays_replays_and_simulates(capsys, tmp_path, name):
    assert run_in_process(capsys, "validate", name)[0] == 0
    record = tmp_path / "game.json"
    status, out, _ = run_in_process(
        capsys, "play", name, "--seed", "4", "--agents", "heuristic", "--record", str(record)
    )
    assert status == 0 and "Game over after" in out
    assert run_in_process(capsys, "replay", str(record))[0] == 0
    status, out, _ = run_in_process(
        capsys, "simulate", name, "--hands", "4", "--backend", "scalar", "--seed", "2"
    )
    assert status == 0


def test_explain_names_the_straw_men_and_the_readings(capsys):
    """Every source and assumption on the page is checked for every built-in in
    tests/test_explain.py; here, what a reader of this game looks for."""
    status, page, _ = run_in_process(capsys, "explain", "strawman-tarock")
    assert status == 0
    for words in ("piles", "Beat Claimer", "forehand_only", "dealer_after", "pagat_taken"):
        assert words in page
