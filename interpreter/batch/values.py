"""What the batch back end's expressions hand each other: one value per hand.

Where it sits: between the array compiler (`tarot.batch.array_exprs`), its facts
(`tarot.batch.facts`) and the phases that evaluate expressions. A NUMBER, BOOL, CARD or
SEAT is an array over the hands evaluated (or a plain constant, broadcast where used); SEATS
is a boolean array [hands, seats] (seat lists are always in seat order); CARDS is `Cards`, a
sum of masks, so that `X + Y` keeps its repeats as the scalar engine's lists do: a card in
both counts twice.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

import numpy as np

from tarot.batch.masks import Bools, Ints, Masks, count
from tarot.batch.state import BatchState
from tarot.errors import TarotError
from tarot.expressions.builtins import MAX_NUMBER, RANGE_RULE, describe
from tarot.expressions.errors import EvaluationError

Value = Any  # an array over the hands, a constant, or Cards


class Unsupported(TarotError):
    """An expression or mechanism the batch back end cannot run (the reason is the text)."""


class Cards:
    """A collection of cards as a sum of masks (each [hands, words] or a constant [words])."""

    __slots__ = ("terms",)

    def __init__(self, terms: tuple[Masks, ...]) -> None:
        self.terms = terms

    def union(self) -> Masks:
        return reduce(np.bitwise_or, self.terms)

    def count(self) -> Value:
        return sum(count(term) for term in self.terms)

    def filtered(self, mask: Masks) -> Cards:
        return Cards(tuple(term & mask for term in self.terms))

    def take(self, keep: Bools | Ints) -> Cards:
        return Cards(tuple(t[keep] if t.ndim > 1 else t for t in self.terms))


class Ctx:
    """The hands an expression is evaluated for (`rows` of the state) and its variables."""

    __slots__ = ("rows", "state", "vars")

    def __init__(self, state: BatchState, rows: Ints, variables: dict[str, Value]) -> None:
        self.state = state
        self.rows = rows
        self.vars = variables

    @property
    def size(self) -> int:
        return len(self.rows)

    def subset(self, keep: Bools) -> Ctx:
        """The same evaluation for the rows `keep` picks."""
        n = self.size
        picked: dict[str, Value] = {}
        for name, value in self.vars.items():
            if isinstance(value, Cards):
                picked[name] = value.take(keep)
            elif isinstance(value, np.ndarray) and value.ndim and value.shape[0] == n:
                picked[name] = value[keep]
            else:
                picked[name] = value
        return Ctx(self.state, self.rows[keep], picked)

    def with_vars(self, **values: Value) -> Ctx:
        return Ctx(self.state, self.rows, {**self.vars, **values})


def per_row(value: Value, size: int) -> np.ndarray:
    """An array over the hands of a value that may be a constant."""
    array = np.asarray(value)
    if array.ndim and array.shape[0] == size:
        return array
    return np.broadcast_to(array, (size,))


def seat_mask(value: Value, size: int, players: int) -> Bools:
    """The seats a SEAT or SEATS value selects, as [hands, seats] (a seat of -1: none)."""
    array = np.asarray(value)
    if array.dtype == np.bool_:
        return np.broadcast_to(array, (size, players))
    seats = per_row(array, size)
    return seats[:, None] == np.arange(players)[None, :]


def checked(value: Value, ctx: Ctx | None = None) -> Value:
    """An arithmetic result, refused as the scalar engine refuses it when out of range,
    naming (with `ctx`, the hands evaluated) the first hand it happened in and the moment."""
    array = np.asarray(value)
    if array.dtype.kind == "f":
        bad = ~np.isfinite(array) | (np.abs(array) > MAX_NUMBER)
    else:
        bad = np.abs(array) > MAX_NUMBER
    if np.any(bad):
        first = array[bad].flat[0].item() if array.ndim else array.item()
        error = EvaluationError(f"arithmetic gave {describe(first)}; {RANGE_RULE}")
        if ctx is not None and array.ndim and array.shape[0] == ctx.size:
            row = int(np.argmax(bad.reshape(len(bad), -1).any(axis=1)))
            state = ctx.state
            error.hand = int(state.numbers[ctx.rows[row]])
            if 0 < state.trick_number <= state.total_tricks:
                error.moment = f"during trick {state.trick_number}"
            elif state.trick_number > state.total_tricks > 0:
                error.moment = "at the end of the hand"
        raise error
    return value


def plain(value: Value) -> Value:
    """A numpy scalar as the Python value it stands for (for constants)."""
    return (
        value.item()
        if isinstance(value, np.generic | np.ndarray) and np.ndim(value) == 0
        else value
    )


def tidy(values: np.ndarray) -> list[float]:
    """Whole numbers as ints, as the scalar engine's records give them."""
    return [int(v) if float(v).is_integer() else float(v) for v in values.tolist()]
