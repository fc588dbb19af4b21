"""The bidding table of benchmarks/bidding.py: what each bid was made on, what came of it."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bidding  # noqa: E402

import tarot  # noqa: E402


def test_every_bid_of_the_record_is_read_with_the_hand_it_was_made_on() -> None:
    seen = bidding.read_hand("french-tarot", seed=3, hand=2, agents="random")
    record = tarot.play("french-tarot", seed=3, agents="random", hand=2).record()
    played = record["hands"][0]
    bids = [d for d in played["decisions"] if d["kind"] == "bid"]
    assert [b.choice for b in seen.bids] == [str(d["choice"]) for d in bids]
    ruleset = tarot.load("french-tarot")
    first = played["hands_dealt"][bids[0]["seat"]]
    assert seen.bids[0].trumps == sum(ruleset.card(c).is_trump for c in first)
    assert seen.bids[0].points == sum(ruleset.card(c).points for c in first)
    takers = [d for d in bids if d["choice"] != "pass"]
    if takers:
        assert seen.contract == takers[-1]["choice"]
        assert seen.taker_net == played["net"][takers[-1]["seat"]]
    else:
        assert seen.contract is None and seen.taker_net is None


def test_a_declaration_of_none_is_silent_and_a_level_is_not() -> None:
    assert bidding.is_silent("pass") and bidding.is_silent("chelem:none")
    assert not bidding.is_silent("poignee:single") and not bidding.is_silent("garde")


def test_the_report_counts_contracts_and_who_came_out_ahead() -> None:
    hands = [
        bidding.HandSeen(
            bids=[bidding.BidSeen("pass", 3, 10.0), bidding.BidSeen("garde", 7, 30.0)],
            contract="garde",
            taker_net=120.0,
            announcements=[("declare poignee:single", 120.0)],
        ),
        bidding.HandSeen(
            bids=[bidding.BidSeen("garde", 5, 20.0), bidding.BidSeen("pass", 4, 12.0)],
            contract="garde",
            taker_net=-60.0,
        ),
        bidding.HandSeen(bids=[bidding.BidSeen("pass", 2, 8.0)]),
    ]
    text = bidding.report(hands, "game", "someone")
    assert "game, someone in every seat, 3 hands" in text
    garde_bids = next(line for line in text.splitlines() if line.strip().startswith("garde "))
    assert garde_bids.split()[1:] == ["2", "6.00", "25.00"]
    garde_taken = [line for line in text.splitlines() if line.strip().startswith("garde")][1]
    assert "50.0%" in garde_taken and "30.00" in garde_taken
    assert "no contract (all passed): 1 of 3 hands" in text
    assert "declare poignee:single" in text and "100.0%" in text
