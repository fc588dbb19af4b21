"""Declarations: each seat's declarations at their time, the level chosen or none, paid, and
the cards it shows picked one at a time when it shows fewer than it holds.

Where it sits: a batch phase (`tarot.batch.phases`) before play, and called by play
for declarations made before a seat's own first card; the scalar engine's is
`tarot.engine.phases.declare`.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.masks import Ints, any_card, count
from tarot.batch.players import choose_card, choose_index, log_texts
from tarot.batch.program import ArrayDeclaration, ArrayHandOver, Program, pay
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, per_row
from tarot.core.actions import NO_LEVEL_TEXT
from tarot.engine.events import AT_DECLARATIONS

BEFORE_PLAY, BEFORE_OWN_FIRST_CARD = "before_play", "before_own_first_card"
NO_LEVEL = NO_LEVEL_TEXT  # as records write "no declaration"


def before_play(program: Program, state: BatchState) -> None:
    """Every seat's declarations before play, seats in order from the leader."""
    order = state.round_from(np.arange(state.size), state.leader)  # the seats in play
    for position in range(order.shape[1]):
        declare_seat(program, state, order[:, position], BEFORE_PLAY)


def declare_seat(program: Program, state: BatchState, seats: Ints, timing: str) -> None:
    """The declarations of `timing` of each hand's seat, worked out together before any of
    them is made (as the scalar engine queues them)."""
    rows = np.arange(state.size)
    ctx = Ctx(state, rows, {**state.names(rows), "player": seats})
    ruleset = state.ruleset
    queued = []
    for array in program.declarations:
        if (array.declaration.timing or ruleset.declaration_timing) != timing:
            continue
        holds = np.stack([per_row(lv.when.fn(ctx), len(rows)) for lv in array.levels], 1)
        values = np.stack(
            [per_row(lv.value.fn(ctx), len(rows)).astype(np.float64) for lv in array.levels], 1
        )
        if ruleset.declarations_maximal or array.declaration.compulsory:
            holds = _of_most_value(holds, values)
        if array.declaration.compulsory:  # declared by the rules at once, never asked
            declaring = np.flatnonzero(holds.any(axis=1))
            chosen = np.argmax(holds[declaring], axis=1)
            _make(program, state, per_row(seats, state.size), array, declaring, chosen, values)
        else:
            queued.append((array, holds, values))
    for array, holds, values in queued:
        _decide(program, state, seats, array, holds, values)


def _of_most_value(holds: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The one level of most value among those that hold (the last of equal ones)."""
    best = np.where(holds, values, -np.inf).max(axis=1, keepdims=True)
    top = holds & (values == best)
    last = holds.shape[1] - 1 - np.argmax(top[:, ::-1], axis=1)
    return top & (np.arange(holds.shape[1])[None, :] == last[:, None])


def _decide(
    program: Program,
    state: BatchState,
    seats: Ints,
    array: ArrayDeclaration,
    holds: np.ndarray,
    values: np.ndarray,
) -> None:
    offered = holds.sum(axis=1)
    rows = np.flatnonzero(offered > 0)
    if not len(rows):
        return
    counts = offered[rows] + 1
    picked = choose_index(state, rows, counts)
    # the picked-th level offered, in level order, or none when picked == offered
    ranks = np.cumsum(holds[rows], axis=1) - 1
    chosen = np.where(
        picked < offered[rows], np.argmax(holds[rows] & (ranks == picked[:, None]), axis=1), -1
    )
    declaration = array.declaration
    levels = [level.id for level in declaration.levels]
    texts = [f"{declaration.id}:{levels[c] if c >= 0 else NO_LEVEL}" for c in chosen.tolist()]
    seat_of = per_row(seats, state.size)
    log_texts(state, rows, seat_of[rows], "declare", texts)
    _make(program, state, seat_of, array, rows, chosen, values, counts)


def _make(
    program: Program,
    state: BatchState,
    seat_of: Ints,
    array: ArrayDeclaration,
    rows: Ints,
    chosen: Ints,
    values: np.ndarray,
    counts: Ints | None = None,
) -> None:
    """The level `chosen` of each hand `rows` declared (-1: none), paid or counted, its cards
    shown and handed over; `counts`: the choices the seats had (None: declared by the rules,
    no decision taken)."""
    declaration = array.declaration
    shows_after = []
    for level_index, level in enumerate(array.levels):
        declaring = rows[chosen == level_index]
        if not len(declaring):
            continue
        seat = seat_of[declaring]
        value = values[declaring, level_index]
        state.declared[declaring, seat, array.index] = True
        state.declared_values[declaring, seat, array.index] = value
        ctx = Ctx(state, declaring, {**state.names(declaring), "player": seat})
        key = f"{declaration.id}:{level.id}"
        if declaration.paid_when_declared:
            sides = (array.payers, array.payees)
            paid = value * state.scale  # counted as every payment (`BatchState.scale`)
            pay(state, program.keys[key], key, ctx, sides, AT_DECLARATIONS, paid)
        else:
            state.fired[declaring, program.keys[key]] += 1
        shows_after.append((level_index, declaring))
    if counts is not None:
        state.decided(rows, counts)
    for level_index, declaring in shows_after:
        _show(state, array, level_index, declaring, seat_of[declaring])
    if array.hands_over is not None and shows_after:
        declaring = np.sort(np.concatenate([rows for _level, rows in shows_after]))
        _hand_over(state, array.hands_over, declaring, seat_of[declaring])


def _hand_over(state: BatchState, rule: ArrayHandOver, rows: Ints, seats: Ints) -> None:
    """Each card asked for (with `named`, the one card the declarer names) moves from
    another player's hand (the first seat holding it) to the declarer's, who then gives one
    back for each: one of `in_return` in his hand, or any when he has none of them, never a
    card handed to him (`declare._hand_over`, `give_back_choices`)."""
    layout = state.tables.layout
    ctx = Ctx(state, rows, {**state.names(rows), "player": seats})
    asked = np.broadcast_to(rule.cards.fn(ctx).union(), (len(rows), layout.words))
    if rule.named:
        asked = _named(state, rows, seats, asked)
    received = np.zeros((len(rows), layout.words), dtype=state.hands.dtype)
    owed = []  # (positions in rows, holders), in the order the cards are asked
    for card in np.flatnonzero(layout.to_bools(asked).any(axis=0)).tolist():
        bit = layout.card_masks[card]
        others = state.hands[rows] & bit
        others[np.arange(len(rows)), seats] = 0
        held = (others != 0).any(axis=2)  # [rows, seats]
        moving = held.any(axis=1) & layout.contains(asked, np.full(len(rows), card))
        if not moving.any():
            continue
        where, seat = rows[moving], seats[moving]
        holder = np.argmax(held[moving], axis=1)
        state.hands[where, holder] &= ~bit
        state.hands[where, seat] |= bit
        received[moving] |= bit
        owed.append((np.flatnonzero(moving), holder))
    if not owed:
        return
    after = Ctx(state, rows, {**state.names(rows), "player": seats})  # the hands as they are now
    offered_all = np.broadcast_to(rule.in_return.fn(after).union(), received.shape)
    for at, holder in owed:
        where, seat = rows[at], seats[at]
        hand = state.hands[where, seat] & ~received[at]
        offered = hand & offered_all[at]
        candidates = np.where(any_card(offered)[:, None], offered, hand)
        keep = any_card(candidates)  # a declarer with no other card gives nothing back
        where, seat, holder, candidates = where[keep], seat[keep], holder[keep], candidates[keep]
        given, counts = choose_card(state, where, seat, candidates, "give")
        bits = layout.from_cards(given)
        state.hands[where, seat] &= ~bits
        state.hands[where, holder] |= bits
        state.decided(where, counts)


def _named(state: BatchState, rows: Ints, seats: Ints, asked: np.ndarray) -> np.ndarray:
    """The card each declarer names among those `asked` he does not hold (a decision of
    kind `name`; none asked where he holds them all), as the mask of the cards to hand over
    (`declare._hand_over` and `pick_card`). The name is said aloud, which the batch does not
    keep: nothing it reads depends on it. Cards asked twice by the expression are offered
    once."""
    candidates = asked & ~state.hands[rows, seats]
    naming = any_card(candidates)
    chosen = np.zeros_like(candidates)
    if naming.any():
        where = rows[naming]
        card, counts = choose_card(state, where, seats[naming], candidates[naming], "name")
        chosen[naming] = state.tables.layout.from_cards(card)
        state.decided(where, counts)
    return chosen


def _show(
    state: BatchState, array: ArrayDeclaration, level_index: int, rows: Ints, seats: Ints
) -> None:
    """The cards shown for a declared level: picked one at a time when fewer are shown than
    the level's cards."""
    level = array.levels[level_index]
    shows = level.shows
    if shows is None or level.show_count is None:
        return  # every card is shown: nothing to choose
    ctx = Ctx(state, rows, {**state.names(rows), "player": seats})
    candidates = shows.fn(ctx).union()
    candidates = np.broadcast_to(candidates, (len(rows), candidates.shape[-1])).copy()
    wanted = per_row(level.show_count.fn(ctx), len(rows)).astype(np.int64)
    wanted = np.where(wanted >= count(candidates), 0, wanted)
    for picked in range(int(wanted.max(initial=0))):
        active = wanted > picked
        where = rows[active]
        card, counts = choose_card(state, where, seats[active], candidates[active], "show")
        candidates[active] &= ~state.tables.layout.from_cards(card)
        state.decided(where, counts)
