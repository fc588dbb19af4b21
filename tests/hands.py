"""Helpers shared by the engine and Marolles tests: seeded Marolles hands and agents (a hand
built for one rule is a scenario: tests/scenarios/)."""

from __future__ import annotations

from functools import cache

from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand, play_hand
from tarot.engine.state import HandState, Phase
from tarot.players.random_agent import RandomAgent

SEATS = 3


@cache
def ruleset_with(**choices: str):
    """A Marolles ruleset with some options chosen (cached: loading takes a moment)."""
    return load_ruleset("marolles-1637", choices=choices)


def agents_for(seed: int) -> list[RandomAgent]:
    return [RandomAgent(f"{seed}/{seat}") for seat in range(SEATS)]


def new_hand(ruleset, seed: int, number: int = 1) -> HandState:
    return deal_hand(ruleset, seed, number)


def into_play(ruleset, seed: int, tricks: int = 0) -> HandState:
    """A hand with random players, up to the first card of trick `tricks` + 1."""
    state = new_hand(ruleset, seed)
    agents = agents_for(seed)
    while state.phase != Phase.PLAY or len(state.tricks) < tricks or state.trick:
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, seat))
    return state


def play_checking(state: HandState, agents) -> list[str]:
    """Play the hand out, checking every choice is legal; the choices made, in order."""
    seen = []
    while not state.is_terminal():
        seat = state.current_player()
        action = agents[seat].choose(state, seat)
        assert action in state.legal_actions()
        state.apply_action(action)
        seen.append(action)
    return seen


def played_hand(ruleset, seed: int) -> HandState:
    return play_hand(new_hand(ruleset, seed), agents_for(seed))


# Marolles extended to four players: a different player count on the same pack, for the
# comparisons that cannot pair their hands.
FOUR_PLAYERS = """\
extends: marolles-1637
title: Marolles for four
players:
  count: 4
deal:
  packets:
    - {rounds: 3, each: 5}
    - {rounds: 1, others: 1, dealer: 3}
discard:
  counts: {dealer: 3, others: 1}
"""
