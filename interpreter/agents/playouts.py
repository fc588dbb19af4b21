"""Fast default policies and play-outs: how a hand is finished quickly on a guessed deal.

Where it sits: under the search agent (its play-outs) and the heuristic agent (its look-ahead
at decisions that pay nothing at once, such as bids). Habits are built from the ruleset's
card values only, so they serve any ruleset.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from interpreter.engine import tricks as trick_rules
from interpreter.engine.actions import NO_LEVEL_TEXT, Action, DecisionKind
from interpreter.engine.state import HandState

EXPLORE = 0.1  # share of the greedy policy's choices made at random

#: a seat's choice in a play-out: a typed action of the decision, or its text
Policy = Callable[[HandState, random.Random], Action | str]


def play_out(state: HandState, policy: Policy, rng: random.Random) -> HandState:
    """Play the hand to its end, every seat following `policy`. The decisions of the play-out
    are not logged in `state.decisions` (only its result is read)."""
    state.keeps_log = False
    while (decision := state.decision) is not None:
        actions = decision.actions
        state.apply_action(actions[0] if len(actions) == 1 else policy(state, rng))
    return state


def random_policy(state: HandState, rng: random.Random) -> Action:
    decision = state.decision
    assert decision is not None  # `play_out` asks a policy only while a decision is open
    return rng.choice(decision.actions)


def greedy_policy(state: HandState, rng: random.Random) -> Action:
    """Card-play habits, with no look-ahead: win a trick that holds card points with the
    cheapest card that wins it, else give away as little as possible; discard the least
    valuable cards; take the best-paid declaration. Now and then a random choice, so the
    play-outs do not all follow one line."""
    decision = state.decision
    assert decision is not None  # `play_out` asks a policy only while a decision is open
    if rng.random() < EXPLORE or decision.kind not in HABITS:
        return rng.choice(decision.actions)
    return HABITS[decision.kind](state, decision.actions)


def _best_card(state: HandState, cards: Sequence[int]) -> int:
    """The first card of the best score: a trick that holds card points won with the
    cheapest card that wins it, else as little given away as possible (the cards already on
    the table are looked at once)."""
    deck = state.ruleset.deck
    values = state.ruleset.counting.values
    strengths = deck.cards.strength
    trick = state.zones.trick
    decision = state.decision
    assert decision is not None  # a habit is asked only while a decision is open
    wins = trick_rules.winning(state.trick_pack, trick, state.excuses, decision.seat, cards)
    on_table = sum(values[c] for _s, c in trick)
    best, best_score = cards[0], None
    for card, won in zip(cards, wins, strict=True):
        strength = strengths[card] / 1000.0  # a slight preference for low cards
        score = on_table - strength if won else -values[card] - strength
        if best_score is None or score > best_score:  # the first best, as max() gives
            best, best_score = card, score
    return best


def _least_valuable(state: HandState, cards: Sequence[int]) -> int:
    """The first card of the least value, trumps kept before other cards of the same."""
    values, deck = state.ruleset.counting.values, state.ruleset.deck.cards
    return max(cards, key=lambda card: -values[card] - (1.0 if deck[card].is_trump else 0.0))


def _best_paid(state: HandState, answers: Sequence[Action]) -> Action:
    """The first declaration of the best value (no declaration counts as 0)."""
    decision = state.decision
    assert decision is not None  # a habit is asked only while a decision is open
    level_values = decision.level_values
    return max(answers, key=lambda a: level_values.get(getattr(a, "level", NO_LEVEL_TEXT), 0.0))


#: by decision kind, the habit's choice among the decision's actions
HABITS: dict[DecisionKind, Callable[[HandState, Sequence[Any]], Action]] = {
    DecisionKind.PLAY: _best_card,
    DecisionKind.DISCARD: _least_valuable,
    DecisionKind.GIVE: _least_valuable,
    DecisionKind.DECLARE: _best_paid,
}
