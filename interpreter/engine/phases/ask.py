"""Questions put to seats in turn, answered yes or no. A flow's `ask` step: a yes is the
seat's declaration of the question's id, which rules read with `declared(seat, id)`. A
question during play (the ruleset's `questions`): before a given trick is led, the seats that
may ask it are asked in turn whether they do (`ID:yes`); the first yes asks it, and every
seat learns who holds its cards (shown as theirs; `answer('ID')`, `asker('ID')`).

Where it sits: a phase of the hand (`tarot.engine.phases`), wherever the ruleset's flow
puts an `ask` step; e.g. before an auction among those who answered yes (the `bid` step's
`bidders`). The questions during play are asked from trick play (`engine.phases.play`
calls `decide_in_play` before a trick's lead); both kinds of answer come back to `answer`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tarot.core.actions import Action, Answer, Decision, DecisionKind, action_text
from tarot.engine.values import selected_seats

if TYPE_CHECKING:
    from tarot.core.flow import Question
    from tarot.engine.state import HandState

ANSWER_SHOWN = "answer"  # how `shown` names the cards a question's answer shows: `answer:ID`


@dataclass(slots=True)
class AskState:
    """The questions' part of a hand's state (`state.ask`): the seats still to answer the
    flow's question; for the questions during play, the (question, seat) pairs still to ask,
    the last trick they were looked for at, and each question asked: (its asker, the trick
    before which it was asked, the seats found to hold its cards)."""

    queue: list[int]  # seats still to answer the flow's question, in order
    in_play: list[tuple[str, int]]
    looked_at: int
    answers: dict[str, tuple[int, int, tuple[int, ...]]]

    @classmethod
    def new(cls) -> AskState:
        return cls([], [], 0, {})

    def copy(self) -> AskState:
        return AskState(list(self.queue), list(self.in_play), self.looked_at, dict(self.answers))


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


def decide_in_play(state: HandState) -> bool:
    """Before a trick's lead, the next seat asked whether it asks a question of the
    ruleset's `questions` due then; False when none is left to ask."""
    ask = state.ask
    trick = state.play.trick_number
    if ask.looked_at < trick:  # the questions due before this trick, each asker in turn
        ask.looked_at = trick
        order = state.seating.rounds[state.play.leader]
        for question in state.ruleset.questions:
            if question.before_trick != trick or question.id in ask.answers:
                continue
            if question.when is not None and not state.evaluate(question.when):
                continue
            askers = selected_seats(state.evaluate(question.by))
            ask.in_play += [(question.id, seat) for seat in order if seat in askers]
    while ask.in_play and ask.in_play[0][0] in ask.answers:  # asked already: the rest are not
        ask.in_play.pop(0)
    if not ask.in_play:
        return False
    question_id, seat = ask.in_play[0]
    answers: list[Action] = [Answer(question_id, True), Answer(question_id, False)]
    texts = [action_text(a, state.ruleset.deck) for a in answers]
    state.decision = Decision(seat, DecisionKind.ASK, answers, texts)
    return True


def _answered_to_all(state: HandState, seat: int, question_id: str) -> None:
    """`seat` asks the question: each holder of its cards is shown holding them."""
    question = next(q for q in state.ruleset.questions if q.id == question_id)
    asked = set(state.evaluate(question.cards))
    holders = []
    for holder in range(state.ruleset.players):
        held = [card for card in state.zones.hands[holder] if card in asked]
        if held:
            holders.append(holder)
            state.shown.append((holder, f"{ANSWER_SHOWN}:{question_id}", held))
    state.ask.answers[question_id] = (seat, state.play.trick_number, tuple(holders))


def answer(state: HandState, decision: Decision, action: Answer) -> None:
    if state.ask.in_play and state.ask.in_play[0] == (action.question, decision.seat):
        state.ask.in_play.pop(0)
        if action.yes:
            _answered_to_all(state, decision.seat, action.question)
            state._changed()
        return
    state.ask.queue.pop(0)
    if action.yes:
        state.declare.declared[decision.seat].add(action.question)
    state._changed()
