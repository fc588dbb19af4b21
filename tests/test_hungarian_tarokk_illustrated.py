"""Illustrated Tarokk (rulesets/hungarian-tarokk/hungarian-tarokk-illustrated.yaml): the
trick rules the binding reads checked against the engine's, players that play and replay it,
and validate, play and replay on the command line. The hands played by fixed decisions and
paid as checked by hand for each bonus, with the cards they bind, are scenarios
(tests/scenarios/hungarian-tarokk-illustrated.yaml)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.state import HandState
from tests.commands import tarot
from tests.small_games import replayed_games, say

# the slow tier (`python -m pytest -m slow`): three kinds of players play and replay hands
pytestmark = pytest.mark.slow

GAME = Path(__file__).parents[1] / "rulesets" / "hungarian-tarokk"
RULESET = load_ruleset(GAME / "hungarian-tarokk-illustrated.yaml")
BY_ID = RULESET.deck.by_id
IDS = RULESET.deck.cards.ids


def test_the_binding_reads_the_same_trick_rules_as_the_engine():
    """`legal_of` (the trick rules as the binding reads them) gives the engine's legal cards
    at every card of hands played at random without announcements."""
    legal_of = next(d for d in RULESET.definitions if d.name == "legal_of")
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        state = HandState(RULESET, 0, rng.sample(range(len(RULESET.deck)), len(RULESET.deck)))
        while not state.is_terminal():
            if state.decision.kind == "announce":
                say(state, (state.current_player(), "pass"))
                continue
            if state.decision.kind == "play":
                seat = state.current_player()
                mine = state.evaluate(legal_of.expression, {legal_of.of_seat: seat})
                assert sorted(IDS[c] for c in mine) == sorted(state.legal_actions()), seed
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 100


def test_heuristic_search_and_random_players_play_and_replay():
    for state in replayed_games(RULESET, 4, 2, mixed=True):
        if state.thrown_in is None:
            assert sum(state.returns()) == 0


def test_validate_play_and_replay(tmp_path):
    path = GAME / "hungarian-tarokk-illustrated.yaml"
    assert tarot("validate", str(path)).returncode == 0
    record = tmp_path / "hand.json"
    played = tarot("play", "hungarian-tarokk-illustrated", "--seed", "3", "--record", str(record))
    assert played.returncode == 0, played.stderr
    assert json.loads(record.read_text())["hands"]
    assert tarot("replay", str(record)).returncode == 0
