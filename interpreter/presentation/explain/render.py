"""A rules page (`tarot.presentation.explain.page.Page`) printed as plain text or as Markdown.

Where it sits: the last stage of `tarot explain`. Both formats say the same things in the same
order: the rules section by section (each with its source, the options it reads with the
reading in force, and the number of its assumption), then the options with every reading
(the one in force marked), the parameters, the assumptions and the sources in full.
"""

from __future__ import annotations

import json
import textwrap

from tarot.presentation.explain.page import Option, Page, Reading, Rule
from tarot.presentation.markdown import escape

FORMATS = ("text", "markdown")
WIDTH = 100
IN_FORCE = "in force"


def render(page: Page, fmt: str) -> str:
    return render_markdown(page) if fmt == "markdown" else render_text(page)


def _value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def _sources(keys: list[str]) -> str:
    return ", ".join(keys) if keys else "none named"


def _reads(page: Page, rule: Rule) -> str:
    """The options a rule reads, each with its reading in force and that reading's source."""
    chosen = {
        option.name: f"{reading.name} ({_sources(reading.sources)})"
        for option in page.options
        for reading in option.readings
        if reading.in_force
    }
    return ", ".join(f"{name} = {chosen.get(name, '?')}" for name in rule.options)


def _notes(page: Page, rule: Rule) -> list[str]:
    notes = [f"Source: {_sources(rule.sources)}."]
    if rule.options:
        notes.append(f"Reads option {_reads(page, rule)} (see Options).")
    if rule.assumption is not None:
        notes.append(f"Assumption {rule.assumption} (see Assumptions).")
    return notes


def _reading_marks(reading: Reading) -> str:
    marks = [IN_FORCE] if reading.in_force else []
    if reading.default and not reading.in_force:
        marks.append("the ruleset's default")
    return f" [{', '.join(marks)}]" if marks else ""


# --- text ----------------------------------------------------------------------------------------


def _wrap(text: str, indent: str, hang: str | None = None) -> list[str]:
    return textwrap.wrap(
        text,
        WIDTH,
        initial_indent=indent,
        subsequent_indent=hang if hang is not None else indent,
        break_on_hyphens=False,
        break_long_words=False,
    ) or [indent]


def render_text(page: Page) -> str:
    out = [page.title, "=" * len(page.title), f"(ruleset {page.ruleset})"]
    for text in page.about:
        out += ["", *_wrap(text, "")]
    for number, section in enumerate(page.sections, 1):
        title = f"{number}. {section.title}"
        out += ["", title, "-" * len(title)]
        for rule in section.rules:
            out.append(f"{rule.title}")
            for line in rule.lines:
                out += _wrap(line, "  - ", "    ")
            for note in _notes(page, rule):
                out += _wrap(note, "  ", "    ")
    if page.options:
        out += ["", "Options", "-------"]
        for option in page.options:
            out += _option_text(option)
    if page.parameters:
        out += ["", "Parameters", "----------"]
        for parameter in page.parameters:
            line = f"{parameter.name} = {_value(parameter.value)}: {parameter.description}"
            line += f" Source: {_sources(parameter.sources)}."
            if parameter.assumption is not None:
                line += f" Assumption {parameter.assumption}."
            out += _wrap(line, "  ", "    ")
    if page.assumptions:
        out += ["", "Assumptions", "-----------"]
        for assumption in page.assumptions:
            out += _wrap(
                f"{assumption.number}. {assumption.where}: {assumption.text}", "  ", "     "
            )
    if page.sources:
        out += ["", "Sources", "-------"]
        for key, citation, url in page.sources:
            out += _wrap(f"{key}: {citation}" + (f" <{url}>" if url else ""), "  ", "    ")
    return "\n".join(out)


def _option_text(option: Option) -> list[str]:
    out = _wrap(f"{option.name}: {option.description}", "")
    for reading in option.readings:
        line = (
            f"{reading.name}{_reading_marks(reading)}: value {_value(reading.value)}."
            f" {reading.description} Source: {_sources(reading.sources)}."
        )
        if reading.assumption is not None:
            line += f" Assumption {reading.assumption}."
        marker = "  * " if reading.in_force else "  - "
        out += _wrap(line, marker, "    ")
    read_by = "; ".join(option.read_by) if option.read_by else "no rule"
    out += _wrap(f"Read by: {read_by}.", "  ", "    ")
    return out


# --- Markdown ------------------------------------------------------------------------------------


def render_markdown(page: Page) -> str:
    out = [f"# {page.title}", "", f"Ruleset `{page.ruleset}`."]
    for text in page.about:
        out += ["", text]
    for number, section in enumerate(page.sections, 1):
        out += ["", f"## {number}. {section.title}"]
        for rule in section.rules:
            out += ["", f"### {rule.title}", ""]
            out += [f"- {line}" for line in rule.lines]
            out += ["", " ".join(_notes(page, rule))]
    if page.options:
        out += ["", "## Options"]
        for option in page.options:
            out += ["", f"### `{option.name}`", "", option.description, ""]
            for reading in option.readings:
                name = f"**`{reading.name}`**" if reading.in_force else f"`{reading.name}`"
                line = (
                    f"- {name}{_reading_marks(reading)}: value `{_value(reading.value)}`."
                    f" {reading.description} Source: {_sources(reading.sources)}."
                )
                if reading.assumption is not None:
                    line += f" Assumption {reading.assumption}."
                out.append(line)
            read_by = "; ".join(option.read_by) if option.read_by else "no rule"
            out += ["", f"Read by: {read_by}."]
    if page.parameters:
        out += ["", "## Parameters", "", "| name | value | meaning | source |", "|---|---|---|---|"]
        for parameter in page.parameters:
            meaning = parameter.description
            if parameter.assumption is not None:
                meaning += f" Assumption {parameter.assumption}."
            out.append(
                f"| `{parameter.name}` | {escape(_value(parameter.value))} | {escape(meaning)}"
                f" | {_sources(parameter.sources)} |"
            )
    if page.assumptions:
        out += ["", "## Assumptions", ""]
        out += [f"{a.number}. {a.where}: {a.text}" for a in page.assumptions]
    if page.sources:
        out += ["", "## Sources", ""]
        for key, citation, url in page.sources:
            out.append(f"- `{key}`: {citation}" + (f" <{url}>" if url else ""))
    return "\n".join(out)
