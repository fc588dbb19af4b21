"""Hungarian Tarokk in the batch back end: the first built-in ruleset of its family run there
(auction history, talon shared out, announcements with their doublings, the cards kept for
the last trick, the log of tricks), each hand replayed through the scalar engine with every
decision legal and every payment equal, in order."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest
from batch_checks import loaded, replayed

from tarot.batch.run import program_of
from tarot.batch.seat_order import attack_order
from tarot.batch.support import supports

NAME = "hungarian-tarokk"


def test_hungarian_tarokk_runs_in_batch_and_replays_through_the_scalar_engine():
    ruleset = loaded(NAME)
    assert supports(ruleset) == []
    records, kinds, fired = replayed(ruleset, 3, 60)
    assert kinds["announce"] > 1000 and kinds["call"] > 30 and kinds["play"] > 1000
    said = Counter(
        d["choice"].split(":")[0]
        for r in records
        for d in r["decisions"]
        if d["kind"] == "announce"
    )
    assert said["kontra"] > 50 and said["announce"] > 50  # doublings in the announcements
    assert fired["game_points"] > 40


def test_the_taker_s_side_is_paid_in_the_scalar_engine_s_order():
    """The scalar engine gives the taker's side taker first, then his partner, then the
    seats that joined him in the order they joined; a rule paying such a side (through a
    definition choosing it) is paid in that order in the batch, and one paying a filter of
    every seat in seat order."""
    program = program_of(loaded(NAME))
    rule = next(r for r in program.settlement if r.key == "game_points")
    assert rule.attack_ordered == (False, True)  # from a filter of seats, to `game_side`
    taker, partner = np.array([3, 1, -1, 3]), np.array([0, 2, -1, 0])
    joined = np.zeros((4, 4), dtype=np.int64)
    joined[3] = [0, 2, 1, 0]  # seat 2 joined the taker, then seat 1 (`bidding.contracts[].join`)
    state = SimpleNamespace(players=4, size=4, taker=taker, partner=partner, joined=joined)
    order = attack_order(state, np.arange(4))
    assert order.tolist() == [[3, 0, 1, 2], [1, 2, 0, 3], [0, 1, 2, 3], [3, 0, 2, 1]]


@pytest.mark.slow
def test_hungarian_tarokk_replays_over_many_seeds():
    ruleset = loaded(NAME)
    for seed in range(1, 9):
        replayed(ruleset, seed, 400)
