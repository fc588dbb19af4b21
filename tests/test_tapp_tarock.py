"""Tapp-Tarock (rulesets/tapp-tarock/): the text's worked examples (its three groups of
three, the pack's 70 or 71 points, its four payout examples), the auction under each reading
of the English and German texts, the tapp and its discards, Bridscher and its virgins, and
the commands. Records checked hand by hand against the independent reading of the text
(tests/independent_tapp) are in tests/test_independent_tapp_tarock.py."""

from __future__ import annotations

import random

import pytest
from independent_tapp.cards import counted

from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.engine.state import HandState
from tarot.players.random_agent import RandomAgent
from tests.commands import run_in_process
from tests.small_games import say

TAPP = load_ruleset("tapp-tarock")
SIMPLIFIED = load_ruleset("tapp-tarock-simplified")


def engine_count(ruleset: Ruleset, cards: list[str]) -> float:
    """The card points the engine counts for a pile of these cards."""
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    return state.count([ruleset.deck.by_id[c] for c in cards])


# --- the counting examples (Trick Points) -------------------------------------------------------


@pytest.mark.parametrize(
    ("pile", "points"),
    [
        (["hearts-Q", "hearts-4", "trump-3"], 4),  # Queen of Hearts / a pip / Tarot 3
        (["spades-J", "trump-14", "trump-18"], 2),
        (["diamonds-K", "trump-12", "fool"], 9),
    ],
)
def test_the_texts_groups_of_three_count_as_it_says(pile, points):
    assert engine_count(TAPP, pile) == points == counted(pile)


def test_the_pack_counts_seventy_traditionally_and_seventy_one_simplified():
    assert len(TAPP.deck) == 54
    assert engine_count(TAPP, list(TAPP.deck.by_id)) == 70
    assert engine_count(SIMPLIFIED, list(SIMPLIFIED.deck.by_id)) == 71
    # simplified, the plain tarots and pips count nothing
    assert engine_count(SIMPLIFIED, ["trump-2", "spades-10", "hearts-1", "clubs-C"]) == 3


def test_the_suits_and_tarots_rank_as_the_text_says():
    pack, by_id = TAPP.deck.cards, TAPP.deck.by_id
    order = ["fool", "trump-21", "trump-20", "trump-1"]
    assert [pack[by_id[c]].strength for c in order] == sorted(
        (pack[by_id[c]].strength for c in order), reverse=True
    )
    red = ["hearts-K", "hearts-Q", "hearts-C", "hearts-J", "hearts-1", "hearts-2", "hearts-3"]
    black = ["clubs-K", "clubs-Q", "clubs-C", "clubs-J", "clubs-10", "clubs-9", "clubs-7"]
    for suit in (red, black):
        strengths = [pack[by_id[c]].strength for c in suit]
        assert strengths == sorted(strengths, reverse=True)


# --- hands played with chosen decisions ---------------------------------------------------------


class PagatLast:
    """Random choices, but no bonus announced and the Pagat kept for the last trick while its
    holder has another card he may play (so that a Pagat ultimo is made now and then)."""

    def __init__(self, seed: int) -> None:
        self.random = RandomAgent(seed)

    def choose(self, state: HandState, seat: int) -> str:
        legal = state.legal_actions()
        if "pass" in legal and any(a.startswith("announce:") for a in legal):
            return "pass"
        others = [a for a in legal if a != "trump-1"]
        if "trump-1" in legal and others:
            return random.Random(repr(legal)).choice(others)
        return self.random.choose(state, seat)


def hand_after(ruleset: Ruleset, seed: int, bids: list[tuple[int, str]]) -> HandState:
    """A hand dealt by seat 0 from the seed's shuffle, the auction as `bids` says, then played
    out by `PagatLast` players."""
    pack = list(range(len(ruleset.deck)))
    random.Random(seed).shuffle(pack)
    state = HandState(ruleset, 0, pack)
    say(state, *bids)
    agent = PagatLast(seed)
    while not state.is_terminal():
        state.apply_action(agent.choose(state, state.current_player()))
    return state


def rules_paid(state: HandState) -> set[str]:
    return {payment.rule for payment in state.payments}


def first_hand(bids, wanted, ruleset: Ruleset = TAPP, seeds: int = 600) -> HandState:
    """The first seeded hand after `bids` whose payments come from exactly the rules `wanted`
    and pass the extra test `wanted` may carry."""
    rules, check = wanted if isinstance(wanted, tuple) else (wanted, lambda state: True)
    for seed in range(seeds):
        state = hand_after(ruleset, seed, bids)
        if rules_paid(state) == rules and check(state):
            return state
    raise AssertionError(f"no hand among {seeds} seeds pays exactly {rules}")


THREE_BY_1 = [(1, "three"), (2, "pass"), (0, "pass")]  # seat 1 is the example's Player 1
TWO_BY_2 = [(1, "pass"), (2, "three"), (0, "two"), (2, "pass")]  # seat 0: the Player 2 who wins


def test_payout_example_1_a_won_three():
    state = first_hand(THREE_BY_1, {"game_won"})
    assert state.net()[1] == 20 and state.net()[2] == -10 and state.net()[0] == -10


def test_payout_example_2_a_won_two():
    state = first_hand(TWO_BY_2, {"game_won"})
    assert state.net() == [40, -20, -20]


def test_payout_example_3_a_lost_three():
    state = first_hand(THREE_BY_1, {"game_lost"})
    assert state.net()[1] == -20 and state.net()[2] == 10 and state.net()[0] == 10


def test_payout_example_4_a_won_three_and_an_opponents_silent_pagat_ultimo():
    def pagat_to_player_2(state: HandState) -> bool:
        return any(p.rule == "pagat_ultimo_made" and p.payee == 2 for p in state.payments)

    state = first_hand(THREE_BY_1, ({"game_won", "pagat_ultimo_made"}, pagat_to_player_2))
    assert state.net() == [-20, 10, 10]  # Player 3 (seat 0) -20, Players 1 and 2 +10


def test_the_german_stakes_double_every_payment():
    german = load_ruleset("tapp-tarock", {"stakes": "german"})
    state = first_hand(TWO_BY_2, {"game_won"}, german)
    assert state.net() == [80, -40, -40]


# --- the auction ----------------------------------------------------------------------------------


def fresh(ruleset: Ruleset, seed: int = 1) -> HandState:
    pack = list(range(len(ruleset.deck)))
    random.Random(seed).shuffle(pack)
    return HandState(ruleset, 0, pack)


def test_the_dealers_right_hand_neighbour_opens_with_three_and_the_next_may_leap():
    state = fresh(TAPP)
    assert state.current_player() == 1
    assert sorted(state.legal_actions()) == ["pass", "three"]  # the first bid is always Three
    say(state, (1, "three"))
    assert sorted(state.legal_actions()) == sorted(["pass", "two", "one", "solo"])
    say(state, (2, "one"))
    assert sorted(state.legal_actions()) == ["pass", "solo"]  # no hold in the English text


def test_the_german_reading_bids_one_step_and_lets_the_overbid_hold():
    german = load_ruleset("tapp-tarock", {"hold": "hold", "bid_steps": "one_step"})
    state = fresh(german)
    assert sorted(state.legal_actions()) == sorted(["pass", "three"])
    # the German text's first example: A passes, B bids three, C two, B holds, C passes
    say(state, (1, "pass"), (2, "three"), (0, "two"))
    assert sorted(state.legal_actions()) == sorted(["pass", "hold:two", "one"])
    say(state, (2, "hold:two"))
    assert sorted(state.legal_actions()) == ["one", "pass"]  # the later bidder must go higher
    say(state, (0, "pass"))
    assert state.auction.taker == 2 and state.auction.contract == "two"


def test_all_passing_plays_a_bridscher_without_the_tapp_or_bonuses():
    state = fresh(TAPP)
    say(state, (1, "pass"), (2, "pass"), (0, "pass"))
    assert state.auction.contract == "bridscher"
    assert state.current_player() == 1  # the dealer's right-hand neighbour leads
    assert all(not a.startswith("announce") for a in state.legal_actions())


def test_a_bridscher_doubles_for_each_player_without_a_trick():
    def one_virgin(state: HandState) -> bool:
        winners = {trick["winner"] for trick in state.tricks}
        return len(winners) == 2

    state = first_hand([(1, "pass"), (2, "pass"), (0, "pass")], ({"bridscher"}, one_virgin))
    points = state.card_points()
    loser = points.index(max(points))
    assert state.net()[loser] == -40 and sorted(state.net()) == [-40, 20, 20]


# --- the tapp and the discards --------------------------------------------------------------------


def test_the_tapp_is_taken_in_packets_and_kings_and_trull_never_laid_away():
    for seed in range(40):
        state = fresh(TAPP, seed)
        say(state, (1, "three"), (2, "one"), (0, "pass"), (1, "pass"))
        assert state.legal_actions() == [f"packet:{n}" for n in range(1, 7)]
        state.apply_action("packet:1")
        legal = state.legal_actions()
        assert state.current_player() == 2
        assert not any(c.endswith("-K") or c in ("fool", "trump-21", "trump-1") for c in legal)
        hand = [TAPP.deck.cards[c].id for c in state.zones.hands[2]]
        if any(not c.startswith("trump") and c != "fool" and not c.endswith("-K") for c in hand):
            assert not any(c.startswith("trump") for c in legal)  # tarots only as a last resort


def test_a_solo_leaves_the_whole_tapp_to_the_opponents():
    state = fresh(TAPP)
    say(state, (1, "three"), (2, "solo"), (0, "pass"), (1, "pass"))
    assert not any(a.startswith("packet") for a in state.legal_actions())
    tapp = set(state.deal.talon_dealt)
    assert tapp <= set(state.side_pile(1)) and not tapp & set(state.side_pile(2))


# --- the commands ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tapp-tarock", "tapp-tarock-simplified"])
def test_validate_play_replay_and_simulate(name, tmp_path, capsys):
    assert run_in_process(capsys, "validate", name)[0] == 0
    record = tmp_path / "record.json"
    status, _out, err = run_in_process(capsys, "play", name, "--seed", "1", "--record", str(record))
    assert status == 0, err
    status, _out, err = run_in_process(capsys, "replay", str(record))
    assert status == 0, err
    status, out, err = run_in_process(capsys, "simulate", name, "--hands", "20")
    assert status == 0, err
    # the batch back end runs Tapp-Tarock whole (its contracts' play rules, the tapp's packets)
    assert f"{name}: 20 hands, seed 1, random players" in out
    assert "batch back end" in out and "playing on the scalar engine" not in err
