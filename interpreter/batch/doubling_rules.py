"""The doublings' rules as array code: for each target, whether it may be doubled in the hand
and the seats that make its first doubling and those that answer it; past the named steps,
how far the doublings may go (`doubling.repeat`: `next_allowed`).

Where it sits: compiled once per ruleset with the rest of its `Program`
(`tarot.batch.program`), raising `Unsupported` naming the key it cannot compile, and read
by the batch's doublings (`tarot.batch.phases.double`). The scalar engine reads the same
keys from `Ruleset.doubling` in `tarot.engine.phases.doubling`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tarot.batch.array_exprs import ArrayCompiler, Node
from tarot.batch.masks import Bools, Ints, distinct
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, Unsupported, per_row
from tarot.core.ruleset import Announcements, Doubling
from tarot.expressions.builtins import MAX_NUMBER


@dataclass(frozen=True)
class ArrayTarget:
    id: str
    when: Node  # whether it may be doubled in the hand
    by: Node | None  # the seats making the first doubling (None: its announcer's opponents)
    against: Node | None  # the seats answering it (None: every other seat)
    bonus: int  # the index of the announcement it is tied to (-1: none)


def compile_doubling(
    compiler: ArrayCompiler, doubling: Doubling | None, announcements: Announcements | None
) -> tuple[ArrayTarget, ...]:
    """The ruleset's doubling targets as array code, in order (none without `doubling`)."""
    if doubling is None:
        return ()
    bonuses = [] if announcements is None else [b.id for b in announcements.table]

    def optional(where: str, expression: object | None) -> Node | None:
        if expression is None:
            return None
        try:
            return compiler.expression(expression, "doubling")
        except Unsupported as error:
            raise Unsupported(f"{where}: {error}") from None

    found = []
    for i, target in enumerate(doubling.targets):
        where = f"doubling.targets[{i}]"
        when = optional(f"{where}.when", target.when)
        assert when is not None  # every target has its condition (true by default)
        tied = target.announcement
        found.append(
            ArrayTarget(
                target.id,
                when,
                optional(f"{where}.by", target.by),
                optional(f"{where}.against", target.against),
                -1 if tied is None else bonuses.index(tied),
            )
        )
    return tuple(found)


def compile_limit(compiler: ArrayCompiler, doubling: Doubling | None) -> Node | None:
    """`doubling.repeat.limit` as array code: the most doublings a target may have in all
    (None: no such limit)."""
    if doubling is None or doubling.limit is None:
        return None
    try:
        return compiler.expression(doubling.limit, "doubling")
    except Unsupported as error:
        raise Unsupported(f"doubling.repeat.limit: {error}") from None


def next_allowed(limit: Node | None, state: BatchState, rows: Ints, targets: Ints) -> Bools:
    """Whether each hand of `rows` may double its target once more, as the scalar engine's
    `next_step` says: within `repeat.limit`, and within the named steps or, with `repeat`,
    while the multiplier stays within the numbers' range."""
    doubling = state.ruleset.doubling
    assert doubling is not None  # doublings are asked about only with a `doubling` section
    made = state.doubled[rows, targets]
    allowed = made < len(doubling.steps)
    if doubling.repeat is not None:
        size = doubling.factor if doubling.factor >= 0 else -doubling.factor
        beyond = [m for m in distinct(made) if size ** (m + 1) <= MAX_NUMBER]
        allowed |= np.isin(made, beyond)
    if limit is not None and len(rows):
        ctx = Ctx(state, rows, state.names(rows))
        allowed &= made < per_row(limit.fn(ctx), len(rows))
    return allowed


def step_name(doubling: Doubling, level: int) -> str:
    """The name of a target's doubling after `level` of them: a named step, then the
    repeated one."""
    if level < len(doubling.steps):
        return doubling.steps[level]
    assert doubling.repeat is not None  # past the steps only with `repeat`
    return doubling.repeat
