"""The auction and the partner call: bids in turn, the taker and contract, the card called.

Where it sits: phases of the hand (`interpreter.engine.phases`) in rulesets with `bidding`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.engine.actions import (
    PASS,
    Action,
    Bid,
    Decision,
    DecisionKind,
    Pass,
    action_text,
)
from interpreter.engine.events import ThrownIn
from interpreter.engine.phases import deal

if TYPE_CHECKING:
    from interpreter.engine.state import HandState


def decide_bid(state: HandState) -> bool:
    """The next bidder's choice of a higher contract or a pass. Once all have spoken, the
    deal is thrown in if nobody bid; else the taker leads where the ruleset says so."""
    ruleset = state.ruleset
    if state.bidders:
        seat = state.bidders[0]
        assert ruleset.bidding is not None  # only a ruleset with an auction has bidders
        contracts = ruleset.bidding.contracts
        lowest = 0 if state.contract is None else ruleset.bidding.rank(state.contract) + 1
        bids: list[Action] = [Bid(c.id) for c in contracts[lowest:]]
        bids.append(PASS)
        choices = [action_text(b, ruleset.deck) for b in bids]
        state.decision = Decision(seat, DecisionKind.BID, bids, choices)
        return True
    if state.taker is None:
        deal.throw_in(state, ThrownIn.ALL_PASSED)
        return True
    return False


def bid(state: HandState, decision: Decision, action: Bid | Pass) -> None:
    state.bidders.pop(0)
    if isinstance(action, Bid):
        state.taker, state.contract = decision.seat, action.contract


def decide_call(state: HandState) -> bool:
    """The taker's call of a card whose holder becomes the partner, when the ruleset has one
    and its condition holds."""
    call = state.ruleset.partner_call
    if call is None or state.called_card is not None:
        return False
    scope = state._scope({})
    if not call.when(scope):
        return False
    callable_cards = sorted(call.cards(scope))
    if not callable_cards:
        return False
    cards = state.ruleset.deck.cards
    choices = [cards[c].id for c in callable_cards]
    assert state.taker is not None  # a partner is called after the auction has a taker
    state.decision = Decision(state.taker, DecisionKind.CALL, callable_cards, choices)
    return True


def call(state: HandState, _decision: Decision, card: int) -> None:
    state.called_card = card
    state.partner = state.called_card_holder()
