"""Illustrated Tarock (rulesets/illustrated-tarock/): the text's worked scoring examples (a Two
with Pagat Ultimo announced, won with 40 card points and lost with 33), its counting (the pack
makes 70), the ranks, the exchange's groups and its discards, the mounting announcements and
the contras of each reading. Records checked hand by hand against the independent reading of
the text (tests/independent_illustrated) are in tests/test_independent_illustrated_tarock.py."""

from __future__ import annotations

import random

import pytest
from independent_illustrated.cards import counted

from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.engine.state import HandState
from tarot.players.random_agent import RandomAgent
from tests.commands import run_in_process
from tests.small_games import compiled, say

GAME = load_ruleset("illustrated-tarock")
DOUBLES = load_ruleset("illustrated-tarock-contra-doubles")


def engine_count(ruleset: Ruleset, cards: list[str]) -> float:
    """The card points the engine counts for a pile of these cards."""
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    return state.count([ruleset.deck.by_id[c] for c in cards])


# --- the cards and the counting (Preliminaries; Scoring) ---------------------------------------


def test_the_pack_makes_seventy_card_points_in_batches_of_three():
    assert len(GAME.deck) == 54
    assert engine_count(GAME, list(GAME.deck.by_id)) == 70 == counted(list(GAME.deck.by_id))


@pytest.mark.parametrize(
    ("pile", "points"),
    [
        (["trump-21", "hearts-Q", "spades-7"], 8),  # 4 + 3 + 0 and a batch of three
        (["hearts-K", "clubs-J"], 6),  # 4 + 1 and two thirds, rounded up
        (["diamonds-C"], 2),  # 2 and a third, rounded down
        (["trump-5", "trump-9", "spades-10", "hearts-1"], 1),  # nothing and 4/3, rounded down
    ],
)
def test_a_pile_counts_its_values_and_a_third_per_card_rounded(pile, points):
    assert engine_count(GAME, pile) == points == counted(pile)


def test_the_fool_is_the_highest_trump():
    pack, by_id = GAME.deck.cards, GAME.deck.by_id
    order = ["fool", "trump-21", "trump-20", "trump-2", "trump-1"]
    strengths = [pack[by_id[c]].strength for c in order]
    assert strengths == sorted(strengths, reverse=True)


# --- the worked scoring examples (Scoring) -----------------------------------------------------


class UltimoPlayer:
    """Random choices, but nothing announced before the exchange, Pagat Ultimo announced after
    it by a declarer who holds the Pagat, no contra, and the Pagat kept for the last trick while
    another card may be played."""

    def __init__(self, seed: int) -> None:
        self.random = RandomAgent(seed)
        self.choices = random.Random(seed)

    def choose(self, state: HandState, seat: int) -> str:
        legal = state.legal_actions()
        if any(a.endswith(":no") for a in legal):
            return next(a for a in legal if a.endswith(":no"))
        pagat = GAME.deck.by_id["trump-1"]
        if "announce:pagat_ultimo" in legal and pagat in state.zones.hands[seat]:
            return "announce:pagat_ultimo"
        if "pass" in legal and any(a.startswith("announce:") for a in legal):
            return "pass"
        if any(a.startswith("pass:") for a in legal):
            return next(a for a in legal if a.startswith("pass:"))
        others = [a for a in legal if a != "trump-1"]
        if "trump-1" in legal and others:
            return self.choices.choice(others)
        return self.random.choose(state, seat)


def two_with_ultimo(seed: int) -> HandState:
    """Seat 0 deals from the seed's shuffle; seat 1 bids Two and the others pass; then
    `UltimoPlayer`s play it out."""
    pack = list(range(len(GAME.deck)))
    random.Random(seed).shuffle(pack)
    state = HandState(GAME, 0, pack)
    say(state, (1, "two"), (2, "pass"), (0, "pass"))
    agent = UltimoPlayer(seed)
    while not state.is_terminal():
        state.apply_action(agent.choose(state, state.current_player()))
    return state


def only_game_and_ultimo(state: HandState) -> None:
    """The hand is the example's: Pagat Ultimo announced after the exchange and made by the
    declarer (seat 1), no contra, and no other bonus made by either side."""
    ids = GAME.deck.cards.ids
    log = state.play.trick_log
    assert [d["choice"] for d in state.decisions if d["kind"] == "announce"] == [
        "announce:pagat_ultimo",
        "pass",
    ]
    assert not any(
        d["kind"] == "double" and not d["choice"].startswith("pass") for d in state.decisions
    )
    number, _, last, winner = log[-1]
    assert winner == 1 and (1, GAME.deck.by_id["trump-1"]) in last
    for back, card in ((1, "trump-2"), (2, "trump-3")):  # no silent Uhu or Kakadu
        _, _, trick, won = log[-1 - back]
        assert not (won == 1 and (1, GAME.deck.by_id[card]) in trick)
    for side in (state.side_pile(0), state.side_pile(1)):
        ids_in = {ids[c] for c in side}
        assert not {"fool", "trump-21", "trump-1"} <= ids_in
        assert not {"hearts-K", "diamonds-K", "spades-K", "clubs-K"} <= ids_in
    mond = GAME.deck.by_id["trump-21"]
    for _, _, trick, won in log:  # no Mondfang either way
        for seat, card in trick:
            if card == mond:
                assert (seat == 1) == (won == 1)


def test_example_a_two_won_with_40_card_points_and_pagat_ultimo_scores_40():
    """The text: Two, Pagat Ultimo announced and made, 40 card points: (5 + 5 + 10) * 2 = 40
    for the declarer (seed 135 deals such a hand to these players)."""
    state = two_with_ultimo(135)
    only_game_and_ultimo(state)
    assert state.side_points(1) == 40
    assert [state.hand_score(s) for s in range(3)] == [0, 40, 0]


def test_example_b_two_lost_with_33_card_points_ultimo_made_scores_20_and_14_each():
    """The text: the same with 33 card points: the declarer 10 * 2 = 20 for his ultimo, each
    opponent (5 + 2) * 2 = 14 for the game (seed 14)."""
    state = two_with_ultimo(14)
    only_game_and_ultimo(state)
    assert state.side_points(1) == 33
    assert [state.hand_score(s) for s in range(3)] == [14, 20, 14]


# --- the exchange, the announcements, the contras ----------------------------------------------


def dealt(seed: int, bids: list[tuple[int, str]], ruleset: Ruleset = GAME) -> HandState:
    pack = list(range(len(ruleset.deck)))
    random.Random(seed).shuffle(pack)
    state = HandState(ruleset, 0, pack)
    say(state, *bids)
    return state


def test_forehand_bids_first_and_a_pass_is_final_all_passing_throws_the_deal_in():
    state = dealt(3, [(1, "three"), (2, "pass"), (0, "one")])
    assert state.current_player() == 1  # the auction comes round to forehand again
    assert "two" not in state.legal_actions() and "solo" in state.legal_actions()
    out = dealt(4, [(1, "pass"), (2, "pass"), (0, "pass")])
    assert out.is_terminal() and not out.play.trick_log and out.returns() == [0, 0, 0]


@pytest.mark.parametrize(("contract", "groups"), [("three", 2), ("two", 3), ("one", 6)])
def test_the_talon_is_cut_into_the_contracts_groups(contract, groups):
    state = dealt(5, [(1, contract), (2, "pass"), (0, "pass")])
    while not any(a.startswith("packet:") for a in state.legal_actions()):
        state.apply_action(next(a for a in state.legal_actions() if a.endswith(":no")))
    assert sorted(state.legal_actions()) == sorted(f"packet:{n}" for n in range(1, groups + 1))


def test_cards_worth_four_are_never_laid_away_and_trumps_only_for_want_of_others():
    for seed in range(40):
        state = dealt(seed, [(1, "one"), (2, "pass"), (0, "pass")])
        while state.legal_actions() and not any(
            a.startswith("packet:") for a in state.legal_actions()
        ):
            state.apply_action(next(a for a in state.legal_actions() if a.endswith(":no")))
        state.apply_action("packet:1")
        ids = GAME.deck.cards.ids
        held = [ids[c] for c in state.zones.hands[1]]
        legal = set(state.legal_actions())
        assert not legal & ({"fool", "trump-21", "trump-1"} | {f"{s}-K" for s in SUITS})
        plain = [c for c in held if not c.startswith("trump") and c != "fool" and "-K" not in c]
        if plain:
            assert legal == set(plain)


SUITS = ("hearts", "diamonds", "spades", "clubs")


def test_with_50_and_valat_mount_on_the_announcement_below():
    state = dealt(6, [(1, "three"), (2, "pass"), (0, "pass")])
    say(state, (1, "early_with_40:no"))
    # With 50 is not asked before the exchange without With 40
    assert all(not a.startswith("early_with_50") for a in state.legal_actions())
    while not any(a.startswith("announce:") for a in state.legal_actions()):
        legal = state.legal_actions()
        no = [a for a in legal if a.endswith(":no")]
        state.apply_action(no[0] if no else legal[0])
    legal = state.legal_actions()
    assert "announce:with_40" in legal and "announce:with_50" not in legal
    assert "announce:valat" not in legal
    state.apply_action("announce:with_40")
    assert "announce:with_50" in state.legal_actions()
    assert "announce:valat" not in state.legal_actions()
    state.apply_action("announce:with_50")
    assert "announce:valat" in state.legal_actions()


FACTOR = "doubling_factor('game')"


@pytest.mark.parametrize(("ruleset", "contra", "recontra"), [(GAME, 4, 16), (DOUBLES, 2, 4)])
def test_a_contra_and_a_recontra_multiply_as_each_reading_says(ruleset, contra, recontra):
    state = dealt(7, [(1, "solo"), (2, "pass"), (0, "pass")], ruleset)
    while state.current_player() is not None:
        legal = state.legal_actions()
        if "contra:game" in legal:
            state.apply_action("contra:game")
            assert state.evaluate(compiled(ruleset, FACTOR)) == contra
            continue
        if "recontra:game" in legal:
            state.apply_action("recontra:game")
            assert state.evaluate(compiled(ruleset, FACTOR)) == recontra
            break
        no = [a for a in legal if a.endswith(":no") or a == "pass" or a.startswith("pass:")]
        state.apply_action(no[0] if no else legal[0])
    else:
        pytest.fail("no contra offered")


# --- the commands ------------------------------------------------------------------------------


def test_validate_play_replay_and_explain(capsys, tmp_path):
    record = tmp_path / "game.json"
    assert run_in_process(capsys, "validate", "illustrated-tarock")[0] == 0
    status, out, _ = run_in_process(
        capsys, "play", "illustrated-tarock", "--seed", "3", "--record", str(record)
    )
    assert status == 0 and "Scored (points)" in out
    status, out, _ = run_in_process(capsys, "replay", str(record))
    assert status == 0 and "every payment, total and winner the same" in out
    status, out, _ = run_in_process(capsys, "explain", "illustrated-tarock-contra-doubles")
    assert status == 0 and "quadrupling" in out


def test_announced_without_kings_before_the_exchange_no_group_with_a_king_may_be_taken():
    """Exchange: having announced Without Kings before it, the declarer may not take a group
    holding a King while another group may be taken (`talon.packets.forbidden`)."""
    ids = GAME.deck.cards.ids
    for seed in range(200):
        state = dealt(seed, [(1, "one"), (2, "pass"), (0, "pass")])
        holds_king = any(ids[c].endswith("-K") for c in state.zones.hands[1])
        talon_kings = sum(ids[c].endswith("-K") for c in state.zones.talon)
        if holds_king or not talon_kings:
            continue
        while not any(a.startswith("packet:") for a in state.legal_actions()):
            legal = state.legal_actions()
            state.apply_action(
                "early_without_kings:yes"
                if legal[0].startswith("early_without_kings")
                else next(a for a in legal if a.endswith(":no"))
            )
        offered = [state.zones.packets[int(a.split(":")[1]) - 1] for a in state.legal_actions()]
        assert len(offered) == 6 - talon_kings
        assert not any(ids[c].endswith("-K") for packet in offered for c in packet)
        return
    pytest.fail("no deal found")
