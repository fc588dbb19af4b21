"""State that lasts from hand to hand (`lasting`) as arrays: where each counter's values lie
in a hand's row, the facts that read them, and what a hand of a sitting carries in.

Where it sits: under the batch back end's expressions (`tarot.batch.array_exprs` reads the
facts named after the counters here) and its deal (`tarot.batch.phases.deal` puts a
`Carried` into the hands it deals); the rules that change the values are
`tarot.batch.lasting`. The scalar engine's is `tarot.engine.lasting` (`LastingValues`): here
every counter of a hand is one row of `BatchState.lasting`, a per-seat counter taking one
column per seat, a table's counter or an account one column.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tarot.batch.masks import Ints
from tarot.batch.state import BatchState, Floats
from tarot.batch.values import Ctx, Value, per_row
from tarot.core.ruleset import Ruleset
from tarot.engine.lasting import LastingValues

if TYPE_CHECKING:
    from tarot.batch.program import Program
    from tarot.engine.state import HandState


@dataclass(frozen=True)
class LastingLayout:
    """The columns of each counter: its first, and whether it has one per seat."""

    columns: dict[str, tuple[int, bool]]
    width: int
    players: int

    @staticmethod
    def of(ruleset: Ruleset) -> LastingLayout:
        columns: dict[str, tuple[int, bool]] = {}
        width = 0
        counters = () if ruleset.lasting is None else ruleset.lasting.counters
        for counter in counters:
            columns[counter.name] = (width, counter.per_seat)
            width += ruleset.players if counter.per_seat else 1
        return LastingLayout(columns, width, ruleset.players)

    def start(self, ruleset: Ruleset, lanes: int) -> Floats:
        """The values a sitting starts with, for `lanes` sittings: [lanes, width]."""
        row = np.zeros(self.width)
        counters = () if ruleset.lasting is None else ruleset.lasting.counters
        for counter in counters:
            first, per_seat = self.columns[counter.name]
            row[first : first + (self.players if per_seat else 1)] = float(counter.start)
        return np.repeat(row[None, :], lanes, axis=0)

    def column(self, name: str, seats: Ints | None = None) -> Ints | int:
        """The column of a table's counter, or of each seat's (`seats`) value of one."""
        first, per_seat = self.columns[name]
        if not per_seat:
            return first
        assert seats is not None  # a per-seat counter is read for a seat
        return first + seats

    def values(self, row: np.ndarray) -> LastingValues:
        """One hand's values as the scalar engine keeps them (whole numbers as ints)."""
        seats: dict[str, list] = {}
        table: dict[str, object] = {}
        for name, (first, per_seat) in self.columns.items():
            if per_seat:
                seats[name] = [_number(v) for v in row[first : first + self.players].tolist()]
            else:
                table[name] = _number(float(row[first]))
        return LastingValues(seats, table)  # type: ignore[arg-type]

    def row(self, values: LastingValues) -> np.ndarray:
        """One hand's values as the scalar engine keeps them, as a row."""
        row = np.zeros(self.width)
        for name, (first, per_seat) in self.columns.items():
            if per_seat:
                row[first : first + self.players] = [float(v) for v in values.seats[name]]
            else:
                row[first] = float(values.table[name])
        return row


def carry_lasting(program: Program, batch: BatchState, states: Sequence[HandState]) -> None:
    """The lasting values of scalar hand states taken up by the batch (`batch`, made from
    `states`: the search player's play-outs); nothing without lasting state. The game totals
    before each hand are in its net there, so none are carried apart."""
    if program.lasting is None:
        return
    layout, size = program.lasting.layout, len(states)
    batch.lasting = np.array([layout.row(s.lasting) for s in states]).reshape(size, -1)
    before = [layout.row(s.lasting_before) for s in states]
    batch.lasting_before = np.array(before).reshape(size, -1)
    batch.sitting_over = np.zeros(size, dtype=np.bool_)


def _number(value: float) -> int | float:
    return int(value) if value == int(value) else value


@dataclass(frozen=True)
class Carried:
    """What each hand of a sitting starts from: its game's seed (its draws keyed by it and
    the hand's number), the lasting values the hand before left ([hands, width]) and the
    game totals before it ([hands, seats], in 1/scale as the batch counts payments:
    `BatchState.scale`). A hand played alone has no seed of its own (`seeds` empty: the
    batch's)."""

    seeds: Ints
    lasting: Floats
    totals: Floats
    # [hands, seats]: the hand scores among `totals`, which the running result of the
    # summaries' leaders leaves out (as the scalar summary does); None: none
    scored: Floats | None = None

    def take(self, rows: Ints) -> Carried:
        seeds = self.seeds[rows] if self.seeds.size else self.seeds
        scored = None if self.scored is None else self.scored[rows]
        return Carried(seeds, self.lasting[rows], self.totals[rows], scored)

    def put_into(self, state: BatchState) -> None:
        """The hands of `state` (just dealt) start from these values."""
        state.seeds = self.seeds.copy()
        state.lasting = self.lasting.copy()
        state.lasting_before = self.lasting.copy()
        state.totals_before = self.totals.copy()
        if self.scored is not None:
            state.scored = self.scored.copy()
        state.sitting_over = np.zeros(state.size, dtype=np.bool_)


def lasting_facts(ruleset: Ruleset) -> dict[str, Callable[..., Value]]:
    """A fact for each counter, read from the hands' rows: NAME(seat) per seat (0 for a
    value that is no seat), NAME() for the table's counters and the accounts."""
    layout = LastingLayout.of(ruleset)
    facts: dict[str, Callable[..., Value]] = {}
    for name, (first, per_seat) in layout.columns.items():
        facts[name] = _per_seat(first, layout.players) if per_seat else _of_table(first)
    return facts


def _per_seat(first: int, players: int) -> Callable[..., Value]:
    def read(ctx: Ctx, seat: Value) -> Value:
        seats = per_row(np.asarray(seat), ctx.size).astype(np.int64)
        real = (seats >= 0) & (seats < players)
        values = ctx.state.lasting[ctx.rows, first + np.clip(seats, 0, players - 1)]
        return np.where(real, values, 0.0)

    return read


def _of_table(column: int) -> Callable[..., Value]:
    def read(ctx: Ctx) -> Value:
        return ctx.state.lasting[ctx.rows, column]

    return read
