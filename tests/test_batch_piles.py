"""The batch back end (`tarot.batch`) on piles dealt face down on the table
(`deal.packets[].piles`, French Tarot for two): each seat plays from its hand and the
face-up tops of its piles, the card beneath turned up. Every hand tested replays through the
scalar engine with every payment, the net and the rule counts equal; means agree with the
scalar engine's in distribution; the search player's play-outs take the piles up."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from batch_checks import means_agree, play_outs_replayed, replayed
from test_batch_playouts import _moment, _trials

from tarot.batch.run import play_batch
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset

TWO = "french-tarot-2"
#: readings that take other paths: the deal thrown in by rule, or at the player's choice
READINGS = (("le_petit", "played"), ("petit_sec", "played"))


@cache
def loaded(target: str, options: tuple[tuple[str, str], ...] = ()):
    return load_ruleset(target, dict(options))


def test_piles_are_laid_and_played_from():
    ruleset = loaded(TWO)
    assert supports(ruleset) == []
    state = play_batch(ruleset, 3, range(1, 33))
    assert state.piles.shape == (32, 2, 6, 3)
    assert (state.piles < 0).all()  # every pile played out
    assert state.total_tricks == 39  # 21 cards in hand and 18 on the piles
    records, kinds, _fired = replayed(ruleset, 11, 40)
    assert kinds["play"] == 40 * 78
    played_from_piles = 0
    for record in records[:5]:
        first = loaded(TWO).deck.by_id
        hand_cards = {first[c] for c in record["packs"][0][36:]}  # the piles come first
        played_from_piles += sum(
            first[d["choice"]] not in hand_cards for d in record["decisions"] if d["kind"] == "play"
        )
    assert played_from_piles == 5 * 36


@pytest.mark.parametrize("reading", READINGS)
def test_other_readings_agree(reading):
    _records, _kinds, fired = replayed(loaded(TWO, (reading,)), 5, 60)
    assert fired


def test_search_play_outs_take_the_piles_up():
    for number in (1, 2):
        state = _moment(TWO, number, 3, 1)
        trials, streams = _trials(state, 3, number)
        assert all(any(map(any, t.zones.piles)) for t in trials)  # cards left on the piles
        batch = play_outs_replayed(trials, streams)
        assert np.all(batch.piles < 0)  # every pile played out


@pytest.mark.slow
def test_piles_agree_over_many_seeds():
    for seed in range(1, 7):
        replayed(loaded(TWO), seed, 200)
    for reading in READINGS:
        replayed(loaded(TWO, (reading,)), 21, 200)


@pytest.mark.slow
def test_piles_means_agree_in_distribution():
    means_agree(loaded(TWO), 21, 2000, {}, rules_at_least=2)
