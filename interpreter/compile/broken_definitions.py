"""Definitions that cannot be used, and the rules that use them: each mistake said once.

Where it sits: kept by `ruleset_compiler` while it compiles. A definition whose own text is
wrong (a schema problem, a name refused, an expression that does not compile) is reported
where it is written; every expression that names it is then reported as using a broken
definition, at the place of the name, instead of being compiled against a ruleset that lacks
the definition (which would say "unknown name" and suggest another name, once for every use).
A definition that uses a broken one is broken in turn, so a chain is followed to its start.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from lark import Token, Tree

from tarot.errors import Position
from tarot.expressions import ExpressionError
from tarot.expressions.parser import parse

__all__ = ["BrokenDefinitions"]


class BrokenDefinitions:
    """The ruleset's definitions that cannot be used, each with where its problem is."""

    def __init__(self) -> None:
        self._where: dict[str, Position | None] = {}

    def __bool__(self) -> bool:
        return bool(self._where)

    def add(self, name: str, where: Position | None) -> None:
        """`name` cannot be used; its problem is reported at `where`."""
        self._where.setdefault(name, where)

    def first_use(self, text: str, known: Collection[str]) -> tuple[str, int, int] | None:
        """The first broken definition the expression `text` names, with the line and column
        of the name in the text; None when it names none. Names in `known` mean something
        else where the expression stands (a context name, a card set, a fact) and are not
        uses. A text that does not parse names none: its own problem is reported instead."""
        try:
            tree = parse(text, positions=True)
        except ExpressionError:
            return None
        for token in _names(tree):
            name = str(token)
            if name in self._where and name not in known:
                return name, token.line or 1, token.column or 1
        return None

    def message(self, name: str, here: str | None = None) -> str:
        """What a rule that names the broken definition `name` is told, the rule standing in
        the file `here` (a place in the same file is given by its line alone)."""
        where = self._where.get(name)
        place = ""
        if where is not None and where.line <= 0:
            place = f" in {where.file}"
        elif where is not None:
            place = f" at line {where.line}" if where.file == here else f" at {where}"
        return (
            f"uses the definition {name!r}, which has a problem of its own (reported{place});"
            " fix that one first"
        )


def _names(tree: Tree) -> Iterator[Token]:
    """The names an expression's tree reads or calls, in the order they are written (not the
    NAME of `option.NAME`, `param.NAME` or `contract.NAME`)."""
    for child in tree.children:
        if isinstance(child, Tree):
            yield from _names(child)
        elif (
            isinstance(child, Token)
            and child.type == "NAME"
            and tree.data != "dotted"
            and (tree.data != "aggregate" or child is not tree.children[0])
        ):
            yield child
