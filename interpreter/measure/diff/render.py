"""Printing a `RulesetDiff` (from `tarot.measure.diff.paper`) as text, JSON or Markdown.

Where it sits: the last step of `tarot diff`. `paper` computes the differences; this module
only formats them, grouped as Options / Rules / Other, with the citation of every source key
it names at the end. Text is for the terminal, JSON (`dataclasses.asdict` of the diff) for
programs, Markdown (tables) for notes and reports.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

from tarot.measure.diff.paper import OptionChange, ReadingInfo, RuleChange, RulesetDiff, ValueChange
from tarot.presentation.markdown import escape, table

__all__ = ["FORMATS", "render", "to_json", "to_markdown", "to_text"]


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _source(source: Any) -> str:
    if source is None:
        return "-"
    if isinstance(source, list):
        return ", ".join(str(s) for s in source)
    return str(source)


def _sources(old: Any, new: Any) -> str:
    if old is None and new is None:
        return ""
    if old == new:
        return f"source: {_source(new)}"
    return f"source: {_source(old)} -> {_source(new)}"


def _option_note(change: ValueChange) -> str:
    old, new = change.old_option, change.new_option
    if old is None and new is None:
        return ""
    if old == new:
        return f"follows option {new}"
    a = f"option {old}" if old else "written out"
    b = f"option {new}" if new else "written out"
    return f"a: {a}, b: {b}"


# --- text ---------------------------------------------------------------------------------------


def _text_value_change(change: ValueChange, notes: list[str] | None = None) -> str:
    if change.kind == "added":
        line = f"{change.path}: added {_value(change.new)}"
    elif change.kind == "removed":
        line = f"{change.path}: removed {_value(change.old)}"
    else:
        line = f"{change.path}: {_value(change.old)} -> {_value(change.new)}"
    extra = [_sources(change.old_source, change.new_source), *(notes or [])]
    extra = [e for e in extra if e]
    return line + (f"  ({'; '.join(extra)})" if extra else "")


def _text_reading(label: str, reading: ReadingInfo | None) -> list[str]:
    if reading is None:
        return [f"{label}  (no such option)"]
    lines = [
        f"{label} {reading.reading} = {_value(reading.value)}  (source: {_source(reading.source)})"
    ]
    if reading.description:
        lines.append(f"    {reading.description}")
    if reading.assumption:
        lines.append(f"    assumption: {reading.assumption}")
    return lines


def _text_option(option: OptionChange) -> list[str]:
    if option.kind == "changed":
        what = "reading changed" if option.reading_changed else "readings changed"
        if option.reading_changed and option.definition:
            what = "reading and readings changed"
    else:
        what = option.kind
    lines = [f"  {option.option}: {what}"]
    if option.kind == "changed" and not option.reading_changed:
        lines += ["    " + line for line in _text_reading("chosen", option.new)]
    else:
        if option.kind != "added":
            lines += ["    " + line for line in _text_reading("was", option.old)]
        if option.kind != "removed":
            lines += ["    " + line for line in _text_reading("now", option.new)]
    if option.definition:
        lines.append("    in the option's definition:")
        lines += ["      " + _text_value_change(c) for c in option.definition]
    for change in option.follows:
        sources = _sources(change.old_source, change.new_source)
        lines.append(
            f"    {change.path} follows option {option.option}"
            + (f"  ({sources})" if sources else "")
        )
    if option.read_by:
        lines.append("    read by: " + ", ".join(option.read_by))
    return lines


def _text_rule(rule: RuleChange) -> list[str]:
    name = f' "{rule.name}"' if rule.name else ""
    if rule.kind == "added":
        sources = _sources(rule.new_source, rule.new_source)
    elif rule.kind == "removed":
        sources = _sources(rule.old_source, rule.old_source)
    else:
        sources = _sources(rule.old_source, rule.new_source)
    head = f"  {rule.section} {rule.id}{name}: {rule.kind}  [{rule.path}]"
    lines = [head + (f"  ({sources})" if sources else "")]
    lines += ["    " + _text_value_change(c, [_option_note(c)]) for c in rule.fields]
    return lines


def to_text(diff: RulesetDiff) -> str:
    lines = [f"{diff.a.name} -> {diff.b.name}"]
    for label, side in (("a", diff.a), ("b", diff.b)):
        lines.append(f"  {label}: {side.name}  {side.title}  ({side.path})")
    if diff.empty:
        lines.append("")
        lines.append("no differences")
        return "\n".join(lines)
    if diff.options:
        lines += ["", f"Options ({len(diff.options)})"]
        for option in diff.options:
            lines += _text_option(option)
    if diff.rules:
        lines += ["", f"Rules ({len(diff.rules)})"]
        for rule in diff.rules:
            lines += _text_rule(rule)
    if diff.other:
        lines += ["", f"Other ({len(diff.other)})"]
        lines += ["  " + _text_value_change(c, [_option_note(c)]) for c in diff.other]
    if diff.citations:
        lines += ["", "Sources cited"]
        lines += [f"  {key}: {citation}" for key, citation in diff.citations.items()]
    return "\n".join(lines)


# --- JSON ---------------------------------------------------------------------------------------


def to_json(diff: RulesetDiff) -> str:
    return json.dumps(dataclasses.asdict(diff), indent=2, ensure_ascii=False, default=str)


# --- Markdown -----------------------------------------------------------------------------------


def _code(value: Any) -> str:
    if value is None:
        return ""
    text = _value(value)
    return escape(f"`{text}`" if "`" not in text else text)


def _reading_cells(reading: ReadingInfo | None) -> list[str]:
    if reading is None:
        return ["", "", ""]
    return [escape(reading.reading), _code(reading.value), escape(_source(reading.source))]


def _value_row(change: ValueChange) -> list[str]:
    return [
        escape(f"`{change.path}`"),
        change.kind,
        _code(change.old),
        _code(change.new),
        escape(_source(change.old_source) if change.old_source is not None else ""),
        escape(_source(change.new_source) if change.new_source is not None else ""),
    ]


def to_markdown(diff: RulesetDiff) -> str:
    lines = [f"# `{diff.a.name}` → `{diff.b.name}`", ""]
    lines += table(
        ["", "ruleset", "title", "file"],
        [
            [label, escape(f"`{side.name}`"), escape(side.title), escape(f"`{side.path}`")]
            for label, side in (("a", diff.a), ("b", diff.b))
        ],
    )
    if diff.empty:
        return "\n".join([*lines, "", "No differences."])
    if diff.options:
        lines += ["", "## Options", ""]
        lines += table(
            ["option", "change", "a: reading", "a: value", "a: source"]
            + ["b: reading", "b: value", "b: source"],
            [
                [escape(o.option), escape(_option_kind(o))]
                + _reading_cells(o.old)
                + _reading_cells(o.new)
                for o in diff.options
            ],
        )
        details = [
            [escape(o.option), note, *_value_row(c)]
            for o in diff.options
            for note, changes in (("definition", o.definition), ("follows the option", o.follows))
            for c in changes
        ]
        if details:
            lines.append("")
            lines += table(
                ["option", "why", "path", "change", "a", "b", "a: source", "b: source"], details
            )
        read_by = [o for o in diff.options if o.read_by]
        if read_by:
            lines.append("")
            lines += [
                f"- `{o.option}` is read by " + ", ".join(f"`{p}`" for p in o.read_by)
                for o in read_by
            ]
    if diff.rules:
        lines += ["", "## Rules", ""]
        rows = []
        for rule in diff.rules:
            head = [rule.section, escape(f"`{rule.id}`"), escape(rule.name or ""), rule.kind]
            sides = [escape(_source(rule.old_source)), escape(_source(rule.new_source))]
            if rule.kind == "changed":
                rows += [head + _value_row(c)[:1] + _value_row(c)[2:4] + sides for c in rule.fields]
            else:
                rows.append(head + [escape(f"`{rule.path}`"), "", ""] + sides)
        lines += table(
            ["section", "id", "name", "change", "path", "a", "b", "a: source", "b: source"], rows
        )
    if diff.other:
        lines += ["", "## Other", ""]
        lines += table(
            ["path", "change", "a", "b", "a: source", "b: source"],
            [_value_row(c) for c in diff.other],
        )
    if diff.citations:
        lines += ["", "## Sources cited", ""]
        lines += [f"- `{key}`: {escape(citation)}" for key, citation in diff.citations.items()]
    return "\n".join(lines)


def _option_kind(option: OptionChange) -> str:
    if option.kind != "changed":
        return option.kind
    return "reading changed" if option.reading_changed else "readings changed"


# --- choosing -----------------------------------------------------------------------------------

FORMATS: dict[str, Callable[[RulesetDiff], str]] = {
    "text": to_text,
    "json": to_json,
    "markdown": to_markdown,
}


def render(diff: RulesetDiff, fmt: str = "text") -> str:
    """The diff in one of `FORMATS` ("text", "json", "markdown")."""
    return FORMATS[fmt](diff)
