"""Load stage, its first half: read one YAML file into plain data that remembers where it
came from.

Pipeline: **yaml_source** -> inheritance (load) -> schema_check, options, semantic_checks
(check) -> compile.

:func:`load_yaml` composes the YAML node graph with PyYAML's ``SafeLoader``, reading plain
scalars as YAML 1.2's core schema does (:mod:`~tarot.load.yaml_core`), and builds plain
Python values (``dict``/``list``/``str``/``int``/``float``/``bool``/``None``) from it, so
that every value keeps its file position and every problem (syntax error, duplicate key,
non-string key, unsupported tag) is reported as a positioned :class:`~tarot.errors.Problem`.
No PyYAML exception ever escapes: failures are raised as one
:class:`~tarot.errors.RulesetError`.

:func:`read_ruleset_file` is what the loader reads files with: :func:`load_yaml` remembered
for the life of the process by the file's name and a digest of its bytes (a base shared by
many variants is parsed once; a file edited between two loads is parsed again), and the
package's own rulesets composed from libyaml's events when PyYAML has libyaml. libyaml is not
used for other files: it accepts some texts the pure loader refuses (a tab inside a plain
value, a ``?`` inside a flow list), so a user's file is read the same with or without it.
A package file that libyaml cannot read is read again by the pure loader, whose message is
the one reported; `tests/test_loading_reuse.py` checks that both give the same documents.

:func:`position_in_scalar` turns a (line, column) inside a string value, for example where an
expression parser found an error, into a position in the file.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tarot.errors import (
    Position,
    Problem,
    RulesetError,
    json_path,
    nearest_position,
    quote_lines,
)
from tarot.load import paths
from tarot.load.yaml_core import leading_zero_problem
from tarot.load.yaml_limits import (
    MAX_FILE_BYTES,
    BoundedLoader,
    FastBoundedLoader,
    LimitExceeded,
    number_problem,
)

__all__ = [
    "DocPath",
    "ScalarInfo",
    "SourceDocument",
    "load_yaml",
    "parse_yaml",
    "position_in_scalar",
    "read_ruleset_file",
    "value_at",
]

#: Documents remembered by :func:`read_ruleset_file`: at most this many, each of a file of at
#: most :data:`REMEMBERED_FILE_BYTES` (the built-in files are under 20 KB).
REMEMBERED_FILES = 64
REMEMBERED_FILE_BYTES = 200_000
_remembered: OrderedDict[tuple[str, bytes], SourceDocument] = OrderedDict()

#: A path to a value inside a document: mapping keys and list indexes, root = ``()``.
DocPath = tuple[str | int, ...]

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null")}
_NUMBER_TAGS = {_TAG + "int", _TAG + "float"}
_TIMESTAMP_TAG = _TAG + "timestamp"
_MERGE_TAG = _TAG + "merge"

_STYLE_NAMES = {None: "plain", "": "plain", "'": "single", '"': "double", "|": "literal"}
_STYLE_NAMES[">"] = "folded"


@dataclass(frozen=True)
class ScalarInfo:
    """Where a string scalar sits in the file and how it was written.

    ``style`` is one of ``plain``, ``single``, ``double``, ``literal`` (``|``) or
    ``folded`` (``>``). ``start``/``end`` are the node's marks (for block scalars ``start``
    is the ``|``/``>`` indicator).
    """

    style: str
    start: Position
    end: Position


@dataclass
class SourceDocument:
    """One YAML file as plain data plus positions."""

    file: str
    data: Any
    #: Position of every value node (for a mapping entry: its value). Root is ``()``.
    positions: dict[DocPath, Position] = field(default_factory=dict)
    #: Position of the key of every mapping entry, by the entry's path.
    key_positions: dict[DocPath, Position] = field(default_factory=dict)
    #: Style and extent of every string scalar, by path.
    scalars: dict[DocPath, ScalarInfo] = field(default_factory=dict)
    #: The source text, used to map positions inside block and multi-line scalars.
    text: str = ""

    @property
    def scalar_styles(self) -> dict[DocPath, str]:
        """``{path: style}`` for every string scalar (see :class:`ScalarInfo`)."""
        return {path: info.style for path, info in self.scalars.items()}

    def position(self, path: DocPath) -> Position | None:
        """The position of the value at ``path``, or of its nearest ancestor that has one."""
        return nearest_position(self.positions, path)


def _pos(file: str, mark: Any) -> Position:
    return Position(file, mark.line + 1, mark.column + 1)


def _file_position(file: str) -> Position:
    """A position naming only the file (line 0 means "no line")."""
    return Position(file, 0, 0)


def load_yaml(path: Path) -> SourceDocument:
    """Read and build ``path``; raise :class:`RulesetError` with every problem found."""
    file = str(path)
    return parse_yaml(_decode(_read_bounded(Path(path), file), file), file)


def read_ruleset_file(path: Path) -> SourceDocument:
    """:func:`load_yaml`, remembered by file name and content (see the module's docstring).

    The document returned may be shared with earlier and later callers: it must not be
    changed (the inheritance stage copies what it merges)."""
    file = str(path)
    raw = _read_bounded(Path(path), file)
    key = (file, hashlib.blake2b(raw, digest_size=16).digest())
    doc = _remembered.get(key)
    if doc is not None:
        _remembered.move_to_end(key)
        return doc
    doc = parse_yaml(_decode(raw, file), file, libyaml=_in_package(Path(path)))
    if len(raw) <= REMEMBERED_FILE_BYTES:
        _remembered[key] = doc
        while len(_remembered) > REMEMBERED_FILES:
            _remembered.popitem(last=False)
    return doc


def _in_package(path: Path) -> bool:
    """Whether ``path`` is one of the package's own ruleset files."""
    try:
        return path.resolve().is_relative_to(paths.rulesets_dir().resolve())
    except OSError:
        return False


def _decode(raw: bytes, file: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        position = _byte_position(file, raw, exc.start)
        msg = f"the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8 text"
        as_far_as_it_reads = {file: raw.decode("utf-8", errors="replace")}
        raise RulesetError(quote_lines([Problem(position, "$", msg)], as_far_as_it_reads)) from None


def _read_bounded(path: Path, file: str) -> bytes:
    """The file's bytes, or a RulesetError naming the file if it cannot or must not be read."""

    def refuse(message: str) -> RulesetError:
        return RulesetError([Problem(_file_position(file), "$", message)])

    try:
        if path.is_dir():
            raise refuse("this is a folder, not a ruleset file")
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise refuse("file not found") from None
    except OSError as exc:
        raise refuse(f"cannot read file: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise refuse(f"the file is larger than {MAX_FILE_BYTES:,} bytes; a ruleset needs far less")
    return raw


def _byte_position(file: str, raw: bytes, offset: int) -> Position:
    """The line and column (in characters, as far as they decode) of a byte offset."""
    line_start = raw.rfind(b"\n", 0, offset) + 1
    column = len(raw[line_start:offset].decode("utf-8", errors="replace")) + 1
    return Position(file, raw.count(b"\n", 0, offset) + 1, column)


def parse_yaml(text: str, file: str = "<string>", *, libyaml: bool = False) -> SourceDocument:
    """Like :func:`load_yaml` but from text already in memory; ``file`` names it in positions.
    With ``libyaml``, the text is composed from libyaml's events when PyYAML has it; if that
    fails in any way the pure loader reads it again and reports its own problems."""
    root = _compose_with_libyaml(text) if libyaml else None
    if root is None:
        try:
            root = _compose(text, file)
        except RulesetError as error:
            raise RulesetError(quote_lines(error.problems, {file: text})) from None
    doc = SourceDocument(file=file, data=None, text=text)
    if root is _EMPTY:
        return doc
    builder = _Builder(doc)
    doc.data = builder.build(root, ())
    if builder.problems:
        raise RulesetError(quote_lines(builder.problems, {file: text}))
    return doc


#: A document with nothing in it (``yaml.compose`` gives None).
_EMPTY = ScalarNode(_TAG + "null", "")


def _compose_with_libyaml(text: str) -> Node | None:
    """The node graph composed from libyaml's events, or None if libyaml is missing or the
    text is not one it reads without a problem."""
    if FastBoundedLoader is None:
        return None
    try:
        root = yaml.compose(text, Loader=FastBoundedLoader)
    except Exception:  # noqa: BLE001 - the pure loader reads it again and says what is wrong
        return None
    return _EMPTY if root is None else root


def _compose(text: str, file: str) -> Node:
    """The node graph composed by the pure loader, or a RulesetError saying what is wrong."""
    try:
        root = yaml.compose(text, Loader=BoundedLoader)
    except LimitExceeded as exc:
        raise RulesetError([Problem(_pos(file, exc.mark), "$", exc.message)]) from None
    except yaml.MarkedYAMLError as exc:
        raise RulesetError([_syntax_problem(file, exc)]) from None
    except yaml.YAMLError as exc:  # reader errors (bad characters) carry no mark
        position = _file_position(file)
        if isinstance(exc, yaml.reader.ReaderError):
            line = text.count("\n", 0, exc.position) + 1
            column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
            position = Position(file, line, column)
            msg = f"invalid character {exc.character!r} in the file"
        else:
            msg = f"YAML error: {exc}"
        raise RulesetError([Problem(position, "$", msg)]) from None
    return _EMPTY if root is None else root


def _syntax_problem(file: str, exc: yaml.MarkedYAMLError) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    position = _pos(file, mark) if mark is not None else _file_position(file)
    message = exc.problem or "YAML syntax error"
    if exc.context:
        context = exc.context
        if exc.context_mark is not None and exc.context_mark is not mark:
            context += f" at line {exc.context_mark.line + 1}"
        message = f"{message} ({context})"
    return Problem(position, "$", f"YAML syntax error: {message}")


def _octal_or(node: ScalarNode) -> str | None:
    """Why an integer written with a leading zero is refused (its reading changed between
    YAML 1.1 and 1.2), or None."""
    return leading_zero_problem(node.value) if node.tag == _TAG + "int" else None


class _Builder:
    """Builds plain values from a node graph, recording positions and problems."""

    def __init__(self, doc: SourceDocument) -> None:
        self.doc = doc
        self.file = doc.file
        self.problems: list[Problem] = []
        self.constructor = SafeConstructor()
        self.active: set[int] = set()  # node ids being built, to catch recursive aliases

    def problem(self, node: Node, path: DocPath, message: str) -> None:
        self.problems.append(Problem(_pos(self.file, node.start_mark), json_path(path), message))

    def build(self, node: Node, path: DocPath) -> Any:
        self.doc.positions[path] = _pos(self.file, node.start_mark)
        if id(node) in self.active:
            self.problem(node, path, "recursive alias is not allowed")
            return None
        self.active.add(id(node))
        try:
            if isinstance(node, ScalarNode):
                return self.scalar(node, path)
            if isinstance(node, SequenceNode):
                if node.tag != _TAG + "seq":
                    self.problem(node, path, f"unsupported YAML tag {node.tag!r}")
                return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
            if isinstance(node, MappingNode):
                if node.tag != _TAG + "map":
                    self.problem(node, path, f"unsupported YAML tag {node.tag!r}")
                return self.mapping(node, path)
            self.problem(node, path, f"unsupported YAML node {type(node).__name__}")
            return None
        finally:
            self.active.discard(id(node))

    def scalar(self, node: ScalarNode, path: DocPath) -> Any:
        if node.tag == _TIMESTAMP_TAG:
            value: Any = node.value  # dates stay strings: rulesets are plain JSON-like data
        elif node.tag in _SCALAR_TAGS:
            is_number = node.tag in _NUMBER_TAGS
            if is_number and (refused := number_problem(node.value) or _octal_or(node)):
                self.problem(node, path, refused)
                return None
            try:
                value = self.constructor.construct_object(node, deep=True)
            except Exception as exc:  # noqa: BLE001 - any constructor failure is a Problem
                self.problem(node, path, f"invalid {node.tag.removeprefix(_TAG)} value: {exc}")
                return None
            if is_number and (out_of_bounds := number_problem(node.value, value)):
                self.problem(node, path, out_of_bounds)
                return None
        else:
            self.problem(node, path, f"unsupported YAML tag {node.tag!r}")
            return None
        if isinstance(value, str):
            self.doc.scalars[path] = ScalarInfo(
                style=_STYLE_NAMES.get(node.style, "plain"),
                start=_pos(self.file, node.start_mark),
                end=_pos(self.file, node.end_mark),
            )
        return value

    def key(self, node: Node, path: DocPath) -> str | None:
        """The string value of a key node, or ``None`` after recording a problem."""
        if isinstance(node, ScalarNode) and node.tag in _SCALAR_TAGS | {_TIMESTAMP_TAG}:
            if node.tag in (_TAG + "str", _TIMESTAMP_TAG):
                return str(node.value)
            try:
                value = self.constructor.construct_object(node, deep=True)
            except Exception:  # noqa: BLE001
                value = node.value
            shown = "null" if value is None else repr(value)
            self.problem(
                node,
                path,
                f"mapping key {node.value!r} is read as {type(value).__name__} {shown}, "
                "not a string; quote it",
            )
            return None
        self.problem(node, path, "mapping keys must be strings")
        return None

    def mapping(self, node: MappingNode, path: DocPath) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_line: dict[str, int] = {}
        merges: list[Node] = []
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode) and key_node.tag == _MERGE_TAG:
                merges.append(value_node)
                continue
            key = self.key(key_node, path)
            if key is None:
                continue
            if key in first_line:
                self.problem(
                    key_node,
                    (*path, key),
                    f"duplicate key {key!r} (first at line {first_line[key]})",
                )
                continue
            first_line[key] = key_node.start_mark.line + 1
            self.doc.key_positions[(*path, key)] = _pos(self.file, key_node.start_mark)
            result[key] = self.build(value_node, (*path, key))
        # YAML merge keys (``<<: *anchor``): explicit keys win, earlier merges win.
        for merge_node in merges:
            sources = merge_node.value if isinstance(merge_node, SequenceNode) else [merge_node]
            for source in sources:
                if not isinstance(source, MappingNode):
                    self.problem(source, path, "'<<' merges only mappings")
                    continue
                for key_node, value_node in source.value:
                    if isinstance(key_node, ScalarNode) and key_node.tag == _MERGE_TAG:
                        continue  # nested merges in the source are rare; not followed
                    key = self.key(key_node, path)
                    if key is None or key in result:
                        continue
                    self.doc.key_positions[(*path, key)] = _pos(self.file, key_node.start_mark)
                    result[key] = self.build(value_node, (*path, key))
        return result


# --- positions inside string scalars -------------------------------------------------------


def position_in_scalar(doc: SourceDocument, path: DocPath, line: int, column: int) -> Position:
    """Map a 1-based ``(line, column)`` inside the string at ``path`` to a file position.

    Plain scalars: start column + column - 1; quoted scalars: one more for the quote; block
    scalars (``|``/``>``): the line counts from the first content line, the column from the
    block's indentation. Multi-line plain and folded scalars are mapped through their line
    folding when that reproduces the value exactly. If ``path`` is not a string scalar, the
    value's own position is returned.
    """
    path = tuple(path)
    info = doc.scalars.get(path)
    if info is None:
        return doc.position(path) or _file_position(doc.file)
    value = value_at(doc.data, path)
    lines = doc.text.splitlines()
    if info.style in ("literal", "folded"):
        first, indent = _block_layout(lines, info)
        if info.style == "folded" and isinstance(value, str):
            mapped = _via_folding(doc.file, lines, first, info.end, indent, value, line, column)
            if mapped is not None:
                return mapped
        return Position(doc.file, first + line, indent + column)
    if info.start.line != info.end.line and info.style == "plain" and isinstance(value, str):
        mapped = _via_folding(
            doc.file, lines, info.start.line - 1, info.end, None, value, line, column, info.start
        )
        if mapped is not None:
            return mapped
    quote = 0 if info.style == "plain" else 1
    if quote and info.start.line == info.end.line and isinstance(value, str) and line <= 1:
        row = lines[info.start.line - 1] if info.start.line - 1 < len(lines) else ""
        raw = row[info.start.column : info.end.column - 2]
        offsets = _quoted_offsets(raw, info.style)
        if len(offsets) == len(value) and 1 <= column <= len(value):
            return Position(doc.file, info.start.line, info.start.column + 1 + offsets[column - 1])
    if line <= 1:
        return Position(doc.file, info.start.line, info.start.column + quote + column - 1)
    return Position(doc.file, info.start.line + line - 1, column)


def _quoted_offsets(raw: str, style: str) -> list[int]:
    """For each character of a one-line quoted scalar, its offset in the raw text."""
    widths = {"x": 4, "u": 6, "U": 10}
    offsets: list[int] = []
    i = 0
    while i < len(raw):
        offsets.append(i)
        if style == "single" and raw.startswith("''", i):
            i += 2
        elif style == "double" and raw[i] == "\\" and i + 1 < len(raw):
            i += widths.get(raw[i + 1], 2)
        else:
            i += 1
    return offsets


def value_at(data: Any, path: DocPath) -> Any:
    """The value at `path` inside plain data, or None where there is none."""
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _content_line_range(lines: list[str], first: int, end: Position) -> range:
    # end is 1-based; a block scalar ends at column 1 of the following line, or at EOF.
    stop = end.line - 1 if end.column == 1 else end.line
    return range(first, min(stop, len(lines)))


def _block_layout(lines: list[str], info: ScalarInfo) -> tuple[int, int]:
    """0-based index of the first content line and the indentation of a block scalar."""
    first = info.start.line  # start.line is 1-based, so this is the next line, 0-based
    indents = [
        len(text) - len(text.lstrip(" "))
        for text in (lines[i] for i in _content_line_range(lines, first, info.end))
        if text.strip()
    ]
    return first, (min(indents) if indents else 0)


def _via_folding(
    file: str,
    lines: list[str],
    first: int,
    end: Position,
    indent: int | None,
    value: str,
    line: int,
    column: int,
    start: Position | None = None,
) -> Position | None:
    """Rebuild a folded (``>``) or multi-line plain scalar, remembering each character's
    place in the file; return the place of ``(line, column)`` if the rebuild matches."""
    pieces: list[tuple[int, int, str]] = []  # (0-based line, 0-based column, text)
    if start is not None:  # plain scalar: first piece starts at the node, the rest stripped
        rows = range(start.line - 1, end.line)
    else:
        rows = _content_line_range(lines, first, end)
    for i in rows:
        if i >= len(lines):
            break
        text = lines[i]
        if start is not None and i == start.line - 1:
            col = start.column - 1
            body = text[col:]
            if i == end.line - 1:
                body = text[col : end.column - 1]
        elif start is not None:
            stop = end.column - 1 if i == end.line - 1 else len(text)
            body = text[:stop]
            col = len(body) - len(body.lstrip(" \t"))
            body = body[col:]
        else:
            col = min(indent or 0, len(text))
            body = text[col:]
        pieces.append((i, col, body.rstrip(" \t") if start is not None else body))

    chars: list[str] = []
    places: list[tuple[int, int]] = []
    pending_breaks: list[int] = []  # blank lines since the last text line
    previous_more_indented = False
    started = False
    for i, col, body in pieces:
        if not body.strip() and (start is not None or not body):
            if started:
                pending_breaks.append(i)
            elif start is None:  # leading empty lines of a block scalar are kept
                chars.append("\n")
                places.append((i, col))
            continue
        more_indented = start is None and body[:1] in (" ", "\t")
        if started:
            blank_lines = len(pending_breaks)
            if more_indented or previous_more_indented:
                separator = "\n" * (blank_lines + 1)
            else:
                separator = "\n" * blank_lines if blank_lines else " "
            chars.extend(separator)
            places.extend([(i, col)] * len(separator))
        started = True
        for offset, ch in enumerate(body):
            chars.append(ch)
            places.append((i, col + offset))
        pending_breaks = []
        previous_more_indented = more_indented
    rebuilt = "".join(chars)
    if rebuilt.rstrip("\n") != value.rstrip("\n"):
        return None
    target = sum(len(part) + 1 for part in value.split("\n")[: line - 1]) + column - 1
    if 0 <= target < len(places):
        row, col = places[target]
        return Position(file, row + 1, col + 1)
    if target == len(places) and places:
        row, col = places[-1]
        return Position(file, row + 1, col + 2)
    return None
