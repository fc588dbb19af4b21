"""Trick-taking rules, generic over any ruleset: which cards may be played, and who wins.

Pure functions of the compiled `PlayRules`, the deck and the cards on the table; the hand
state (`interpreter.engine.state`) calls them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from interpreter.cards import Card
from interpreter.ruleset import PlayRules


def is_excuse(cards: Sequence[Card], index: int, excuses: Collection[int] | None) -> bool:
    """Whether the card plays as the Fool does: the Fool itself, or in a hand where the
    ruleset makes other cards excuses, any card of `excuses`."""
    return cards[index].fool if excuses is None else index in excuses


def led_card(
    cards: Sequence[Card],
    trick: Sequence[tuple[int, int]],
    excuses: Collection[int] | None = None,
) -> Card | None:
    """The card that sets what must be followed: the first one that is not an excuse."""
    for _seat, index in trick:
        if not is_excuse(cards, index, excuses):
            return cards[index]
    return None


def legal_cards(
    rules: PlayRules,
    cards: Sequence[Card],
    hand: Sequence[int],
    trick: Sequence[tuple[int, int]],
    excuses: Collection[int] | None = None,
) -> list[int]:
    """The cards of `hand` that may be played to `trick` (in hand order); `excuses`, when
    given, are the cards that play as the Fool in this hand."""
    if len(hand) <= 1:
        return list(hand)
    fools = [c for c in hand if is_excuse(cards, c, excuses)]
    others = [c for c in hand if not is_excuse(cards, c, excuses)]
    if not trick:
        return list(hand) if rules.fool_may_lead or not others else others
    lead = led_card(cards, trick, excuses)
    if lead is None:
        return list(hand)
    required = _required(rules, cards, others, trick, lead)
    return required + fools


def _required(
    rules: PlayRules,
    cards: Sequence[Card],
    others: list[int],
    trick: Sequence[tuple[int, int]],
    lead: Card,
) -> list[int]:
    trumps = [c for c in others if cards[c].is_trump]
    if lead.is_trump:
        if rules.trump_when_trump_led and trumps:
            return _overtrumping(rules, cards, trumps, trick)
        return others
    if rules.follow_suit:
        following = [c for c in others if cards[c].suit == lead.suit]
        if following:
            return following
    if rules.trump_when_void and trumps:
        return _overtrumping(rules, cards, trumps, trick)
    return others


def _overtrumping(
    rules: PlayRules, cards: Sequence[Card], trumps: list[int], trick: Sequence[tuple[int, int]]
) -> list[int]:
    if not rules.overtrump:
        return trumps
    best = max((cards[c].strength for _s, c in trick if cards[c].is_trump), default=0)
    higher = [c for c in trumps if cards[c].strength > best]
    return higher or trumps


def trick_winner(
    cards: Sequence[Card],
    trick: Sequence[tuple[int, int]],
    excuses: Collection[int] | None = None,
) -> int:
    """The seat that wins: the highest trump, else the highest card of the suit led (an
    excuse never wins)."""
    lead = led_card(cards, trick, excuses)
    best_seat, best_key = trick[0][0], (-1, -1)
    for seat, index in trick:
        card = cards[index]
        if is_excuse(cards, index, excuses):
            continue
        if card.is_trump:
            key = (1, card.strength)
        elif lead is not None and card.suit == lead.suit:
            key = (0, card.strength)
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat
