"""The batch back end (`tarot.batch`) on the first dealer drawn for
(`deal.first_dealer_draw`, tests/data/rulesets/first-dealer-draw.yaml): the draw is the
game's, made from its seed before any hand, so every hand of a batch is dealt by the seat
the scalar engine's rotation gives it (`engine.game.dealer_of`), hands of sittings by their
own games' draws. Every hand tested replays through the scalar engine; a batch game's record
verifies, its dealer checked against the seed's draw."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from batch_checks import loaded, means_agree, replayed
from test_batch_contract_play import legal_counts_agree

from tarot.batch.phases.deal import first_dealers
from tarot.batch.support import supports
from tarot.cli import main
from tarot.engine.first_dealer import first_dealer
from tarot.engine.game import dealer_of

DRAW = str(Path(__file__).parent / "data" / "rulesets" / "first-dealer-draw.yaml")


def test_every_hand_is_dealt_by_the_seat_the_draw_gives():
    ruleset = loaded(DRAW)
    assert supports(ruleset) == []
    firsts = set()
    for seed in range(1, 9):
        records, kinds, _fired = replayed(ruleset, seed, 30)
        assert kinds["play"] == 30 * 18
        assert [r["dealer"] for r in records] == [dealer_of(ruleset, n, seed) for n in range(1, 31)]
        firsts.add(records[0]["dealer"])
    assert firsts == {0, 1, 2}  # the draw gives each seat the first deal in some game
    legal_counts_agree(ruleset, 3, 50)


def test_each_game_of_a_batch_of_sittings_draws_from_its_own_seed():
    ruleset = loaded(DRAW)
    seeds = np.array([11, 12, 11, 13, 14, 12, 15, 16], dtype=np.int64)
    drawn = first_dealers(ruleset, seeds)
    assert drawn.tolist() == [first_dealer(ruleset, int(seed)) for seed in seeds]
    assert len(set(drawn.tolist())) > 1
    assert first_dealers(ruleset, 11) == first_dealer(ruleset, 11)
    assert first_dealers(loaded("french-tarot"), seeds) == loaded("french-tarot").first_dealer


def test_a_batch_game_is_recorded_and_verifies(capsys, tmp_path):
    record = tmp_path / "drawn.json"
    args = ["play", DRAW, "--seed", "5", "--backend", "batch", "--record", str(record)]
    assert main(args) == 0
    shown = capsys.readouterr().out
    assert f"Seat {first_dealer(loaded(DRAW), 5)} deals first (deal.first_dealer_draw)" in shown
    assert main(["replay", str(record), "--ruleset", DRAW]) == 0, capsys.readouterr()


@pytest.mark.slow
def test_first_dealer_draws_agree_in_distribution():
    means_agree(loaded(DRAW), 21, 3000, {}, rules_at_least=1)
