"""Which parts of a ruleset a problem makes unusable, so that later stages check the rest.

Pipeline: filled by :mod:`~tarot.check.schema_check` and every check after it, read by
:mod:`~tarot.check.options`, :mod:`~tarot.check.semantic_checks` and
:mod:`~tarot.compile.ruleset_compiler`. A schema problem in one payment should not hide
a wrong expression in another: the compiler leaves out the *part* the problem is in (one rule
of a list, one definition, or a whole section) and checks everything else, so an author sees
every mistake of every stage in one run.

A part is the smallest piece the compiler can do without: an item of a rule list
(``payments[3]``), a declaration, a definition, or else the top-level section.
Some sections are what everything else is read with (the options, the parameters, the deck,
the auction): when one of those is broken, nothing after the schema is checked, since every
later problem could be a consequence.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["FOUNDATIONS", "BrokenParts"]

DocPath = tuple[str | int, ...]

#: Sections that every later check reads; a problem in one stops the checks after the schema.
FOUNDATIONS = frozenset({"options", "parameters", "deck", "bidding"})

#: Where the parts are below the section: how many path steps make one part.
_PART_DEPTH = {
    "payments": 2,
    "settlement": 2,
    "redeal": 2,
    "definitions": 2,
    "declarations": 3,  # declarations.table[i]
}


def part_of(path: DocPath) -> DocPath:
    """The part of the document a problem at ``path`` makes unusable (``()`` is the root)."""
    if not path:
        return ()
    depth = _PART_DEPTH.get(str(path[0]), 1)
    if str(path[0]) == "declarations" and (len(path) < 2 or path[1] != "table"):
        depth = 1
    return tuple(path[:depth])


class BrokenParts:
    """The parts left out so far."""

    def __init__(self) -> None:
        self.parts: set[DocPath] = set()

    def add(self, paths: Iterable[DocPath]) -> None:
        self.parts.update(part_of(tuple(path)) for path in paths)

    def __contains__(self, path: object) -> bool:
        """Whether ``path`` is, or is inside, a part left out."""
        if not isinstance(path, tuple):
            return False
        return any(path[: len(part)] == part for part in self.parts)

    def any_section(self, *sections: str) -> bool:
        """Whether any of these sections has a part left out (or is left out whole)."""
        return any(part[:1] in {(s,) for s in sections} for part in self.parts)

    def whole(self, section: str) -> bool:
        """Whether the section is left out as a whole."""
        return (section,) in self.parts

    @property
    def stops_compiling(self) -> bool:
        """Whether a foundation, the definitions as a whole or the document is broken."""
        whole = {(), ("definitions",)}
        return bool(whole & self.parts) or self.any_section(*FOUNDATIONS)
