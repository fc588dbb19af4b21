"""Helpers for the tests that break built-in rulesets on purpose (test_hostile_rulesets,
test_missing_keys, test_fuzz_rulesets): the places in a document, and the outcomes allowed
for a broken ruleset file."""

from __future__ import annotations

from pathlib import Path

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.errors import RulesetError
from tarot.expressions import EvaluationError
from tarot.players.random_agent import RandomAgent


def value_paths(node: object, path: tuple = ()) -> list[tuple]:
    """The path of every value below ``node`` (mapping keys and list indexes)."""
    found = [path] if path else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += value_paths(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += value_paths(value, path + (i,))
    return found


def loads_and_plays_or_is_refused(path: Path) -> list | None:
    """Load the ruleset at ``path``: it must either load, and then one hand plays to its
    end (its states are returned) or stops with an EvaluationError that says why and names
    the hand and the moment (a number out of range, a seat with no card to play: what the
    engine does with a ruleset that loads but cannot play that hand), or be refused with a
    RulesetError whose every problem names a file (None is returned)."""
    try:
        ruleset = load_ruleset(path)
    except RulesetError as error:
        assert error.problems
        for problem in error.problems:
            assert problem.message and problem.position is not None, str(problem)
            assert problem.position.file, str(problem)
        return None
    try:
        states = play_game(ruleset, 1, [RandomAgent(s) for s in range(ruleset.players)], 1)
    except EvaluationError as error:
        assert str(error) and error.hand == 1 and error.moment, str(error)
        return None
    assert states and states[0].decision is None, "the hand did not finish"
    return states
