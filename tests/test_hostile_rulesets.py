"""Hostile rulesets: the Marolles ruleset with leaf values replaced at random by values of
the wrong type, bad expressions and unknown names. Loading each must either succeed (and
then a hand must play) or raise RulesetError; nothing else may escape."""

from __future__ import annotations

import copy
import random

import pytest
import yaml
from mutations import loads_and_plays_or_is_refused, value_paths

from tarot.load import paths

# the slow tier (`python -m pytest -m slow`): rulesets mutated at random and loaded
pytestmark = pytest.mark.slow

REPLACEMENTS = [
    0,
    -1,
    1,
    3,
    100,
    2.5,
    True,
    False,
    None,
    "",
    "x",
    "count(seats)",
    "player",
    "[]",
    [],
    {},
    [1],
    {"a": 1},
    "option.nope",
    "card in tarots",
    "1 //",
    "seats",
    "hand(player)",
    "{option: deal_packets}",
]


def _replace(document: dict, path: tuple, value: object) -> None:
    node = document
    for part in path[:-1]:
        if not isinstance(node, dict | list):
            return
        node = node[part]
    if isinstance(node, dict | list):
        node[path[-1]] = value


BASE = yaml.safe_load(paths.find_builtin("marolles-1637").read_text(encoding="utf-8"))
PATHS = value_paths(BASE)


@pytest.mark.parametrize("case", range(60))
def test_mutated_ruleset_loads_or_is_refused_cleanly(case: int, tmp_path) -> None:
    rng = random.Random(case)
    document = copy.deepcopy(BASE)
    for _ in range(rng.randint(1, 3)):
        _replace(document, rng.choice(PATHS), rng.choice(REPLACEMENTS))
    path = tmp_path / "mutated.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    states = loads_and_plays_or_is_refused(path)
    assert states is None or sum(states[0].returns()) == 0
