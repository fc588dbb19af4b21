"""Unknown keys set aside, so that the part they are written in is still checked.

Pipeline: schema_check -> **unknown_keys** -> options -> semantic_checks (check) -> compile,
run by :mod:`~tarot.compile.loader`. A schema problem leaves its part (one rule, one
definition, a section: :mod:`~tarot.check.broken_parts`) out of every check after the
schema, since whatever they found there could follow from it; a problem in a foundation (the
options, the parameters, the deck, the auction) stops them all. An unknown key is the one
schema problem nothing can follow from: nothing reads it. So a part whose only schema
problems are unknown keys is checked on a copy of the document without them (a misspelt key
is then as if not written; its message names the key meant), and a typo in the deck no
longer hides a wrong expression in the settlement.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from tarot.check.broken_parts import part_of
from tarot.check.schema_check import UNKNOWN_KEY, validation_errors
from tarot.errors import Problem
from tarot.load.yaml_source import value_at

__all__ = ["without_unknown_keys"]

DocPath = tuple[str | int, ...]


def without_unknown_keys(
    data: Any, found: Sequence[tuple[DocPath, Problem]], schema: Mapping[str, Any]
) -> tuple[Any, set[DocPath]] | None:
    """A copy of the document without the unknown keys of the parts that have no other
    schema problem, and those keys' paths; None when there is no such key, or when the copy
    still breaks the schema in one of those parts."""
    other = {part_of(path) for path, problem in found if not _unknown(problem)}
    keys = {
        path for path, problem in found if _unknown(problem) and path and not _within(path, other)
    }
    if not keys:
        return None
    pruned = copy.deepcopy(data)
    for path in keys:
        parent = value_at(pruned, path[:-1])
        if not isinstance(parent, dict) or path[-1] not in parent:
            return None
        del parent[path[-1]]
    parts = {part_of(path) for path in keys}
    if any(
        _within(tuple(error.absolute_path), parts) for error in validation_errors(pruned, schema)
    ):
        return None
    return pruned, keys


def _unknown(problem: Problem) -> bool:
    return problem.message.startswith(UNKNOWN_KEY)


def _within(path: DocPath, parts: set[DocPath]) -> bool:
    """Whether `path` is one of `parts` or inside one (the root part holds everything)."""
    return any(path[: len(part)] == part for part in parts)
