"""A question put to seats in turn (a flow's `ask` step): each answers yes or no, and a yes
is the seat's declaration of the question's id, which rules read with `declared(seat, id)`.

Where it sits: a phase of the hand (`tarot.engine.phases`), wherever the ruleset's flow
puts an `ask` step; e.g. before an auction among those who answered yes (the `bid` step's
`bidders`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tarot.core.actions import Action, Answer, Decision, DecisionKind, action_text
from tarot.engine.values import selected_seats

if TYPE_CHECKING:
    from tarot.core.flow import Question
    from tarot.engine.state import HandState


@dataclass(slots=True)
class AskState:
    """A question's part of a hand's state (`state.ask`)."""

    queue: list[int]  # seats still to answer the flow's question, in order

    @classmethod
    def new(cls) -> AskState:
        return cls([])

    def copy(self) -> AskState:
        return AskState(list(self.queue))


def _question(state: HandState) -> Question:
    question = state.ruleset.flow[state.step].question
    assert question is not None  # an `ask` step always has its question
    return question


def enter(state: HandState) -> None:
    """The seats asked, in order of play from the dealer's next."""
    question = _question(state)
    order = list(state.seat_order)
    if question.seats is not None:
        asked = selected_seats(state.evaluate(question.seats))
        order = [seat for seat in order if seat in asked]
    state.ask.queue = order


def decide(state: HandState) -> bool:
    """The next seat's answer, while any seat is left to ask."""
    if not state.ask.queue:
        return False
    question = _question(state)
    answers: list[Action] = [Answer(question.id, True), Answer(question.id, False)]
    texts = [action_text(a, state.ruleset.deck) for a in answers]
    state.decision = Decision(state.ask.queue[0], DecisionKind.ASK, answers, texts)
    return True


def answer(state: HandState, decision: Decision, action: Answer) -> None:
    state.ask.queue.pop(0)
    if action.yes:
        state.declare.declared[decision.seat].add(action.question)
    state._changed()
