"""The announcements' rules as array code: who speaks first, and for each bonus whether it
may be announced, by whom, and the cards its announcer keeps for the last trick; and the
seats to whom the announcements reopen after a bonus announced.

Where it sits: compiled once per ruleset with the rest of its `Program`
(`tarot.batch.program`), raising `Unsupported` naming the key it cannot compile, and read
by the batch's announcements (`tarot.batch.phases.announce`). The scalar engine reads the
same keys from `Ruleset.announcements` in `tarot.engine.phases.announce`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarot.batch.array_exprs import ArrayCompiler, Node
from tarot.batch.values import Unsupported
from tarot.core.ruleset import Announcements


@dataclass(frozen=True)
class ArrayBonus:
    id: str
    when: Node  # whether `player` may announce it
    by: Node | None  # the seats that may announce it (None: every seat)
    keeps: Node | None  # the cards its announcer keeps for the last trick


@dataclass(frozen=True)
class ArrayAnnouncements:
    first: Node | None  # the seat that speaks first (None: the taker, else the dealer's next)
    table: tuple[ArrayBonus, ...]
    until_all_pass: bool  # the turn comes round again after each thing said
    reopen: Node | None = None  # after a bonus announced: the seats that speak again


def compile_announcements(
    compiler: ArrayCompiler, section: Announcements | None
) -> ArrayAnnouncements | None:
    """The ruleset's announcements as array code (None without them)."""
    if section is None:
        return None

    def compiled(where: str, expression: object, event: str) -> Node:
        try:
            return compiler.expression(expression, event)
        except Unsupported as error:
            raise Unsupported(f"{where}: {error}") from None

    def optional(where: str, expression: object | None) -> Node | None:
        return None if expression is None else compiled(where, expression, "announcement")

    table = tuple(
        ArrayBonus(
            bonus.id,
            compiled(f"announcements.table[{i}].when", bonus.when, "announcement"),
            optional(f"announcements.table[{i}].by", bonus.by),
            optional(f"announcements.table[{i}].keeps", bonus.keeps),
        )
        for i, bonus in enumerate(section.table)
    )
    first = (
        None if section.first is None else compiled("announcements.first", section.first, "talon")
    )
    reopen = (
        None
        if section.reopen is None
        else compiled("announcements.reopen", section.reopen, "announcement")
    )
    return ArrayAnnouncements(first, table, section.rounds == "until_all_pass", reopen)
