"""Fast default policies and play-outs: how a hand is finished quickly on a guessed deal.

Where it sits: under the search agent (its play-outs) and the heuristic agent (its look-ahead
at decisions that pay nothing at once, such as bids). Habits are built from the ruleset's
card values only, so they serve any ruleset.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from interpreter.engine import tricks as trick_rules
from interpreter.engine.actions import DecisionKind
from interpreter.engine.state import HandState

EXPLORE = 0.1  # share of the greedy policy's choices made at random

Policy = Callable[[HandState, random.Random], str]


def play_out(state: HandState, policy: Policy, rng: random.Random) -> HandState:
    """Play the hand to its end, every seat following `policy`."""
    while state.decision is not None:
        choices = state.decision.choices
        state.apply_action(choices[0] if len(choices) == 1 else policy(state, rng))
    return state


def random_policy(state: HandState, rng: random.Random) -> str:
    return rng.choice(state.decision.choices)


def greedy_policy(state: HandState, rng: random.Random) -> str:
    """Card-play habits, with no look-ahead: win a trick that holds card points with the
    cheapest card that wins it, else give away as little as possible; discard the least
    valuable cards; take the best-paid declaration. Now and then a random choice, so the
    play-outs do not all follow one line."""
    decision = state.decision
    if rng.random() < EXPLORE or decision.kind not in HABITS:
        return rng.choice(decision.choices)
    habit = HABITS[decision.kind]
    return max(decision.choices, key=lambda action: habit(state, action))


def _card_habit(state: HandState, action: str) -> float:
    deck = state.ruleset.deck
    values = state.ruleset.counting.values
    card = deck.by_id[action]
    trick = [*state.trick, (state.decision.seat, card)]
    strength = deck.cards[card].strength / 1000.0  # a slight preference for low cards
    if trick_rules.trick_winner(deck.cards, trick, state.excuses) == state.decision.seat:
        return sum(values[c] for _s, c in state.trick) - strength
    return -values[card] - strength


def _discard_habit(state: HandState, action: str) -> float:
    card = state.ruleset.deck.cards[state.ruleset.deck.by_id[action]]
    return -state.ruleset.counting.values[card.index] - (1.0 if card.is_trump else 0.0)


def _declare_habit(state: HandState, action: str) -> float:
    level = action.split(":", 1)[1]
    return state.decision.level_values.get(level, 0.0)


HABITS: dict[DecisionKind, Callable[[HandState, str], float]] = {
    DecisionKind.PLAY: _card_habit,
    DecisionKind.DISCARD: _discard_habit,
    DecisionKind.GIVE: _discard_habit,
    DecisionKind.DECLARE: _declare_habit,
}
