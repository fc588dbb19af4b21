"""The play rules' exceptions to who wins a trick (`play.winner_exceptions`) as array code.

Where it sits: compiled once per ruleset with the rest of its `Program`
(`tarot.batch.program`), raising `Unsupported` naming the exception it cannot compile, and
read by the batch's trick play (`tarot.batch.phases.exceptions`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tarot.batch.array_exprs import ArrayCompiler, Node
from tarot.batch.values import Unsupported
from tarot.core.ruleset import PlayRules


@dataclass(frozen=True)
class ArrayException:
    """A trick won by another card than the trick rules say: when `when` holds, the seat
    that played the first card of `wins` takes it."""

    id: str
    when: Node
    wins: Node


def compile_exceptions(
    compiler: ArrayCompiler, play: PlayRules, where: str = "play"
) -> tuple[ArrayException, ...]:
    """The play rules' winner exceptions (written at `where`), in order, as array code."""
    found = []
    for i, exception in enumerate(play.winner_exceptions):
        try:
            found.append(
                ArrayException(
                    exception.id,
                    compiler.expression(exception.when, "trick_won"),
                    compiler.expression(exception.wins, "trick_won"),
                )
            )
        except Unsupported as error:
            raise Unsupported(f"{where}.winner_exceptions[{i}]: {error}") from None
    return tuple(found)
