"""A game of several hands: seeded shuffles, the dealer moving round, agents deciding.

`shuffled_pack` gives the same pack for the same (seed, hand number) under any ruleset with
the same number of cards, so two rulesets can be compared on identical deals. `play_game`
runs agents through `HandState`s and hands back the finished states.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from interpreter.agents.base import Agent
from interpreter.engine.state import HandState
from interpreter.ruleset import Ruleset


def hand_rng(seed: int, number: int) -> random.Random:
    return random.Random(f"tarot-deal/{seed}/{number}")


def shuffled_pack(size: int, seed: int, number: int) -> list[int]:
    """Shuffle, then cut: a random number of cards moved from the top to the bottom."""
    rng = hand_rng(seed, number)
    pack = list(range(size))
    rng.shuffle(pack)
    cut = rng.randrange(1, size) if size > 1 else 0
    return pack[cut:] + pack[:cut]


def dealer_of(ruleset: Ruleset, number: int) -> int:
    step = 1 if ruleset.next_dealer == "next" else 0
    return (ruleset.first_dealer + step * (number - 1)) % ruleset.players


def play_hand(state: HandState, agents: Sequence[Agent]) -> HandState:
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, seat))
    return state


def play_game(
    ruleset: Ruleset,
    seed: int,
    agents: Sequence[Agent],
    hands: int = 1,
    on_hand: Callable[[HandState], None] | None = None,
) -> list[HandState]:
    played = []
    for number in range(1, hands + 1):
        pack = shuffled_pack(len(ruleset.deck), seed, number)
        state = HandState(ruleset, dealer_of(ruleset, number), pack, number)
        play_hand(state, agents)
        if on_hand is not None:
            on_hand(state)
        played.append(state)
    return played
