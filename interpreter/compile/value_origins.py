"""Where the values an expression reads were written: the user's line behind a wrong value.

Where it sits: called by `ruleset_compiler` when an expression does not compile. A variant
(`extends:`) may change only a value, an option's reading or a parameter, that an expression
of its base reads (`option.NAME`, `param.NAME`); the expression then fails in the base's
file, a line the user never wrote. `value_origins` names the option readings and parameters
the expression reads whose values come from another file than the expression's (the
variant's lines, by the provenance of every value, `load.inheritance`), so that the problem
is reported there first, then at the base's line that reads it. Only the values read by
the part of the expression the problem points at are named (an unknown name beside an
`option.NAME` is no fault of the option's value).
"""

from __future__ import annotations

import json

from lark import Token, Tree

from tarot.check.draft import Draft
from tarot.check.options import Readings
from tarot.errors import Position
from tarot.expressions.parser import parse


def _names_read(text: str, line: int = 1, column: int = 1) -> tuple[set[str], set[str]]:
    """The options (`option.NAME`) and parameters (`param.NAME`) an expression names in its
    largest part that begins at (`line`, `column`): the whole of it where no part does."""
    tree = parse(text, positions=True)
    pointed = next(
        (
            node
            for node in tree.iter_subtrees_topdown()
            if not node.meta.empty and (node.meta.line, node.meta.column) == (line, column)
        ),
        None,
    )
    if pointed is None and not any(
        isinstance(token, Token) and (token.line, token.column) == (line, column)
        for token in tree.scan_values(lambda value: isinstance(value, Token))
    ):
        pointed = tree
    options: set[str] = set()
    params: set[str] = set()
    for node in pointed.iter_subtrees() if pointed is not None else ():
        if not isinstance(node, Tree) or node.data != "dotted" or len(node.children) != 2:
            continue
        head, name = node.children
        if isinstance(head, Token) and isinstance(name, Token):
            if head == "option":
                options.add(str(name))
            elif head == "param":
                params.add(str(name))
    return options, params


def value_origins(
    draft: Draft,
    readings: Readings,
    text: str,
    reader: Position | None,
    line: int = 1,
    column: int = 1,
) -> list[tuple[tuple, str, Position]]:
    """(path, what it says, position) of each option reading in force and parameter that the
    expression `text` (written at `reader`) reads, in the part of it where its problem is (at
    `line`, `column` of the text), and that another file wrote: the value itself, or for a
    value written beside the expression, the choice of its reading."""
    if reader is None:
        return []
    try:
        options, params = _names_read(text, line, column)
    except Exception:  # noqa: BLE001 - a text that does not parse has no values to blame
        return []
    found: list[tuple[tuple, str, Position | None]] = []
    for name in sorted(options):
        reading = readings.chosen.get(name)
        if reading is None:
            continue
        path: tuple = ("options", name, "readings", reading, "value")
        at = draft.at(path)
        value = json.dumps(readings.values.get(name))
        if at is not None and at.file != reader.file:
            found.append((path, f"{value} (option {name}, reading {reading})", at))
            continue
        choice: tuple = ("options", name, "default")
        found.append((choice, f"the reading {reading} (its value {value})", draft.at(choice)))
    for name in sorted(params):
        path = ("parameters", name, "value")
        value = json.dumps(readings.params.get(name))
        found.append((path, f"{value} (parameter {name})", draft.at(path)))
    return [
        (path, said, position)
        for path, said, position in found
        if position is not None and position.file != reader.file
    ]
