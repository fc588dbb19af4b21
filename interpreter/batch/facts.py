"""The game facts an expression may ask for (`hand(s)`, `points(s)`...), over many hands.

Where it sits: called by the array compiler's closures (`interpreter.batch.array_exprs`)
with the evaluation's `Ctx` and the arguments' values. Each fact gives what the scalar
engine's fact of the same name gives (`interpreter.compile.contexts.FACTS`); facts that need
state the batch back end does not keep (the packets dealt, the talon, the log of tricks) are
not here, and a ruleset that asks for one runs on the scalar engine.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from interpreter.batch.masks import Masks
from interpreter.batch.state import BatchState
from interpreter.batch.values import Cards, Ctx, Unsupported, Value, per_row, seat_mask


def _seat_rows(ctx: Ctx, seat: Value) -> tuple[np.ndarray, np.ndarray]:
    return ctx.rows, per_row(seat, ctx.size)


def _zone(name: str) -> Callable[[Ctx, Value], Cards]:
    def fact(ctx: Ctx, seat: Value) -> Cards:
        rows, seats = _seat_rows(ctx, seat)
        return Cards((getattr(ctx.state, name)[rows, seats],))

    return fact


def _pile(ctx: Ctx, seat: Value) -> Cards:
    rows, seats = _seat_rows(ctx, seat)
    state = ctx.state
    return Cards((state.won[rows, seats], state.discards[rows, seats]))


def pile_points(state: BatchState, piles: Masks) -> np.ndarray:
    """Card points of piles ([..., words]) as the ruleset counts them (float64)."""
    counting = state.ruleset.counting
    held = state.tables.layout.to_bools(piles)
    values = state.tables.values
    total = held @ values
    if counting.method == "sum":
        return total
    size = held.sum(axis=-1)
    counting_cards = held @ (values != 0).astype(np.float64)
    whole, leftover = np.divmod(size, counting.group_size)
    credit = np.array([0.0, *counting.partial_group_credit], dtype=np.float64)
    return total - counting_cards + whole + credit[leftover]


def _points(ctx: Ctx, seat: Value) -> Value:
    rows, seats = _seat_rows(ctx, seat)
    state = ctx.state
    return pile_points(state, state.won[rows, seats] | state.discards[rows, seats])


def _opponents(ctx: Ctx, seat: Value) -> Value:
    return ~seat_mask(seat, ctx.size, ctx.state.players)


def _side(ctx: Ctx, seat: Value) -> Value:
    return seat_mask(seat, ctx.size, ctx.state.players)  # every seat is a side alone


def _declaration(ctx: Ctx, declaration: Value) -> int | None:
    ids = [d.id for d in ctx.state.ruleset.declarations]
    return ids.index(declaration) if declaration in ids else None


def _declared(ctx: Ctx, seat: Value, declaration: Value) -> Value:
    index = _declaration(ctx, declaration)
    if index is None:  # a redeal rule played on: the batch back end runs none
        return np.zeros(ctx.size, dtype=np.bool_)
    rows, seats = _seat_rows(ctx, seat)
    return ctx.state.declared[rows, seats, index]


def _declared_value(ctx: Ctx, seat: Value, declaration: Value) -> Value:
    index = _declaration(ctx, declaration)
    if index is None:
        return np.zeros(ctx.size)
    rows, seats = _seat_rows(ctx, seat)
    return ctx.state.declared_values[rows, seats, index]


def _trump_number(ctx: Ctx, card: Value) -> Value:
    cards = ctx.state.ruleset.deck.cards
    table = np.array([c.trump or 0 for c in cards], dtype=np.int64)
    return table[per_row(card, ctx.size)]


def _next_seat(ctx: Ctx, seat: Value) -> Value:
    return (per_row(seat, ctx.size) + 1) % ctx.state.players


def _tricks_won(ctx: Ctx, seat: Value) -> Value:
    rows, seats = _seat_rows(ctx, seat)
    return ctx.state.tricks_won[rows, seats]


def _tricks_played(ctx: Ctx) -> Value:
    return max(ctx.state.trick_number - 1, 0) if ctx.state.total_tricks else 0


def _last_trick_cards(ctx: Ctx) -> Value:
    return Cards((ctx.state.last_trick[ctx.rows],))


def _last_trick_winner(ctx: Ctx) -> Value:
    return ctx.state.last_winner[ctx.rows]


def _hand_number(ctx: Ctx) -> Value:
    return ctx.state.numbers[ctx.rows]


def _total(ctx: Ctx, seat: Value) -> Value:
    rows, seats = _seat_rows(ctx, seat)  # no game to a score: the hand's result so far
    return ctx.state.net[rows, seats]


FACTS: dict[str, Callable[..., Value]] = {
    "hand": _zone("hands"),
    "discards": _zone("discards"),
    "tricks": _zone("won"),
    "played": _zone("played"),
    "pile": _pile,
    "points": _points,
    "opponents": _opponents,
    "declared": _declared,
    "declared_value": _declared_value,
    "trump_number": _trump_number,
    "next_seat": _next_seat,
    "side": _side,
    "side_pile": _pile,
    "side_points": _points,
    "tricks_won": _tricks_won,
    "tricks_played": _tricks_played,
    "last_trick_cards": _last_trick_cards,
    "last_trick_winner": _last_trick_winner,
    "hand_number": _hand_number,
    "total": _total,
}


def fact(name: str) -> Callable[..., Value]:
    if name not in FACTS:
        raise Unsupported(f"the fact {name}() is not kept by the batch back end")
    return FACTS[name]
