"""The hand as phases: who handles each step of the hand's flow, and the move from one step
to the next.

Where it sits: between the hand state (`tarot.engine.state`, which keeps the state and
the public surface) and one module per phase, each with the same functions: `enter(state)`
when the hand comes to a step of its phase; `decide(state)`, which sets the next decision and
returns True, or returns False when the step has nothing left to ask (True also when the deal
was thrown in: the hand is then over, or back at the start of a new deal); and one apply
function per kind of decision it asks for (`APPLY`). The steps and their order are the
ruleset's flow (`Ruleset.flow`, compiled by `tarot.compile.flow`); the state keeps the index
of the step it is at (`state.step`) and its phase (`state.phase`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from tarot.core.actions import DecisionKind
from tarot.core.flow import FlowStep
from tarot.engine.phases import (
    announce,
    ask,
    auction,
    deal,
    declare,
    doubling,
    play,
    settle,
    talon,
)
from tarot.engine.phases.phase import Phase

if TYPE_CHECKING:
    from tarot.engine.state import Decision, HandState

__all__ = ["APPLY", "Phase", "advance", "deal", "enter_first_step"]


class Handler(NamedTuple):
    enter: Callable[[HandState], None]
    decide: Callable[[HandState], bool]


def _nothing(_state: HandState) -> None:
    return None


def _nothing_to_ask(_state: HandState) -> bool:
    return False


HANDLERS: dict[Phase, Handler] = {
    Phase.DEAL: Handler(deal.deal, _nothing_to_ask),
    Phase.REDEAL: Handler(_nothing, deal.decide),
    Phase.ASK: Handler(ask.enter, ask.decide),
    Phase.BID: Handler(auction.enter, auction.decide_bid),
    Phase.CALL: Handler(_nothing, auction.decide_call),
    Phase.TALON: Handler(talon.enter, talon.decide_packet),
    Phase.DISCARD: Handler(talon.enter_discard, talon.decide),
    Phase.DECLARE: Handler(_nothing, declare.decide),
    Phase.ANNOUNCE: Handler(announce.enter, announce.decide),
    Phase.DOUBLE: Handler(doubling.enter, doubling.decide),
    Phase.PLAY: Handler(play.enter, play.decide),
    Phase.DONE: Handler(settle.enter, settle.decide),  # entered after the flow's last step
}

_DECIDE = {phase: handler.decide for phase, handler in HANDLERS.items()}

#: how each kind of decision is applied
#: (each takes its own kind of Action: the decision kind says which)
APPLY: dict[DecisionKind, Callable[[HandState, Decision, Any], None]] = {
    DecisionKind.REDEAL: deal.answer_redeal,
    DecisionKind.ASK: ask.answer,
    DecisionKind.BID: auction.bid,
    DecisionKind.CALL: auction.call,
    DecisionKind.DISCARD: talon.discard,
    DecisionKind.DECLARE: declare.declare,
    DecisionKind.SHOW: declare.pick_card,
    DecisionKind.GIVE: declare.pick_card,
    DecisionKind.NAME: declare.pick_card,
    DecisionKind.PACKET: talon.take_packet,
    DecisionKind.JOIN: auction.join,
    DecisionKind.DOUBLE: doubling.double,
    DecisionKind.ANNOUNCE: announce.announce,
    DecisionKind.PLAY: play.play,
}


def enter_first_step(state: HandState) -> None:
    """Start the flow from its first step (a deal), as a new deal does."""
    state.step = 0
    state.phase = state.ruleset.flow[0].phase
    _enter(state, state.ruleset.flow[0])


def _enter(state: HandState, step: FlowStep) -> None:
    if step.settles_play:
        play.settle_rules(state)
    HANDLERS[step.phase].enter(state)


def _next_step(state: HandState) -> None:
    """Go on to the next step whose `when` holds (the settlement after the last), and enter
    it; the play rules are settled there if a step skipped was to settle them."""
    flow = state.ruleset.flow
    settles = False
    while True:
        state.step += 1
        if state.step >= len(flow):
            state.phase = Phase.DONE
            settle.enter(state)
            return
        step = flow[state.step]
        settles = settles or step.settles_play
        if step.when is None or state.evaluate(step.when):
            break
    state.phase = step.phase
    if settles and not step.settles_play:
        play.settle_rules(state)
    _enter(state, step)


def advance(state: HandState) -> None:
    """Move the hand on to its next decision (None once it is over)."""
    if state.declare.card_choices and declare.decide_card_choice(state):
        return
    while True:
        phase = state.phase
        if _DECIDE[phase](state):
            if state.decision is None and state.phase != Phase.DONE:
                continue  # the deal was thrown in and dealt again: ask from its start
            return
        _next_step(state)
