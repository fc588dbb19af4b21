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

from interpreter import paths
from interpreter.agents.random_agent import RandomAgent
from interpreter.engine.game import play_game
from interpreter.errors import RulesetError
from interpreter.loading.ruleset_loader import load_ruleset

#: Sections whose keys are names chosen by the author: one entry stands for all.
NAMED = {"definitions", "parameters", "sources", "options", "card_sets", "readings"}
#: Keys that only document (the engine never reads them); deleting them is not tried.
PROSE = {"description", "assumption", "period", "citation", "url"}


def _key_paths(node: object, path: tuple = ()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield path + (key,)
            yield from _key_paths(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _key_paths(value, path + (i,))


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
        for key_path in _key_paths(document):
            if key_path[-1] not in PROSE and _place(key_path) not in seen:
                seen.add(_place(key_path))
                cases.append(
                    pytest.param(name, key_path, id=f"{name}:{'.'.join(map(str, key_path))}")
                )
    return cases


@pytest.mark.parametrize(("name", "key_path"), _deletions())
def test_deleting_a_key_loads_or_is_refused(name: str, key_path: tuple, tmp_path: Path) -> None:
    document = yaml.safe_load(paths.find_builtin(name).read_text(encoding="utf-8"))
    document = copy.deepcopy(document)
    node = document
    for part in key_path[:-1]:
        node = node[part]
    del node[key_path[-1]]
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    try:
        ruleset = load_ruleset(path)
    except RulesetError as error:
        assert error.problems and all(str(problem) for problem in error.problems)
        return
    states = play_game(ruleset, 1, [RandomAgent(s) for s in range(ruleset.players)], 1)
    assert states and states[0].decision is None, "the hand did not finish"
