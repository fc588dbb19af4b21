"""A definition of a seat kept for each hand and seat while what it reads is unchanged.

Where it sits: beside the array compiler (`tarot.batch.array_exprs`), which asks it about
the body of each definition of a seat (`DEFINITION(s)`). A body that reads the hand only
through other definitions (and the seat, constants and the names fixed for the hand) is a
function of their values alone: when it is called again for a hand and a seat and those
values are the same as when it was last worked out there, its value then is given again,
and the body (often the costly part: runs of cards, nested counts) is not worked out. A
definition that reads the cards of a seat as they were when play began, through a definition
that adds the cards in hand to those played, is so worked out once per hand and seat instead
of at every card of every trick.

What is kept lives on the state evaluated (`BatchState.kept`): one `_Kept` per definition,
the values it read and the value it gave, by hand and seat. A part of the hands taken as a
state of their own (`BatchState.take`) starts with nothing kept. A body that reads a game
fact directly (its cards in hand, its tricks) is not kept: those change as play goes on,
and reading them twice, to compare and to work the body out, would cost more than it saves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from tarot.batch.values import Cards, Ctx, Value, per_row
from tarot.expressions import EvaluationError, Type
from tarot.expressions.typed_tree import Typed

#: the forms that read something of the hand: a body's inputs are its outermost ones
_READING = frozenset({"var", "definition", "call", "contract"})
#: the game facts whose value is that of their arguments and the ruleset alone (the places
#: of the cards in a run, a trump's number), worked out in the body like an operator
_OF_ARGUMENTS = frozenset({"runs", "trump_number"})


def inputs_of(body: Typed, seat: str, definitions: Sequence[str]) -> list[Typed] | None:
    """The parts of `body` that read the hand, when each is a definition (of no seat, or of
    a seat called with arguments that read no variable bound inside the body) or a name
    other than the seat `seat`; None when some part reads the hand otherwise (a game fact
    other than those of their arguments alone, the contract), or when nothing does."""
    found: list[Typed] = []
    bound: set[str] = set()
    if not _collect(body, seat, frozenset(definitions), bound, found):
        return None
    if any(part.mentions(name) for part in found for name in bound):
        return None
    return found or None


def _collect(
    node: Typed, seat: str, definitions: frozenset[str], bound: set[str], found: list[Typed]
) -> bool:
    if node.op in ("aggregate", "filter"):
        bound.add(node.var)
    if node.op == "bound" or node.op == "const" or (node.op == "var" and node.name == seat):
        return True
    if node.op in _READING and not (node.op == "call" and node.name in _OF_ARGUMENTS):
        if node.op == "contract" or (node.op == "var" and node.name == "contract"):
            return False
        if node.op == "call" and node.name not in definitions:
            return False  # a game fact
        if node.op == "call" and not all(
            _collect(arg, seat, definitions, bound, []) for arg in node.args
        ):
            return False  # an argument that reads a game fact
        if node not in found:
            found.append(node)
        return True
    return all(_collect(arg, seat, definitions, bound, found) for arg in node.args)


def _read(value: Value, size: int, type_: Type) -> tuple[np.ndarray, ...]:
    """An input as arrays whose first axis is the hands evaluated, cards as the collection
    they make whatever the terms hold them (`_levels`)."""
    if isinstance(value, Cards):
        return _levels(_rows_of(value, size, type_))
    return _rows_of(value, size, type_)


def _levels(terms: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    """Terms of cards (each [hands, words]) as the cards held at least once, at least twice,
    ...: the same for the same collection however its cards lie among the terms (a card
    played moves from `hand(s)` to `played(s)`, and `hand(s) + played(s)` is unchanged)."""
    levels = [np.zeros_like(term) for term in terms]
    for term in terms:
        carry = term
        for k, level in enumerate(levels):
            levels[k], carry = level | carry, level & carry
    return tuple(levels)


def _rows_of(value: Value, size: int, type_: Type) -> tuple[np.ndarray, ...]:
    """A value as arrays whose first axis is the hands evaluated."""
    if isinstance(value, Cards):
        return tuple(np.broadcast_to(term, (size, term.shape[-1])) for term in value.terms)
    array = np.asarray(value)
    if type_ == Type.SEATS:
        return (np.broadcast_to(array, (size, array.shape[-1])),)
    return (per_row(array, size),)


@dataclass
class _Kept:
    """What one definition gave, by hand and seat ([hands, seats, ...] each): the values
    it read (`inputs`), the value (`value`, a term of cards each) and where it is known."""

    known: np.ndarray
    inputs: list[np.ndarray]
    value: list[np.ndarray]

    def fits(self, inputs: Sequence[np.ndarray], value: Sequence[np.ndarray] | None = None) -> bool:
        """Whether inputs (and a value) of these shapes and kinds can be kept here."""
        pairs = [(self.inputs, inputs)]
        if value is not None:
            pairs.append((self.value, value))
        return all(
            len(kept) == len(given)
            and all(
                k.shape[2:] == g.shape[1:] and k.dtype == g.dtype
                for k, g in zip(kept, given, strict=True)
            )
            for kept, given in pairs
        )


def _new(
    hands: int, seats: int, inputs: Sequence[np.ndarray], value: Sequence[np.ndarray]
) -> _Kept:
    def empty(array: np.ndarray) -> np.ndarray:
        return np.zeros((hands, seats, *array.shape[1:]), dtype=array.dtype)

    return _Kept(
        np.zeros((hands, seats), dtype=np.bool_),
        [empty(a) for a in inputs],
        [empty(a) for a in value],
    )


class Keeper:
    """One definition of a seat kept by hand and seat (`name`, its body's type, and the
    array code of its inputs)."""

    def __init__(
        self,
        name: str,
        seat: str,
        type_: Type,
        inputs: list[tuple[Type, Callable[[Ctx], Value]]],
    ) -> None:
        self.name = name
        self.seat = seat
        self.type = type_
        self.inputs = inputs

    def _fill(self, ctx: Ctx, work_out: Callable[[Ctx], Value]) -> bool:
        """Work the body out for every hand of the state and every seat at once, and keep
        it: a rule asks for a few hands at a time, each with its own seat (whether it was
        done: not where the names of `ctx` are not the state's, or the body fails)."""
        state = ctx.state
        hands, players = state.size, state.players
        rows = np.repeat(np.arange(hands), players)
        seats = np.tile(np.arange(players), hands)
        names = state.names(rows)
        fixed = [name for name in ctx.vars if name != self.seat]
        if any(name not in names for name in fixed):
            return False
        whole = Ctx(state, rows, {**{name: names[name] for name in fixed}, self.seat: seats})
        try:
            read = [a for type_, fn in self.inputs for a in _read(fn(whole), whole.size, type_)]
            value = _rows_of(work_out(whole), whole.size, self.type)
        except EvaluationError:  # told where a rule asks for it, if it does
            return False
        kept = _new(hands, players, read, value)
        kept.known[rows, seats] = True
        for stored, now in zip([*kept.inputs, *kept.value], [*read, *value], strict=True):
            stored[rows, seats] = now
        state.kept[self.name] = kept
        return True

    def _same(self, ctx: Ctx, seat: np.ndarray, read: list[np.ndarray]) -> np.ndarray | None:
        """Where the kept value stands for the hands of `ctx` (None: nothing kept that fits)."""
        state, rows = ctx.state, ctx.rows
        kept: _Kept | None = state.kept.get(self.name)
        if kept is None or kept.known.shape != (state.size, state.players):
            return None
        if not kept.fits(read):
            return None
        same = kept.known[rows, seat].copy()
        for stored, now in zip(kept.inputs, read, strict=True):
            if not same.any():
                break
            same &= (stored[rows, seat] == now).reshape(ctx.size, -1).all(axis=1)
        return same

    def value(self, ctx: Ctx, seat: np.ndarray, work_out: Callable[[Ctx], Value]) -> Value:
        """The definition's value for the hands of `ctx` (the body's names, its seat among
        them, `seat` per hand), kept where the inputs are as they were; `work_out(ctx)` works
        the body out for the hands of a part of `ctx`."""
        state, size = ctx.state, ctx.size
        players = state.players
        if size == 0 or seat.min() < 0 or seat.max() >= players:
            return work_out(ctx)
        try:
            read = [a for type_, fn in self.inputs for a in _read(fn(ctx), size, type_)]
        except EvaluationError:  # told as the body tells it, if the body meets it too
            return work_out(ctx)
        rows = ctx.rows
        same = self._same(ctx, seat, read)
        if same is None and self.name not in state.kept and self._fill(ctx, work_out):
            same = self._same(ctx, seat, read)
        kept: _Kept | None = state.kept.get(self.name)
        missing = np.ones(size, dtype=np.bool_)
        if same is not None and kept is not None:
            if same.all():
                return self._read(kept, rows, seat)
            missing = ~same
        else:
            kept = None
        part = ctx if missing.all() else ctx.subset(missing)
        given = work_out(part)
        value = _rows_of(given, part.size, self.type)
        inputs = [a[missing] for a in read]
        if kept is None or not kept.fits(inputs, value):
            if not missing.all():  # a value of another kind: worked out whole, kept anew
                return work_out(ctx)
            kept = _new(state.size, players, inputs, value)
            state.kept[self.name] = kept
        where = (part.rows, seat[missing])
        kept.known[where] = True
        for stored, now in zip(kept.inputs, inputs, strict=True):
            stored[where] = now
        for stored, now in zip(kept.value, value, strict=True):
            stored[where] = now
        return given if missing.all() else self._read(kept, rows, seat)

    def _read(self, kept: _Kept, rows: np.ndarray, seat: np.ndarray) -> Value:
        found = [stored[rows, seat] for stored in kept.value]
        if self.type == Type.CARDS:
            return Cards(tuple(found))
        return found[0]
