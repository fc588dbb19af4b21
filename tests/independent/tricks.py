"""Trick play as source 003 gives it, for the independent checker: which cards a player may
play to a trick and who wins it."""

from __future__ import annotations

from .cards import Card


def suit_to_follow(trick: list[Card]) -> Card | None:
    """The card that sets what must be followed: the first card that is not the Excuse (003: a
    led Excuse lets the second card set the suit)."""
    for card in trick:
        if not card.fool:
            return card
    return None


def legality_problem(card: Card, hand: list[Card], trick: list[Card]) -> str | None:
    """Why `card` may not be played from `hand` to `trick` under 003's rules, or None if it may.

    Follow suit; void in the suit, play a trump; trumps led, play a trump; a trump played must
    beat the trumps already in the trick when the hand can; the Excuse goes on any trick."""
    if card not in hand:
        return f"{card.id} is not in the player's hand"
    if card.fool:
        return None
    led = suit_to_follow(trick)
    if led is None:
        return None
    others = [c for c in hand if not c.fool]
    if not led.is_trump:
        same_suit = [c for c in others if not c.is_trump and c.suit == led.suit]
        if same_suit:
            if card.is_trump or card.suit != led.suit:
                return f"{card.id} played while holding {led.suit} (suit led)"
            return None
    trumps = [c for c in others if c.is_trump]
    if not trumps:
        return None
    if not card.is_trump:
        return f"{card.id} played while holding trumps (must trump)"
    highest = max((c.trump for c in trick if c.is_trump), default=0)
    if card.trump < highest and any(c.trump > highest for c in trumps):
        return f"trump {card.trump} played under {highest} while able to overtrump"
    return None


def winning_index(trick: list[Card]) -> int:
    """Index of the card that wins the trick: the highest trump, else the highest card of the
    suit led. The Excuse never wins here (its one exception is the caller's)."""
    trumps = [i for i, c in enumerate(trick) if c.is_trump]
    if trumps:
        return max(trumps, key=lambda i: trick[i].trump)
    led = suit_to_follow(trick)
    if led is None:
        raise ValueError("a trick of nothing but the Excuse")
    followers = [i for i, c in enumerate(trick) if not c.fool and c.suit == led.suit]
    return max(followers, key=lambda i: trick[i].order_in_suit)
