"""The registries: every fact of the vocabulary has an implementation in each back end, or is
refused there by name, and nothing is implemented that the vocabulary does not declare; every
key of the ruleset schema belongs to a mechanism, and the batch back end runs or refuses each."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest
from batch_checks import refusing

from tarot.batch.facts import ARRAY_FACTS, REFUSED_FACTS, fact
from tarot.batch.support import REFUSED, RUNS
from tarot.batch.support import _document as supports_document
from tarot.batch.values import Unsupported
from tarot.compile.contexts import FACTS, SCALAR_FACTS
from tarot.core.mechanisms import MECHANISMS, NAMED_ENTRIES, PROSE, mechanism_of
from tarot.core.vocabulary import FACTS as VOCABULARY

ROOT = Path(__file__).resolve().parent.parent


def test_every_fact_has_a_scalar_implementation() -> None:
    assert set(SCALAR_FACTS) == set(VOCABULARY)
    for name, signature in VOCABULARY.items():
        assert FACTS[name].params == signature.params and FACTS[name].returns == signature.returns


@pytest.mark.parametrize("name", sorted(VOCABULARY))
def test_every_fact_runs_in_the_batch_back_end_or_is_refused_by_name(name: str) -> None:
    assert (name in ARRAY_FACTS) != (name in REFUSED_FACTS), name
    if name in REFUSED_FACTS:
        assert REFUSED_FACTS[name]  # says what the batch back end lacks
        with pytest.raises(Unsupported, match=rf"{name}\(\).*{REFUSED_FACTS[name]}"):
            fact(name)


def test_no_back_end_implements_an_undeclared_fact() -> None:
    assert set(ARRAY_FACTS) <= set(VOCABULARY)
    assert set(REFUSED_FACTS) <= set(VOCABULARY)


@pytest.mark.parametrize("name", sorted(ARRAY_FACTS))
def test_an_array_fact_takes_the_declared_arguments(name: str) -> None:
    parameters = inspect.signature(ARRAY_FACTS[name]).parameters
    assert len(parameters) == 1 + len(VOCABULARY[name].params)  # the context, then each


# --- the mechanisms registry (`tarot.core.mechanisms`) -----------------------------------


def _schema_paths() -> tuple[set[str], set[str]]:
    """Every key path the ruleset schema knows, and the paths of its author-named mappings."""
    schema = json.loads((ROOT / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))
    definitions = schema.get("$defs", {})
    paths: set[str] = set()
    named: set[str] = set()

    def walk(node: dict, path: str, seen: tuple[str, ...]) -> None:
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                walk(definitions[name], path, (*seen, name))
            return
        for key in ("oneOf", "anyOf", "allOf"):
            for sub in node.get(key, []):
                walk(sub, path, seen)
        for key, sub in node.get("properties", {}).items():
            paths.add(f"{path}.{key}" if path else key)
            walk(sub, f"{path}.{key}" if path else key, seen)
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{path}[]", seen)
        if isinstance(node.get("additionalProperties"), dict):
            named.add(path)
            walk(node["additionalProperties"], f"{path}{{}}", seen)

    walk(schema, "", ())
    return paths, named


def test_every_key_of_the_schema_belongs_to_a_mechanism_or_is_prose() -> None:
    paths, _ = _schema_paths()
    uncovered = [
        path
        for path in sorted(paths)
        if mechanism_of(path) is None and path.rsplit(".", 1)[-1] not in PROSE
    ]
    assert uncovered == []
    assert {mechanism_of(path) for path in paths} - {None} == set(MECHANISMS)


def test_the_named_mappings_are_the_schemas() -> None:
    _, named = _schema_paths()
    assert named == set(NAMED_ENTRIES)


def test_the_batch_back_end_rules_on_every_mechanism() -> None:
    assert RUNS.isdisjoint(REFUSED)
    assert RUNS | set(REFUSED) == set(MECHANISMS)
    assert all(REFUSED.values())  # each says what the batch back end lacks


def test_a_refused_mechanism_is_named_where_it_is_written(monkeypatch) -> None:
    mechanism = refusing(monkeypatch)
    document = {"questions": [{"id": "y", "by": "seats"}], "payments": [{"id": "x"}]}
    assert supports_document(document) == [f"{mechanism}: {REFUSED[mechanism]}"]
    assert supports_document({"tableau": {}}) == [
        "tableau: a section the batch back end does not know"
    ]


def test_the_docs_list_every_mechanism_the_batch_does_not_run() -> None:
    page = (ROOT / "docs" / "backends.md").read_text(encoding="utf-8")
    listed = {
        line.split("|")[1].strip().strip("`"): line.split("|")[3].strip()
        for line in page.splitlines()
        if line.startswith("| `")
    }
    assert listed == REFUSED
