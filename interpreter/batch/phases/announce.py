"""Announcements before play, for every hand of a batch at once: each seat in turn, from the
first, announces bonuses open to it one at a time and passes when done; once each, or round
and round until all pass in a row; a bonus's announcer keeps its `keeps` cards for the last
trick, and the seats `reopen` gives speak again once he has passed. Each seat's passes are
counted (`BatchState.announce_passes`, the fact `announce_passes()`).

Where it sits: a batch phase (`tarot.batch.phases`) after the declarations and before
play, its rules compiled by `tarot.batch.announce_rules`; the scalar engine's is
`tarot.engine.phases.announce`, which it follows word for word. What each seat announced is
kept in `BatchState.announced`, the cards it keeps in `BatchState.kept_back` (`keep_back`
takes them out of its legal cards before the last trick).
"""

from __future__ import annotations

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.doubling_rules import next_allowed, step_name
from tarot.batch.masks import Bools, Ints, Masks, any_card
from tarot.batch.phases.bidding import SeatQueue, first_seat
from tarot.batch.phases.double import side_to_speak
from tarot.batch.players import choose_index, log_texts
from tarot.batch.program import Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, per_row, seat_mask
from tarot.core.actions import ANNOUNCE_TEXT, PASS_TEXT, DecisionKind


def announce(program: Program, state: BatchState) -> None:
    """Every seat's announcements, the seat at the head of each hand's queue at a time."""
    rules = program.announcements
    if rules is None:
        return
    every = np.arange(state.size)
    if rules.first is not None:
        first = first_seat(state, rules.first, every, "the announcements' `first`")
    else:
        first = np.where(state.taker >= 0, state.taker, state.seat_order(every)[:, 0])
    order = state.round_from(every, first)  # the seats in play, from the first
    queue = SeatQueue(order, np.ones(order.shape, dtype=np.bool_))
    bonuses = len(rules.table)
    while True:
        rows = np.flatnonzero(queue.length > 0)
        if not len(rows):
            return
        seats = queue.seats[rows, 0]
        # what each seat may say: the bonuses open to it, then the doublings open to it
        open_ = np.concatenate(
            [_open_to(program, state, rows, seats), doublings_open(program, state, rows, seats)],
            axis=1,
        )
        counts = open_.sum(axis=1)
        silent = counts == 0  # nothing to say: the seat passes unasked
        state.announce_passes[rows[silent], seats[silent]] += 1
        queue.pop(rows[silent])
        rows, seats, open_, counts = rows[~silent], seats[~silent], open_[~silent], counts[~silent]
        if not len(rows):
            continue
        chosen = choose_index(state, rows, counts + 1)  # what is open, and a pass
        passes = chosen == counts
        nth = np.cumsum(open_, axis=1) == (chosen + 1)[:, None]
        said = np.argmax(open_ & nth, axis=1)
        if state.logging:
            levels = state.doubled[rows]
            texts = [
                PASS_TEXT
                if p
                else _text(program, state, w, int(levels[i, w - bonuses]) if w >= bonuses else 0)
                for i, (p, w) in enumerate(zip(passes.tolist(), said.tolist(), strict=True))
            ]
            log_texts(state, rows, seats, DecisionKind.ANNOUNCE.value, texts)
        state.decided(rows, counts + 1)
        state.announce_passes[rows[passes], seats[passes]] += 1
        queue.pop(rows[passes])
        spoke = ~passes
        rows, seats, said = rows[spoke], seats[spoke], said[spoke]
        if rules.until_all_pass:  # every seat, this one first, must pass again
            queue.seats[rows] = state.round_from(rows, seats)
            queue.length[rows] = order.shape[1]
        doubles = said >= bonuses
        state.doubled[rows[doubles], said[doubles] - bonuses] += 1
        rows, seats, said = rows[~doubles], seats[~doubles], said[~doubles]
        state.announced[rows, seats, said] = state.announced[rows].max(axis=(1, 2)) + 1
        _keep(program, state, rows, seats, said)
        if rules.reopen is not None and len(rows):
            _reopen(rules.reopen, state, queue, rows, seats)


def _reopen(rule: Node, state: BatchState, queue: SeatQueue, rows: Ints, seats: Ints) -> None:
    """After a bonus announced by `seats` (each at the head of its hand's queue): the seats
    `rule` gives, other than the announcer and not already waiting to speak, speak again
    once he has passed, before the seats still to speak, in order of play from him
    (`announce._reopen`)."""
    n = state.players
    ctx = Ctx(state, rows, {**state.names(rows), "player": seats})
    chosen = seat_mask(rule.fn(ctx), len(rows), n)
    every = np.arange(len(rows))[:, None]
    after = (seats[:, None] + np.arange(1, n)[None, :]) % n  # [rows, n - 1], in order of play
    lined = queue.seats[rows]  # [rows, n]
    waiting = np.arange(n)[None, :] < queue.length[rows][:, None]
    queued = ((lined[:, None, :] == after[:, :, None]) & waiting[:, None, :]).any(axis=2)
    again = chosen[every, after] & ~queued
    if not again.any():
        return
    # the announcer, the seats again, then the rest of the queue, compacted in that order
    candidates = np.concatenate([lined[:, :1], after, lined[:, 1:]], axis=1)
    kept = np.concatenate([waiting[:, :1], again, waiting[:, 1:]], axis=1)
    order = np.argsort(~kept, axis=1, kind="stable")[:, :n]
    queue.seats[rows] = np.take_along_axis(candidates, order, axis=1)
    queue.length[rows] += again.sum(axis=1)


def _text(program: Program, state: BatchState, said: int, level: int) -> str:
    """What a record writes of the thing said, by its index among what a seat may say (the
    bonuses, then the doubling targets; `level`: the target's doublings so far)."""
    rules = program.announcements
    assert rules is not None  # asked only in rulesets with announcements
    if said < len(rules.table):
        return f"{ANNOUNCE_TEXT}:{rules.table[said].id}"
    doubling = state.ruleset.doubling
    assert doubling is not None  # a doubling is said only in rulesets with them
    return f"{step_name(doubling, level)}:{program.doubling[said - len(rules.table)].id}"


def doublings_open(program: Program, state: BatchState, rows: Ints, seats: Ints) -> Bools:
    """[hands, targets]: with `doubling.with_announcements`, the targets each hand's seat may
    double on its turn to speak: open now (their `when` holds, their bonus announced), not
    with a doubling left to make (`doubling_rules.next_allowed`), and its side's turn
    (`offered_in_announcements`)."""
    doubling = state.ruleset.doubling
    found = np.zeros((len(rows), len(program.doubling)), dtype=np.bool_)
    if doubling is None or not doubling.with_announcements:
        return found
    ctx = Ctx(state, rows, state.names(rows))
    every = np.arange(len(rows))
    for index, target in enumerate(program.doubling):
        may = per_row(target.when.fn(ctx), len(rows)).astype(np.bool_)
        if target.bonus >= 0:
            may &= (state.announced[rows, :, target.bonus] > 0).any(axis=1)
        if may.any():
            limited = next_allowed(
                program.doubling_limit, state, rows[may], np.full(int(may.sum()), index)
            )
            may[may] = limited
        if may.any():
            side = side_to_speak(program, state, rows[may], np.full(int(may.sum()), index))
            may[may] = side[every[: int(may.sum())], seats[may]]
        found[:, index] = may
    return found


def _open_to(program: Program, state: BatchState, rows: Ints, seats: Ints) -> Bools:
    """[hands, bonuses]: the bonuses each hand's seat may announce now: those whose `when`
    holds, that it is among the `by` of, and that nobody of its side has announced."""
    rules = program.announcements
    assert rules is not None  # asked only in rulesets with announcements
    side = state.sides(rows, seats)  # [hands, seats]
    made = np.any((state.announced[rows] > 0) & side[:, :, None], axis=1)
    ctx = Ctx(state, rows, {**state.names(rows), "player": seats})
    found = np.logical_not(made).astype(np.bool_)
    every = np.arange(len(rows))
    for index, bonus in enumerate(rules.table):
        held = per_row(bonus.when.fn(ctx), len(rows)).astype(np.bool_)
        if bonus.by is not None:
            held &= seat_mask(bonus.by.fn(ctx), len(rows), state.players)[every, seats]
        found[:, index] &= held
    return found


def _keep(program: Program, state: BatchState, rows: Ints, seats: Ints, bonuses: Ints) -> None:
    """The cards of the bonuses announced in `rows` that their announcers keep back."""
    rules = program.announcements
    assert rules is not None  # asked only in rulesets with announcements
    for index, bonus in enumerate(rules.table):
        picked = bonuses == index
        if bonus.keeps is None or not picked.any():
            continue
        where, who = rows[picked], seats[picked]
        ctx = Ctx(state, where, {**state.names(where), "player": who})
        kept = np.broadcast_to(bonus.keeps.fn(ctx).union(), (len(where), state.tables.layout.words))
        state.kept_back[where, who] |= kept & state.hands[where, who]


def keep_back(state: BatchState, seats: Ints, choices: Masks) -> Masks:
    """The legal cards of each hand's `seats` without those it keeps for the last trick,
    before the last trick and while it has another legal card."""
    if state.trick_number >= state.total_tricks:
        return choices
    kept = state.kept_back[np.arange(state.size), seats]
    free = choices & ~kept
    return np.where(any_card(free)[:, None], free, choices)
