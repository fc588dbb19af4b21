"""The rules of state that lasts from hand to hand (`lasting`), for every hand of a batch at
once: transfers into and out of the accounts after the deal, after each trick and at the
settlement, the counters' changes once a hand is played out, and the transfers made when
the sitting ends.

Where it sits: compiled with the rest of a ruleset (`tarot.batch.program` keeps an
`ArrayLasting`) and run by the batch phases (the deal, the end of each trick, the
settlement); the values are read through `tarot.batch.lasting_values`. The scalar engine's
is `tarot.engine.lasting`, which this follows move for move: every amount of one transfer
(and every value of one change) is worked out before any is applied, a transfer pays a
seat's amount into the account (or out of it, to the seat) and out of (into) the seat's
result, and an amount of 0 moves nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from tarot.batch.array_exprs import ArrayCompiler, Node
from tarot.batch.lasting_values import LastingLayout
from tarot.batch.masks import Ints
from tarot.batch.scaled_amounts import exactly_unscaled
from tarot.batch.state import BatchState, Logged
from tarot.batch.values import Ctx, Unsupported, Value, per_row, seat_mask
from tarot.core.ruleset import CounterChange, Ruleset, Transfer
from tarot.engine.lasting import SITTING_END, TRICK

T = TypeVar("T")

#: by a transfer's moment, the events its seats and its own expressions are compiled at
#: (`compile.lasting_compiler`: the settlement's otherwise)
_EVENTS = {
    "deal": ("lasting_deal", "lasting_deal_seat"),
    "trick": ("lasting_trick", "lasting_trick_seat"),
}


@dataclass(frozen=True)
class ArrayTransfer:
    key: str  # the rule's id, what `fired` and `paid` count it under
    account: str
    column: int  # the account's column (`LastingLayout`)
    at: str
    seats: Node
    pays_in: bool
    when: Node | None
    amount: Node


@dataclass(frozen=True)
class ArrayChange:
    counter: str
    seats: Node | None  # None: a table's counter
    when: Node | None
    value: Node
    adds: bool


@dataclass(frozen=True)
class ArrayLasting:
    layout: LastingLayout
    changes: tuple[ArrayChange, ...]
    transfers: tuple[ArrayTransfer, ...]
    ends_when: Node | None  # the game's end (a sitting), read once a hand is over
    winners: Node | None  # who has won it then: a sitting goes on while nobody has

    def at(self, moment: str) -> tuple[ArrayTransfer, ...]:
        return tuple(t for t in self.transfers if t.at == moment)

    @property
    def keys(self) -> list[str]:
        """What the transfers are counted under: their ids."""
        return [t.key for t in self.transfers]


def compile_lasting(
    compiler: ArrayCompiler, ruleset: Ruleset, scale: int = 1
) -> ArrayLasting | None:
    """The ruleset's lasting rules as arrays (None without a `lasting` section), the
    transfers' amounts counted in 1/`scale` as payments are (`BatchState.scale`)."""
    rules = ruleset.lasting
    if rules is None:
        return None
    layout = LastingLayout.of(ruleset)
    game = ruleset.game
    if game is not None and game.claim is not None:
        raise Unsupported("game.claim_during_play with lasting state (a sitting's claim)")
    ends_when = winners = None
    if game is not None:
        ends_when = _named("game.ends_when", lambda: compiler.expression(game.ends_when, "game"))
        winners = _named("game.winners", lambda: compiler.expression(game.winners, "game"))
    return ArrayLasting(
        layout,
        tuple(_change(compiler, change) for change in rules.changes),
        tuple(_transfer(compiler, layout, transfer, scale) for transfer in rules.transfers),
        ends_when,
        winners,
    )


def _named(where: str, build: Callable[[], T]) -> T:
    """What `build` makes, or Unsupported naming `where`."""
    try:
        return build()
    except Unsupported as error:
        raise Unsupported(f"{where}: {error}") from None


def _change(compiler: ArrayCompiler, change: CounterChange) -> ArrayChange:
    event = "lasting" if change.seats is None else "lasting_seat"

    def build() -> ArrayChange:
        return ArrayChange(
            change.counter,
            None if change.seats is None else compiler.expression(change.seats, "lasting"),
            None if change.when is None else compiler.expression(change.when, event),
            compiler.expression(change.value, event),
            change.adds,
        )

    return _named(f"lasting change {change.id}", build)


def _transfer(
    compiler: ArrayCompiler, layout: LastingLayout, transfer: Transfer, scale: int
) -> ArrayTransfer:
    seats_event, event = _EVENTS.get(transfer.at, ("lasting", "lasting_seat"))

    def build() -> ArrayTransfer:
        column = layout.column(transfer.account)
        assert isinstance(column, int)  # an account is a table's counter
        return ArrayTransfer(
            transfer.id,
            transfer.account,
            column,
            transfer.at,
            compiler.expression(transfer.seats, seats_event),
            transfer.pays_in,
            None if transfer.when is None else compiler.expression(transfer.when, event),
            compiler.expression(transfer.amount, event, scale=scale),
        )

    return _named(f"lasting transfer {transfer.id}", build)


def pay_transfers(
    lasting: ArrayLasting,
    state: BatchState,
    moment: str,
    rows: Ints,
    variables: dict[str, Value],
) -> None:
    """The transfers of `moment` for the hands `rows`, in the ruleset's order; `variables`:
    the names their expressions see besides the hand's (at a trick: the trick's)."""
    n = state.players
    trick = state.trick_number if moment == TRICK else 0
    for transfer in lasting.at(moment):
        if not len(rows):
            return
        ctx = Ctx(state, rows, {**state.names(rows), **variables})
        seats = seat_mask(transfer.seats.fn(ctx), len(rows), n)
        amounts = np.zeros((len(rows), n))
        for seat, at, amount in _each_seat(ctx, seats, transfer.when, transfer.amount):
            amounts[at, seat] = amount
        signed = amounts if transfer.pays_in else -amounts
        moved = signed != 0
        if not moved.any():
            continue
        # the amounts are counted in 1/scale, as the net; the account as expressions read it
        into = exactly_unscaled(
            signed.sum(axis=1), state.scale, f"a transfer into {transfer.account}"
        )
        state.lasting[rows, transfer.column] += into
        state.net[rows] -= signed
        state.lead_changed(rows)
        column = state.rule_keys[transfer.key]
        state.paid[rows, column] += np.abs(signed).sum(axis=1)
        state.fired[rows[moved.any(axis=1)], column] += 1
        if state.logging:
            for seat in range(n):
                where = np.flatnonzero(moved[:, seat])
                if len(where):
                    what = (transfer.key, seat, transfer.account, signed[where, seat], moment)
                    state.transfer_log.append(Logged(rows[where], (*what, trick)))


def _apply_changes(lasting: ArrayLasting, state: BatchState, rows: Ints, names: dict) -> None:
    """The counter changes, in order, at the end of the hands `rows` played out."""
    layout, n = lasting.layout, state.players
    for change in lasting.changes:
        ctx = Ctx(state, rows, names)
        first, per_seat = layout.columns[change.counter]
        if change.seats is None:
            at = rows
            holds = _holds(change.when, ctx)
            if holds is not None:
                ctx, at = ctx.subset(holds), rows[holds]
            value = per_row(change.value.fn(ctx), len(at))
            state.lasting[at, first] = state.lasting[at, first] + value if change.adds else value
            continue
        seats = seat_mask(change.seats.fn(ctx), len(rows), n)
        old = state.lasting[rows, first : first + n]
        new = old.copy()
        for seat, at, value in _each_seat(ctx, seats, change.when, change.value):
            new[at, seat] = old[at, seat] + value if change.adds else value
        state.lasting[rows, first : first + n] = new


def _each_seat(
    ctx: Ctx, seats: np.ndarray, when: Node | None, value: Node
) -> Iterator[tuple[int, Ints, np.ndarray]]:
    """For each seat `seats` ([hands, seats]) selects in some hands of `ctx`, `player`
    standing for it: the hands (as places in `ctx`) where `when` holds, and `value` worked
    out for them alone (as the scalar engine works it out only where the rule holds)."""
    for seat in range(seats.shape[1]):
        chosen = seats[:, seat]
        if not chosen.any():
            continue
        sub = ctx.subset(chosen).with_vars(player=np.full(int(chosen.sum()), seat))
        at = np.flatnonzero(chosen)
        holds = _holds(when, sub)
        if holds is not None:
            sub, at = sub.subset(holds), at[holds]
        yield seat, at, per_row(value.fn(sub), sub.size)


def _holds(when: Node | None, ctx: Ctx) -> np.ndarray | None:
    """Where a rule's condition holds among the hands of `ctx` (None: everywhere)."""
    if when is None:
        return None
    holds = per_row(when.fn(ctx), ctx.size).astype(np.bool_)
    return None if holds.all() else holds


def close_hands(lasting: ArrayLasting, state: BatchState, names: dict) -> None:
    """After the settlement of every hand of `state`, played out: the settlement's
    transfers, the counter changes, and where the sitting ends with the hand (the sitting's
    end pays), its own transfers (`engine.lasting.close_hand`)."""
    rows = np.arange(state.size)
    pay_transfers(lasting, state, "settlement", rows, {})
    _apply_changes(lasting, state, rows, names)
    if lasting.ends_when is not None and lasting.at(SITTING_END):
        over = per_row(lasting.ends_when.fn(Ctx(state, rows, names)), state.size)
        state.sitting_over[rows] = over.astype(np.bool_)
        pay_transfers(lasting, state, SITTING_END, rows[state.sitting_over[rows]], {})


def game_over(lasting: ArrayLasting, state: BatchState) -> np.ndarray:
    """Whether the game has ended with each hand of `state`, finished, and somebody has
    won it (`engine.game.game_winners`): its end as worked out where the sitting's end pays,
    else the game's `ends_when` now."""
    assert lasting.ends_when is not None and lasting.winners is not None  # a sitting asks
    rows = np.arange(state.size)
    ctx = Ctx(state, rows, state.names(rows))
    over = per_row(lasting.ends_when.fn(ctx), state.size).astype(np.bool_)
    if lasting.at(SITTING_END):
        closed = ~state.thrown  # a hand thrown in is not settled: nothing was worked out
        over = np.where(closed, state.sitting_over, over)
    won = seat_mask(lasting.winners.fn(ctx), state.size, state.players).any(axis=1)
    return over & won
