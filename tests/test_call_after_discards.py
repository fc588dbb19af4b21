"""A hold open only to seats that have bid, never over a hold (the facts `bids_made(seat)` and
`bid_held()`), and the partner called after the talon and the discards
(`partner_call.after: discards`), on a small game written for these tests
(tests/data/rulesets/call-after-discards.yaml). The hands played decision by decision are
scenarios (tests/scenarios/call-after-discards.yaml); this file keeps the facts read
mid-auction and the records replayed."""

from __future__ import annotations

from pathlib import Path

import tarot
from tarot.compile.loader import load_ruleset
from tarot.engine.state import HandState
from tests.small_games import compiled, replayed_games, say
from tests.test_talon_tricks import HANDS, TALON  # the same pack: its deal serves here too

GAME = Path(__file__).parent / "data" / "rulesets" / "call-after-discards.yaml"
RULESET = load_ruleset(GAME)


def new_hand() -> HandState:
    deal = {"dealer": 0, "hands": [HANDS[seat] for seat in range(4)], "talon": TALON}
    return tarot.load(str(GAME)).new_hand(deal=deal).engine


def test_the_facts_of_the_hold_read_the_bids():
    state = new_hand()
    say(state, (1, "low"), (2, "high"), (3, "pass"), (0, "pass"))
    assert state.evaluate(compiled(RULESET, "bids_made(next_seat(dealer))")) == 1
    assert not state.evaluate(compiled(RULESET, "bid_held()"))
    say(state, (1, "hold:high"))
    assert state.evaluate(compiled(RULESET, "bid_held()"))


def test_games_with_the_call_after_the_discards_replay():
    replayed_games(RULESET, 5, 2, mixed=False)
    replayed_games(RULESET, 6, 1, mixed=True)
