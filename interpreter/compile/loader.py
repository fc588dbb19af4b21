"""Loading a ruleset, stage by stage: from a name or a file to the compiled `Ruleset`.

Pipeline, each stage in its own module:

1. load: :mod:`~tarot.load.yaml_source` (YAML with positions, within the budget of
   :mod:`~tarot.load.yaml_limits`) and :mod:`~tarot.load.inheritance`
   (``extends`` followed and merged);
2. check, which builds nothing the engine runs: :mod:`~tarot.check.schema_check`
   (the JSON Schema, once), :mod:`~tarot.check.options` (readings chosen and put in
   place) and :mod:`~tarot.check.semantic_checks` (what the schema cannot say);
3. compile: :mod:`~tarot.compile.ruleset_compiler` (expressions, rules, the Ruleset).

This module runs them in turn on a :class:`~tarot.check.draft.Draft` that collects
every stage's problems, each with its file position; a problem leaves its part out of the
stages after it (:mod:`~tarot.check.broken_parts`), so one run reports them all.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from tarot.check.draft import Draft
from tarot.check.options import choose_readings
from tarot.check.schema_check import schema_problems
from tarot.check.semantic_checks import check_document
from tarot.check.text_safety import text_problems
from tarot.check.unknown_keys import without_unknown_keys
from tarot.compile.ruleset_compiler import Compiler
from tarot.core.ruleset import Ruleset
from tarot.errors import Position, Problem, RulesetError, UsageError, did_you_mean, quote_lines
from tarot.expressions import tree_store
from tarot.load import paths
from tarot.load.inheritance import MergedDocument, resolve


@cache
def load_schema(name: str) -> dict:
    return json.loads((paths.schemas_dir() / f"{name}.schema.json").read_text(encoding="utf-8"))


def locate(spec: str | Path) -> Path:
    """The file of a ruleset name on the search path (see `paths`) or of a path to a YAML
    file; :class:`UnknownRulesetName` for a name that is neither."""
    if not str(spec):
        raise RulesetError([Problem(None, "$", "an empty ruleset name: give a name or a file")])
    text = str(spec)
    path = Path(spec)
    try:
        if path.is_dir():
            raise _refusal(text, "this is a folder, not a ruleset file")
        if path.suffix in (".yaml", ".yml") or path.exists():
            if not path.is_file():
                raise _refusal(text, "no such file")
            return path
    except OSError as exc:
        raise _refusal(text, f"cannot read file: {exc.strerror or exc}") from None
    found = paths.find_named(text)
    if found is None:
        if len(text) > 60 or any(sep in text for sep in "/\\"):
            raise _refusal(text, "no such file (and not a ruleset name)")
        raise UnknownRulesetName(text)
    return found


class UnknownRulesetName(RulesetError, UsageError):
    """A name that is no ruleset on the search path (nor a file): a usage mistake when typed
    on the command line, with the closest name."""

    def __init__(self, name: str) -> None:
        names = paths.list_named()
        suggestion = did_you_mean(name, names)
        listed = "tarot rules lists them" if suggestion else "rulesets: " + ", ".join(names)
        message = f"no ruleset named {name!r}; {suggestion}{listed}"
        super().__init__([Problem(None, "$", message)])


def _refusal(file: str, message: str) -> RulesetError:
    return RulesetError([Problem(Position(file, 0, 0), "$", message)])


def load_ruleset(spec: str | Path, choices: Mapping[str, str] | None = None) -> Ruleset:
    """Load, check and compile a ruleset; raise RulesetError listing every problem."""
    path = locate(spec)
    try:
        return _build(path, resolve(path, paths.find_named, paths.list_named), choices)
    finally:
        tree_store.STORE.save()  # the expression trees parsed for it, for the next process


def load_confined(path: Path, choices: Mapping[str, str] | None = None) -> Ruleset:
    """`load_ruleset` of a built-in ruleset's file or of a file sent by someone else (to
    `tarot serve`): its ``extends`` may only name a built-in ruleset, and the chain is looked
    up among the built-in rulesets alone, so that no other file of the machine is read."""
    try:
        merged = resolve(path, paths.find_builtin, paths.list_builtins, names_only=True)
        return _build(path, merged, choices)
    finally:
        tree_store.STORE.save()


def build_ruleset(
    path: str | Path,
    written: dict,
    choices: Mapping[str, str],
    removed: frozenset[tuple[tuple, str]] = frozenset(),
) -> Ruleset:
    """The ruleset `load_ruleset` made from the document it read (`Ruleset.written`, and the
    ids its chain removed, `Ruleset.removed`), made again without reading any file (in a
    worker process, for one)."""
    path = Path(path)
    merged = MergedDocument(copy.deepcopy(written), {}, [path], removed=removed)
    return _build(path, merged, choices)


def _build(path: Path, merged: MergedDocument, choices: Mapping[str, str] | None) -> Ruleset:
    draft, compiler = run_stages(path, merged, choices or {})
    ruleset = None if compiler is None else compiler.compile()
    if draft.problems or ruleset is None:
        raise RulesetError(quote_lines(_in_order(draft.problems, str(path)), merged.texts))
    return ruleset


def run_stages(
    path: Path, merged: MergedDocument, choices: Mapping[str, str]
) -> tuple[Draft, Compiler | None]:
    """The checks run on ``merged``, and the compiler ready to compile it; None in place of
    the compiler when a problem stops everything after it (a foundation of the document is
    broken: the options, the parameters, the pack or the auction)."""
    schema = load_schema("ruleset")
    draft = Draft(path, merged)
    found = schema_problems(merged.data, merged.provenance, schema, merged.key_provenance)
    draft.problems = [problem for _path, problem in found] + text_problems(merged)
    set_aside: set[tuple] = set()
    if (pruned := without_unknown_keys(merged.data, found, schema)) is not None:
        draft.data, set_aside = pruned  # a typo in a foundation hides nothing else
    draft.broken.add(where for where, _problem in found if where not in set_aside)
    if draft.broken.stops_compiling:
        return draft, None
    readings = choose_readings(draft, choices, schema)
    if readings is None or draft.broken.stops_compiling:
        return draft, None
    checked = check_document(draft)
    if checked is None:
        return draft, None
    return draft, Compiler(draft, readings, checked)


def _in_order(problems: list[Problem], loaded: str) -> list[Problem]:
    """Each problem once: those in the file loaded first, then those of the files it
    extends, each file in order of position."""

    def order(problem: Problem) -> tuple[bool, str, int, int]:
        pos = problem.position
        if pos is None:
            return (False, "", 0, 0)
        return (pos.file != loaded, pos.file, pos.line, pos.column)

    return sorted(dict.fromkeys(problems), key=order)
