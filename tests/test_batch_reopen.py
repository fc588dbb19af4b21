"""The batch back end (`tarot.batch`) on announcements that reopen (`announcements.reopen`,
tests/data/batch/announcements-reopen.yaml on French Tarot for five): after a bonus is
announced, the announcer's side-mates who have passed (the fact `announce_passes`) and are not
waiting to speak speak again once he has passed, so that a seat that passed may announce the
side's other bonus. Every hand tested
replays through the scalar engine with every payment equal (the scalar engine says when the
round reopened); means agree with the scalar engine's."""

from __future__ import annotations

from pathlib import Path

import pytest
from batch_checks import loaded, means_agree, replayed
from test_batch_contract_play import legal_counts_agree

from tarot.batch.phases import announce
from tarot.batch.run import play_batch
from tarot.batch.support import supports
from tarot.records.batch_agreement import replay
from tarot.records.replay import ReplayMismatch

REOPEN = str(Path(__file__).parent / "data" / "batch" / "announcements-reopen.yaml")


def _spoke_after_passing(record: dict) -> bool:
    """Whether some seat announced after it had passed in the announcements."""
    passed: set[int] = set()
    for decision in record["decisions"]:
        if decision["kind"] != "announce":
            continue
        if decision["choice"] == "pass":
            passed.add(decision["seat"])
        elif decision["seat"] in passed:
            return True
    return False


def test_a_seat_speaks_again_after_its_side_announces():
    ruleset = loaded(REOPEN)
    assert supports(ruleset) == []
    records, kinds, fired = replayed(ruleset, 1, 300)
    assert kinds["announce"] > 1000 and fired["defences"] > 200
    state = play_batch(ruleset, 1, range(1, 301))  # the same hands, played again
    reopened = 0
    for row, record in enumerate(records):
        scalar = replay(ruleset, record)
        reopened += bool(scalar.announce.reopened)
        passes = [scalar.announce.passes.count(seat) for seat in range(ruleset.players)]
        assert state.announce_passes[row].tolist() == passes, record["number"]
    assert reopened > 100
    assert sum(map(_spoke_after_passing, records)) > 10
    legal_counts_agree(ruleset, 1, 60)


def test_asking_each_seat_once_would_not_replay(monkeypatch):
    monkeypatch.setattr(announce, "_reopen", lambda *_args: None)
    with pytest.raises(ReplayMismatch):
        replayed(loaded(REOPEN), 1, 300)


@pytest.mark.slow
def test_reopened_announcements_agree_over_many_seeds():
    for seed in range(2, 8):
        replayed(loaded(REOPEN), seed, 300)
    means_agree(loaded(REOPEN), 21, 1500, {}, rules_at_least=3)
