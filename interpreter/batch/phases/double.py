"""Doublings before play, for every hand of a batch at once: each target that may be doubled
in the hand in turn, the seats of the side whose turn it is asked in order of play whether
to double it, the two sides taking turns until one declines or the last step is made.

Where it sits: a batch phase (`tarot.batch.phases`) after the announcements and before
play, its rules compiled by `tarot.batch.doubling_rules`; the scalar engine's is
`tarot.engine.phases.doubling`, which it follows word for word (doublings made in the
round of announcements, `doubling.with_announcements`, are not run: `support` refuses
them). How many times each target was doubled is kept in `BatchState.doubled`.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.doubling_rules import next_allowed, step_name
from tarot.batch.masks import Bools, Ints, distinct
from tarot.batch.phases.bidding import SeatQueue
from tarot.batch.players import choose_index, log_texts
from tarot.batch.program import Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, per_row, seat_mask
from tarot.core.actions import PASS_TEXT, DecisionKind


def double(program: Program, state: BatchState) -> None:
    """Every doubling of every hand, the seat at the head of each hand's queue at a time."""
    doubling, targets = state.ruleset.doubling, program.doubling
    if doubling is None or not targets:
        return
    every = np.arange(state.size)
    ctx = Ctx(state, every, state.names(every))
    open_ = np.zeros((state.size, len(targets)), dtype=np.bool_)
    for index, rules in enumerate(targets):  # its `when` holds, its bonus was announced
        open_[:, index] = per_row(rules.when.fn(ctx), state.size).astype(np.bool_)
        if rules.bonus >= 0:
            open_[:, index] &= (state.announced[:, :, rules.bonus] > 0).any(axis=1)
    nobody = np.zeros((state.size, state.tables.seating.in_hand), dtype=np.bool_)
    queue = SeatQueue(np.zeros(nobody.shape, dtype=np.int64), nobody)
    current = np.zeros(state.size, dtype=np.int64)
    _ask_next(program, state, every, open_, current, queue)
    ids = [t.id for t in targets]
    while True:
        rows = np.flatnonzero(queue.length > 0)
        if not len(rows):
            return
        seats, target = queue.seats[rows, 0], current[rows]
        doubles = choose_index(state, rows, np.full(len(rows), 2)) == 0
        if state.logging:
            levels = state.doubled[rows, target].tolist()
            texts = [
                f"{step_name(doubling, level) if d else PASS_TEXT}:{ids[t]}"
                for d, level, t in zip(doubles.tolist(), levels, target.tolist(), strict=True)
            ]
            log_texts(state, rows, seats, DecisionKind.DOUBLE.value, texts)
        state.decided(rows, np.full(len(rows), 2))
        declined = rows[~doubles]
        queue.pop(declined)
        closed = declined[queue.length[declined] == 0]  # nobody of this side doubles
        open_[closed, current[closed]] = False
        made = rows[doubles]
        state.doubled[made, current[made]] += 1
        _ask_next(program, state, np.concatenate([closed, made]), open_, current, queue)


def _ask_next(
    program: Program, state: BatchState, rows: Ints, open_: Bools, current: Ints, queue: SeatQueue
) -> None:
    """The seats to ask next in `rows`: the side whose turn it is on the first open target,
    skipping targets that side has nobody for and targets with no doubling left to make."""
    order = state.seat_order(np.arange(state.size))  # the seats in play, from the dealer's next
    while len(rows):
        left = open_[rows].any(axis=1)
        queue.length[rows[~left]] = 0
        rows = rows[left]
        if not len(rows):
            return
        current[rows] = np.argmax(open_[rows], axis=1)
        allowed = next_allowed(program.doubling_limit, state, rows, current[rows])
        spent, rows = rows[~allowed], rows[allowed]
        open_[spent, current[spent]] = False
        side = side_to_speak(program, state, rows, current[rows])
        speaking = np.take_along_axis(side, order[rows], axis=1)
        asked = SeatQueue(order[rows], speaking)
        queue.seats[rows], queue.length[rows] = asked.seats, asked.length
        nobody = asked.length == 0
        open_[rows[nobody], current[rows[nobody]]] = False
        rows = np.concatenate([spent, rows[nobody]])


def side_to_speak(program: Program, state: BatchState, rows: Ints, targets: Ints) -> Bools:
    """[hands, seats]: the seats that may make each hand's target's next doubling: `by`
    before an even number of doublings, the others after an odd one."""
    n = state.players
    side = np.zeros((len(rows), n), dtype=np.bool_)
    for index in distinct(targets):
        target = program.doubling[index]
        these = targets == index
        where = rows[these]
        ctx = Ctx(state, where, state.names(where))
        if target.by is not None:
            first = seat_mask(target.by.fn(ctx), len(where), n)
        else:  # an announced bonus: first doubled by the seats not on its announcer's side
            said = state.announced[where, :, target.bonus]
            announcer = np.argmin(np.where(said > 0, said, np.iinfo(np.int64).max), axis=1)
            first = ~state.sides(where, announcer) & state.in_play(where)
        answering = ~first & state.in_play(where)
        if target.against is not None:
            answering = seat_mask(target.against.fn(ctx), len(where), n)
        even = (state.doubled[where, index] % 2 == 0)[:, None]
        side[these] = np.where(even, first, answering)
    return side
