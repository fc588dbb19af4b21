"""The batch back end (`tarot.batch`) on pile tops taken into the hand
(`play.pile_tops_to_hand`, tests/data/rulesets/pile-tops-to-hand.yaml and Strawman Tarock):
each seat's face-up pile tops of the kind the rule names go into its hand when play begins
and after each trick, the card beneath turned up. Every hand tested replays through the
scalar engine with every payment, the net and the rule counts equal; means agree with the
scalar engine's; the search player's play-outs take the tops up as the scalar engine does."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from batch_checks import loaded, means_agree, play_outs_replayed, replayed
from test_batch_contract_play import legal_counts_agree
from test_batch_playouts import _moment, _trials

from tarot.batch.masks import count
from tarot.batch.phases import deal, piles, play
from tarot.batch.phases.pile_tops import take_pile_tops
from tarot.batch.run import program_of
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.records.replay import ReplayMismatch

TOPS = str(Path(__file__).parent / "data" / "rulesets" / "pile-tops-to-hand.yaml")
STRAWMAN = ("strawman-tarock", "strawman-tarock-simplified")


def test_tops_of_the_kind_go_into_the_hand_until_none_shows():
    ruleset = loaded(TOPS)
    assert supports(ruleset) == []
    program = program_of(ruleset)
    rule = program.plays.own.pile_tops_to_hand
    assert rule is not None and rule.const
    state = deal.deal(program, 3, np.arange(1, 201))
    dealt = state.hands.copy()
    before = count(dealt)  # [hands, seats]
    on_piles = (state.piles >= 0).sum(axis=(2, 3))
    take_pile_tops(rule, state, 1)
    wanted = rule.value.union()
    rows = np.arange(state.size)
    for seat in range(ruleset.players):
        faces = piles.tops(state, rows, np.full(state.size, seat))
        showing = state.tables.layout.contains(wanted, faces)
        assert not showing.any()  # no pile shows a trump or a King any more
    taken = count(state.hands) - before
    assert (taken == on_piles - (state.piles >= 0).sum(axis=(2, 3))).all()  # none lost
    assert (taken > 0).sum() > 100 and (taken >= 2).any()  # some took two or more
    assert (dealt & ~state.hands == 0).all()  # the hand as dealt is kept
    assert (state.hands & ~dealt & ~wanted == 0).all()  # and only cards of the kind are taken


def test_every_hand_replays_and_a_hand_without_the_rule_would_not(monkeypatch):
    _records, kinds, fired = replayed(loaded(TOPS), 3, 200)
    assert kinds["play"] == 200 * 20 and fired["most_points"] > 100
    legal_counts_agree(loaded(TOPS), 3, 100)
    monkeypatch.setattr(play, "take_pile_tops", lambda *_args: None)
    with pytest.raises(ReplayMismatch, match="illegal"):  # the scalar engine took them
        replayed(loaded(TOPS), 3, 200)


@pytest.mark.parametrize("name", STRAWMAN)
def test_strawman_tarock_replays(name):
    ruleset = load_ruleset(name)
    assert supports(ruleset) == []
    _records, kinds, fired = replayed(ruleset, 5, 60)
    assert kinds["bid"] and kinds["play"] == 60 * 27 * 2
    legal_counts_agree(ruleset, 5, 30)  # as many legal choices at every decision
    assert fired["claim_won"] + fired["claimer_beaten"] + fired["simple_won"] >= 55


def test_search_play_outs_take_the_tops_up():
    for number in (1, 2):
        state = _moment("strawman-tarock", number, 2, 1)
        trials, streams = _trials(state, 3, number)
        assert all(any(map(any, t.zones.piles)) for t in trials)  # cards left on the piles
        batch = play_outs_replayed(trials, streams)
        assert np.all(batch.piles < 0)  # every pile played out


@pytest.mark.slow
def test_pile_tops_agree_over_many_seeds():
    for seed in range(1, 9):
        replayed(loaded(TOPS), seed, 300)
    for name in STRAWMAN:
        for seed in range(1, 6):
            replayed(load_ruleset(name), seed, 200)


@pytest.mark.slow
def test_pile_tops_means_agree_in_distribution():
    means_agree(loaded(TOPS), 21, 3000, {}, rules_at_least=1)
    means_agree(load_ruleset("strawman-tarock"), 21, 1500, {}, rules_at_least=5)
