"""The `runs(C, n)` fact over many hands: the cards of each hand's C that lie in a run of at
least n cards next to each other in rank, the trumps by number and each suit in its own order.

Where it sits: a fact of the batch back end (`tarot.batch.facts`), the array form of the
scalar engine's `tarot.compile.card_runs`, reading the same places of the deck
(`Deck.run_places`, the key of the table made once per pack). Each group's places are laid
out in a row of the pack's cards, and the stretch through each place is counted for every
hand at once from running counts, forwards and backwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from tarot.batch.masks import Ints
from tarot.batch.values import Cards, Ctx, Value, per_row


@dataclass(frozen=True)
class _Places:
    """Each group's places as a row of card indexes ([groups, numbers + 2]; the first and
    last column hold no card, so a stretch ends there): `cards` where a place holds one
    (any card where it does not), `held` whether it does, `placed` the cards of the places
    that do, in the same order as `held` picks them."""

    cards: Ints
    held: np.ndarray
    placed: Ints


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
    held = table >= 0
    return _Places(np.maximum(table, 0), held, table[held])


def _stretch(present: np.ndarray) -> np.ndarray:
    """For each place, how many places in a row up to it (itself included) are present: the
    count so far less the count at the last place missing."""
    so_far = np.cumsum(present, axis=-1, dtype=np.int32)
    at_gap = np.maximum.accumulate(np.where(present, 0, so_far), axis=-1)
    return so_far - at_gap


def runs(ctx: Ctx, cards: Cards, length: Value) -> Cards:
    """The cards of `cards` (repeats kept) whose place lies in a stretch of at least `length`
    consecutive places of one group that the cards fill (`length` below 1 counts as 1)."""
    tables = ctx.state.tables
    layout = tables.layout
    places = _rows(ctx.state.ruleset.deck.run_places)
    wanted = np.maximum(1, np.trunc(per_row(np.asarray(length), ctx.size))).astype(np.int64)
    held = layout.to_bools(np.broadcast_to(cards.union(), (ctx.size, layout.words)))
    present = held[:, places.cards] & places.held  # [hands, groups, places]
    stretch = _stretch(present) + _stretch(present[..., ::-1])[..., ::-1] - 1
    in_run = present & (stretch >= wanted[:, None, None])
    found = np.zeros((ctx.size, layout.cards), dtype=np.bool_)
    found[:, places.placed] = in_run[:, places.held]
    return cards.filtered(layout.from_bools(found))
