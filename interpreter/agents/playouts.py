"""Fast default policies and play-outs: how a hand is finished quickly on a guessed deal.

Where it sits: under the search agent (its play-outs) and the heuristic agent (its look-ahead
at decisions that pay nothing at once, such as bids). Habits are built from the ruleset's
card values only, so they serve any ruleset.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from interpreter.engine import tricks as trick_rules
from interpreter.engine.actions import NO_LEVEL_TEXT, Action, DecisionKind
from interpreter.engine.state import HandState

EXPLORE = 0.1  # share of the greedy policy's choices made at random

#: a seat's choice in a play-out: a typed action of the decision, or its text
Policy = Callable[[HandState, random.Random], Action | str]


def play_out(state: HandState, policy: Policy, rng: random.Random) -> HandState:
    """Play the hand to its end, every seat following `policy`."""
    while (decision := state.decision) is not None:
        actions = decision.actions
        state.apply_action(actions[0] if len(actions) == 1 else policy(state, rng))
    return state


def random_policy(state: HandState, rng: random.Random) -> Action:
    return rng.choice(state.decision.actions)


def greedy_policy(state: HandState, rng: random.Random) -> Action:
    """Card-play habits, with no look-ahead: win a trick that holds card points with the
    cheapest card that wins it, else give away as little as possible; discard the least
    valuable cards; take the best-paid declaration. Now and then a random choice, so the
    play-outs do not all follow one line."""
    decision = state.decision
    if rng.random() < EXPLORE or decision.kind not in HABITS:
        return rng.choice(decision.actions)
    return max(decision.actions, key=HABITS[decision.kind](state))


def _card_habit(state: HandState) -> Callable[[int], float]:
    """The habit's score of each card for the decision as it stands (the cards already on
    the table are looked at once)."""
    deck = state.ruleset.deck
    values = state.ruleset.counting.values
    strengths = deck.cards.strength  # type: ignore[attr-defined]
    trick = state.zones.trick
    wins = trick_rules.wins_with(deck.cards, trick, state.excuses, state.decision.seat)
    on_table = sum(values[c] for _s, c in trick)

    def score(card: int) -> float:
        strength = strengths[card] / 1000.0  # a slight preference for low cards
        return on_table - strength if wins(card) else -values[card] - strength

    return score


def _discard_habit(state: HandState) -> Callable[[int], float]:
    values, cards = state.ruleset.counting.values, state.ruleset.deck.cards

    def score(card: int) -> float:
        return -values[card] - (1.0 if cards[card].is_trump else 0.0)

    return score


def _declare_habit(state: HandState) -> Callable[[Action], float]:
    level_values = state.decision.level_values

    def score(action: Action) -> float:
        return level_values.get(getattr(action, "level", NO_LEVEL_TEXT), 0.0)

    return score


#: by decision kind, the habit's score of each action for the decision as it stands
HABITS: dict[DecisionKind, Callable[[HandState], Callable[[Any], float]]] = {
    DecisionKind.PLAY: _card_habit,
    DecisionKind.DISCARD: _discard_habit,
    DecisionKind.GIVE: _discard_habit,
    DecisionKind.DECLARE: _declare_habit,
}
