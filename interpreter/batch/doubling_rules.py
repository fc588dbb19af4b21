"""The doublings' rules as array code: for each target, whether it may be doubled in the hand
and the seats that make its first doubling and those that answer it.

Where it sits: compiled once per ruleset with the rest of its `Program`
(`tarot.batch.program`), raising `Unsupported` naming the key it cannot compile, and read
by the batch's doublings (`tarot.batch.phases.double`). The scalar engine reads the same
keys from `Ruleset.doubling` in `tarot.engine.phases.doubling`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarot.batch.array_exprs import ArrayCompiler, Node
from tarot.batch.values import Unsupported
from tarot.core.ruleset import Announcements, Doubling


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
