"""The batch back end (`tarot.batch`) on a talon made a stock (`talon.to: stock`, Le Mort
of the two-player Marolles): after each trick every seat, the winner first, draws its top
card while it holds one for each. Every hand tested replays through the scalar engine with
every payment, the net and the rule counts equal; means agree with the scalar engine's in
distribution; the search player's play-outs take the stock up."""

from __future__ import annotations

from functools import cache

import pytest
from batch_checks import means_agree, play_outs_replayed, replayed
from test_batch_playouts import _moment, _trials

from tarot.batch.run import play_batch
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset

LE_MORT = "marolles-1637-wickson-2p-le-mort"
#: readings that take other paths: cards counted in pairs, the Fool kept from the last trick
READINGS = (("counted_in", "pairs"), ("fool_in_last_trick", "kept"))


@cache
def loaded(target: str, options: tuple[tuple[str, str], ...] = ()):
    return load_ruleset(target, dict(options))


def test_the_stock_is_drawn_from_until_every_card_is_played():
    ruleset = loaded(LE_MORT)
    assert supports(ruleset) == []
    state = play_batch(ruleset, 3, range(1, 33))
    assert state.stock.shape == (32, 18)
    assert state.total_tricks == 33  # 24 cards in hand and 9 drawn each, two players
    assert (state.stock < 0).all() and not state.talon.any()
    records, kinds, _fired = replayed(ruleset, 11, 40)
    assert kinds["play"] == 40 * 66  # every card of the pack played


@pytest.mark.parametrize("reading", READINGS)
def test_other_readings_agree(reading):
    _records, _kinds, fired = replayed(loaded(LE_MORT, (reading,)), 5, 60)
    assert fired


def test_search_play_outs_take_the_stock_up():
    for number in (1, 2):
        state = _moment(LE_MORT, number, 3, 1)
        trials, streams = _trials(state, 3, number)
        assert all(t.talon_phase.drawing and t.zones.talon for t in trials)
        play_outs_replayed(trials, streams)


@pytest.mark.slow
def test_the_stock_agrees_over_many_seeds():
    for seed in range(1, 7):
        replayed(loaded(LE_MORT), seed, 200)
    for reading in READINGS:
        replayed(loaded(LE_MORT, (reading,)), 21, 150)


@pytest.mark.slow
def test_the_stock_means_agree_in_distribution():
    means_agree(loaded(LE_MORT), 21, 2000, {}, rules_at_least=3)
