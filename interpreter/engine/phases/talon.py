"""The talon and the discard: the talon taken into a hand, set aside or made a stock, then
each seat that must lays cards away.

Where it sits: a phase of the hand (`interpreter.engine.phases`), after the auction and the
call in rulesets that have them, else right after the deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.engine.actions import Decision, DecisionKind
from interpreter.engine.events import AT_DISCARD
from interpreter.engine.phases import play
from interpreter.engine.values import selected_seats
from interpreter.expressions import EvaluationError

if TYPE_CHECKING:
    from interpreter.engine.state import HandState


def enter(state: HandState) -> None:
    """Settle the hand's play rules (the auction and call are over), then place the talon as
    the contract (or, without an auction, the ruleset) says."""
    play.settle_rules(state)
    bidding = state.ruleset.bidding
    # with an auction, the talon is placed once a contract is won
    use = state.ruleset.talon if bidding is None else bidding.contract(state.contract).talon  # type: ignore[arg-type]
    zones = state.zones
    if not zones.talon or use is None or use.to == "out_of_play":
        return
    if use.to == "stock":
        state.drawing = True
        return
    assert use.seat is not None  # the schema asks for a seat where the talon goes to one
    seats = selected_seats(use.seat(state._scope({})))
    if not seats:
        error = EvaluationError("the talon's `seat` selects nobody; it must give a seat")
        error.where = getattr(use.seat, "where", "")
        raise error
    seat = seats[0]
    if use.shown:
        state.shown.append((seat, "talon", list(zones.talon)))
    if use.to == "hand":
        zones.hands[seat].extend(zones.talon)
        state.discard_left[seat] = state.discard_left.get(seat, 0) + len(zones.talon)
    else:
        zones.set_aside[seat].extend(zones.talon)
    zones.talon = []
    state._changed()


def decide(state: HandState) -> bool:
    """The discard of the first seat, in dealing order, with cards still to lay away."""
    for seat in state.seat_order:
        if state.discard_left[seat] > 0:
            allowed = discard_choices(state, seat)
            ids = state.ruleset.deck.cards.ids
            choices = [ids[c] for c in allowed]
            state.decision = Decision(seat, DecisionKind.DISCARD, allowed, choices)
            return True
    return False


def discard_choices(state: HandState, seat: int) -> list[int]:
    """The cards `seat` may lay away, in hand order: none the ruleset protects, unless only
    protected cards are left."""
    hand = state.zones.hands[seat]
    scope = state._scope({"player": seat})
    allowed = hand
    for rule in (state.ruleset.discard_never, state.ruleset.discard_forbidden):
        if rule is None:
            continue
        kept = []
        for card in allowed:
            scope.vars["card"] = card
            if not rule(scope):
                kept.append(card)
        if kept:  # when only protected cards are left, they must go after all
            allowed = kept
    return list(allowed)


def discard(state: HandState, decision: Decision, card: int) -> None:
    seat, zones = decision.seat, state.zones
    zones.hands[seat].remove(card)
    zones.discards[seat].append(card)
    state.discard_left[seat] -= 1
    shown = state.ruleset.discard_shown
    if shown is not None and shown(state._scope({"player": seat, "card": card})):
        state.shown.append((seat, "discard", [card]))
    state._fire("discard", {"player": seat, "card": card}, AT_DISCARD)
    if state.discard_left[seat] == 0:
        state._fire("discards_done", {"player": seat}, AT_DISCARD)
