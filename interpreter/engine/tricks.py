"""Trick-taking rules, generic over any ruleset: which cards may be played, and who wins.

Pure functions of the compiled `PlayRules`, the pack and the cards on the table; trick play
(`tarot.engine.phases.play`), the seat view and the players call them on every
decision, so they read the `Pack` tables (trumps, Fools, suits, strengths by card index)
rather than the cards. The pack passed is the hand's: in a hand whose trumps play as a plain
suit it is the deck's `Pack.plain_trumps`, where the trumps are one more suit.

Of two cards of equal strength the one played first wins, unless the later one is among the
pack's `beats_equal` (a group of equal trumps where the last played wins).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tarot.core.cards import Card, Pack
from tarot.core.ruleset import PlayRules

Key = tuple[int, int]  # (1, strength) for a trump, (0, strength) for the suit led
NO_KEY: Key = (-1, -1)  # no card counts yet


def is_excuse(cards: Sequence[Card], index: int, excuses: Collection[int] | None) -> bool:
    """Whether the card plays as the Fool does: the Fool itself, or in a hand where the
    ruleset makes other cards excuses, any card of `excuses`."""
    return cards[index].is_excuse if excuses is None else index in excuses


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


def _led(trick: Sequence[tuple[int, int]], excuses: Collection[int]) -> int | None:
    """The index of the card that sets what must be followed (see `led_card`)."""
    for _seat, index in trick:
        if index not in excuses:
            return index
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
    plain = excuses.isdisjoint(hand)
    if not trick:
        if plain or rules.fool_may_lead:
            return list(hand)
        return [c for c in hand if c not in excuses] or list(hand)
    lead = _led(trick, excuses)
    if lead is None:
        return list(hand)
    if rules.follow_suit and not rules.must_beat and lead not in pack.trumps:
        # the common case, without the lists of `_required`: the suit led, if the hand has it
        suits = pack.suit
        suit = suits[lead]
        if plain:
            following = [c for c in hand if suits[c] == suit]
            if following:
                return following
        else:
            following = [c for c in hand if suits[c] == suit and c not in excuses]
            if following:
                return following + [c for c in hand if c in excuses]
    if plain:
        fools, others = [], list(hand)
    else:
        fools = [c for c in hand if c in excuses]
        others = [c for c in hand if c not in excuses]
    required = _required(rules, pack, others, trick, lead)
    if rules.must_beat:
        required = _beating(pack, required, trick, excuses) or required
    return required + fools


def _required(
    rules: PlayRules,
    pack: Pack,
    others: list[int],
    trick: Sequence[tuple[int, int]],
    lead: int,
) -> list[int]:
    if lead in pack.trumps:
        if rules.trump_when_trump_led:
            trumps = list(filter(pack.trumps.__contains__, others))
            if trumps:
                return _overtrumping(rules, pack, trumps, trick)
        return others
    if rules.follow_suit:
        suits = pack.suit
        suit = suits[lead]
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
    strength, trump_cards, later = pack.strength, pack.trumps, pack.beats_equal
    best = max((strength[c] for _s, c in trick if c in trump_cards), default=0)
    higher = [c for c in trumps if strength[c] > best or (c in later and strength[c] == best)]
    return higher or trumps


def _beating(
    pack: Pack, candidates: list[int], trick: Sequence[tuple[int, int]], excuses: Collection[int]
) -> list[int]:
    """The candidates that would take the lead in the trick from every card played so far."""
    lead, _seat, best = trick_standing(pack, trick, excuses)
    if lead is None:
        return candidates
    lead_suit, trumps, suits, strength = (
        pack.suit[lead.index],
        pack.trumps,
        pack.suit,
        pack.strength,
    )
    beating = []
    for card in candidates:
        if card in trumps:
            key = (1, strength[card])
        elif suits[card] == lead_suit:
            key = (0, strength[card])
        else:
            continue
        if key > best or (key == best and card in pack.beats_equal):
            beating.append(card)
    return beating


def trick_winner(
    cards: Sequence[Card],
    trick: Sequence[tuple[int, int]],
    excuses: Collection[int] | None = None,
) -> int:
    """The seat that wins: the highest trump, else the highest card of the suit led (an
    excuse never wins). The same seat as `trick_standing`'s, compared by `Pack.trick_keys`."""
    pack = cards if type(cards) is Pack else Pack(cards)  # `Pack.of`, inlined: a hot path
    if excuses is None:
        excuses = pack.fools
    lead = _led(trick, excuses)
    if lead is None:  # nothing but excuses: the first seat, as `trick_standing` says
        return trick[0][0] if trick else -1
    trumps, suits, keys, later = pack.trumps, pack.suit, pack.trick_keys, pack.beats_equal
    lead_suit = suits[lead]
    best_seat, best_key = trick[0][0], -1
    for seat, index in trick:
        if index in excuses or (index not in trumps and suits[index] != lead_suit):
            continue
        key = keys[index]
        if key > best_key or (key == best_key and index in later):
            best_seat, best_key = seat, key
    return best_seat


def trick_standing(
    cards: Sequence[Card],
    trick: Sequence[tuple[int, int]],
    excuses: Collection[int] | None = None,
) -> tuple[Card | None, int, Key]:
    """The card led, the seat winning so far and the key of its card ((1, strength) for a
    trump, (0, strength) for the suit led, (-1, -1) when no card counts yet)."""
    pack = cards if type(cards) is Pack else Pack(cards)  # `Pack.of`, inlined: a hot path
    if excuses is None:
        excuses = pack.fools
    lead = _led(trick, excuses)
    trumps, suits, strength, later = pack.trumps, pack.suit, pack.strength, pack.beats_equal
    lead_suit = None if lead is None else suits[lead]
    best_seat, best_key = (trick[0][0] if trick else -1), NO_KEY
    for seat, index in trick:
        if index in excuses:
            continue
        if index in trumps:
            key = (1, strength[index])
        elif lead is not None and suits[index] == lead_suit:
            key = (0, strength[index])
        else:
            continue
        if key > best_key or (key == best_key and index in later):
            best_seat, best_key = seat, key
    return (None if lead is None else pack[lead]), best_seat, best_key


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
    lead, best_seat, best_key = trick_standing(pack, trick, excuses)
    trumps, suits, strength, later = pack.trumps, pack.suit, pack.strength, pack.beats_equal
    if lead is None:  # no card on the table counts: the first card that counts wins
        first_wins = (trick[0][0] if trick else seat) == seat
        return [first_wins if card in excuses else True for card in candidates]
    lead_suit, holding = suits[lead.index], best_seat == seat
    result = []
    for card in candidates:
        if card in excuses:
            result.append(holding)
            continue
        if card in trumps:
            key = (1, strength[card])
        elif suits[card] == lead_suit:
            key = (0, strength[card])
        else:
            result.append(holding)
            continue
        result.append(holding or key > best_key or (key == best_key and card in later))
    return result
