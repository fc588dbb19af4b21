"""Which payment rules may fire at an event, card by card.

Built once per compiled ruleset (`Ruleset.rule_index`) and read by the hand state each time
an event happens. The compiler gives every condition a card guard (see "Card guards" in
`expressions/compiler.py`): the cards the event's `card` must be among for it to be true.
Here each event that names a card gets, for every card of the deck, the rules whose guard
lets it through, in the ruleset's order; a card that can fire none of them costs the engine
one lookup, and no variables are built for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tarot.core.ruleset import PaymentRule

#: the event variable rules are indexed by
CARD = "card"


def _may_fire(rule: PaymentRule, card: int | None) -> bool:
    """Whether the rule's condition may be true with `card` as the event's card (None: an
    event without one)."""
    if rule.when is None:
        return True
    needs = getattr(rule.when, "needs", {})  # a hand-made callable promises nothing
    if needs is None:
        return False
    return card is None or CARD not in needs or card in needs[CARD]


def card_guard(condition: object) -> frozenset[int] | None:
    """The cards the `card` variable must be among for `condition` to be true (empty: it is
    never true), or None when any card may make it true (see `_may_fire`)."""
    needs = getattr(condition, "needs", {})
    if needs is None:
        return frozenset()
    return needs.get(CARD)


def may_hold_for(condition: object, card: int) -> bool:
    """Whether `condition` may be true with `card` as the `card` variable."""
    guard = card_guard(condition)
    return guard is None or card in guard


class RuleIndex:
    """Each event's payment rules, narrowed by the event's card where it has one."""

    def __init__(self, payments: Mapping[str, Sequence[PaymentRule]], cards: int) -> None:
        self._rules = {
            event: tuple(r for r in rules if _may_fire(r, None))
            for event, rules in payments.items()
        }
        self._by_card = {
            event: tuple(tuple(r for r in rules if _may_fire(r, c)) for c in range(cards))
            for event, rules in self._rules.items()
        }
        self._no_rules: tuple[tuple[PaymentRule, ...], ...] = ((),) * cards
        self._any: dict[tuple[str, ...], tuple[bool, ...]] = {}
        self._cards = cards

    def rules(self, event: str, variables: Mapping[str, object]) -> tuple[PaymentRule, ...]:
        """The rules of `event` that may fire with these event variables (its `card`)."""
        card = variables.get(CARD)
        if card is None:
            return self._rules.get(event, ())
        return self._by_card.get(event, self._no_rules)[card]  # type: ignore[call-overload]  # the card is an int

    def by_card(self, event: str) -> tuple[tuple[PaymentRule, ...], ...]:
        """For each card, the rules of `event` that may fire with it as the event's card."""
        return self._by_card.get(event, self._no_rules)

    def any_for(self, events: tuple[str, ...], card: int) -> bool:
        """Whether a rule of any of `events` may fire for `card`."""
        fires = self._any.get(events)
        if fires is None:
            indexed = [self._by_card[event] for event in events if event in self._by_card]
            fires = tuple(any(rules[c] for rules in indexed) for c in range(self._cards))
            self._any[events] = fires
        return fires[card]
