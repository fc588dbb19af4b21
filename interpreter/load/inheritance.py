"""Load stage, its second half: follow ``extends`` and merge a ruleset with its bases.

Pipeline: yaml_source -> **inheritance** (load) -> schema_check -> options -> semantic_checks
(check) -> compile. Each file of the chain is read by
:func:`~tarot.load.yaml_source.read_ruleset_file` (a base shared by many variants
is parsed once per process).

A ruleset may say ``extends: NAME_OR_PATH``. A value ending in ``.yaml``/``.yml`` is a path
relative to the extending file; anything else is a ruleset name, looked up first as
``NAME.yaml`` next to the extending file and then through ``find_builtin(name)``.

Merging (the child overrides its base):

* mappings merge key by key, recursively;
* a list whose items are all mappings with an ``id`` key merges by id: an item with a known
  id is merged into the base item, a new id is appended, and ``{id: X, remove: true}``
  removes the base item ``X`` (an error if there is none);
* any other list, and any scalar, replaces the base value whole.

Every value of the result keeps its provenance: the position in the file that supplied it
(for a mapping merged from several files, the most derived file that mentions it).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tarot.errors import (
    Position,
    Problem,
    RulesetError,
    closest_names,
    json_path,
    nearest_position,
    quote_lines,
)
from tarot.load.paths import schemas_dir
from tarot.load.yaml_source import (
    DocPath,
    SourceDocument,
    position_in_scalar,
    read_ruleset_file,
)

__all__ = ["EXTENDS_KEY", "MergedDocument", "resolve"]

EXTENDS_KEY = "extends"
#: Longer `extends` values are refused before any file is looked up (a file system refuses
#: names of more than 255 bytes with an error of its own).
MAX_NAME_LENGTH = 255
#: Variants of variants: at most this many files in one `extends` chain.
MAX_EXTENDS_DEPTH = 20
_PATH_SUFFIXES = (".yaml", ".yml")


@cache
def ruleset_sections() -> frozenset[str]:
    """The top-level keys of a ruleset, as the schema states them: what a base found as a
    file must have to be read as a ruleset (`resolve`)."""
    schema = json.loads((schemas_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))
    return frozenset(schema["properties"])


FindBuiltin = Callable[[str], "Path | None"]
ListBuiltins = Callable[[], "list[str]"]
ReadFile = Callable[[Path], SourceDocument]


@dataclass
class MergedDocument:
    """The effective ruleset after following ``extends``."""

    #: The merged document, without the ``extends`` key.
    data: Any
    #: For every value in ``data`` (paths use merged list indexes): where it came from.
    provenance: dict[DocPath, Position]
    #: The file itself, then its base, then the base's base...
    chain: list[Path]
    #: Position of the key of every mapping entry in ``data``, by the entry's path.
    key_provenance: dict[DocPath, Position] = field(default_factory=dict)
    #: For every value: the source document that supplied it and its path there.
    origins: dict[DocPath, tuple[SourceDocument, DocPath]] = field(default_factory=dict)
    #: The text of every file of the chain, by the name positions give it (for the source
    #: line a problem quotes).
    texts: dict[str, str] = field(default_factory=dict)
    #: The ids of list items a ruleset of the chain removed (`remove: true`), by the list's
    #: path: rules the base wrote about them may still name them.
    removed: frozenset[tuple[DocPath, str]] = frozenset()

    def position(self, path: DocPath) -> Position | None:
        """Provenance of ``path``, or of its nearest ancestor that has one."""
        return nearest_position(self.provenance, path)

    def position_in_scalar(self, path: DocPath, line: int, column: int) -> Position | None:
        """:func:`~tarot.load.yaml_source.position_in_scalar` for a merged path."""
        origin = self.origins.get(tuple(path))
        if origin is None:
            return self.position(path)
        doc, source_path = origin
        return position_in_scalar(doc, source_path, line, column)


@dataclass
class _Node:
    """A value annotated with its origin; containers hold ``_Node`` children."""

    value: Any  # dict[str, _Node] | list[_Node] | scalar
    doc: SourceDocument
    path: DocPath

    @property
    def position(self) -> Position | None:
        return self.doc.position(self.path)

    @property
    def key_position(self) -> Position | None:
        return self.doc.key_positions.get(self.path)


def _annotate(doc: SourceDocument, value: Any, path: DocPath) -> _Node:
    if isinstance(value, dict):
        return _Node({k: _annotate(doc, v, (*path, k)) for k, v in value.items()}, doc, path)
    if isinstance(value, list):
        return _Node([_annotate(doc, v, (*path, i)) for i, v in enumerate(value)], doc, path)
    return _Node(value, doc, path)


def resolve(
    path: Path,
    find_builtin: FindBuiltin,
    list_builtins: ListBuiltins | None = None,
    read: ReadFile = read_ruleset_file,
    names_only: bool = False,
    any_base: bool = False,
) -> MergedDocument:
    """Load ``path``, follow its ``extends`` chain and merge; raise :class:`RulesetError`.

    ``read`` turns each file of the chain into a document (by default with positions).
    ``names_only``: ``extends`` in ``path`` may only name a ruleset ``find_builtin`` knows (no
    path, no file beside it), and the messages name no folder (a file sent to a server).
    A base found as a file (not a built-in ruleset) is read only when its top-level keys
    are `ruleset_sections` or slips of them, and refused unquoted otherwise (`any_base`:
    any keys, for tests of merging alone)."""
    path = Path(path)
    resolver = _Resolver(path, find_builtin, list_builtins, read, names_only, any_base)
    try:
        node, chain = resolver.load(path, [])
    except RulesetError as error:  # a base refused as a whole: its line in the file naming it
        raise RulesetError(quote_lines(error.problems, resolver.texts)) from None
    if resolver.problems:
        raise RulesetError(quote_lines(resolver.problems, resolver.texts))
    merged = MergedDocument(
        data=None,
        provenance={},
        chain=chain,
        texts=resolver.texts,
        removed=frozenset(resolver.removed),
    )
    merged.data = _flatten(node, (), merged)
    return merged


class _Resolver:
    def __init__(
        self,
        root: Path,
        find_builtin: FindBuiltin,
        list_builtins: ListBuiltins | None,
        read: ReadFile,
        names_only: bool = False,
        any_base: bool = False,
    ) -> None:
        self.root = root
        self.names_only = names_only
        self.root_dir = root.parent
        self.find_builtin = find_builtin
        self.list_builtins = list_builtins
        self.read = read
        self.any_base = any_base
        self.by_path: set[Path] = set()  # bases found as files, not as built-in rulesets
        self.problems: list[Problem] = []
        self.texts: dict[str, str] = {}
        self.removed: set[tuple[DocPath, str]] = set()  # (list's path, id)

    def display(self, path: Path) -> str:
        try:
            return os.path.relpath(path, self.root_dir)
        except ValueError:  # different drives on Windows
            return str(path)

    def load(
        self, path: Path, stack: list[Path], extended_at: Position | None = None
    ) -> tuple[_Node, list[Path]]:
        try:
            doc = self.read(path)
        except RulesetError as error:
            if path not in self.by_path:
                raise
            raise self.unreadable(path, error, extended_at) from None
        _check_root(doc)
        if path in self.by_path:
            self.check_is_ruleset(doc, path, extended_at)
        self.texts[doc.file] = doc.text  # quoted under its problems (a base once it is one)
        node = _annotate(doc, doc.data, ())
        chain = [path]
        if EXTENDS_KEY not in node.value:
            return node, chain
        extends = node.value.pop(EXTENDS_KEY)
        where = extends.position
        if not isinstance(extends.value, str) or not extends.value.strip():
            raise RulesetError(
                [
                    Problem(
                        where,
                        json_path([EXTENDS_KEY]),
                        "'extends' must be a ruleset name or a path ending in .yaml, got "
                        f"{_describe(extends.value)}",
                    )
                ]
            )
        base_path = self.find_base(path, extends.value.strip(), where)
        here = [*stack, path]
        if len(here) >= MAX_EXTENDS_DEPTH:
            message = f"more than {MAX_EXTENDS_DEPTH} rulesets extend each other in a chain"
            raise RulesetError([Problem(where, json_path([EXTENDS_KEY]), message)])
        resolved_here = [p.resolve() for p in here]
        if base_path.resolve() in resolved_here:
            start = resolved_here.index(base_path.resolve())
            loop = [self.display(p) for p in here[start:]] + [self.display(base_path)]
            raise RulesetError(
                [Problem(where, json_path([EXTENDS_KEY]), "extends cycle: " + " -> ".join(loop))]
            )
        base, base_chain = self.load(base_path, here, where)
        merged = self.merge(base, node)
        return merged, chain + base_chain

    def unreadable(self, path: Path, error: RulesetError, where: Position | None) -> RulesetError:
        """A base read by its path that is not even YAML of a ruleset (bad YAML, not UTF-8, a
        duplicate key...): said at the `extends` line with the first problem's line only,
        since its messages may quote the file (a key, a piece of a line)."""
        shown = self.display(path)
        lines = [p.position.line for p in error.problems if p.position and p.position.line > 0]
        at = f", the first at line {min(lines)}" if lines else ""
        message = (
            f"{shown} cannot be read as a ruleset ({len(error.problems)} problem(s){at}); "
            f"nothing in it is shown here (`tarot validate {shown}` names them)"
        )
        return RulesetError([Problem(where, json_path([EXTENDS_KEY]), message)])

    def check_is_ruleset(self, doc: SourceDocument, path: Path, where: Position | None) -> None:
        """A base read by its path (not a built-in ruleset) is used only when it is a ruleset:
        every top-level key a ruleset's section (or a slip of one, which the schema check then
        names). Any other YAML file (a configuration, a file of keys) is refused naming
        neither its keys nor its values: nothing in it is used or shown."""
        if self.any_base:
            return
        sections = ruleset_sections()
        foreign = [
            key
            for key in doc.data
            if not isinstance(key, str)
            or (key not in sections and not closest_names(key, sections, 1, 0.8))
        ]
        if foreign:
            shown = self.display(path)
            some = (
                "1 of its top-level keys is"
                if len(foreign) == 1
                else (f"{len(foreign)} of its top-level keys are")
            )
            message = (
                f"{shown} is not a ruleset: {some} no section of one, so nothing in it is used "
                f"or shown here (`tarot validate {shown}` names them)"
            )
            raise RulesetError([Problem(where, json_path([EXTENDS_KEY]), message)])

    def find_base(self, path: Path, name: str, where: Position | None) -> Path:
        if len(name) > MAX_NAME_LENGTH or "\0" in name:
            shown = name[:40] + "..." if len(name) > 40 else name
            message = (
                f"'extends' names a ruleset of {len(name)} characters ({shown!r}); "
                f"ruleset names and paths are at most {MAX_NAME_LENGTH} characters"
            )
            raise RulesetError([Problem(where, json_path([EXTENDS_KEY]), message)])
        try:
            return self._find_base(path, name, where)
        except OSError as exc:
            message = f"cannot read base ruleset {name!r}: {exc.strerror or exc}"
            raise RulesetError([Problem(where, json_path([EXTENDS_KEY]), message)]) from None

    def _find_base(self, path: Path, name: str, where: Position | None) -> Path:
        if self.names_only and path == self.root:
            return self._find_named(name, where)
        folder = path.parent
        if name.lower().endswith(_PATH_SUFFIXES):
            candidate = folder / name
            if candidate.is_file():
                self.by_path.add(candidate)
                return candidate
            message = f"base ruleset file {name!r} not found (looked for {candidate})"
            if candidate.parent.resolve() == folder.resolve():
                # the files beside the extending one are suggested; another folder's never
                known = sorted(p.name for p in folder.glob("*.y*ml"))
                message += _suggest(name, known)
            raise RulesetError([Problem(where, json_path([EXTENDS_KEY]), message)])
        for suffix in _PATH_SUFFIXES:
            candidate = folder / f"{name}{suffix}"
            if candidate.is_file() and candidate.resolve() != path.resolve():
                self.by_path.add(candidate)
                return candidate
        found = self.find_builtin(name)
        if found is not None:
            return Path(found)
        nearby = {p.stem for p in folder.glob("*.y*ml") if p.resolve() != path.resolve()}
        if self.list_builtins is not None:
            try:
                nearby.update(self.list_builtins())
            except Exception:  # noqa: BLE001 - suggestions are a courtesy only
                pass
        message = (
            f"base ruleset {name!r} not found (neither {name}.yaml next to this file "
            "nor a ruleset of that name on the search path)"
        )
        raise RulesetError(
            [Problem(where, json_path([EXTENDS_KEY]), message + _suggest(name, sorted(nearby)))]
        )

    def _find_named(self, name: str, where: Position | None) -> Path:
        """The base of a file read with `names_only`: a ruleset name, never a path."""
        found = None if any(c in name for c in "/\\") else self.find_builtin(name)
        if found is not None:
            return Path(found)
        known = self.list_builtins() if self.list_builtins is not None else []
        message = f"'extends' names a built-in ruleset, and {name[:60]!r} is none"
        raise RulesetError(
            [Problem(where, json_path([EXTENDS_KEY]), message + _suggest(name, known))]
        )

    # --- merging ------------------------------------------------------------------------

    def merge(self, base: _Node, child: _Node) -> _Node:
        if isinstance(base.value, dict) and isinstance(child.value, dict):
            result = dict(base.value)
            for key, child_value in child.value.items():
                if key in result:
                    result[key] = self.merge(result[key], child_value)
                else:
                    result[key] = self.clean(child_value)
            return _Node(result, child.doc, child.path)
        if (
            isinstance(base.value, list)
            and _is_id_list(child.value)
            and (not base.value or _is_id_list(base.value))
        ):
            return self.merge_by_id(base, child)
        return self.clean(child)

    def merge_by_id(self, base: _Node, child: _Node) -> _Node:
        items: list[_Node] = list(base.value)
        index = {item.value["id"].value: i for i, item in enumerate(items)}
        removed: set[int] = set()
        for child_item in child.value:
            item_id = child_item.value["id"].value
            if _is_removal(child_item):
                i = index.get(item_id)
                if i is None or i in removed:
                    self.unknown_removal(child_item, item_id, [items[j] for j in index.values()])
                else:
                    removed.add(i)
                    self.removed.add((tuple(child.path), str(item_id)))
                continue
            i = index.get(item_id)
            if i is not None and i not in removed:
                items[i] = self.merge(items[i], child_item)
            else:
                index[item_id] = len(items)
                items.append(self.clean(child_item))
        kept = [item for i, item in enumerate(items) if i not in removed]
        return _Node(kept, child.doc, child.path)

    def clean(self, node: _Node) -> _Node:
        """A value taken from the child as is: removal items in it have nothing to remove."""
        if isinstance(node.value, dict):
            return _Node({k: self.clean(v) for k, v in node.value.items()}, node.doc, node.path)
        if isinstance(node.value, list):
            items = []
            for item in node.value:
                if _is_id_list(node.value) and _is_removal(item):
                    self.unknown_removal(item, item.value["id"].value, [])
                    continue
                items.append(self.clean(item))
            return _Node(items, node.doc, node.path)
        return node

    def unknown_removal(self, item: _Node, item_id: Any, candidates: list[_Node]) -> None:
        ids = [str(c.value["id"].value) for c in candidates]
        message = f"cannot remove id {item_id!r}: the base has no item with that id"
        if ids:
            message += _suggest(str(item_id), ids, show_all=False)
        position = item.value["id"].position or item.position
        self.problems.append(Problem(position, json_path(item.path), message))


def _check_root(doc: SourceDocument) -> None:
    """A ruleset file holds one mapping of sections."""
    if isinstance(doc.data, dict):
        return
    if doc.data is None:
        where = Position(doc.file, 0, 0)
        message = "the file is empty: a ruleset is a mapping of sections (title, players, deck...)"
    else:
        where = doc.position(()) or Position(doc.file, 0, 0)
        kind = "a list" if isinstance(doc.data, list) else "a single value"  # never shown
        message = f"a ruleset is a mapping of sections (title, players, deck...), not {kind}"
    raise RulesetError([Problem(where, "$", message)])


def _is_id_list(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(item.value, dict)
            and "id" in item.value
            and isinstance(item.value["id"].value, str | int | float)
            for item in value
        )
    )


def _is_removal(item: _Node) -> bool:
    remove = item.value.get("remove")
    return remove is not None and remove.value is True


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {value!r}"


def _suggest(name: str, known: list[str], show_all: bool = True) -> str:
    text = ""
    close = closest_names(name, known, n=3, cutoff=0.5)
    if close:
        text += "; did you mean " + " or ".join(repr(c) for c in close) + "?"
    if show_all and known:
        text += (" Known: " if close else "; known: ") + ", ".join(known)
    return text


def _flatten(node: _Node, path: DocPath, merged: MergedDocument) -> Any:
    position = node.position
    if position is not None:
        merged.provenance[path] = position
    key_position = node.key_position
    if key_position is not None and path:
        merged.key_provenance[path] = key_position
    merged.origins[path] = (node.doc, node.path)
    if isinstance(node.value, dict):
        return {k: _flatten(v, (*path, k), merged) for k, v in node.value.items()}
    if isinstance(node.value, list):
        return [_flatten(v, (*path, i), merged) for i, v in enumerate(node.value)]
    return node.value
