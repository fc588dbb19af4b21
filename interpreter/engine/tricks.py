"""Trick-taking rules, generic over any ruleset: which cards may be played, and who wins.

Pure functions of the compiled `PlayRules`, the deck and the cards on the table; trick play
(`interpreter.engine.phases.play`), the seat view and the players call them on every
decision, so they read the deck's `Pack` tables (trumps, Fools, suits, strengths by card
index) rather than the cards.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from interpreter.cards import Card, Pack
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
    if excuses is None:
        excuses = Pack.of(cards).fools
    for _seat, index in trick:
        if index not in excuses:
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
    pack = cards if type(cards) is Pack else Pack(cards)  # `Pack.of`, inlined: a hot path
    excuses = pack.fools if excuses is None else frozenset(excuses)
    if excuses.isdisjoint(hand):
        fools, others = [], list(hand)
    else:
        fools = [c for c in hand if c in excuses]
        others = [c for c in hand if c not in excuses]
    if not trick:
        return list(hand) if rules.fool_may_lead or not others else others
    lead = led_card(cards, trick, excuses)
    if lead is None:
        return list(hand)
    return _required(rules, pack, others, trick, lead) + fools


def _required(
    rules: PlayRules,
    pack: Pack,
    others: list[int],
    trick: Sequence[tuple[int, int]],
    lead: Card,
) -> list[int]:
    if lead.trump is not None:
        if rules.trump_when_trump_led:
            trumps = list(filter(pack.trumps.__contains__, others))
            if trumps:
                return _overtrumping(rules, pack, trumps, trick)
        return others
    if rules.follow_suit:
        suit, suits = lead.suit, pack.suit
        following = [c for c in others if suits[c] == suit]
        if following:
            return following
    if rules.trump_when_void:
        trumps = list(filter(pack.trumps.__contains__, others))
        if trumps:
            return _overtrumping(rules, pack, trumps, trick)
    return others


def _overtrumping(
    rules: PlayRules, pack: Pack, trumps: list[int], trick: Sequence[tuple[int, int]]
) -> list[int]:
    if not rules.overtrump:
        return trumps
    strength, trump_cards = pack.strength, pack.trumps
    best = max((strength[c] for _s, c in trick if c in trump_cards), default=0)
    higher = [c for c in trumps if strength[c] > best]
    return higher or trumps


def trick_winner(
    cards: Sequence[Card],
    trick: Sequence[tuple[int, int]],
    excuses: Collection[int] | None = None,
) -> int:
    """The seat that wins: the highest trump, else the highest card of the suit led (an
    excuse never wins)."""
    return trick_standing(cards, trick, excuses)[1]


def trick_standing(
    cards: Sequence[Card],
    trick: Sequence[tuple[int, int]],
    excuses: Collection[int] | None = None,
) -> tuple[Card | None, int, tuple[int, int]]:
    """The card led, the seat winning so far and the key of its card ((1, strength) for a
    trump, (0, strength) for the suit led, (-1, -1) when no card counts yet)."""
    pack = cards if type(cards) is Pack else Pack(cards)  # `Pack.of`, inlined: a hot path
    if excuses is None:
        excuses = pack.fools
    lead = led_card(cards, trick, excuses)
    trumps, suits, strength = pack.trumps, pack.suit, pack.strength
    best_seat, best_key = (trick[0][0] if trick else -1), (-1, -1)
    for seat, index in trick:
        if index in excuses:
            continue
        if index in trumps:
            key = (1, strength[index])
        elif lead is not None and suits[index] == lead.suit:
            key = (0, strength[index])
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return lead, best_seat, best_key


def winning(
    cards: Sequence[Card],
    trick: Sequence[tuple[int, int]],
    excuses: Collection[int] | None,
    seat: int,
    candidates: Sequence[int],
) -> list[bool]:
    """For each candidate card, whether `seat` wins `trick` by adding it: the same answer as
    `trick_winner(cards, [*trick, (seat, card)], excuses) == seat`, with the cards already
    on the table looked at once."""
    pack = cards if type(cards) is Pack else Pack(cards)  # `Pack.of`, inlined: a hot path
    excuses = pack.fools if excuses is None else frozenset(excuses)
    lead, best_seat, best_key = trick_standing(cards, trick, excuses)
    trumps, suits, strength = pack.trumps, pack.suit, pack.strength
    if lead is None:  # no card on the table counts: the first card that counts wins
        first_wins = (trick[0][0] if trick else seat) == seat
        return [first_wins if card in excuses else True for card in candidates]
    lead_suit, holding = lead.suit, best_seat == seat
    result = []
    for card in candidates:
        if card in excuses:
            result.append(holding)
        elif card in trumps:
            result.append(holding or (1, strength[card]) > best_key)
        elif suits[card] == lead_suit:
            result.append(holding or (0, strength[card]) > best_key)
        else:
            result.append(holding)
    return result
