"""Where the values an expression reads were written: the user's line behind a wrong value.

Where it sits: called by `ruleset_compiler` when an expression does not compile. A variant
(`extends:`) may change only a value, an option's reading or a parameter, that an expression
of its base reads (`option.NAME`, `param.NAME`); the expression then fails in the base's
file, a line the user never wrote. `value_origins` names the option readings and parameters
the expression reads whose values come from another file than the expression's (the
variant's lines, by the provenance of every value, `load.inheritance`), so that the problem
is reported there first, then at the base's line that reads it.
"""

from __future__ import annotations

import json

from lark import Token, Tree

from tarot.check.draft import Draft
from tarot.check.options import Readings
from tarot.errors import Position
from tarot.expressions.parser import parse


def _names_read(text: str) -> tuple[set[str], set[str]]:
    """The options (`option.NAME`) and parameters (`param.NAME`) an expression names."""
    options: set[str] = set()
    params: set[str] = set()
    for node in parse(text).iter_subtrees():
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
    draft: Draft, readings: Readings, text: str, reader: Position | None
) -> list[tuple[tuple, str, Position]]:
    """(path, what it says, position) of each option reading in force and parameter that the
    expression `text` (written at `reader`) reads and that another file wrote: the value
    itself, or for a value written beside the expression, the choice of its reading."""
    if reader is None:
        return []
    try:
        options, params = _names_read(text)
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
