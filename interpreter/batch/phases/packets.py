"""The talon laid out face up in packets (`talon.packets`), of which the talon's seat takes
some, one at a time, for every hand of a batch at once; the packets left go to a seat's
tricks or stay on the table.

Where it sits: called by the batch's placing of the talon (`tarot.batch.phases.discard`);
the scalar engine's is `tarot.engine.phases.talon` (`_lay_out`, `take_packet`,
`_leave_rest`). The talon keeps the order it was dealt in (`talon_takes.talon_order`, less
any cards taken by kind before): packet k holds its cards k*size up to (k+1)*size, size being
the talon's cards divided by the packets (a remainder lies in none, as in the scalar
engine). The random player takes each packet uniformly among those still on the table that
it may take (`talon.packets.forbidden`: one for which the rule holds only when it holds for
every packet left, as in the scalar engine's `_decide_packet`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.masks import Bools, Ints, Masks, count
from tarot.batch.phases.talon_takes import talon_order
from tarot.batch.players import choose_index, log_texts
from tarot.batch.state import BatchState
from tarot.batch.values import Cards, Ctx, per_row, seat_mask
from tarot.core.actions import PACKET_TEXT, DecisionKind
from tarot.expressions import EvaluationError


@dataclass(frozen=True)
class ArrayPackets:
    """A talon laid out in packets (`TalonPackets`) with its rest's seat as an array."""

    count: int  # packets laid out
    choose: int  # packets the talon's seat takes
    rest_to: str  # "tricks" or "out_of_play"
    rest_seat: Node | None  # whose tricks the rest goes to
    forbidden: Node | None = None  # a packet that may not be taken while another may


def lay_out(
    state: BatchState,
    packets: ArrayPackets,
    to: str,
    rows: Ints,
    seats: Ints,
    owes_discards: bool,
) -> None:
    """The talon of `rows` laid out in packets for `seats` (one a hand) to take `choose` of
    into its hand (`to` "hand", with as many to lay away unless the flow's step says they
    were laid away before) or its pile (`to` "pile"); then the rest placed."""
    layout = state.tables.layout
    cards = talon_order(state, rows)
    lying = layout.contains(state.talon[rows][:, None, :], cards)
    place = np.cumsum(lying, axis=1) - 1  # each card's place among the talon's cards left
    size = lying.sum(axis=1) // packets.count  # the packets' size, a hand
    safe = np.maximum(size, 1)[:, None]
    packet = np.where(lying & (place < (size * packets.count)[:, None]), place // safe, -1)
    masks = np.stack(  # [rows, packets, words]: each packet's cards
        [
            np.bitwise_or.reduce(layout.from_cards(np.where(packet == k, cards, -1)), axis=1)
            for k in range(packets.count)
        ],
        axis=1,
    )
    state.talon[rows] = 0
    for _time in range(packets.choose):
        left = count(masks) > 0  # [rows, packets]: the packets still on the table
        if packets.forbidden is not None:
            left = _allowed(state, packets.forbidden, rows, seats, masks, left)
        counts = left.sum(axis=1)
        going = np.flatnonzero(counts > 0)
        if not len(going):
            break
        hands = rows[going]
        nth = choose_index(state, hands, counts[going])
        # the nth packet still on the table, numbered in the order laid out
        chosen = np.argmax(np.cumsum(left[going], axis=1) > nth[:, None], axis=1)
        log_texts(
            state,
            hands,
            seats[going],
            DecisionKind.PACKET.value,
            [f"{PACKET_TEXT}:{k + 1}" for k in chosen.tolist()],
        )
        taken = masks[going, chosen]
        masks[going, chosen] = 0
        _take(state, to, hands, seats[going], taken, owes_discards)
        state.decided(hands, counts[going])
    if packets.rest_to == "tricks":
        rest = np.bitwise_or.reduce(masks, axis=1)
        state.won[rows, _rest_seat(state, packets, rows)] |= rest


def _allowed(
    state: BatchState, rule: Node, rows: Ints, seats: Ints, masks: Masks, left: Bools
) -> Bools:
    """Of the packets `left` on the table ([rows, packets]), those the seat of each hand may
    take: every one for which `rule` does not hold, or all of them where it holds for each
    (it is worked out for the packets on the table alone, as the scalar engine does)."""
    allowed: Bools = np.array(left, dtype=np.bool_)
    for k in range(masks.shape[1]):
        on_table = np.flatnonzero(left[:, k])
        if not len(on_table):
            continue
        seen = {
            **state.names(rows[on_table]),
            "player": seats[on_table],
            "packet_cards": Cards((masks[on_table, k],)),
        }
        holds = per_row(rule.fn(Ctx(state, rows[on_table], seen)), len(on_table))
        allowed[on_table, k] = ~holds.astype(np.bool_)
    some = np.asarray(allowed.any(axis=1))
    return np.where(some[:, None], allowed, left)


def _take(
    state: BatchState, to: str, rows: Ints, seats: Ints, cards: np.ndarray, owes_discards: bool
) -> None:
    """The packet `cards` into the hand (or onto the pile) of each hand's seat."""
    if to == "hand":
        state.hands[rows, seats] |= cards
        if owes_discards:
            state.discard_left[rows, seats] += count(cards)
    else:
        state.set_aside[rows, seats] |= cards


def _rest_seat(state: BatchState, packets: ArrayPackets, rows: Ints) -> Ints:
    """The seat whose tricks the packets left go to: the first the rule selects."""
    assert packets.rest_seat is not None  # the checks ask for a seat for tricks
    ctx = Ctx(state, rows, state.names(rows))
    chosen = seat_mask(packets.rest_seat.fn(ctx), len(rows), state.players)
    if not chosen.any(axis=1).all():
        raise EvaluationError("the talon packets' `rest.seat` selects nobody; it must give a seat")
    return np.argmax(chosen, axis=1)
