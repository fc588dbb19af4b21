"""A hold open only to seats that have bid, never over a hold (the facts `bids_made(seat)` and
`bid_held()`), and the partner called after the talon and the discards
(`partner_call.after: discards`), on a small game written for these tests
(tests/data/rulesets/call-after-discards.yaml)."""

from __future__ import annotations

from pathlib import Path

from tarot.compile.loader import load_ruleset
from tarot.engine.state import HandState
from tests.small_games import compiled, pack_for, replayed_games, say
from tests.test_talon_tricks import HANDS, TALON  # the same pack: its deal serves here too

GAME = Path(__file__).parent / "data" / "rulesets" / "call-after-discards.yaml"
RULESET = load_ruleset(GAME)


def new_hand() -> HandState:
    return HandState(RULESET, 0, pack_for(RULESET, HANDS, TALON))


def test_only_a_seat_that_has_bid_holds_and_never_over_a_hold():
    state = new_hand()
    say(state, (1, "low"))
    # seat 2 has not bid yet: it may go higher or pass, not hold
    assert state.legal_actions() == ["high", "pass"]
    say(state, (2, "high"), (3, "pass"), (0, "pass"))
    assert state.evaluate(compiled(RULESET, "bids_made(next_seat(dealer))")) == 1
    assert state.legal_actions() == ["hold:high", "pass"]
    say(state, (1, "hold:high"))
    assert state.evaluate(compiled(RULESET, "bid_held()"))
    # seat 2 has bid, but the highest bid is a hold: nothing is left for it but to pass
    assert state.legal_actions() == ["pass"]
    say(state, (2, "pass"))
    assert (state.auction.taker, state.auction.contract) == (1, "high")


def test_the_call_comes_after_the_talon_and_the_discards():
    state = new_hand()
    say(state, (1, "low"), (2, "pass"), (3, "pass"), (0, "pass"))
    assert state.decision.kind == "discard"
    assert state.auction.called_card is None
    say(state, (1, "coins-3"), (1, "swords-3"), (2, "batons-4"), (3, "batons-1"))
    # the taker laid away no trump and holds the 7: he may call any other trump
    assert state.decision.kind == "call"
    assert sorted(state.legal_actions()) == [f"trump-{n}" for n in (1, 2, 3, 4, 5, 6, 8)]
    say(state, (1, "trump-8"))
    assert state.auction.partner == 2 and state.attackers() == (1, 2)
    assert state.decision.kind == "play"


def test_games_with_the_call_after_the_discards_replay():
    replayed_games(RULESET, 5, 2, mixed=False)
    replayed_games(RULESET, 6, 1, mixed=True)
