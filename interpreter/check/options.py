"""Check stage, first part: the options' readings chosen and put in place.

Pipeline: schema_check -> **options** -> semantic_checks -> compile (all run by
:mod:`~tarot.compile.loader`). Builds nothing the engine runs: it chooses a
reading for every option (the default unless the user chose one), replaces every
``{option: NAME}`` outside ``options`` by the chosen reading's value (which keeps the
reading's file position), and checks the schema again where readings went in, since a
reading's value must fit where it now stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tarot.check.draft import Draft
from tarot.check.schema_check import schema_problems
from tarot.errors import Problem

__all__ = ["Readings", "choose_readings"]


@dataclass
class Readings:
    """What the options stage settled."""

    #: option -> the chosen reading's name
    chosen: dict[str, str] = field(default_factory=dict)
    #: option -> the chosen reading's value (what `option.NAME` reads in an expression)
    values: dict[str, object] = field(default_factory=dict)
    #: parameter -> its value (what `param.NAME` reads)
    params: dict[str, object] = field(default_factory=dict)
    #: where a reading was put in (path parts) -> the option it is the reading of
    reads: dict[tuple, frozenset[str]] = field(default_factory=dict)
    #: the paths inside each reading's value, found once for all the places it goes
    reading_paths: dict[tuple, list[tuple]] | None = field(default=None, repr=False)


def choose_readings(draft: Draft, choices: Mapping[str, str], schema: Mapping) -> Readings | None:
    """The readings, put in place in ``draft.data``; None when the options themselves have a
    problem (reported in ``draft``), since everything after reads them."""
    readings = Readings()
    before = len(draft.problems)
    _choose(draft, choices, readings)
    for name, param in draft.data.get("parameters", {}).items():
        readings.params[name] = param.get("value")
    _substitute(draft, readings, draft.data, ())
    if len(draft.problems) > before:
        return None
    _check_readings_in_place(draft, readings, schema)
    return readings


def _choose(draft: Draft, choices: Mapping[str, str], readings: Readings) -> None:
    options = draft.data.get("options", {})
    for name in choices:
        if name not in options:
            draft.problem(
                ("options",),
                f"no option named {name!r} to choose; options: " + ", ".join(sorted(options)),
            )
    for name, option in options.items():
        where = ("options", name)
        found = option.get("readings")
        if not found:
            draft.problem(where, f"option {name!r} has no readings")
            continue
        for reading_name, reading in found.items():
            for key in ("value", "source", "description"):
                if key not in reading:
                    draft.problem(
                        where + ("readings", reading_name),
                        f"reading {reading_name!r} needs '{key}'",
                    )
        chosen = choices.get(name, option.get("default"))
        if chosen not in found:
            chooser = "default" if name not in choices else None
            draft.problem(
                where + ((chooser,) if chooser else ()),
                f"option {name!r} has no reading {chosen!r}; readings: " + ", ".join(found),
            )
            continue
        readings.chosen[name] = chosen
        readings.values[name] = found[chosen].get("value")


def _substitute(draft: Draft, readings: Readings, node: object, parts: tuple) -> object:
    """Replace every `{option: NAME}` (outside `options`) by the chosen reading's value."""
    if parts == ("options",) or parts in draft.broken:
        return node
    if isinstance(node, dict):
        if set(node) == {"option"}:
            name = node["option"]
            if name not in readings.values:
                draft.problem(
                    parts + ("option",),
                    f"unknown option {name!r}; options: "
                    + ", ".join(sorted(draft.data.get("options", {}))),
                )
                return node
            _copy_positions(
                draft,
                readings,
                ("options", name, "readings", readings.chosen[name], "value"),
                parts,
            )
            readings.reads[parts] = frozenset({name})
            return readings.values[name]
        for key, value in list(node.items()):
            node[key] = _substitute(draft, readings, value, parts + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            node[i] = _substitute(draft, readings, value, parts + (i,))
    return node


def _copy_positions(draft: Draft, readings: Readings, source: tuple, target: tuple) -> None:
    """Values substituted from an option's reading keep the reading's file positions."""
    if readings.reading_paths is None:  # every path inside a reading's value, by the value
        readings.reading_paths = {}
        for path in draft.provenance:
            if path[:1] == ("options",) and len(path) >= len(source):
                readings.reading_paths.setdefault(path[: len(source)], []).append(path)
    for path in readings.reading_paths.get(source, ()):
        draft.provenance[target + path[len(source) :]] = draft.provenance[path]


def _check_readings_in_place(draft: Draft, readings: Readings, schema: Mapping) -> None:
    """A reading's value now stands where `{option: X}` stood: it must fit there too.

    Only the problems in the sections a reading went into are kept: the others are as the
    schema check saw them, and the ruleset's top level (the sections it has) is unchanged, so
    the problems outside those sections would be the ones already found. The whole document
    is checked, not those sections alone, so that once found valid it is known valid
    (`check.known_valid`) and the next load checks nothing (the sections alone, without the
    keys the schema requires, were never valid, and were checked at every load)."""
    changed = {parts[:1] for parts in readings.reads}
    if not changed:
        return
    reported = {problem.path for problem in draft.problems}
    for where, problem in schema_problems(draft.data, draft.provenance, schema):
        if where[:1] not in changed or problem.path in reported or where in draft.broken:
            continue
        draft.broken.add([where])
        message = f"{problem.message} (with the options' chosen readings)"
        draft.problems.append(Problem(problem.position, problem.path, message))
