"""Check stage, its start: the merged ruleset against its JSON Schema.

Pipeline: yaml_source -> inheritance (load) -> **schema_check** -> options -> semantic_checks
(check) -> compile.

:func:`check_schema` validates with the validator class named by the schema's ``$schema``
(Draft 2020-12 by default), collects *all* errors, and turns each into a positioned
:class:`~tarot.errors.Problem` with a message written for ruleset authors. Validation
(:func:`validation_errors`) is kept apart from wording (:func:`describe_error`) and from
positioning (:func:`check_schema`). A document found valid before is not validated again
(`check.known_valid`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tarot.check import known_valid
from tarot.errors import Position, Problem, closest_names, json_path, nearest_position
from tarot.load.yaml_core import yaml11_reading

#: The schema's pattern of a name (`$defs.name`): ids of rules, card sets, options...
NAME_PATTERN = "^[a-z][a-z0-9_]*$"
#: The schema's pattern of a text printed on one line (the unit's names).
ONE_LINE_PATTERN = r"^[^\u0000-\u001f\u007f]+$"
#: How the message of a key the schema does not allow begins.
UNKNOWN_KEY = "unknown key "

__all__ = [
    "UNKNOWN_KEY",
    "Finding",
    "check_schema",
    "describe_error",
    "schema_problems",
    "validation_errors",
]

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

DocPath = tuple[str | int, ...]

#: One thing to report: the path it is about, the message, and whether the path names a
#: mapping key (an unknown key) rather than a value.
Finding = tuple[DocPath, str, bool]


# --- validation ----------------------------------------------------------------------------


def validation_errors(data: Any, schema: Mapping[str, Any]) -> list[ValidationError]:
    """Every validation error, using the validator class for the schema's ``$schema``.

    ``integer`` means a number written without a decimal point: JSON Schema also accepts
    ``5.0``, which would reach the engine as a fraction where a count is meant, so a whole
    number written with a decimal point is refused here (and the message says what to write).
    """
    key = known_valid.document_key(data, schema)
    if known_valid.is_known_valid(key):  # the same document was found valid before
        return []
    from jsonschema import validators

    cls = validator_for(schema)
    strict = validators.extend(
        cls, type_checker=cls.TYPE_CHECKER.redefine("integer", _is_written_integer)
    )
    validator = strict(schema, format_checker=cls.FORMAT_CHECKER)
    errors = list(validator.iter_errors(data))
    if not errors:
        known_valid.remember_valid(key)
    return errors


def validator_for(schema: Mapping[str, Any]) -> type[Validator]:
    """The validator class for the schema's ``$schema`` (Draft 2020-12 by default).
    jsonschema is imported here, when a document is validated, not when the check is
    imported: it takes a tenth of a second, and a document known valid needs none of it."""
    from jsonschema import Draft202012Validator
    from jsonschema.validators import validator_for as class_for

    return class_for(schema, default=Draft202012Validator)


def _is_written_integer(_checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


# --- wording -------------------------------------------------------------------------------


def describe_error(error: ValidationError) -> list[Finding]:
    """Turn one validation error into one or more findings with people-friendly messages."""
    path: DocPath = tuple(error.absolute_path)
    kind = error.validator
    if kind in ("oneOf", "anyOf"):
        branch = _closest_branch(error)
        if branch:
            return [finding for sub in branch for finding in describe_error(sub)]
        if error.context:
            from jsonschema.exceptions import best_match

            # best_match descends into the context preferring the deepest sub-error (the
            # branch that got furthest); when it cannot choose, rank the context directly.
            best = best_match([error])
            if best is error or best is None:
                best = best_match(error.context)
            if best is not None and best is not error:
                return describe_error(best)
        if kind == "oneOf":
            return [(path, "matches more than one of the allowed forms; it must match one", False)]
    if kind in ("additionalProperties", "unevaluatedProperties") and isinstance(
        error.instance, dict
    ):
        findings = _unknown_keys(error, path)
        if findings:
            return findings
    if kind == "required" and isinstance(error.instance, dict):
        missing = [
            key
            for key in error.validator_value
            if key not in error.instance and error.message == f"{key!r} is a required property"
        ]
        key = missing[0] if missing else _first_missing(error)
        if key is not None:
            return [(path, f"missing required key {key!r}", False)]
    if kind == "enum":
        allowed = list(error.validator_value)
        message = f"{_show(error.instance)} is not allowed; use one of: " + ", ".join(
            _show(v) for v in allowed
        )
        if isinstance(error.instance, str):
            close = closest_names(error.instance, [v for v in allowed if isinstance(v, str)])
            if close:
                message += f" (did you mean {close[0]!r}?)"
        return [(path, message, False)]
    if kind == "const":
        return [
            (path, f"must be {_show(error.validator_value)}, not {_show(error.instance)}", False)
        ]
    if kind == "type" and _is_integral_float(error.instance) and "integer" in error.validator_value:
        whole = int(error.instance)
        return [(path, f"write {whole}, a whole number without a decimal point", False)]
    if kind in ("maximum", "minimum"):
        bound = "at most" if kind == "maximum" else "at least"
        return [(path, f"must be {bound} {error.validator_value}, not {error.instance}", False)]
    if kind == "pattern" and isinstance(error.instance, str):
        if error.validator_value == NAME_PATTERN:
            return [
                (
                    path,
                    f"{_show(error.instance)} is not a name: write a lower-case letter"
                    " followed by lower-case letters, digits or underscores",
                    False,
                )
            ]
        if error.validator_value == ONE_LINE_PATTERN:
            return [
                (
                    path,
                    f"{_show(error.instance)}: write it on one line, without control"
                    " characters (line breaks, tabs, escapes)",
                    False,
                )
            ]
        return [(path, f"{_show(error.instance)} does not match {error.validator_value!r}", False)]
    if kind in ("maxItems", "maxLength"):
        unit = "entries" if kind == "maxItems" else "characters"
        return [(path, f"has more than {error.validator_value} {unit}", False)]
    if kind == "type":
        expected = error.validator_value
        if isinstance(expected, list):
            expected = " or ".join(expected)
        got = _json_type(error.instance)
        shown = "" if error.instance is None else f" {_show(error.instance)}"
        changed = isinstance(error.instance, str) and yaml11_reading(error.instance)
        if changed:  # a value that was read as a boolean or a number before YAML 1.2
            return [(path, f"expected {_article(expected)}: {changed}", False)]
        return [(path, f"expected {_article(expected)}, got {got}{shown}", False)]
    return [(path, error.message, False)]


def _closest_branch(error: ValidationError) -> list[ValidationError]:
    """The errors of the one alternative of a oneOf/anyOf the value is nearest to: among
    the alternatives of the value's own shape (not refused for its type as a whole), the one
    with fewest errors, if only one has that few; else nothing."""
    by_branch: dict[int, list[ValidationError]] = {}
    for sub in error.context or []:
        by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)
    shaped = {
        branch: subs
        for branch, subs in by_branch.items()
        if not any(sub.validator in _SHAPE_KEYWORDS and not sub.relative_path for sub in subs)
    }
    if not shaped:
        return []
    fewest = min(len(subs) for subs in shaped.values())
    nearest = [subs for subs in shaped.values() if len(subs) == fewest]
    return nearest[0] if len(nearest) == 1 else []


#: Keywords that refuse a value for what it is (a list where a mapping is wanted...).
_SHAPE_KEYWORDS = frozenset({"type", "const", "enum"})


def _is_integral_float(value: Any) -> bool:
    return isinstance(value, float) and value.is_integer()


def _unknown_keys(error: ValidationError, path: DocPath) -> list[Finding]:
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    properties = schema.get("properties", {}) or {}
    patterns = schema.get("patternProperties", {}) or {}
    extras = [
        key
        for key in error.instance
        if key not in properties and not any(re.search(p, key) for p in patterns)
    ]
    if error.validator == "unevaluatedProperties":
        # Only the keys jsonschema names in its message were really unevaluated.
        extras = [key for key in extras if repr(key) in error.message] or extras
    allowed = sorted(properties)
    findings: list[Finding] = []
    for key in extras:
        message = f"{UNKNOWN_KEY}{key!r}"
        close = closest_names(str(key), allowed)
        if close:
            message += f" (did you mean {close[0]!r}?)"
        if allowed:
            message += "; allowed keys: " + ", ".join(allowed)
        if patterns:
            message += (" and " if allowed else "; keys must match: ") + ", ".join(patterns)
        findings.append(((*path, key), message, True))
    return findings


def _first_missing(error: ValidationError) -> str | None:
    match = re.match(r"^(['\"])(.*)\1 is a required property$", error.message)
    return match.group(2) if match else None


#: Characters of a value a message quotes: a value may be as long as the file.
_SHOWN = 80


def _show(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _SHOWN else f"{text[:_SHOWN]}... ({len(text)} characters)"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    return type(value).__name__


def _article(type_name: str) -> str:
    names = {"object": "mapping", "array": "list"}
    words = [names.get(w, w) for w in type_name.split(" or ")]
    text = " or ".join(words)
    return ("an " if text[:1] in "aeiou" else "a ") + text


# --- positioning ---------------------------------------------------------------------------


def check_schema(
    data: Any,
    provenance: Mapping[DocPath, Position],
    schema: Mapping[str, Any],
    key_provenance: Mapping[DocPath, Position] | None = None,
) -> list[Problem]:
    """Validate ``data`` against ``schema``; every error as a positioned :class:`Problem`.

    Problems are placed at the provenance of the error's path, falling back to the nearest
    ancestor with a position; an unknown key is placed at the key itself when
    ``key_provenance`` knows it. The list is sorted by file position.
    """
    return [problem for _path, problem in schema_problems(data, provenance, schema, key_provenance)]


def schema_problems(
    data: Any,
    provenance: Mapping[DocPath, Position],
    schema: Mapping[str, Any],
    key_provenance: Mapping[DocPath, Position] | None = None,
) -> list[tuple[DocPath, Problem]]:
    """Like :func:`check_schema`, each problem with the path of the value it is about (for
    an unknown key, the key's own path; for a missing key, the path of the key that is
    missing), so that later stages can leave those parts out and check the rest."""
    found: dict[Problem, DocPath] = {}
    for error in validation_errors(data, schema):
        for path, message, is_key in describe_error(error):
            position = None
            if is_key and key_provenance is not None:
                position = key_provenance.get(path)
            if position is None:
                position = nearest_position(provenance, path)
            shown_path = path[:-1] if is_key else path
            missing = _missing_key(message)
            if missing is not None and not is_key:
                path = (*path, missing)
            found.setdefault(Problem(position, json_path(shown_path), message), path)
    return sorted(((path, problem) for problem, path in found.items()), key=_sort_key)


def _missing_key(message: str) -> str | None:
    match = re.match(r"^missing required key (['\"])(.*)\1$", message)
    return match.group(2) if match else None


def _sort_key(item: tuple[DocPath, Problem]) -> tuple[Any, ...]:
    problem = item[1]
    pos = problem.position
    if pos is None:
        return (1, "", 0, 0, problem.path, problem.message)
    return (0, pos.file, pos.line, pos.column, problem.path, problem.message)
