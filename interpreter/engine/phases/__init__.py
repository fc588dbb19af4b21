"""The hand as phases: which phases a hand goes through, in what order, and who handles each.

Where it sits: between the hand state (`tarot.engine.state`, which keeps the state and
the public surface) and one module per phase, each with the same functions: `enter(state)`
when the hand comes to the phase; `decide(state)`, which sets the next decision and returns
True, or returns False when the phase has nothing left to ask (True also when the deal was
thrown in: the hand is then over, or back at the start of a new deal); and one apply
function per kind of decision it asks for (`APPLY`). The order of the phases comes from the
ruleset (`phase_order`, kept on the state as `phases`), so that a contract can later change
the phases that follow it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from tarot.engine.actions import DecisionKind
from tarot.engine.phases import (
    announce,
    auction,
    deal,
    declare,
    doubling,
    play,
    settle,
    talon,
)
from tarot.engine.phases.phase import Phase
from tarot.ruleset import Ruleset

if TYPE_CHECKING:
    from tarot.engine.state import Decision, HandState

__all__ = ["APPLY", "Phase", "advance", "deal", "phase_order"]


class Handler(NamedTuple):
    enter: Callable[[HandState], None]
    decide: Callable[[HandState], bool]


def _nothing(_state: HandState) -> None:
    return None


HANDLERS: dict[Phase, Handler] = {
    Phase.REDEAL: Handler(_nothing, deal.decide),
    Phase.BID: Handler(auction.enter, auction.decide_bid),
    Phase.CALL: Handler(_nothing, auction.decide_call),
    Phase.DISCARD: Handler(talon.enter, talon.decide),
    Phase.DECLARE: Handler(_nothing, declare.decide),
    Phase.ANNOUNCE: Handler(announce.enter, announce.decide),
    Phase.DOUBLE: Handler(doubling.enter, doubling.decide),
    Phase.PLAY: Handler(play.enter, play.decide),
    Phase.DONE: Handler(settle.enter, settle.decide),
}

_DECIDE = {phase: handler.decide for phase, handler in HANDLERS.items()}

#: how each kind of decision is applied
#: (each takes its own kind of Action: the decision kind says which)
APPLY: dict[DecisionKind, Callable[[HandState, Decision, Any], None]] = {
    DecisionKind.REDEAL: deal.answer_redeal,
    DecisionKind.BID: auction.bid,
    DecisionKind.CALL: auction.call,
    DecisionKind.DISCARD: talon.discard,
    DecisionKind.DECLARE: declare.declare,
    DecisionKind.SHOW: declare.pick_card,
    DecisionKind.GIVE: declare.pick_card,
    DecisionKind.PACKET: talon.take_packet,
    DecisionKind.JOIN: auction.join,
    DecisionKind.DOUBLE: doubling.double,
    DecisionKind.ANNOUNCE: announce.announce,
    DecisionKind.PLAY: play.play,
}

_WITH_AUCTION = (
    Phase.REDEAL,
    Phase.BID,
    Phase.CALL,
    Phase.DISCARD,
    Phase.DECLARE,
    Phase.PLAY,
    Phase.DONE,
)
_WITHOUT_AUCTION = (Phase.REDEAL, Phase.DISCARD, Phase.DECLARE, Phase.PLAY, Phase.DONE)


def phase_order(ruleset: Ruleset) -> tuple[Phase, ...]:
    """The phases of a hand under `ruleset`, in order, from the deal to the settlement."""
    phases = _WITH_AUCTION if ruleset.bidding else _WITHOUT_AUCTION
    if ruleset.partner_call is not None and ruleset.partner_call.after_discards:
        phases = (*_WITH_AUCTION[:2], Phase.DISCARD, Phase.CALL, *_WITH_AUCTION[4:])
    before_play: tuple[Phase, ...] = (Phase.ANNOUNCE,) if ruleset.announcements else ()
    if ruleset.doubling is not None and not ruleset.doubling.with_announcements:
        before_play += (Phase.DOUBLE,)
    play = phases.index(Phase.PLAY)
    return (*phases[:play], *before_play, *phases[play:])


def advance(state: HandState) -> None:
    """Move the hand on to its next decision (None once it is over)."""
    if state.card_choices and declare.decide_card_choice(state):
        return
    while True:
        phase = state.phase
        if _DECIDE[phase](state):
            if state.decision is None and state.phase != Phase.DONE:
                continue  # the deal was thrown in and dealt again: ask from its start
            return
        state.phase = state.phases[state.phases.index(phase) + 1]
        HANDLERS[state.phase].enter(state)
