"""The Slovenian Tarok family in the batch back end: its four built-in rulesets run whole
there (sittings with the radli kept from hand to hand, Klop with its talon given to the
trick winners, contracts with their own play rules, announced bonuses and kontra), with the
fact `thrown_in()` that makes the deal after one thrown in a compulsory contract, shown on a
small game written for it (tests/data/rulesets/talon-tricks.yaml) and on Slovenian Tarok's
compulsory Klop. Every hand or sitting tested replays through the scalar engine (each
decision legal, every payment, transfer and value equal), and the search player's
play-outs from a Slovenian hand in play replay likewise."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from batch_checks import loaded, play_outs_replayed, replayed
from test_batch_lasting import sittings_agree, sittings_replayed
from test_batch_playouts import _moment, _trials

from tarot.batch.run import play_summaries
from tarot.batch.sittings import sitting_summaries
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.engine.game import sitting_seed
from tarot.players.batched_playouts import batchable
from tarot.records.batch_agreement import replay_sitting, sitting_records

TALON_TRICKS = str(Path(__file__).parent / "data" / "rulesets" / "talon-tricks.yaml")
FAMILY = (
    "slovenian-tarok",
    "slovenian-tarok-3",
    "slovenian-tarok-openspiel",
    "slovenian-tarok-3-openspiel",
)
THROWN = "thrown_in:no_tarok"


@cache
def klop_after_a_redeal() -> Ruleset:
    """Slovenian Tarok with its reading of a deal without a tarok that makes the deal again a
    compulsory Klop (the only reading in which the ruleset reads `thrown_in()`)."""
    return load_ruleset("slovenian-tarok", {"no_tarok": "redeal_then_klop"})


def test_a_deal_thrown_in_makes_the_deal_again_a_compulsory_contract_in_batch():
    ruleset = loaded(TALON_TRICKS)
    records, kinds, fired = replayed(ruleset, 3, 200)
    assert fired["thrown_in:no_trumps"] > 30 and kinds["bid"] > 300
    after = [r for r in records if r["fired"].get("thrown_in:no_trumps")]
    # every player for himself, with no auction, and nobody the taker
    assert after and all(d["kind"] != "bid" for r in after for d in r["decisions"])
    assert all("most_points" in r["fired"] for r in after)
    # where no deal was thrown in, the auction is held and a contract is bid
    hands = play_summaries(ruleset, 3, range(1, 201))
    assert any(h.contract in ("shared", "alone") for h in hands)


def test_the_slovenian_rulesets_run_in_batch():
    assert all(supports(loaded(name)) == [] for name in FAMILY)
    assert supports(klop_after_a_redeal()) == []


@pytest.mark.parametrize("name", FAMILY)
def test_slovenian_sittings_replay_hand_by_hand_through_the_scalar_engine(name):
    lengths, _fired = sittings_replayed(name, 2, 6)
    assert lengths == {loaded(name).players: 6}  # a round of deals, as on the scalar engine


def test_a_compulsory_klop_after_a_deal_thrown_in_replays_through_the_scalar_engine():
    """Sittings 138 and 208 of seed 1 (found by `test_compulsory_klops_over_many_sittings`)
    each have a deal thrown in for a hand without a tarok; the same dealer deals again and
    that deal is a Klop, played with no auction."""
    ruleset = klop_after_a_redeal()
    for number in (138, 208):
        (records,) = sitting_records(ruleset, [sitting_seed(1, number)])
        (hand,) = [record for record in records if record["fired"].get(THROWN)]
        assert hand["decisions"][0]["kind"] != "bid"
        assert all(d["kind"] != "bid" for d in hand["decisions"])
        replay_sitting(ruleset, records, f"sitting {number}")


def test_search_play_outs_of_a_slovenian_hand_replay_through_the_scalar_engine():
    state = _moment("slovenian-tarok", 2, 1, 1)
    assert batchable(state)
    trials, streams = _trials(state, 3, 2)
    play_outs_replayed(trials, streams)


@pytest.mark.slow
@pytest.mark.parametrize("name", FAMILY)
def test_slovenian_sittings_replay_over_many_seeds(name):
    for seed in range(1, 5):
        sittings_replayed(name, seed, 100)


@pytest.mark.slow
def test_compulsory_klops_over_many_sittings():
    """Every sitting among the first 1,000 of seed 1 with a deal thrown in replays."""
    ruleset = klop_after_a_redeal()
    played = sitting_summaries(ruleset, 1, range(1, 1001))
    thrown = [s.number for s in played if s.fired.get(THROWN)]
    assert len(thrown) >= 5 and {138, 208} <= set(thrown)
    for number, records in zip(
        thrown, sitting_records(ruleset, [sitting_seed(1, n) for n in thrown]), strict=True
    ):
        replay_sitting(ruleset, records, f"sitting {number}")


@pytest.mark.slow
def test_slovenian_sittings_agree_with_the_scalar_engine_in_distribution():
    sittings_agree("slovenian-tarok", 21, 600)


@pytest.mark.slow
def test_search_play_outs_of_slovenian_hands_over_many_deals():
    for name in FAMILY:
        for number in range(1, 9):
            try:
                state = _moment(name, number, 1, 1)
            except AssertionError:  # the hand ended before a choice of card
                continue
            if not batchable(state):  # a colour valat: trumps played as a suit
                continue
            trials, streams = _trials(state, 3, number)
            if trials:
                play_outs_replayed(trials, streams)
