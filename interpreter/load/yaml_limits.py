"""The bounds on what one ruleset file may hold, checked while it is read.

Pipeline: used by :mod:`~tarot.load.yaml_source` (stage 1, load) before any value is
built, so that a file written to exhaust the tool (aliases of aliases that would expand to
billions of values, nesting thousands deep, a thousand-digit number, ``.inf``) is refused at
once with the place where it goes past the bound.

The bounds are far above what any built-in ruleset needs (the largest is under 20 KB, holds
under 1,000 values nested 8 deep, and its largest number is 400):

* :data:`MAX_FILE_BYTES`: the size of the file;
* :data:`MAX_DEPTH`: mappings and lists inside each other;
* :data:`MAX_VALUES`: values in the document once every alias (``*name``) is expanded, so an
  alias counts as many values as the thing it repeats;
* :data:`MAX_MAGNITUDE`: every number, in absolute value; numbers must also be finite.

Bounds that JSON Schema can state (player counts, deal steps, hand limits...) are in
``schemas/ruleset.schema.json`` instead.
"""

from __future__ import annotations

import math
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.nodes import Node
from yaml.resolver import Resolver

from tarot.load.yaml_core import CORE_RESOLVERS

try:
    from yaml._yaml import CParser as _CParser
except ImportError:  # PyYAML built without libyaml
    _CParser = None

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_MAGNITUDE",
    "MAX_NUMBER_TEXT",
    "MAX_VALUES",
    "BoundedLoader",
    "FastBoundedLoader",
    "LimitExceeded",
    "number_problem",
]

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 50
MAX_VALUES = 50_000
MAX_MAGNITUDE = 1_000_000_000
#: Longer number texts are refused before they are converted (Python refuses to convert
#: integers of more than 4,300 digits, and converting long ones is slow).
MAX_NUMBER_TEXT = 40


class LimitExceeded(Exception):
    """A bound was passed at ``mark`` (a PyYAML mark); ``message`` says which."""

    def __init__(self, mark: Any, message: str) -> None:
        super().__init__(message)
        self.mark = mark
        self.message = message


class _Budget(Composer):
    """PyYAML's composer under a budget of depth and values, whichever parser feeds it.

    An alias does not copy anything in the graph, but whoever builds plain values from it
    does: the size each node would expand to is known once it is composed, so an alias that
    would take the document past :data:`MAX_VALUES` is refused where it is written, before
    anything is expanded.
    """

    def _start_budget(self) -> None:
        self._depth = 0
        self._values = 0
        self._expanded_size: dict[int, int] = {}

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        if self.check_event(AliasEvent):
            event = self.peek_event()
            target = self.anchors.get(event.anchor)
            # a node still being composed (a recursive alias) counts once; the builder
            # refuses it by name
            size = 1 if target is None else self._expanded_size.get(id(target), 1)
            self._count(size, event.start_mark, f"the alias *{event.anchor}")
            return super().compose_node(parent, index)
        start_mark = self.peek_event().start_mark
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise LimitExceeded(
                start_mark,
                f"the document is nested too deeply: more than {MAX_DEPTH} mappings and "
                "lists inside each other",
            )
        before = self._values
        self._count(1, start_mark, "this value")
        node = super().compose_node(parent, index)
        self._depth -= 1
        self._expanded_size[id(node)] = self._values - before
        return node

    def _count(self, size: int, mark: Any, what: str) -> None:
        self._values += size
        if self._values > MAX_VALUES:
            repeats = f" ({what} repeats {size:,} values)" if size > 1 else ""
            raise LimitExceeded(
                mark,
                f"the document holds more than {MAX_VALUES:,} values once its aliases are "
                f"expanded{repeats}; a ruleset needs far fewer",
            )


class BoundedLoader(_Budget, yaml.SafeLoader):
    """PyYAML's pure-Python safe loader composing the node graph under the budget, reading
    plain scalars as YAML 1.2 does (:mod:`~tarot.load.yaml_core`)."""

    yaml_implicit_resolvers = CORE_RESOLVERS

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._start_budget()


if _CParser is not None:

    class FastBoundedLoader(_Budget, _CParser, SafeConstructor, Resolver):
        """The same composer and budget fed by libyaml's scanner and parser (much faster than
        the pure ones): libyaml only cuts the text into events, so nesting is
        still counted before anything deeper is composed."""

        yaml_implicit_resolvers = CORE_RESOLVERS

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            Composer.__init__(self)
            self._start_budget()

else:  # PyYAML built without libyaml
    FastBoundedLoader = None  # type: ignore[misc,assignment]  # callers test for None


def number_problem(text: str, value: Any = None) -> str | None:
    """What is wrong with a number written ``text`` in a ruleset (read as ``value``, when it
    could be), or None if it is within bounds."""
    if len(text) > MAX_NUMBER_TEXT:
        return (
            f"a number written with {len(text):,} characters is too long; numbers in a "
            f"ruleset are at most {MAX_MAGNITUDE:,} in size"
        )
    if isinstance(value, float) and math.isnan(value):
        return f"{text!r} is not a number; write a number (e.g. 0)"
    if isinstance(value, float) and math.isinf(value):
        return f"{text!r} is not a finite number; numbers in a ruleset are finite"
    if isinstance(value, int | float) and abs(value) > MAX_MAGNITUDE:
        return f"{text} is too large: numbers in a ruleset are at most {MAX_MAGNITUDE:,} in size"
    return None
