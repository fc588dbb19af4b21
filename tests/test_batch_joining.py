"""The batch back end (`tarot.batch`) on seats that join the taker (`bidding.contracts[].join`,
`join_at`, `join_needed`: `tarot.batch.phases.joining`).

On tests/data/batch/joining.yaml (seats asked once the auction is won, a bid that counts
only if one joins, a bid joined in the bidding whose joins fall when it is overbid, the
contracts offered once all passed and made compulsory asked too),
tests/data/batch/joining-forced.yaml (a contract forced when all pass, void and forced again
until a seat joins it) and the language's own test rulesets that use them, every hand tested
replays through the scalar engine with every decision legal and every payment equal (the
sides, and the order the taker's side pays in, included); the legal choices and the means
are the scalar engine's. Switched off, the joins do not replay (asked once the auction is
won) or the choices are not the scalar engine's (in the bidding)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from batch_checks import loaded, means_agree, replayed
from test_batch_contract_play import legal_counts_agree

from tarot.batch.phases import joining
from tarot.batch.run import play_batch
from tarot.batch.support import supports
from tarot.records.batch_agreement import batch_records, replay
from tarot.records.replay import ReplayMismatch

TESTS = Path(__file__).parent / "data"
JOINING = str(TESTS / "batch" / "joining.yaml")
FORCED = str(TESTS / "batch" / "joining-forced.yaml")
JOINING_BID = str(TESTS / "rulesets" / "joining-bid.yaml")
AUCTION = str(TESTS / "rulesets" / "auction-packets-doubling.yaml")
RAISES = str(TESTS / "rulesets" / "winner-raises.yaml")


def _words(record: dict) -> list[str]:
    return [d["choice"] for d in record["decisions"] if d["kind"] in ("bid", "join")]


def _fell(words: list[str]) -> bool:
    """Whether a join in the bidding fell: a bid or hold said after it."""
    joined = next((i for i, w in enumerate(words) if w.startswith("join:")), None)
    return joined is not None and any(
        w != "pass" and not w.startswith("join") for w in words[joined + 1 :]
    )


def test_seats_join_the_taker_every_way_as_in_the_scalar_engine():
    ruleset = loaded(JOINING)
    assert supports(ruleset) == []
    records, kinds, _fired = replayed(ruleset, 1, 300)
    said = Counter(w.split(":")[0] for r in records for w in _words(r))
    assert kinds["join"] > 100 and said["join"] > 150 and said["stay_out"] > 30
    assert sum(_fell(_words(r)) for r in records) > 5  # joins in the bidding fell
    voided = joined = many = 0
    for record in records:
        scalar = replay(ruleset, record)
        voided += scalar.auction.voided is not None
        joined += bool(scalar.auction.joined)
        many += len(scalar.auction.joined) > 1
    assert voided > 3 and joined > 100 and many > 10
    contracts = legal_counts_agree(ruleset, 1, 100)
    assert contracts["two"] > 5 and contracts["one"] > 5, contracts


def test_a_forced_contract_void_is_forced_and_asked_again():
    records, _kinds, _fired = replayed(loaded(FORCED), 1, 300)
    asked = [sum(d["kind"] == "join" for d in r["decisions"]) for r in records]
    assert max(asked) >= 3 and sum(a >= 2 for a in asked) > 10


@pytest.mark.parametrize("path", [JOINING_BID, AUCTION, RAISES])
def test_the_languages_joining_rulesets_replay(path):
    records, kinds, _fired = replayed(loaded(path), 2, 200)
    said = Counter(w.split(":")[0] for r in records for w in _words(r))
    assert said["join"] > 0
    legal_counts_agree(loaded(path), 2, 60)


def test_the_taker_and_the_seats_that_joined_are_the_attackers():
    ruleset = loaded(JOINING)
    numbers = range(1, 101)
    state = play_batch(ruleset, 1, numbers)
    attack = state.attackers(np.arange(state.size))
    for row, record in enumerate(batch_records(ruleset, 1, numbers)):
        scalar = replay(ruleset, record)
        assert np.flatnonzero(attack[row]).tolist() == sorted(scalar.attackers()), row
        joined = np.argsort(state.joined[row])[-len(scalar.auction.joined) :]
        if scalar.auction.joined:  # in the order they joined
            assert joined.tolist() == scalar.auction.joined, row


def test_nobody_asked_once_the_auction_is_won_would_not_replay(monkeypatch):
    monkeypatch.setattr(joining, "asked_once_won", lambda _p, _s, rows, _o, _n: rows[:0])
    with pytest.raises(ReplayMismatch):
        replayed(loaded(JOINING), 1, 300)


def test_no_join_in_the_bidding_would_not_offer_the_scalar_choices(monkeypatch):
    """Every hand would still replay (each bid legal there), but without the join among the
    choices, fewer of them than the scalar engine offers."""
    monkeypatch.setattr(joining, "may_join", lambda _p, _s, rows, _seats, _a: rows < 0)
    with pytest.raises(AssertionError):
        legal_counts_agree(loaded(JOINING_BID), 1, 100)


@pytest.mark.slow
def test_joining_agrees_over_many_seeds():
    for seed in range(3, 9):
        replayed(loaded(JOINING), seed, 300)
        replayed(loaded(JOINING_BID), seed, 300)
    means_agree(loaded(JOINING), 21, 1500, {}, rules_at_least=3)
    means_agree(loaded(JOINING_BID), 22, 1500, {}, rules_at_least=2)
