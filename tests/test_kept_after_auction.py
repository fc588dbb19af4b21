"""A definition that reads the auction's words alone, worked out once for the deal after the
auction (`HandState.remember_after_auction`): which definitions are kept so, that each kept
value is the one its body gives as the hand goes on, and that a clone shares what is kept
only once the auction is over. Hungarian Tarokk's called card after a yield or an invitation
reads who bid, leapt and passed, and nothing else."""

from __future__ import annotations

import random

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand
from tarot.engine.phases.auction import AuctionStage
from tarot.expressions.dependence import only_on_auction


@pytest.mark.parametrize(
    ("reads", "seat", "kept"),
    [
        ({"bids_made(?)", "passed_over(?)", "seats"}, None, True),
        ({"bid_number(s)", "definition", "dealer", "s"}, "s", True),
        ({"seats", "players"}, None, False),  # nothing of the auction
        ({"bids_made(?)", "hand(player)"}, None, False),
        ({"bid_jump(?)", "taker"}, None, False),
        ({"bid_jump(?)", "s"}, None, False),  # a seat that is not the definition's own
    ],
)
def test_what_reads_the_auction_alone(reads, seat, kept):
    assert only_on_auction(reads, seat) is kept


def _fresh(state, key):
    """A kept entry's definition worked out again from its body."""
    definitions = {d.name: d for d in state.ruleset.definitions}
    if isinstance(key, tuple):
        name, seat = key
        definition = definitions[name]
        return state.evaluate(definition.expression, {definition.of_seat: seat})
    return state.evaluate(definitions[key].expression)


def test_kept_values_are_the_bodies_and_shared_only_after_the_auction():
    ruleset = load_ruleset("hungarian-tarokk")
    draws = random.Random(3)
    kept_seen = shared_seen = 0
    for number in range(1, 13):
        state = deal_hand(ruleset, 5, number)
        while not state.is_terminal():
            over = state.auction.stage == AuctionStage.OVER
            clone = state.clone()
            assert (clone.auction.kept is state.auction.kept) is over
            shared_seen += over
            if not over:
                assert not state.auction.kept
            for key, value in state.auction.kept.items():
                assert _fresh(state, key) == value, (number, key)
                kept_seen += 1
            state.apply_action(draws.choice(state.legal_actions()))
    assert kept_seen and shared_seen
