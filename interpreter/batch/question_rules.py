"""The questions asked during play (`questions`) as array code: who may ask each, the cards
it asks about, whether it may be asked in the hand.

Where it sits: compiled once per ruleset with the rest of its `Program` (`ArrayHand`,
`tarot.batch.program`), raising `Unsupported` naming the key it cannot compile, and read by
the batch's questions (`tarot.batch.phases.questions`). The scalar engine reads the same
keys from `Ruleset.questions` in `tarot.engine.phases.ask`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarot.batch.array_exprs import ArrayCompiler, Node
from tarot.batch.values import Unsupported
from tarot.core.ruleset import PlayQuestion


@dataclass(frozen=True)
class ArrayQuestion:
    id: str
    before_trick: int  # asked before this trick (from 1) is led
    by: Node  # the seats that may ask it, in order of play from the leader
    cards: Node  # the cards asked about
    when: Node | None  # whether it may be asked in the hand (None: always)


def compile_questions(
    compiler: ArrayCompiler, questions: tuple[PlayQuestion, ...]
) -> tuple[ArrayQuestion, ...]:
    """Each of the ruleset's questions during play as array code."""
    found = []
    for i, question in enumerate(questions):

        def compiled(key: str, expression: object, i: int = i) -> Node:
            try:
                return compiler.expression(expression, "play")
            except Unsupported as error:
                raise Unsupported(f"questions[{i}].{key}: {error}") from None

        when = None if question.when is None else compiled("when", question.when)
        found.append(
            ArrayQuestion(
                question.id,
                question.before_trick,
                compiled("by", question.by),
                compiled("cards", question.cards),
                when,
            )
        )
    return tuple(found)
