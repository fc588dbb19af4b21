"""The talon shared out among the seats (`talon.shares`) and the hand it ends
(`talon.ends_hand`), for every hand of a batch at once.

Where it sits: called by the batch's placing of the talon (`tarot.batch.phases.discard`);
the scalar engine's is `tarot.engine.phases.talon` (`_share_out`, `_end_if_over`). The
talon is shared out in the order it was dealt: `first` cards to its seat, then `others` at
a time to each other seat in turn from the seat's next. A hand the talon ends is settled at
once and marked `ended`: the runner takes the later steps without it.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.masks import Ints, count
from tarot.batch.phases.settle import settle
from tarot.batch.program import ArrayTalon, Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, per_row, seat_mask
from tarot.expressions import EvaluationError


def seat(state: BatchState, use: ArrayTalon, rows: Ints) -> Ints:
    """The seat the talon goes to in each hand of `rows`: the first its `seat` selects."""
    assert use.seat is not None  # the schema asks for a seat where the talon goes to one
    ctx = Ctx(state, rows, state.names(rows))
    chosen = seat_mask(use.seat.fn(ctx), len(rows), state.players)
    if not chosen.any(axis=1).all():
        raise EvaluationError("the talon's `seat` selects nobody; it must give a seat")
    return np.argmax(chosen, axis=1)


def share_out(state: BatchState, use: ArrayTalon, rows: Ints, owes_discards: bool) -> None:
    """The talon of `rows` into hands: `first` to the seat, then `others` at a time to each
    other seat in turn; where `ends_hand` holds once the seat has its cards, the rest stays
    in the talon. Each seat lays away as many as it took (unless the flow's step says they
    were laid away before)."""
    assert use.shares_first is not None  # shared out only where the talon says so
    taker = seat(state, use, rows)
    ctx = Ctx(state, rows, state.names(rows))
    first = np.maximum(per_row(use.shares_first.fn(ctx), len(rows)).astype(np.int64), 0)
    dealt = state.tables.talon_places[state.dealer[rows]]  # [hands, talon cards], in order
    cards = np.take_along_axis(state.packs[rows], dealt, axis=1)
    held = cards >= 0
    place = np.cumsum(held, axis=1) - 1  # each card's place among the talon's cards
    given = np.where(place < first[:, None], taker[:, None], -1)
    _give(state, rows, cards, given, owes_discards)
    stays = np.zeros(len(rows), dtype=np.bool_)
    if use.ends_hand is not None:
        stays = per_row(use.ends_hand.fn(Ctx(state, rows, state.names(rows))), len(rows))
        stays = stays.astype(np.bool_)
    turn = (place - first[:, None]) // max(use.shares_others, 1)
    after = state.round_from(rows, taker)[:, 1:]  # the other seats in play, from his next
    receiver = np.take_along_axis(after, turn % after.shape[1], axis=1)
    rest = np.where((place >= first[:, None]) & ~stays[:, None], receiver, -1)
    _give(state, rows, cards, rest, owes_discards)


def _give(state: BatchState, rows: Ints, cards: Ints, seats: Ints, owes_discards: bool) -> None:
    """Each talon card of `rows` to the hand of its seat in `seats` (-1: none)."""
    layout = state.tables.layout
    for receiver in range(state.players):
        mine = layout.from_cards(np.where(seats == receiver, cards, -1))
        got = np.bitwise_or.reduce(mine, axis=1)
        state.hands[rows, receiver] |= got
        state.talon[rows] &= ~got
        if owes_discards:
            state.discard_left[rows, receiver] += count(got)


def end_if_over(program: Program, state: BatchState, ends_hand: Node, rows: Ints) -> None:
    """The hands of `rows` where `ends_hand` holds end at once, before any discard: each is
    settled as it stands (no trick played) and taken out of the later steps."""
    ctx = Ctx(state, rows, state.names(rows))
    over = rows[per_row(ends_hand.fn(ctx), len(rows)).astype(np.bool_)]
    if not len(over):
        return
    state.discard_left[over] = 0
    part = state.take(over)
    settle(program, part, part.names(np.arange(part.size)))
    numbers = state.trick_number, state.total_tricks
    state.put(over, part)
    state.trick_number, state.total_tricks = numbers  # the other hands play on
    state.ended[over] = True
