"""Sides from an expression (`play.sides`, also per contract): fixed partnerships without an
auction, every player for himself under one contract; the Excuse exchange, `side_points` and
the measures of a simulation follow the sides. On small games written for these tests
(tests/data/rulesets/partners-trump-order.yaml and contract-play-rules.yaml)."""

from __future__ import annotations

import pytest

from tarot.compile.loader import load_ruleset
from tarot.core.summary import leading_side
from tarot.errors import RulesetError
from tarot.expressions import EvaluationError
from tarot.measure.hand_summary import play_summarized
from tarot.players.random_agent import RandomAgent
from tests.test_play_rules import CONTRACTS, PARTNERS, contract_hand, partners_hand, play


def test_seats_opposite_are_partners_and_pool_their_tricks():
    state = partners_hand()
    assert [state.side_of(s) for s in range(4)] == [(0, 2), (1, 3), (0, 2), (1, 3)]
    play(state, "swords-K", "swords-1", "swords-2", "swords-3")  # seat 2 wins a King
    assert state.side_points(0) == state.side_points(2) == 4 and state.side_points(1) == 0


def test_every_player_for_himself_under_one_contract_and_the_excuse_follows():
    # seat 0 excuses the Fool in a trick seat 2 wins: a debt under `one_trick`, where each
    # plays alone, none under `plain`, where seats 0 and 2 defend together
    for contract, debts in (("one_trick", [(0, 2)]), ("plain", [])):
        state = contract_hand(contract)
        play(state, "swords-2", "swords-K", "fool")
        assert state.play.trick_log[-1][3] == 2
        assert state.play.excuse_debts == debts, contract
    alone = contract_hand("one_trick")
    assert [alone.side_of(s) for s in range(3)] == [(0,), (1,), (2,)]
    assert contract_hand("plain").side_of(0) == (0, 2)


def test_a_contract_to_take_exactly_one_trick_stops_at_the_second():
    state = contract_hand("one_trick")
    play(state, "cups-K", "cups-1", "cups-3")  # the taker's first trick: play goes on
    assert state.play.trick_log[-1][3] == 1 and not state.is_terminal()
    play(state, "trump-4", "trump-5", "trump-8")  # seat 0
    play(state, "swords-4", "swords-3", "swords-K")  # seat 2
    play(state, "swords-1", "trump-9", "swords-2")  # seat 0
    play(state, "trump-10", "trump-3", "trump-6")  # seat 0
    assert not state.is_terminal()
    play(state, "cups-4", "trump-2", "cups-2")  # the taker's second trick: play stops
    assert state.is_terminal() and sum(map(len, state.hands)) == 3
    assert state.returns() == [4, -8, 4]


def test_sides_that_do_not_split_the_seats_stop_the_hand_with_a_message(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        f"extends: {PARTNERS}\n"
        'play:\n  sides: {of_seat: s, value: "[t in seats if t != s]", source: test}\n'
    )
    ruleset = load_ruleset(bad)
    with pytest.raises(EvaluationError) as caught:
        play_summarized(ruleset, 1, 1, [RandomAgent(s) for s in range(4)])
    message = str(caught.value)
    assert "bad.yaml:" in message and "$.play.sides.value" in message
    assert "does not split the seats into sides: seat 0's side [1, 2, 3]" in message


def test_sides_must_give_seats(tmp_path):
    bad = tmp_path / "cards.yaml"
    bad.write_text(
        f'extends: {PARTNERS}\nplay:\n  sides: {{of_seat: s, value: "hand(s)", source: test}}\n'
    )
    with pytest.raises(RulesetError, match=r"\$\.play\.sides\.value: expected a seat or seats"):
        load_ruleset(bad)


def test_the_measures_count_a_sides_win():
    assert leading_side((0, 2), [(0, 2), (1, 3), (0, 2), (1, 3)]) == 0
    assert leading_side((0, 1), [(0, 2), (1, 3), (0, 2), (1, 3)]) is None
    assert leading_side((0, 2)) is None  # without sides, a shared best is a draw
    ruleset = load_ruleset(PARTNERS)
    agents = [RandomAgent(s) for s in range(4)]
    decided = 0
    for number in range(1, 9):
        summary = play_summarized(ruleset, 3, number, agents)
        if summary.winner is not None:
            decided += 1
            side = (summary.winner, (summary.winner + 2) % 4)
            assert sorted(summary.winners) == sorted(side)
            assert summary.net[side[0]] == summary.net[side[1]] == max(summary.net)
    assert decided > 0  # partners always share their result: a win, not a draw
    contracts = load_ruleset(CONTRACTS)
    assert contracts.play.sides is None
    assert contracts.bidding.contract("one_trick").play.sides is not None
