"""Fast default policies and play-outs: how a hand is finished quickly on a guessed deal.

Where it sits: under `tarot.players.judging`, which plays out each action of a decision
for the search agent and for the heuristic agent's look-ahead. Habits are built from the
ruleset's card values and the kinds of action only, so they serve any ruleset. A policy is a
plain function of (state, rng): the same state and random numbers give the same choice.

Every kind of decision has a habit in the greedy policy, so no seat of a play-out decides at
random, save the few card choices made at random on purpose (`EXPLORE`). Where a habit
cannot tell what a choice is worth it takes the conservative answer: a later bidder passes
(so a bid is judged against the others passing, and a pass against the deal being thrown in
or taken by an earlier bidder), a declaration that pays the declarer nothing more than not
declaring is not made (an announcement whose worth shows only at the end of the hand), a
seat offered a redeal has the deal thrown in.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from tarot.core.actions import (
    NO_LEVEL_TEXT,
    Action,
    Announce,
    Answer,
    DecisionKind,
    Double,
    Join,
    NoDeclaration,
    Pass,
    TakePacket,
)
from tarot.core.ruleset import Ruleset
from tarot.engine import tricks as trick_rules
from tarot.engine.draws import choose
from tarot.engine.state import HandState
from tarot.expressions.builtins import Number

EXPLORE = 0.1  # share of the greedy policy's card choices made at random

#: a seat's choice in a play-out: a typed action of the decision, or its text
Policy = Callable[[HandState, random.Random], Action | str]


def play_out(
    state: HandState,
    policy: Policy,
    rng: random.Random,
    until: Callable[[HandState], bool] | None = None,
) -> HandState:
    """Play the hand to its end (or `until` it holds), every seat following `policy`. The
    decisions of the play-out are not logged in `state.decisions` (only its result is read).
    A round of announcements or doublings that the policy declines whole (`PASSED_WHOLE`)
    is passed at once, as its seats would pass it one by one (`until` is not asked at the
    announcements or doublings in between)."""
    state.keeps_log = False
    passed_whole = PASSED_WHOLE if policy is greedy_policy else frozenset()
    while (decision := state.decision) is not None:
        if until is not None and until(state):
            break
        if decision.kind in passed_whole:
            state.pass_round()
            continue
        actions = decision.actions
        state.apply_action(actions[0] if len(actions) == 1 else policy(state, rng))
    return state


def random_policy(state: HandState, rng: random.Random) -> Action:
    decision = state.decision
    assert decision is not None  # `play_out` asks a policy only while a decision is open
    return choose(rng, decision.actions)


def greedy_policy(state: HandState, rng: random.Random) -> Action:
    """Habits, with no look-ahead: win a trick that holds card points with the cheapest card
    that wins it, else give away as little as possible; discard and show the least valuable
    cards; take the best-paid declaration; pass at an auction; call a card held by another
    seat. Now and then a card chosen at random, so the play-outs do not all follow one
    line."""
    decision = state.decision
    assert decision is not None  # `play_out` asks a policy only while a decision is open
    kind = decision.kind
    if kind in EXPLORED and rng.random() < EXPLORE:
        return choose(rng, decision.actions)
    return HABITS[kind](state, decision.actions)


def _best_card(state: HandState, cards: Sequence[int]) -> int:
    """The first card of the best `card_scores`."""
    decision = state.decision
    assert decision is not None  # a habit is asked only while a decision is open
    scores = card_scores(state, decision.seat, cards)
    return cards[scores.index(max(scores))]


def card_scores(state: HandState, seat: int, cards: Sequence[int]) -> list[float]:
    """How good each card is for `seat` to play now, by habit: a trick that holds card points
    won with the cheapest card that wins it, else as little given away as possible (the
    cards already on the table are looked at once). An excuse card, which stays with its
    holder before the last trick, gives away no more than the pack's least valuable card. A
    lead, with nothing on the table to win, gives away the least: the cheapest card, a trump
    kept, a high one of its value."""
    deck = state.ruleset.deck
    values = state.ruleset.counting.float_values
    strengths = deck.cards.strength
    trick = state.zones.trick
    excuses = (
        state.play.excuses if state.play.trick_number < state.play.total_tricks else frozenset()
    )
    least = min(values) if not excuses.isdisjoint(cards) else 0.0  # what an excuse gives
    if not trick:
        trumps = deck.cards.trumps
        return [
            strengths[card] / 1000.0
            - (least if card in excuses else values[card])
            - (1.0 if card in trumps else 0.0)
            for card in cards
        ]
    wins = trick_rules.winning(state.play.trick_pack, trick, state.play.excuses, seat, cards)
    on_table = sum(values[c] for _s, c in trick if c not in excuses)
    scores = []
    for card, won in zip(cards, wins, strict=True):
        strength = strengths[card] / 1000.0  # a slight preference for low cards
        if won:
            scores.append(on_table - (least if card in excuses else 0.0) - strength)
        else:
            scores.append(-(least if card in excuses else values[card]) - strength)
    return scores


def _most_valuable(state: HandState, cards: Sequence[int]) -> int:
    """The card of the most value (a card named for its holder to hand over): the first of
    the highest worth."""
    worth, _suit, _strength = _discard_keys(state.ruleset)
    return max(cards, key=lambda card: worth[card])


def _least_valuable(state: HandState, cards: Sequence[int]) -> int:
    """The card of the least value, trumps kept before other cards of the same; then one
    of the shortest suit in hand (towards a void), then the lowest."""
    decision = state.decision
    assert decision is not None  # a habit is asked only while a decision is open
    worth, suit, strength = _discard_keys(state.ruleset)
    suits = Counter(suit[card] for card in state.zones.hands[decision.seat])
    return min(cards, key=lambda card: (worth[card], suits[suit[card]], strength[card]))


def _discard_keys(ruleset: Ruleset) -> tuple[list[float], list[str | None], list[int]]:
    """Per card: its value (and 1 more for a trump), its suit, its strength; worked out
    once for the ruleset."""
    known = getattr(ruleset, "_discard_keys", None)
    if known is None:
        values, deck = ruleset.counting.float_values, ruleset.deck.cards
        known = (
            [values[i] + (1.0 if c.is_trump else 0.0) for i, c in enumerate(deck)],
            [c.suit for c in deck],
            [c.strength for c in deck],
        )
        object.__setattr__(ruleset, "_discard_keys", known)
    return known


def _best_paid(state: HandState, answers: Sequence[Action]) -> Action:
    """The declaration of the best value (no declaration counts as 0, and is kept when no
    level is worth more)."""
    decision = state.decision
    assert decision is not None  # a habit is asked only while a decision is open
    level_values = decision.level_values
    return max(
        answers,
        key=lambda a: (
            level_values.get(getattr(a, "level", NO_LEVEL_TEXT), 0.0),
            isinstance(a, NoDeclaration),
        ),
    )


def _no_bid(_state: HandState, bids: Sequence[Action]) -> Action:
    """A pass (the lowest contract, in an auction that offers none)."""
    return next((bid for bid in bids if isinstance(bid, Pass)), bids[0])


def _call_another(state: HandState, cards: Sequence[int]) -> int:
    """The most valuable callable card the taker does not hold (any, if he holds them all),
    of the suit he holds most of (he can lead it to his partner), then the strongest."""
    decision = state.decision
    assert decision is not None  # a habit is asked only while a decision is open
    hand = state.zones.hands[decision.seat]
    values, deck = state.ruleset.counting.float_values, state.ruleset.deck.cards
    suits = Counter(deck[card].suit for card in hand)
    held = set(hand)
    elsewhere = [card for card in cards if card not in held] or list(cards)
    return max(
        elsewhere, key=lambda card: (values[card], suits[deck[card].suit], deck[card].strength)
    )


def _thrown_in(_state: HandState, answers: Sequence[Any]) -> Action:
    """The deal thrown in, when offered."""
    return next((answer for answer in answers if answer.redeal), answers[0])


def _richest_packet(state: HandState, answers: Sequence[Any]) -> Action:
    """The talon's packet holding the most card value (the lowest number among equals)."""
    values, packets = state.ruleset.counting.values, state.zones.packets

    def worth(answer: TakePacket) -> tuple[Number, int]:
        return (sum(values[card] for card in packets[answer.number - 1]), -answer.number)

    return max(answers, key=worth)


def _declined(_state: HandState, answers: Sequence[Any]) -> Action:
    """The answer that commits to nothing: stay out of the taker's side, double nothing,
    announce nothing, answer no (as a bid is passed)."""
    declining = (
        answer
        for answer in answers
        if (isinstance(answer, Join) and not answer.joins)
        or (isinstance(answer, Answer) and not answer.yes)
        or (isinstance(answer, Double) and answer.step is None)
        or not isinstance(answer, Join | Double | Announce | Answer)
    )
    return next(declining, answers[0])


#: by decision kind, the habit's choice among the decision's actions
HABITS: dict[DecisionKind, Callable[[HandState, Sequence[Any]], Action]] = {
    DecisionKind.PLAY: _best_card,
    DecisionKind.DISCARD: _least_valuable,
    DecisionKind.GIVE: _least_valuable,
    DecisionKind.SHOW: _least_valuable,
    DecisionKind.NAME: _most_valuable,
    DecisionKind.DECLARE: _best_paid,
    DecisionKind.BID: _no_bid,
    DecisionKind.CALL: _call_another,
    DecisionKind.REDEAL: _thrown_in,
    DecisionKind.PACKET: _richest_packet,
    DecisionKind.JOIN: _declined,
    DecisionKind.ASK: _declined,
    DecisionKind.DOUBLE: _declined,
    DecisionKind.ANNOUNCE: _declined,
}
#: the kinds of decision in which the greedy policy now and then chooses at random
EXPLORED = frozenset({DecisionKind.PLAY, DecisionKind.DISCARD, DecisionKind.GIVE})
#: the kinds of decision the greedy policy always declines, drawing no random number: a
#: round of them comes to every seat passing (`HandState.pass_round`)
PASSED_WHOLE = frozenset(
    kind
    for kind in (DecisionKind.ANNOUNCE, DecisionKind.DOUBLE)
    if HABITS[kind] is _declined and kind not in EXPLORED
)
