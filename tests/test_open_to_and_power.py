"""Two small pieces of the language tried on the small game flow-base.yaml: `highest_bidder`
in a contract's `open_to` (no seat before any bid), and `power(a, n)` in a payment, each
played by the scalar engine and replayed from the batch back end's hands."""

from __future__ import annotations

from pathlib import Path

from batch_checks import replayed
from small_games import edited

from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.core.actions import DecisionKind
from tarot.engine.state import HandState

GAMES = Path(__file__).parent / "data" / "rulesets"

#: High may open the bidding, and over a bid only from a seat earlier in the bidding order
#: than the bidder (the Tapp-Tarock ruleset's German reading lets such a seat bid the level
#: above: see tests/test_tapp_tarock.py)
HIGH_OPEN_TO = (
    "bid_position(highest_bidder) == 0 or bid_position(player) < bid_position(highest_bidder)"
)


def _high_before_the_bidder(document: dict) -> None:
    document["bidding"]["contracts"][1]["open_to"] = HIGH_OPEN_TO
    document["bidding"]["contracts"][0]["open_to"] = "true"
    document["redeal"] = []


def _bids(state: HandState) -> list[str]:
    assert state.decision is not None and state.decision.kind == DecisionKind.BID
    return [a for a in state.legal_actions() if a != "pass"]


def test_open_to_sees_the_highest_bidder(tmp_path: Path) -> None:
    ruleset = load_ruleset(edited(GAMES / "flow-base.yaml", tmp_path, _high_before_the_bidder))
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    first, second, third = state.auction.bid_order
    assert state.current_player() == first
    assert _bids(state) == ["low", "high"]  # no bid yet: highest_bidder is no seat
    state.apply_action("pass")
    assert state.current_player() == second and _bids(state) == ["low", "high"]
    state.apply_action("low")
    assert state.current_player() == third
    assert _bids(state) == []  # after the bidder in the order: high is not open to him
    state.apply_action("pass")
    assert state.auction.taker == second


def test_the_batch_back_end_reads_highest_bidder_and_power_as_the_scalar_engine(
    tmp_path: Path,
) -> None:
    def change(document: dict) -> None:
        _high_before_the_bidder(document)
        for rule in document["settlement"]:  # doubled for each seat without a trick
            rule["amount"] = "contract.base * power(2, count(s in seats: tricks_won(s) == 0))"

    ruleset = load_ruleset(edited(GAMES / "flow-base.yaml", tmp_path, change))
    assert supports(ruleset) == []
    records, kinds, fired = replayed(ruleset, 4, 150)  # each hand replayed, payment by payment
    assert kinds["bid"] and fired["game_won"] and fired["game_lost"]
    amounts = {p["amount"] for r in records for p in r["payments"]}
    assert amounts & {2, 4, 8}  # a hand where some seat took no trick
