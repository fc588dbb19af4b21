"""A body that depends on its card alone, worked out once per card of the deck.

Where it sits: beside the array compiler (`tarot.batch.array_exprs`), which asks it about
the body of an aggregation over cards (`sum(c in tricks(s): if c in high_cards then 4 else
...)`) and the condition of a filter. Such a body reads nothing of the hand, only the card
and constants, so its value for each card is the same in every hand: it is worked out once,
for every card of the deck at once, into a table by card, and the aggregation becomes the
counts of each card in each hand's collection read against the table, instead of the body
worked out again on the whole batch for each card in some hand. The results are the same
numbers as the per-card way gives (a sum of whole numbers is exact in any order; a sum with
fractions adds card by card in the same order).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tarot.batch.values import Ctx, Value, checked, per_row
from tarot.expressions import EvaluationError, Type
from tarot.expressions.typed_tree import Typed

#: the forms a body may be made of to depend on its card alone (with constants and the card)
_PURE_FORMS = frozenset(
    {
        "const",
        "add",
        "sub",
        "mul",
        "div",
        "floordiv",
        "mod",
        "neg",
        "lt",
        "le",
        "gt",
        "ge",
        "eq",
        "ne",
        "member",
        "not_member",
        "and",
        "or",
        "not",
        "cond",
        "builtin",
    }
)


def of_card_alone(var: str, body: Typed) -> bool:
    """Whether `body`, a number or a condition, reads nothing but the card `var` and
    constants (no fact of the hand, no definition, no other variable)."""
    if body.type not in (Type.NUMBER, Type.BOOL):
        return False
    return all(
        node.name == var if node.op in ("var", "bound") else node.op in _PURE_FORMS
        for node in body.walk()
    )


class CardTable:
    """The body's value for each card of the deck, worked out at its first use (with the
    batch state of that use: the body reads none of it). None when the body fails for some
    card (a number out of range): the caller then works it out card by card, where only the
    cards in some hand count and the error names the hand."""

    def __init__(self, var: str, body: Callable[[Ctx], Value], cards: int) -> None:
        self.var = var
        self.body = body
        self.cards = cards
        self._table: np.ndarray | None = None
        self._failed = False

    def of(self, ctx: Ctx) -> np.ndarray | None:
        if self._table is None and not self._failed and ctx.size:
            every = np.arange(self.cards, dtype=np.int64)
            # the rows name a hand of the batch only for an error's report, never read here
            rows = np.broadcast_to(ctx.rows[:1], (self.cards,))
            try:
                values = self.body(Ctx(ctx.state, rows, {self.var: every}))
            except EvaluationError:
                self._failed = True
                return None
            self._table = np.array(per_row(values, self.cards))
        return self._table


def reduce_by_table(kind: str, counts: np.ndarray, table: np.ndarray) -> Value | None:
    """kind(x in C: body) from each card's count in each hand's C ([hands, cards]) and the
    body's value for each card, as `array_exprs._reduce` gives it card by card; None where
    the table's kind of number has no exact short way (the caller goes card by card)."""
    size = counts.shape[0]
    numbers = table.dtype.kind in "iub"
    if kind in ("count", "any", "all"):
        held = counts @ table.astype(np.int64)
        if kind == "count":
            return held
        if kind == "any":
            return held > 0
        return ~((counts > 0) & ~table.astype(np.bool_)[None, :]).any(axis=1)
    if kind == "sum":
        if not numbers:
            return None  # fractions: added card by card, in order, by the caller
        return checked(counts @ table.astype(np.int64))
    if table.dtype.kind not in "iuf":
        return None
    there = counts > 0
    seen = there.any(axis=1)
    if not seen.any():
        return np.zeros(size, dtype=np.int64)
    if kind == "max":
        empty = -np.inf if table.dtype.kind == "f" else np.iinfo(np.int64).min
        best = np.where(there, table[None, :], empty).max(axis=1)
    else:
        empty = np.inf if table.dtype.kind == "f" else np.iinfo(np.int64).max
        best = np.where(there, table[None, :], empty).min(axis=1)
    return np.where(seen, best.astype(table.dtype), 0)
