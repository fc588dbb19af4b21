"""The `runs(C, n)` fact over many hands: the cards of each hand's C that lie in a run of at
least n cards next to each other in rank, the trumps by number and each suit in its own order.

Where it sits: a fact of the batch back end (`tarot.batch.facts`), the array form of the
scalar engine's `tarot.compile.card_runs`, reading the same places of the deck
(`Deck.run_places`, the key of the table made once per pack). The groups' places are laid
out end to end in one row, a place holding no card between two groups, so that a run never
crosses from one group to the next; a run of n is then found for every hand at once by
and-ing the row with itself shifted by 1 to n - 1 places (the places that start one), and
spread back over its n places by or-ing those starts shifted the other way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from tarot.batch.masks import Bools, Ints, distinct
from tarot.batch.values import Cards, Ctx, Value, per_row


@dataclass(frozen=True)
class _Places:
    """The groups' places end to end as one row: `cards` the card at each place (any card
    where a place holds none), `held` whether a place holds one (a gap before and after
    each group holds none), and `place` each card's place (a gap, for a card that has
    none)."""

    cards: Ints
    held: Bools
    place: Ints


@cache
def _rows(run_places: tuple[tuple[str, int] | None, ...]) -> _Places:
    groups: dict[str, dict[int, int]] = {}
    for card, place in enumerate(run_places):
        if place is not None:
            groups.setdefault(place[0], {})[place[1]] = card
    top = max((max(numbers) for numbers in groups.values()), default=0)
    table = np.full((max(1, len(groups)), top + 2), -1, dtype=np.int64)
    for row, numbers in enumerate(groups.values()):
        for number, card in numbers.items():
            table[row, number] = card
    flat = table.reshape(-1)  # each group's row keeps a place with no card at both ends
    held = flat >= 0
    card_place = np.zeros(len(run_places), dtype=np.int64)  # 0: the first group's gap
    card_place[flat[held]] = np.flatnonzero(held)
    return _Places(np.maximum(flat, 0), held, card_place)


def _in_runs(present: Bools, length: int) -> Bools:
    """Which places ([hands, places]) lie in a stretch of at least `length` present places
    in a row."""
    places = present.shape[-1]
    if length <= 1:
        return present
    found = np.zeros_like(present)
    if length > places:
        return found
    width = places - length + 1
    starts = present[:, :width].copy()  # the places a run of `length` starts at
    for shift in range(1, length):
        starts &= present[:, shift : shift + width]
    for shift in range(length):
        found[:, shift : shift + width] |= starts
    return found


def runs(ctx: Ctx, cards: Cards, length: Value) -> Cards:
    """The cards of `cards` (repeats kept) whose place lies in a stretch of at least `length`
    consecutive places of one group that the cards fill (`length` below 1 counts as 1)."""
    tables = ctx.state.tables
    layout = tables.layout
    places = _rows(ctx.state.ruleset.deck.run_places)
    wanted = np.maximum(1, np.trunc(per_row(np.asarray(length), ctx.size))).astype(np.int64)
    held = layout.to_bools(np.broadcast_to(cards.union(), (ctx.size, layout.words)))
    # [hands, places], in row order (`np.take`; indexing would lay it out by column, and
    # the shifts below would then read it across rows)
    present = np.take(held, places.cards, axis=1) & places.held
    in_run = np.zeros_like(present)
    for each in distinct(wanted):  # as a rule one length for every hand
        rows = wanted == each
        if rows.all():
            in_run = _in_runs(present, each)
        else:
            in_run[rows] = _in_runs(present[rows], each)
    found = np.take(in_run, places.place, axis=1)  # [hands, cards]
    return cards.filtered(layout.from_bools(found))
