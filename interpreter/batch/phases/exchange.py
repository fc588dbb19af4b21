"""The Fool's exchange: a Fool kept from a trick the other side won is owed for, and paid
with the side's least valuable eligible card as soon as it has one; at the end, what is
still owed is paid from the talon set aside too, or the Fool itself is surrendered.

Where it sits: called by trick play (`tarot.batch.phases.play`) after each trick and
by the settlement (`tarot.batch.phases.settle`); the scalar engine's is
`pay_excuse_debts` in `tarot.engine.phases.play` and `settle.finish`. Debts are kept
per hand in slots, oldest first, as the scalar engine's list of debts.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.masks import Ints, Masks
from tarot.batch.program import Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, Value


def owe(state: BatchState, keeper: Ints, winner: Ints) -> None:
    """Each hand whose Fool's keeper is not on the winner's side owes the winner a card."""
    rows = np.arange(state.size)
    side = state.sides(rows, keeper)
    owing = np.flatnonzero((keeper != winner) & ~side[rows, winner])
    if not len(owing):
        return
    slot = np.argmax(state.debtors[owing] < 0, axis=1)  # the first free slot: the end
    state.debtors[owing, slot] = keeper[owing]
    state.creditors[owing, slot] = winner[owing]


def pay_debts(
    program: Program, state: BatchState, names: dict[str, Value], at_the_end: bool = False
) -> None:
    """Hand over a card for each Fool owed for, oldest debt first, where the debtor's side
    has one to give: its least valuable eligible card, from tricks before discards (before
    the talon set aside, which is seen only `at_the_end`), the lowest card first."""
    exchange = state.ruleset.play.excuse_exchange
    cards = program.hand.exchange_cards
    if exchange is None or cards is None:
        return
    rows = np.arange(state.size)
    eligible = np.broadcast_to(
        cards.fn(Ctx(state, rows, names)).union(), (state.size, state.tables.layout.words)
    )
    zones = [state.won]
    if exchange.taken_from == "pile":
        zones.append(state.discards)
        if at_the_end:
            zones.append(state.set_aside)
    for slot in range(state.debtors.shape[1]):
        owing = np.flatnonzero(state.debtors[:, slot] >= 0)
        if not len(owing):
            break  # debts fill the first slots
        _pay(state, owing, slot, eligible[owing], zones)
    _close_up(state)


def _pay(state: BatchState, rows: Ints, slot: int, eligible: Masks, zones: list[Masks]) -> None:
    layout, values = state.tables.layout, state.tables.values
    members = state.sides(rows, state.debtors[rows, slot])  # [rows, seats]
    offered = np.stack(
        [
            layout.to_bools(
                np.bitwise_or.reduce(np.where(members[..., None], zone[rows], np.uint64(0)), axis=1)
                & eligible
            )
            for zone in zones
        ],
        axis=1,
    )  # [rows, zones, cards]
    worth = np.where(offered, values[None, None, :], np.inf)
    cheapest = offered & (worth == worth.min(axis=(1, 2))[:, None, None])
    flat = cheapest.reshape(len(rows), -1)
    paying = flat.any(axis=1)
    first = np.argmax(flat, axis=1)  # by value, then zone, then card: the scalar's `min`
    rows, zone_of, card = (
        rows[paying],
        (first // layout.cards)[paying],
        (first % layout.cards)[paying],
    )
    bits = layout.from_cards(card)
    for z, zone in enumerate(zones):
        here = zone_of == z
        if not here.any():
            continue
        at = rows[here]
        holds = (zone[at] & bits[here][:, None, :]).any(axis=2)  # [rows, seats]
        giver = np.argmax(holds, axis=1)
        zone[at, giver] &= ~bits[here]
    state.won[rows, state.creditors[rows, slot]] |= bits
    state.debtors[rows, slot] = -1
    state.creditors[rows, slot] = -1


def _close_up(state: BatchState) -> None:
    """The debts still owed moved to the first slots, in their order."""
    order = np.argsort(state.debtors < 0, axis=1, kind="stable")
    state.debtors = np.take_along_axis(state.debtors, order, axis=1)
    state.creditors = np.take_along_axis(state.creditors, order, axis=1)


def surrender(state: BatchState) -> None:
    """Each Fool still owed for goes to its creditor."""
    for slot in range(state.debtors.shape[1]):
        rows = np.flatnonzero(state.debtors[:, slot] >= 0)
        if not len(rows):
            break
        debtors, creditors = state.debtors[rows, slot], state.creditors[rows, slot]
        kept = state.won[rows, debtors] & state.excuses[rows]
        state.won[rows, debtors] &= ~kept
        state.won[rows, creditors] |= kept
