"""Cards of a kind taken from the talon by rule (`talon.takes`), before the talon is placed:
each take in turn, its seat takes the talon's cards of the take's kind from one end (or only
those lying in a row there) into its hand, to lay away as many.

Where it sits: a batch phase (`tarot.batch.phases`) called by the talon's placing
(`tarot.batch.phases.discard.place_talon`); the scalar engine's is `_take_by_kind` in
`tarot.engine.phases.talon`. The talon keeps its order here: its cards are read from each
hand's pack at the places the deal laid them (`DeckTables.talon_places`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.masks import Ints, count
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, seat_mask
from tarot.expressions import EvaluationError


@dataclass(frozen=True)
class ArrayTake:
    """A take of the talon (`TalonTake`) with its expressions as arrays."""

    seat: Node
    cards: Node
    end: str  # "top" or "bottom"
    in_a_row: bool
    where: str  # the seat expression's place in the ruleset, for its error


def talon_order(state: BatchState, rows: Ints) -> Ints:
    """The talon's cards as dealt, top first, for the hands `rows`: [rows, talon cards]."""
    places = state.tables.talon_places[state.dealer[rows]]
    return np.take_along_axis(state.packs[rows], places, axis=1)


def take_by_kind(
    state: BatchState, takes: tuple[ArrayTake, ...], rows: Ints, owes_discards: bool
) -> None:
    """Each take in turn for the hands `rows` (whose talon holds cards)."""
    layout = state.tables.layout
    dealt = talon_order(state, rows)
    for take in takes:
        ctx = Ctx(state, rows, state.names(rows))
        chosen = seat_mask(take.seat.fn(ctx), len(rows), state.players)
        if not chosen.any(axis=1).all():
            error = EvaluationError("a talon take's `seat` selects nobody; it must give a seat")
            error.where = take.where
            raise error
        seats = np.argmax(chosen, axis=1)
        kind = np.broadcast_to(take.cards.fn(ctx).union(), (len(rows), layout.words))
        order = dealt if take.end == "top" else dealt[:, ::-1]
        lying = layout.contains(state.talon[rows][:, None, :], order)  # [rows, talon cards]
        of_kind = layout.contains(kind[:, None, :], order)
        taken = lying & of_kind
        if take.in_a_row:  # up to the first card lying there of another kind
            stopped = np.logical_or.accumulate(lying & ~of_kind, axis=1)
            taken &= ~stopped
        cards = np.bitwise_or.reduce(layout.from_cards(np.where(taken, order, -1)), axis=1)
        state.talon[rows] &= ~cards
        state.hands[rows, seats] |= cards
        if owes_discards:
            state.discard_left[rows, seats] += count(cards)
