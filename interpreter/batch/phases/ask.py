"""A question of the flow (an `ask` step) put to the seats in turn, for every hand of a batch
at once: each seat asked answers yes or no; a yes is its declaration of the question's id.

Where it sits: a batch phase (`tarot.batch.phases`) wherever the flow puts it; the scalar
engine's is `tarot.engine.phases.ask`.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.players import choose_first
from tarot.batch.program import ArrayStep
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, seat_mask
from tarot.core.actions import NO_TEXT, YES_TEXT, DecisionKind


def ask(step: ArrayStep, index: int, state: BatchState) -> None:
    """Each seat of the question's `seats`, in order of play from the dealer's next."""
    question = step.step.question
    assert question is not None  # an ask step always has its question
    n = state.players
    rows = np.flatnonzero(~state.thrown)
    asked = np.ones((len(rows), n), dtype=np.bool_)
    if step.seats is not None:
        asked = seat_mask(step.seats.fn(Ctx(state, rows, state.names(rows))), len(rows), n)
    order = state.seat_order(rows)  # the seats in play, from the dealer's next
    for position in range(order.shape[1]):
        seats = order[:, position]
        these = np.flatnonzero(asked[np.arange(len(rows)), seats])
        if not len(these):
            continue
        picked, seated = rows[these], seats[these]
        answers = f"{question.id}:{YES_TEXT}", f"{question.id}:{NO_TEXT}"
        yes = choose_first(state, picked, seated, DecisionKind.ASK.value, *answers)
        state.answered[picked[yes], seated[yes], index] = True
