"""The "diff on paper": what differs between two rulesets as written, after `extends`.

Where it sits: after loading. `diff_rulesets(a, b)` loads both rulesets through
`tarot.load` (so a broken ruleset raises the same `RulesetError` as everywhere
else), once each, and compares their effective documents (`Ruleset.document`, in which every
`{option: X}` already stands for the chosen reading's value) beside the documents as written
(`Ruleset.written`, after `extends`, before the readings are substituted). It returns a
`RulesetDiff`, plain dataclasses and JSON-able values only; `tarot.measure.diff.render` prints it.

Three groups of differences:

* options: added, removed, a different chosen reading (old and new reading with value,
  description, source and citation), or a changed definition (readings added, removed, or
  with another value, description or source);
* rules: payments, settlement rules and declarations (`declarations.table`) matched by `id`:
  added, removed, or changed field by field, with the `source` each side cites;
* other: every other section compared key by key, down to the leaves, each with its JSON
  path, old and new value and the nearest enclosing `source` on each side.

A value that differs only because it stands for an option (`{option: X}` at the same place on
both sides, read from the document before substitution) is reported under option X as a place
that follows it, not as an unexplained change elsewhere.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.errors import Problem, RulesetError, json_path

__all__ = [
    "OptionChange",
    "ReadingInfo",
    "RuleChange",
    "RulesetDiff",
    "SideInfo",
    "ValueChange",
    "diff_loaded",
    "diff_rulesets",
]

Kind = Literal["added", "removed", "changed"]
Source = str | list[str] | None

#: The sections compared rule by rule (lists of items with an `id`), by their path.
RULE_SECTIONS: dict[tuple[str, ...], str] = {
    ("payments",): "payments",
    ("settlement",): "settlement",
    ("declarations", "table"): "declarations",
}
#: Paths that the key-by-key comparison of "other" sections leaves to the option and rule parts.
_NOT_OTHER = frozenset({("options",), *RULE_SECTIONS})


@dataclass
class SideInfo:
    """One of the two rulesets compared."""

    name: str
    title: str
    path: str


@dataclass
class ValueChange:
    """One value that differs, at `path` (a JSON path into the second ruleset, or into the
    first for a removal). `old_source`/`new_source` are the nearest enclosing `source` on
    each side; `old_option`/`new_option` the option whose `{option: X}` stands at or above
    the value on each side, if any."""

    path: str
    kind: Kind
    old: Any = None
    new: Any = None
    old_source: Source = None
    new_source: Source = None
    old_option: str | None = None
    new_option: str | None = None


@dataclass
class ReadingInfo:
    """A reading of an option: what it makes the option's value, and on whose authority."""

    reading: str
    value: Any
    description: str | None
    source: Source
    citation: str
    assumption: str | None = None


@dataclass
class OptionChange:
    """An option added, removed, or changed (its chosen reading, or its definition).

    `old`/`new` are the chosen readings on each side (None where the option is missing);
    `reading_changed` says whether the chosen reading differs; `definition` lists changes
    inside the option itself (its description, its readings); `follows` lists the places in
    the rules whose value differs because they stand for this option; `read_by` the
    expressions that read it by name."""

    option: str
    kind: Kind
    old: ReadingInfo | None
    new: ReadingInfo | None
    reading_changed: bool
    old_readings: list[str] = field(default_factory=list)
    new_readings: list[str] = field(default_factory=list)
    definition: list[ValueChange] = field(default_factory=list)
    follows: list[ValueChange] = field(default_factory=list)
    #: Paths of the expressions that read the option by name (`option.X`), in `b` (or in `a`
    #: for a removed option): their value is unchanged but what they compute is not.
    read_by: list[str] = field(default_factory=list)


@dataclass
class RuleChange:
    """A payment, settlement rule or declaration added, removed or changed (matched by id).

    For an added or removed rule `rule` holds the whole rule as written; for a changed one
    `fields` lists what differs inside it."""

    section: str  # "payments", "settlement" or "declarations"
    id: str
    kind: Kind
    name: str | None
    old_source: Source
    new_source: Source
    path: str
    fields: list[ValueChange] = field(default_factory=list)
    rule: dict[str, Any] | None = None


@dataclass
class RulesetDiff:
    """Every difference between rulesets `a` and `b`, grouped for reading."""

    a: SideInfo
    b: SideInfo
    options: list[OptionChange] = field(default_factory=list)
    rules: list[RuleChange] = field(default_factory=list)
    other: list[ValueChange] = field(default_factory=list)
    #: Source key -> citation, for every source key named anywhere above.
    citations: dict[str, str] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not (self.options or self.rules or self.other)


# --- entry points ---------------------------------------------------------------------------


def load_pair(a: str | Path, b: str | Path) -> tuple[Ruleset, Ruleset]:
    """Load two rulesets (built-in names or paths), as `diff_loaded` takes them.

    Raises RulesetError with the problems of both if either does not load."""
    problems: list[Problem] = []
    loaded: list[Ruleset] = []
    for spec in (a, b):
        try:
            loaded.append(load_ruleset(spec))
        except RulesetError as error:
            problems += error.problems
    if problems:
        raise RulesetError(problems)
    return loaded[0], loaded[1]


def diff_rulesets(a: str | Path, b: str | Path) -> RulesetDiff:
    """Load two rulesets (built-in names or paths) and compare them as written."""
    return diff_loaded(*load_pair(a, b))


def diff_loaded(a: Ruleset, b: Ruleset) -> RulesetDiff:
    """Compare two loaded rulesets, each effective document beside the one as written."""
    side_a, side_b = _Side.root(a.document, a.written), _Side.root(b.document, b.written)
    diff = RulesetDiff(
        a=SideInfo(a.id, a.title, a.path),
        b=SideInfo(b.id, b.title, b.path),
    )
    diff.options = _options(a, b)
    changed_options = {change.option: change for change in diff.options}

    def explained(change: ValueChange) -> bool:
        """Move a change that only follows a changed option under that option."""
        option = change.old_option
        if option is not None and option == change.new_option and option in changed_options:
            changed_options[option].follows.append(change)
            return True
        return False

    for change in _rules(side_a, side_b):
        if change.kind == "changed":
            change.fields = [f for f in change.fields if not explained(f)]
            if not change.fields:
                continue
        diff.rules.append(change)
    other: list[ValueChange] = []
    _compare(side_a, side_b, other, skip=_NOT_OTHER)
    diff.other = [change for change in other if not explained(change)]
    diff.citations = _citations(diff, a.sources, b.sources)
    return diff


# --- walking both documents in step ------------------------------------------------------


@dataclass(frozen=True)
class _Side:
    """A place in one ruleset: the effective value there, the value before substitution
    (None below an `{option: X}`), the path, the nearest enclosing source and option."""

    value: Any
    raw: Any
    parts: tuple[str | int, ...]
    source: Source
    option: str | None
    #: True at the very place where `{option: X}` was written.
    at_reference: bool = False

    @staticmethod
    def root(document: Any, raw: Any) -> _Side:
        return _Side(document, raw, (), None, None)

    def child(self, key: str | int) -> _Side:
        value = self.value[key]
        raw = _get(self.raw, key)
        option = self.option
        reference = _option_reference(raw)
        if reference is not None:
            option, raw = reference, None
        source = self.source
        if isinstance(self.value, dict) and "source" in self.value:
            source = self.value["source"]
        return _Side(value, raw, (*self.parts, key), source, option, reference is not None)

    @property
    def path(self) -> str:
        return json_path(self.parts)


def _get(raw: Any, key: str | int) -> Any:
    if isinstance(raw, dict):
        return raw.get(key)
    if isinstance(raw, list) and isinstance(key, int) and 0 <= key < len(raw):
        return raw[key]
    return None


def _option_reference(raw: Any) -> str | None:
    if isinstance(raw, dict) and set(raw) == {"option"} and isinstance(raw["option"], str):
        return raw["option"]
    return None


def _change(kind: Kind, a: _Side | None, b: _Side | None) -> ValueChange:
    where = b if b is not None else a
    assert where is not None
    return ValueChange(
        path=where.path,
        kind=kind,
        old=a.value if a is not None else None,
        new=b.value if b is not None else None,
        old_source=a.source if a is not None else None,
        new_source=b.source if b is not None else None,
        old_option=a.option if a is not None else None,
        new_option=b.option if b is not None else None,
    )


def _same(a: Any, b: Any) -> bool:
    """Equal as written: `1` and `true`, or `1` and `1.0`, differ."""
    if a != b:
        return False
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def _is_id_list(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) and "id" in item for item in value)
    )


def _is_scalar_list(value: Any) -> bool:
    return isinstance(value, list) and not any(isinstance(v, dict | list) for v in value)


def _compare(
    a: _Side,
    b: _Side,
    out: list[ValueChange],
    skip: frozenset[tuple[str | int, ...]] = frozenset(),
) -> None:
    """Append to `out` every leaf that differs between `a` and `b`."""
    if _same(a.value, b.value):
        return
    if a.at_reference and b.at_reference and a.option == b.option:
        # the whole value an option supplies is one change, at the place that names it
        out.append(_change("changed", a, b))
        return
    if isinstance(a.value, dict) and isinstance(b.value, dict):
        for key in _keys(a.value, b.value):
            if (*a.parts, key) in skip:
                continue
            if key not in b.value:
                out.append(_change("removed", a.child(key), None))
            elif key not in a.value:
                out.append(_change("added", None, b.child(key)))
            else:
                _compare(a.child(key), b.child(key), out, skip)
        return
    if _is_id_list(a.value) and _is_id_list(b.value):
        for kind, item_a, item_b in _match_by_id(a, b):
            if kind == "changed":
                assert item_a is not None and item_b is not None  # matched: on both sides
                _compare(item_a, item_b, out)
            else:
                out.append(_change(kind, item_a, item_b))
        return
    if (
        isinstance(a.value, list)
        and isinstance(b.value, list)
        and not (_is_scalar_list(a.value) and _is_scalar_list(b.value))
    ):
        common = min(len(a.value), len(b.value))
        for i in range(common):
            _compare(a.child(i), b.child(i), out)
        for i in range(common, len(a.value)):
            out.append(_change("removed", a.child(i), None))
        for i in range(common, len(b.value)):
            out.append(_change("added", None, b.child(i)))
        return
    out.append(_change("changed", a, b))


def _keys(a: dict, b: dict) -> Iterator[str]:
    yield from a
    yield from (key for key in b if key not in a)


def _match_by_id(a: _Side, b: _Side) -> Iterator[tuple[Kind, _Side | None, _Side | None]]:
    """Items of two id lists: those of `a` in order (removed or matched), then new ones."""
    index_b = {item["id"]: i for i, item in enumerate(b.value)}
    ids_a = {item["id"] for item in a.value}
    for i, item in enumerate(a.value):
        if item["id"] in index_b:
            yield "changed", a.child(i), b.child(index_b[item["id"]])
        else:
            yield "removed", a.child(i), None
    for i, item in enumerate(b.value):
        if item["id"] not in ids_a:
            yield "added", None, b.child(i)


# --- rules ------------------------------------------------------------------------------------


def _descend(side: _Side, parts: tuple[str, ...], default: Any) -> _Side:
    """The side at `parts` below `side`, or an empty stand-in where a section is missing."""
    for i, key in enumerate(parts):
        if not isinstance(side.value, dict) or key not in side.value:
            rest = parts[i:]
            return _Side(default, None, (*side.parts, *rest), side.source, side.option)
        side = side.child(key)
    return side


def _rules(a: _Side, b: _Side) -> list[RuleChange]:
    changes: list[RuleChange] = []
    for parts, section in RULE_SECTIONS.items():
        list_a, list_b = _descend(a, parts, []), _descend(b, parts, [])
        if not isinstance(list_a.value, list) or not isinstance(list_b.value, list):
            continue
        for kind, item_a, item_b in _match_by_id(list_a, list_b):
            rule_a = item_a.value if item_a is not None else {}
            rule_b = item_b.value if item_b is not None else {}
            change = RuleChange(
                section=section,
                id=str((rule_b or rule_a).get("id")),
                kind=kind,
                name=rule_b.get("name", rule_a.get("name")),
                old_source=rule_a.get("source"),
                new_source=rule_b.get("source"),
                path=(item_b or item_a).path,  # type: ignore[union-attr]
            )
            if kind == "changed":
                assert item_a is not None and item_b is not None
                _compare(item_a, item_b, change.fields)
                if not change.fields:
                    continue
            else:
                change.rule = rule_b or rule_a
            changes.append(change)
    return changes


# --- options ----------------------------------------------------------------------------------


def _reading(ruleset: Ruleset, option: str) -> ReadingInfo | None:
    chosen = ruleset.options.get(option)
    readings = ruleset.document.get("options", {}).get(option, {}).get("readings", {})
    if chosen is None or chosen not in readings:
        return None
    reading = readings[chosen]
    source = reading.get("source")
    return ReadingInfo(
        reading=chosen,
        value=reading.get("value"),
        description=reading.get("description"),
        source=source,
        citation="; ".join(ruleset.sources.get(key, "") for key in _source_keys(source)),
        assumption=reading.get("assumption"),
    )


def _options(a: Ruleset, b: Ruleset) -> list[OptionChange]:
    options_a = a.document.get("options", {})
    options_b = b.document.get("options", {})
    root_a = _Side.root(a.document, None)
    root_b = _Side.root(b.document, None)
    changes: list[OptionChange] = []
    for name in _keys(options_a, options_b):
        old = _reading(a, name) if name in options_a else None
        new = _reading(b, name) if name in options_b else None
        change = OptionChange(
            option=name,
            kind="changed",
            old=old,
            new=new,
            reading_changed=(old is None) != (new is None)
            or (old is not None and new is not None and old.reading != new.reading),
            old_readings=list(options_a.get(name, {}).get("readings", {})),
            new_readings=list(options_b.get(name, {}).get("readings", {})),
        )
        if name not in options_b:
            change.kind = "removed"
        elif name not in options_a:
            change.kind = "added"
        else:
            side_a = root_a.child("options").child(name)
            side_b = root_b.child("options").child(name)
            _compare(
                side_a, side_b, change.definition, skip=frozenset({(*side_a.parts, "default")})
            )
            if not change.reading_changed and not change.definition:
                continue
        document = b.document if name in options_b else a.document
        change.read_by = list(_expressions_reading(document, name))
        changes.append(change)
    return changes


def _expressions_reading(node: Any, option: str, parts: tuple = ()) -> Iterator[str]:
    """Paths of the strings (expressions) outside `options` that mention `option.NAME`."""
    if parts == ("options",):
        return
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _expressions_reading(value, option, (*parts, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _expressions_reading(value, option, (*parts, i))
    elif isinstance(node, str) and re.search(rf"\boption\.{re.escape(option)}\b", node):
        yield json_path(parts)


# --- citations --------------------------------------------------------------------------------


def _source_keys(source: Source) -> list[str]:
    if source is None:
        return []
    if isinstance(source, str):
        return [source]
    return [key for key in source if isinstance(key, str)]


def _value_sources(changes: list[ValueChange]) -> Iterator[Source]:
    for change in changes:
        yield change.old_source
        yield change.new_source


def _citations(
    diff: RulesetDiff, sources_a: Mapping[str, str], sources_b: Mapping[str, str]
) -> dict[str, str]:
    named: list[Source] = []
    for option in diff.options:
        named += [r.source for r in (option.old, option.new) if r is not None]
        named += _value_sources(option.definition)
        named += _value_sources(option.follows)
    for rule in diff.rules:
        named += [rule.old_source, rule.new_source, *_value_sources(rule.fields)]
    named += _value_sources(diff.other)
    found: dict[str, str] = {}
    for source in named:
        for key in _source_keys(source):
            if key not in found:
                found[key] = sources_b.get(key, sources_a.get(key, ""))
    return dict(sorted(found.items()))
