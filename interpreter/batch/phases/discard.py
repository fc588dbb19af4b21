"""The talon and the discard: cards of a kind taken from the talon by rule
(`tarot.batch.phases.talon_takes`), then the talon taken into a hand or set aside as the
contract (or, without an auction, the ruleset) says, then each seat in dealing order lays
its cards away one at a time, none the ruleset protects unless only protected cards are
left, and cards of a group all or none of them (`discard.all_or_none`), with the payments
for each.

Where it sits: a batch phase (`tarot.batch.phases`) after the auction; the scalar
engine's is `tarot.engine.phases.talon`. A talon made a stock is drawn from during play
(`tarot.batch.phases.stock`).
"""

from __future__ import annotations

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.masks import Masks, any_card, count
from tarot.batch.phases import packets, stock, talon
from tarot.batch.phases.talon_takes import take_by_kind
from tarot.batch.players import choose_card
from tarot.batch.program import ArrayTalon, Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, per_row
from tarot.engine.events import AT_DISCARD


def allowed(program: Program, state: BatchState, ctx: Ctx, hand: Masks) -> Masks:
    """The cards each hand's seat may lay away (`discard_choices`)."""
    choices = hand
    for rule in (program.discard_never, program.discard_forbidden):
        if rule is None:
            continue
        kept = choices & ~rule(ctx)
        choices = np.where(any_card(kept)[:, None], kept, choices)
    if program.discard_all_or_none is not None:
        choices = _all_or_none(program.discard_all_or_none, state, ctx, hand, choices)
    return choices


def _all_or_none(rule: Node, state: BatchState, ctx: Ctx, hand: Masks, choices: Masks) -> Masks:
    """`choices` as the whole discard needs it (`talon._all_or_none`): once a card of the
    rule's group is laid away, only the rest of the group; none of it while the seat holds
    more of it than it still has to lay away; all of `choices` where that leaves nothing."""
    seats = ctx.vars["player"]
    group = np.broadcast_to(rule.fn(ctx).union(), hand.shape)
    held = count(hand & group)
    begun = any_card(state.discards[ctx.rows, seats] & group)
    too_many = held > state.discard_left[ctx.rows, seats]
    narrowed = np.where(begun[:, None], choices & group, choices & ~group)
    narrows = (held > 0) & (begun | too_many) & any_card(narrowed)
    return np.where(narrows[:, None], narrowed, choices)


def place_talon(program: Program, state: BatchState, owes_discards: bool = True) -> None:
    """Each hand's talon where its contract puts it (`talon.enter`); cards taken into a
    hand are laid away later unless the flow's step says they were before."""
    talons = program.hand.talons
    for index, use in enumerate(talons):
        if use is None:
            continue
        if state.ruleset.bidding is None:
            rows = np.arange(state.size)
        else:
            rows = np.flatnonzero(state.contract == index)
        rows = rows[any_card(state.talon[rows])]
        if use.takes and len(rows):
            take_by_kind(state, use.takes, rows, owes_discards)
            rows = rows[any_card(state.talon[rows])]
        if not len(rows):
            continue
        if use.to in ("stock", "trick_winners"):  # both kept in order (`phases.stock`)
            stock.lay(state, rows)
        elif use.packets is not None:
            seats = talon.seat(state, use, rows)
            packets.lay_out(state, use.packets, use.to, rows, seats, owes_discards)
        elif use.shares_first is not None:
            talon.share_out(state, use, rows, owes_discards)
        elif use.to != "out_of_play":
            _place(state, use, rows, owes_discards)
        if use.ends_hand is not None:
            talon.end_if_over(program, state, use.ends_hand, rows)


def _place(state: BatchState, use: ArrayTalon, rows: np.ndarray, owes_discards: bool) -> None:
    seats = talon.seat(state, use, rows)
    talon_cards = state.talon[rows]
    if use.to == "hand":
        state.hands[rows, seats] |= talon_cards
        if owes_discards:
            state.discard_left[rows, seats] += count(talon_cards)
    else:
        state.set_aside[rows, seats] |= talon_cards
    state.talon[rows] = 0


def set_counts(rule: Node, state: BatchState) -> None:
    """A discard step that says how many cards each seat lays away (`count`): that many, at
    most the cards it holds, in place of what it owed (`talon.enter_discard`)."""
    rows = np.arange(state.size)
    order = state.seat_order(rows)  # the seats in play, from the dealer's next
    for position in range(order.shape[1]):
        seats = order[:, position]
        ctx = Ctx(state, rows, {**state.names(rows), "player": seats})
        wanted = per_row(rule.fn(ctx), state.size).astype(np.int64)
        held = count(state.hands[rows, seats])
        state.discard_left[rows, seats] = np.clip(wanted, 0, held)


def discard(program: Program, state: BatchState) -> None:
    """Each seat in dealing order lays away the cards it must, one at a time."""
    layout = state.tables.layout
    order = state.seat_order(np.arange(state.size))  # the seats in play, from the dealer's next
    for position in range(order.shape[1]):
        all_seats = order[:, position]
        times = state.discard_left[np.arange(state.size), all_seats].copy()
        for time in range(int(times.max(initial=0))):
            rows = np.flatnonzero(times > time)
            seats = all_seats[rows]
            base = Ctx(state, rows, {**state.names(rows), "player": seats})
            hand = state.hands[rows, seats]
            cards, counts = choose_card(
                state, rows, seats, allowed(program, state, base, hand), "discard"
            )
            bits = layout.from_cards(cards)
            state.hands[rows, seats] &= ~bits
            state.discards[rows, seats] |= bits
            state.discard_left[rows, seats] -= 1
            program.fire(state, "discard", base.with_vars(card=cards), AT_DISCARD)
            done = times[rows] == time + 1
            if done.any():
                program.fire(state, "discards_done", base.subset(done), AT_DISCARD)
            state.decided(rows, counts)
    _tell(program, state)


def _tell(program: Program, state: BatchState) -> None:
    """Every discard is made: where the ruleset says so (`discard.told`), how many cards of
    its kind each seat laid away becomes known to all (`talon._tell`)."""
    rule = program.discard_told
    if rule is None:
        return
    rows = np.arange(state.size)
    told = np.broadcast_to(rule.fn(Ctx(state, rows, state.names(rows))).union(), state.talon.shape)
    state.told[:] = count(state.discards & told[:, None, :])
