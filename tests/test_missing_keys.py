"""Every key of every complete built-in ruleset deleted in turn: the ruleset must then either
load (and a hand play) or be refused with a RulesetError; no other exception may escape.
This finds the keys the loader or the engine assumes but the schema does not require.

Keys are taken once per place in the schema (a key of the third payment is the same key as
that of the first), so each kind of deletion is tried once."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from mutations import loads_and_plays_or_is_refused, value_paths
from tiers import one_fast

from tarot.load import paths

#: Sections whose keys are names chosen by the author: one entry stands for all.
NAMED = {"definitions", "parameters", "sources", "options", "card_sets", "readings"}
#: Keys that only document (the engine never reads them); deleting them is not tried.
PROSE = {"description", "assumption", "period", "citation", "url"}


def _place(path: tuple) -> tuple:
    """The path with list indexes and author-chosen names replaced by '*'."""
    place = []
    for i, part in enumerate(path):
        named = i > 0 and path[i - 1] in NAMED
        place.append("*" if isinstance(part, int) or named else part)
    return tuple(place)


def _deletions() -> list:
    seen: set[tuple] = set()
    cases = []
    for name, path in paths.builtin_rulesets().items():
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "extends" in document:
            continue  # a variant's merged document is a complete ruleset's: same keys
        for key_path in value_paths(document):
            key = key_path[-1]
            if isinstance(key, str) and key not in PROSE and _place(key_path) not in seen:
                seen.add(_place(key_path))
                cases.append(
                    pytest.param(name, key_path, id=f"{name}:{'.'.join(map(str, key_path))}")
                )
    return cases


@pytest.mark.parametrize(("name", "key_path"), one_fast(_deletions(), lambda case: case.values[0]))
def test_deleting_a_key_loads_or_is_refused(name: str, key_path: tuple, tmp_path: Path) -> None:
    document = yaml.safe_load(paths.find_builtin(name).read_text(encoding="utf-8"))
    document = copy.deepcopy(document)
    node = document
    for part in key_path[:-1]:
        node = node[part]
    del node[key_path[-1]]
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    loads_and_plays_or_is_refused(path)
