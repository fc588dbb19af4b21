"""Error types shared by the whole interpreter.

The loading pipeline (``yaml_source`` -> ``inheritance`` -> ``schema_check`` -> later option
resolution and compilation) reports everything it finds as :class:`Problem` objects, each
positioned in a source file where possible, and raises them together in one
:class:`RulesetError` so an author sees every mistake in a single run. The stages that hold
a file's text give each problem the line it points into (:func:`quote_lines`); a problem is
printed with that line and a caret under the place (:meth:`Problem.shown`), the same way by
every command, and read as data by an editor (:meth:`Problem.as_json`).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

__all__ = [
    "Position",
    "Problem",
    "RulesetError",
    "TarotError",
    "UNSAFE_TEXT",
    "UsageError",
    "closest_names",
    "did_you_mean",
    "json_path",
    "nearest_position",
    "quote_lines",
    "shown_text",
    "source_lines",
]


@dataclass(frozen=True)
class Position:
    """A place in a source file; ``line`` and ``column`` are 1-based."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


def nearest_position(
    positions: Mapping[tuple[str | int, ...], Position], path: Sequence[str | int]
) -> Position | None:
    """The position recorded for ``path``, or for its nearest ancestor that has one."""
    path = tuple(path)
    while True:
        if path in positions:
            return positions[path]
        if not path:
            return None
        path = path[:-1]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a ruleset.

    ``path`` is a JSON path into the (merged) document such as ``$.payments[3].amount``;
    ``$`` stands for the document itself.
    """

    position: Position | None
    path: str
    message: str
    #: The line of the file at ``position`` as written, quoted under the message with a caret
    #: under the column (:func:`quote_lines` fills it in where the file's text is at hand).
    source_line: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        if self.position is None:
            return shown_text(f"{self.path}: {self.message}")
        if self.position.line <= 0:
            return shown_text(f"{self.position.file}: {self.path}: {self.message}")
        return shown_text(f"{self.position}: {self.path}: {self.message}")

    def excerpt(self) -> str:
        """The source line and a caret under the place, two lines (or nothing without a
        line)::

              30 |     when: "c in trumpz"
                 |                 ^
        """
        if self.source_line is None or self.position is None or self.position.line <= 0:
            return ""
        return _excerpt(self.source_line, self.position.line, self.position.column)

    def as_json(self) -> dict[str, object]:
        """The problem as JSON data: ``file``, ``line`` and ``column`` (1-based; null where
        the problem has no place in a file, or only a file), ``path``, ``message`` and the
        ``source_line`` it points into (null where not at hand)."""
        position = self.position
        placed = position is not None and position.line > 0
        return {
            "file": None if position is None else position.file,
            "line": position.line if placed and position else None,
            "column": position.column if placed and position else None,
            "path": self.path,
            "message": self.message,
            "source_line": self.source_line if placed else None,
        }

    def shown(self) -> str:
        """The message, then its excerpt where there is one: how a problem is printed."""
        excerpt = self.excerpt()
        return f"{self}\n{excerpt}" if excerpt else str(self)


class TarotError(Exception):
    """The root of every error a user of tarot can meet: a broken ruleset, a mistake on the
    command line, a record that does not verify, an illegal move, a run that cannot go on.
    `except tarot.errors.TarotError` catches them all (and nothing else: a bug in tarot
    itself is not one)."""


class RulesetError(TarotError):
    """Raised with every problem found, all at once."""

    problems: list[Problem]

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(p.shown() for p in self.problems)


#: Characters a terminal or a page would act on rather than show: controls other than the
#: line break and the tab, DEL, the C1 controls, the line and paragraph separators, and the
#: marks, embeddings, overrides and isolates of Unicode's bidirectional algorithm.
UNSAFE_TEXT = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u206f]"
)


def shown_text(text: str) -> str:
    """`text` with every character of `UNSAFE_TEXT` written as its escape (`\\u001b`), so
    that a message quoting a file's text cannot act on the terminal or the page."""
    return UNSAFE_TEXT.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


#: What YAML counts as a line break (PyYAML's reader): positions count lines this way.
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
#: The most characters of a source line quoted; a longer one is cut around the place.
QUOTED_WIDTH = 100


def source_lines(text: str) -> list[str]:
    """The lines of a file's text, split where YAML counts a new line."""
    return _LINE_BREAK.split(text)


def quote_lines(problems: Iterable[Problem], texts: Mapping[str, str]) -> list[Problem]:
    """The problems, each positioned in a file of ``texts`` (file name -> its text) given the
    line it points into (:attr:`Problem.source_line`)."""
    split: dict[str, list[str]] = {}
    quoted = []
    for problem in problems:
        position = problem.position
        if (
            problem.source_line is None
            and position is not None
            and position.line > 0
            and position.file in texts
        ):
            lines = split.setdefault(position.file, source_lines(texts[position.file]))
            if position.line <= len(lines):
                problem = replace(problem, source_line=lines[position.line - 1])
        quoted.append(problem)
    return quoted


def _excerpt(line: str, number: int, column: int) -> str:
    """``line`` (line ``number`` of its file) with a caret under ``column`` (1-based)."""
    line = line.rstrip()
    start = 0
    if len(line) > QUOTED_WIDTH:  # a window around the place
        start = max(0, min(column - 1 - QUOTED_WIDTH // 2, len(line) - QUOTED_WIDTH))
    shown = line[start : start + QUOTED_WIDTH]
    before = shown_text(line[start : max(start, column - 1)])
    lead = "..." if start else ""
    tail = "..." if start + QUOTED_WIDTH < len(line) else ""
    pad = "".join(_blank(char) for char in lead + before)
    gutter = f"{number:>5} | "
    return f"{gutter}{lead}{shown_text(shown)}{tail}\n{' ' * (len(gutter) - 2)}| {pad}^"


def _blank(char: str) -> str:
    """What stands under ``char`` in the caret's line: a tab stays a tab, a wide character
    takes two columns, a combining mark none."""
    if char == "\t":
        return "\t"
    if unicodedata.combining(char):
        return ""
    return "  " if unicodedata.east_asian_width(char) in ("W", "F") else " "


class UsageError(TarotError, ValueError):
    """A mistake typed on the command line (a flag, a name, a value): the command prints
    ``tarot: error: MESSAGE`` on one line and exits with status 2."""


def json_path(parts: Sequence[str | int]) -> str:
    """``("payments", 3, "amount")`` -> ``"$.payments[3].amount"``.

    Keys that are not plain identifiers are written in bracket form: ``$["a b"]``.
    """
    out = ["$"]
    for part in parts:
        if isinstance(part, int) and not isinstance(part, bool):
            out.append(f"[{part}]")
        elif (text := str(part)).isidentifier() or _is_simple_key(text):
            out.append(f".{text}")
        else:
            escaped = text.replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'["{escaped}"]')
    return "".join(out)


def _is_simple_key(key: str) -> bool:
    # Ruleset keys often contain dashes or start with digits ("some-variant", "3p").
    return bool(key) and all(c.isalnum() or c in "_-" for c in key)


def closest_names(word: str, known: Iterable[str], n: int = 1, cutoff: float = 0.6) -> list[str]:
    """The known names closest to a mistyped `word`, at most `n`, best first: one that
    differs only in case before any other (the one "did you mean" of every message)."""
    known = list(known)
    same_case = [name for name in known if name.lower() == word.lower() and name != word]
    close = difflib.get_close_matches(word, known, n=n, cutoff=cutoff)
    return list(dict.fromkeys([*same_case, *close]))[:n]


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """ "did you mean 'X'? " for the known name closest to `word`, or nothing."""
    found = closest_names(word, known)
    return f"did you mean {found[0]!r}? " if found else ""
