"""The auction and what follows it in the batch back end (`tarot.batch.phases.bidding`):
round and round, a first bidder of the ruleset's choice, holds, bids that must be made,
contracts open to some seats only, the last word of the seat left, compulsory contracts, a
contract offered only when all passed, the contract played when all pass; then a partner
called after the discards, a first leader given by rule, the discards told to all, and the
talon shared out and the hand it ends. Each hand is replayed through the scalar engine with
every decision legal and every payment equal, and the distributions are the scalar
engine's."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from batch_checks import loaded, means_agree, replayed

from tarot.batch.support import supports

DATA = Path(__file__).parent / "data" / "batch"
ROUNDS = str(DATA / "auction-rounds.yaml")
MUST_BID = str(DATA / "auction-must-bid.yaml")
CALL_AFTER = str(DATA / "call-after-discards.yaml")
LEADER_BY_RULE = str(DATA / "leader-by-rule.yaml")
ALL_PASSED = str(DATA / "auction-all-passed.yaml")
TOLD = str(DATA / "told-discards.yaml")
SHARES = str(DATA / "talon-shares.yaml")


def _bids(record: dict) -> list[str]:
    return [d["choice"] for d in record["decisions"] if d["kind"] == "bid"]


def test_a_long_auction_replays_through_the_scalar_engine():
    ruleset = loaded(ROUNDS)
    assert supports(ruleset) == []
    records, _kinds, fired = replayed(ruleset, 5, 150)
    said = Counter(word.split(":")[0] for r in records for word in _bids(r))
    assert said["hold"] > 20 and said["pass"] > 100  # holds were made and passes said
    lengths = [
        len(_bids(r)) for r in records if not any(k.startswith("thrown") for k in r["fired"])
    ]
    assert max(lengths) > 4  # seats spoke more than once
    assert 0 in lengths  # a compulsory contract: no auction held
    all_passed = [r for r in records if _bids(r) and set(_bids(r)) == {"pass"}]
    # the contract played when all passed: the hand is played, not thrown in
    assert all_passed and all(any(d["kind"] == "play" for d in r["decisions"]) for r in all_passed)
    assert fired["contract"] > 100


def test_bids_that_must_be_made_replay_through_the_scalar_engine():
    ruleset = loaded(MUST_BID)
    assert supports(ruleset) == []
    records, _kinds, _fired = replayed(ruleset, 6, 150)
    words = [_bids(r) for r in records]
    assert not any(w and set(w) == {"pass"} for w in words)  # the last seat must bid
    assert sum(w.count("pass") for w in words) > 100


def test_a_contract_offered_only_when_all_passed_replays_through_the_scalar_engine():
    ruleset = loaded(ALL_PASSED)
    assert supports(ruleset) == []
    records, _kinds, fired = replayed(ruleset, 3, 300)
    words = [_bids(r) for r in records]
    # after four passes, the seats it is open to are asked again: the first to take it has it
    late = [w for w in words if len(w) > 4]
    assert sum("chance" in w for w in late) > 20
    assert all(w[:4] == ["pass"] * 4 for w in late)
    assert all(w.count("chance") <= 1 and (w[-1] in ("chance", "pass")) for w in late)
    assert fired["thrown_in:all_passed"] > 0  # and nobody took it: thrown in


@pytest.mark.slow
@pytest.mark.parametrize("path", [ROUNDS, MUST_BID, ALL_PASSED])
def test_auctions_replay_over_many_seeds(path):
    ruleset = loaded(path)
    for seed in range(1, 7):
        replayed(ruleset, seed, 300)


@pytest.mark.slow
def test_a_long_auction_has_the_scalar_engines_distributions():
    means_agree(loaded(ROUNDS), 13, 1200, {}, rules_at_least=2)


def test_a_partner_called_after_the_discards_replays_through_the_scalar_engine():
    ruleset = loaded(CALL_AFTER)
    assert supports(ruleset) == []
    steps = [step.word for step in ruleset.flow]
    assert steps.index("call") > steps.index("discard")
    _records, kinds, fired = replayed(ruleset, 3, 120)
    assert kinds["call"] > 80 and fired["partner_share"] > 50


def test_a_first_leader_given_by_rule_replays_through_the_scalar_engine():
    ruleset = loaded(LEADER_BY_RULE)
    assert supports(ruleset) == [] and ruleset.play.first_leader == "rule"
    records, _kinds, _fired = replayed(ruleset, 4, 90)
    played = [r for r in records if any(d["kind"] == "play" for d in r["decisions"])]
    for record in played:  # the rule: the taker, or in every third hand his partner across
        bids = [d for d in record["decisions"] if d["kind"] == "bid" and d["choice"] != "pass"]
        taker = bids[-1]["seat"]
        leader = (taker + 2) % 4 if record["number"] % 3 == 0 else taker
        assert next(d["seat"] for d in record["decisions"] if d["kind"] == "play") == leader
    assert len(played) > 40


def test_discards_told_to_all_replay_through_the_scalar_engine():
    ruleset = loaded(TOLD)
    assert supports(ruleset) == []
    records, _kinds, fired = replayed(ruleset, 3, 150)
    amounts = [p["amount"] for r in records for p in r["payments"] if p["rule"] == "t_told"]
    assert fired["t_told"] > 100 and any(a > 1 for a in amounts)  # low cards were told of


def test_a_talon_shared_out_and_the_hand_it_ends_replay_through_the_scalar_engine():
    ruleset = loaded(SHARES)
    assert supports(ruleset) == []
    records, _kinds, _fired = replayed(ruleset, 3, 300)
    shared, ended = 0, 0
    for record in records:
        bids = [d["choice"] for d in record["decisions"] if d["kind"] == "bid"]
        kinds = Counter(d["kind"] for d in record["decisions"])
        if "petite" in bids or "garde" in bids:
            shared += kinds["discard"] == 6  # every seat lays away what it was given
            ended += "petite" in bids and not kinds["play"] and not kinds["discard"]
    assert shared > 100 and ended > 5  # hands shared out, and hands the talon ended
