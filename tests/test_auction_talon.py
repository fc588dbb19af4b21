"""An auction's facts and a hand ended by the talon: `talon.ends_hand` (the hand settled at
once when its condition holds once the talon's seat has its cards) and a last-resort bid open
only to the last to speak when nobody has bid, on a small game written for these tests
(tests/data/rulesets/auction-talon.yaml). The hands played decision by decision are
scenarios (tests/scenarios/auction-talon.yaml); this file keeps the auction's facts, on the
game edited to leap and hold, and the records replayed."""

from __future__ import annotations

from pathlib import Path

from tarot.compile.contexts import FACTS
from tarot.compile.loader import load_ruleset
from tarot.engine.state import HandState
from tests.small_games import compiled, edited, pack_for, replayed_games, say

GAME = Path(__file__).parent / "data" / "rulesets" / "auction-talon.yaml"
RULESET = load_ruleset(GAME)
BY_ID = RULESET.deck.by_id

# seat 0 deals; bidding order 1, 2, 3, 0; only seat 1 holds the top trump
HANDS = {
    0: ["cups-1", "coins-K", "coins-4", "trump-4", "trump-5", "trump-6"],
    1: ["swords-K", "swords-4", "swords-3", "coins-1", "batons-K", "trump-8"],
    2: ["swords-2", "swords-1", "cups-K", "batons-3", "batons-2", "trump-7"],
    3: ["cups-4", "cups-3", "cups-2", "trump-1", "trump-2", "trump-3"],
}
TALON = ["coins-3", "coins-2", "batons-4", "batons-1"]


def test_random_and_mixed_players_play_and_replay():
    for mixed in (False, True):
        states = replayed_games(RULESET, 5, 12, mixed=mixed)
        assert all(sum(state.returns()) == 0 for state in states)


def fact(state: HandState, name: str, seat: int) -> object:
    """A fact of the language about `seat`, as an expression reads it."""
    return FACTS[name].impl(state, seat)


def leaping_game(tmp_path: Path):
    """The game with every seat holding a trump free to bid, a leap over a bid needing the
    top trump, holds by seats that have bid, and no pass over a High not held by them."""

    def change(document: dict) -> None:
        bidding = document["bidding"]
        bidding["hold"] = "[s in seats if bids_made(s) > 0 and not bid_held()]"
        bidding["must_bid"] = (
            "[s in seats if bids_made(s) > 0 and highest_bid == 'high' and not bid_held()]"
        )
        low, high = bidding["contracts"][1], bidding["contracts"][2]
        low["open_to"] = "any(c in hand(player): c in trumps)"
        high["open_to"] = "jump == 0 or any(c in hand(player): c in top)"

    return load_ruleset(edited(GAME, tmp_path, change))


def test_a_leap_is_open_only_to_the_holder_of_the_card_it_asks_for(tmp_path):
    ruleset = leaping_game(tmp_path)
    state = HandState(ruleset, 0, pack_for(ruleset, HANDS, TALON))
    # over nothing, the High leaps one bid (the Low): seat 1 holds the top trump
    assert state.legal_actions() == ["low", "high", "pass"]
    say(state, (1, "pass"))
    assert state.legal_actions() == ["low", "pass"]  # seat 2 does not
    say(state, (2, "low"))
    assert state.legal_actions() == ["high", "pass"]  # over the Low, the High leaps nothing
    say(state, (3, "pass"), (0, "high"))
    assert [fact(state, "bid_jump", s) for s in (2, 0)] == [0, 0]


def test_the_auction_facts_and_a_seat_kept_from_passing(tmp_path):
    ruleset = leaping_game(tmp_path)
    state = HandState(ruleset, 0, pack_for(ruleset, HANDS, TALON))
    say(state, (1, "low"), (2, "high"), (3, "pass"), (0, "pass"))
    # seat 1 has bid and the High is not held: it may not pass, only hold
    assert state.legal_actions() == ["hold:high"]
    say(state, (1, "hold:high"))
    assert state.legal_actions() == ["pass"]  # nothing left to seat 2: it may pass
    say(state, (2, "pass"))
    assert (state.auction.taker, state.auction.contract) == (1, "high")
    # each seat's latest bid and pass, by their place among the auction's words
    assert [fact(state, "bid_number", s) for s in range(4)] == [0, 5, 2, 0]
    assert [fact(state, "pass_number", s) for s in range(4)] == [4, 0, 6, 3]
    assert [fact(state, "passed_over", s) for s in range(4)] == ["high", "", "hold:high", "high"]
    assert state.evaluate(compiled(ruleset, "count(s in seats: bid_number(s) > 0)")) == 2
    leapt = HandState(ruleset, 0, pack_for(ruleset, HANDS, TALON))
    say(leapt, (1, "high"))
    assert fact(leapt, "bid_jump", 1) == 1
