"""The ruleset being loaded, as the check and compile stages share it.

Pipeline: made by :mod:`~tarot.compile.loader` from the merged document of
:mod:`~tarot.load.inheritance` and the problems of
:mod:`~tarot.check.schema_check`; then read and added to by
:mod:`~tarot.check.options`, :mod:`~tarot.check.semantic_checks` and
:mod:`~tarot.compile.ruleset_compiler`. A problem found by any stage is kept here with
its file position, so that `tarot validate` reports every stage's problems in one run, and
the part it is in is left out of the checks that follow (:mod:`~tarot.check.broken_parts`).
"""

from __future__ import annotations

import copy
from pathlib import Path

from tarot.check.broken_parts import BrokenParts
from tarot.errors import Position, Problem, json_path
from tarot.load.inheritance import MergedDocument

__all__ = ["Draft"]


class Draft:
    """The merged document of one ruleset, its positions and the problems found so far."""

    def __init__(self, path: Path, merged: MergedDocument) -> None:
        self.path = path
        self.merged = merged
        #: The document; the options stage puts the chosen readings in place.
        self.data = merged.data
        #: The document as read, before the readings are put in (`Ruleset.written`).
        self.written = copy.deepcopy(merged.data)
        self.provenance = merged.provenance
        self.problems: list[Problem] = []
        #: Parts with a problem already reported, left out of the checks that follow.
        self.broken = BrokenParts()

    def at(self, parts: tuple) -> Position | None:
        return self.merged.position(parts)

    def problem(self, parts: tuple, message: str, position: Position | None = None) -> None:
        self.problems.append(Problem(position or self.at(parts), json_path(parts), message))

    @property
    def seats(self) -> int:
        """The player count; where the players section is broken (already reported), a
        typical count, so that the later checks can still estimate costs."""
        players = self.data.get("players")
        count = players.get("count") if isinstance(players, dict) else None
        return count if type(count) is int and 1 <= count <= 8 else 4
