"""Sides set by rule (`play.sides`, the ruleset's or its contract's): the seats that share
each seat's tricks, worked out for every hand when the hand reaches the step that settles
its play rules.

Where it sits: called by the batch runner (`tarot.batch.run`) before each step of the flow
from that step on, for the hands whose sides are not yet worked out; the scalar engine's is
`tarot.engine.sides`. The table is kept in the state (`BatchState.side_table`, [hands, seats,
seats]: each seat's side) and read by `BatchState.sides` (the Fool's exchange, `side()`,
`side_pile()`, `side_points()`) and by the hands' summaries, as `HandState.side_of` is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tarot.batch.array_exprs import ArrayCompiler, Node, typed_tree
from tarot.batch.masks import Bools
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, Unsupported, seat_mask
from tarot.core.ruleset import Ruleset, SideRule
from tarot.expressions import EvaluationError, Type

if TYPE_CHECKING:
    from tarot.batch.contract_play import ContractPlays


def compile_sides(compiler: ArrayCompiler, rule: SideRule) -> Node:
    """A set of play rules' `sides` as array code, its seat under the rule's own name
    (Unsupported, which the caller names, when it cannot be)."""
    tree = typed_tree(rule.value)
    if tree is None:
        raise Unsupported("an expression the batch back end cannot read")
    return compiler.run(tree, {**compiler.names("sides"), rule.seat: Type.SEAT})


def settles_at(ruleset: Ruleset) -> int:
    """The index of the flow's step that settles the play rules (past the last: none)."""
    return next((i for i, step in enumerate(ruleset.flow) if step.settles_play), len(ruleset.flow))


def settle(plays: ContractPlays, state: BatchState, taking: Bools) -> None:
    """Each seat's side worked out for the hands `taking` whose sides are not yet known,
    by the rule of the play rules each hand plays under (its contract's); an
    EvaluationError naming the rule when the answers do not split the table into sides."""
    open_ = np.flatnonzero(taking & ~state.side_table[:, 0, 0])
    if not len(open_):
        return
    for play, group in plays.groups(state.contract[open_]):
        if play.sides is not None:
            assert play.rules.sides is not None  # compiled from it
            _settle(play.sides, play.rules.sides, state, open_[group])


def _settle(rule: Node, written: SideRule, state: BatchState, rows: np.ndarray) -> None:
    seat_name, n = written.seat, state.players
    names = state.names(rows)
    table = np.stack(
        [
            seat_mask(
                rule.fn(Ctx(state, rows, {**names, seat_name: np.full(len(rows), seat)})),
                len(rows),
                n,
            )
            for seat in range(n)
        ],
        axis=1,
    )  # [rows, seats, seats]
    _check(state, rows, table, written)
    state.side_table[rows] = table


def _check(state: BatchState, rows: np.ndarray, table: Bools, written: SideRule) -> None:
    """The scalar engine's check: each seat in its own side, and every seat of a side giving
    the same side."""
    n = state.players
    own = table[:, np.arange(n), np.arange(n)]  # [rows, seats]
    same = (table[:, :, None, :] == table[:, None, :, :]).all(axis=3)  # [rows, seat, other]
    broken = ~own | (table & ~same).any(axis=2)
    if not broken.any():
        return
    row, seat = (int(i) for i in np.argwhere(broken)[0])
    side = np.flatnonzero(table[row, seat]).tolist()
    if not own[row, seat]:
        problem = f"seat {seat}'s side {side} does not hold seat {seat}"
    else:
        other = int(np.flatnonzero(table[row, seat] & ~same[row, seat])[0])
        problem = (
            f"seat {seat}'s side is {side} but seat {other}'s is"
            f" {np.flatnonzero(table[row, other]).tolist()}: every seat of a side must give"
            " the same side"
        )
    error = EvaluationError(f"`sides` does not split the seats into sides: {problem}")
    error.where = getattr(written.value, "where", "")
    error.hand = int(state.numbers[rows[row]])
    raise error
