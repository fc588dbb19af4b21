"""The batch back end on the games built in in session 38: what it runs replays through the
scalar engine hand by hand, with as many legal choices at every decision (Illustrated Tarock
and Strawman Tarock: `test_batch_forbidden_packets.py`, `test_batch_pile_tops.py`)."""

from __future__ import annotations

import pytest
from batch_checks import loaded, replayed
from test_batch_contract_play import legal_counts_agree

from tarot.batch.support import supports


@pytest.mark.parametrize(
    ("name", "hands"), [("cego", 40), ("tapp-tarock", 30), ("tapp-tarock-simplified", 20)]
)
def test_games_the_batch_runs_replay_through_the_scalar_engine(name: str, hands: int) -> None:
    """Cego's auction starts where `first` says once its Solo questions are answered (worked
    out again on reaching the auction, as the scalar engine does)."""
    ruleset = loaded(name)
    assert supports(ruleset) == []
    replayed(ruleset, 1, hands)
    legal_counts_agree(ruleset, 1, hands)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cego", "tapp-tarock"])
def test_new_games_agree_over_many_seeds(name: str) -> None:
    ruleset = loaded(name)
    for seed in range(2, 8):
        replayed(ruleset, seed, 120)
        legal_counts_agree(ruleset, seed, 40)
