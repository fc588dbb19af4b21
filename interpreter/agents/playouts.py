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
    return max(decision.choices, key=HABITS[decision.kind](state))


def _card_habit(state: HandState) -> Callable[[str], float]:
    """The habit's score of each card for the decision as it stands (the cards already on
    the table are looked at once)."""
    deck = state.ruleset.deck
    values = state.ruleset.counting.values
    by_id, strengths = deck.by_id, deck.cards.strength  # type: ignore[attr-defined]
    wins = trick_rules.wins_with(deck.cards, state.trick, state.excuses, state.decision.seat)
    on_table = sum(values[c] for _s, c in state.trick)

    def score(action: str) -> float:
        card = by_id[action]
        strength = strengths[card] / 1000.0  # a slight preference for low cards
        return on_table - strength if wins(card) else -values[card] - strength

    return score


def _discard_habit(state: HandState) -> Callable[[str], float]:
    def score(action: str) -> float:
        card = state.ruleset.deck.cards[state.ruleset.deck.by_id[action]]
        return -state.ruleset.counting.values[card.index] - (1.0 if card.is_trump else 0.0)

    return score


def _declare_habit(state: HandState) -> Callable[[str], float]:
    def score(action: str) -> float:
        level = action.split(":", 1)[1]
        return state.decision.level_values.get(level, 0.0)

    return score


#: by decision kind, the habit's score of each action for the decision as it stands
HABITS: dict[DecisionKind, Callable[[HandState], Callable[[str], float]]] = {
    DecisionKind.PLAY: _card_habit,
    DecisionKind.DISCARD: _discard_habit,
    DecisionKind.GIVE: _discard_habit,
    DecisionKind.DECLARE: _declare_habit,
}
