"""Questions asked during play (`questions`), for every hand of a batch at once: before the
trick a question is due at is led, the seats of its `by` are asked in turn from the trick's
leader whether they ask it (`ID:yes` or `ID:no`); the first that asks puts it, the others
are not asked, and every seat learns who holds its cards (`answer('ID')`, `asker('ID')`).

Where it sits: called by the batch's trick play (`tarot.batch.phases.play`) as each trick
begins, before any declaration with the leader's first card; its rules compiled by
`tarot.batch.question_rules`. The scalar engine's is `tarot.engine.phases.ask`
(`decide_in_play`, `_answered_to_all`), followed word for word. Each hand keeps, by question,
its asker (`BatchState.asker`, -1: not asked) and the seats found holding its cards
(`BatchState.answers`); the cards shown change only what each seat sees, which nothing of a
batch hand reads.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.masks import Ints
from tarot.batch.players import choose_first
from tarot.batch.program import Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, per_row, seat_mask
from tarot.core.actions import NO_TEXT, YES_TEXT, DecisionKind


def ask_before(program: Program, state: BatchState, rows: Ints, number: int) -> None:
    """The questions due before trick `number` in the hands `rows` (whose leaders are to
    lead it): each in the ruleset's order, its seats asked in turn until one asks it."""
    due = [(i, q) for i, q in enumerate(program.hand.questions) if q.before_trick == number]
    if not due or not len(rows):
        return
    order = state.round_from(rows, state.leader[rows])  # from the trick's leader
    every = np.arange(len(rows))
    # whether each may be asked, and by whom, is looked at once, before any is asked
    asking = []
    for index, question in due:
        ctx = Ctx(state, rows, state.names(rows))
        open_ = np.ones(len(rows), dtype=np.bool_)
        if question.when is not None:
            open_ = per_row(question.when.fn(ctx), len(rows)).astype(np.bool_)
        askers = seat_mask(question.by.fn(ctx), len(rows), state.players) & open_[:, None]
        asking.append((index, question, askers))
    for index, question, askers in asking:
        for position in range(order.shape[1]):
            seats = order[:, position]
            ask = askers[every, seats] & (state.asker[rows, index] < 0)
            if not ask.any():
                continue
            these, by = rows[ask], seats[ask]
            yes, no = f"{question.id}:{YES_TEXT}", f"{question.id}:{NO_TEXT}"
            asks = choose_first(state, these, by, DecisionKind.ASK.value, yes, no)
            _answered(state, question.cards, index, these[asks], by[asks])


def _answered(state: BatchState, cards: Node, index: int, rows: Ints, seats: Ints) -> None:
    """`seats` ask question `index` in the hands `rows`: the seats holding any of its cards
    (worked out now) are told to all."""
    if not len(rows):
        return
    state.asker[rows, index] = seats
    ctx = Ctx(state, rows, state.names(rows))
    asked = np.broadcast_to(cards.fn(ctx).union(), (len(rows), state.tables.layout.words))
    holds = (state.hands[rows] & asked[:, None, :]).any(axis=2)  # [rows, seats]
    state.answers[rows, index] = holds
