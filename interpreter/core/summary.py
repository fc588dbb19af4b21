"""What one hand came to, boiled down to what the measures need: a `HandSummary`.

Where it sits: a shared noun (`tarot.core`). The scalar engine's hands are summarized by
`tarot.measure.hand_summary` and the batch back end's by `tarot.batch.run`, into this one
shape, which the measures, the store and the conformance check read. Summaries are small and
picklable, so worker processes send them back to the process that folds them into
statistics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tarot.core.ruleset import Ruleset
    from tarot.engine.events import Payment
    from tarot.expressions.builtins import Number


@dataclass(frozen=True)
class Deal:
    """One hand of a sitting, as the auction's measures read it."""

    dealer: int
    net: tuple[float, ...]  # per seat, this hand's alone
    taker: int | None = None
    partner: int | None = None
    contract: str | None = None

    @property
    def attackers(self) -> tuple[int, ...]:
        """The taker and his partner; empty when nobody took."""
        if self.taker is None:
            return ()
        return (self.taker,) if self.partner is None else (self.taker, self.partner)


@dataclass(frozen=True)
class HandSummary:
    number: int
    dealer: int
    net: tuple[float, ...]  # per seat
    decisions: int
    choices: int  # legal choices summed over the decisions
    winner: int | None  # the winning side's first seat; None when sides share the best
    decided_at: int | None  # decisions taken before the winner led for good
    lead_changes: int  # times the sole leading side of the running result changed
    fired: dict[str, int] = field(default_factory=dict)  # rule -> times it paid
    paid: dict[str, float] = field(default_factory=dict)  # rule -> sum of its payments' amounts
    taker: int | None = None  # the auction's winner (None: no auction, or nobody took)
    partner: int | None = None  # the taker's partner, when one was called and is not himself
    contract: str | None = None  # the contract the taker played
    winners: tuple[int, ...] = ()  # the winning side (the winner alone when he has no side)
    deals: tuple[Deal, ...] = ()  # a sitting's hands, each with its taker and result

    @property
    def taken(self) -> tuple[Deal | HandSummary, ...]:
        """What the auction's measures read: a sitting's hands, or this hand."""
        return self.deals or (self,)

    @property
    def attackers(self) -> tuple[int, ...]:
        """The taker and his partner; empty when nobody took."""
        if self.taker is None:
            return ()
        return (self.taker,) if self.partner is None else (self.taker, self.partner)

    @property
    def decided_share(self) -> float | None:
        """Share of the hand's decisions taken before the winner led for good."""
        if self.decided_at is None:
            return None
        return self.decided_at / self.decisions if self.decisions else 0.0


Sides = Sequence[Sequence[int]]  # each seat's side, itself included


def best_seats(net: Sequence[Number | float]) -> tuple[int, ...]:
    """The seats with the best result."""
    best = max(net)
    return tuple(seat for seat, value in enumerate(net) if value == best)


def leading_side(best: Sequence[int], sides: Sides | None = None) -> int | None:
    """The first seat of the one side that holds every seat of `best`, or None when the best
    is shared across sides (without `sides`, each seat is a side alone)."""
    if len(best) == 1:
        return best[0]
    if sides is None:
        return None
    side = sides[best[0]]
    return min(side) if all(seat in side for seat in best) else None


def sole_leader(net: Sequence[Number | float], sides: Sides | None = None) -> int | None:
    """The first seat of the side alone in the lead (see `leading_side`)."""
    return leading_side(best_seats(net), sides)


def paid_by_rule(payments: Sequence[Payment]) -> dict[str, float]:
    """What each rule moved in a hand: the sum of the amounts of its payments."""
    paid: dict[str, float] = {}
    for payment in payments:
        paid[payment.rule] = paid.get(payment.rule, 0.0) + payment.amount
    return paid


def rule_keys(ruleset: Ruleset) -> list[str]:
    """Every name a payment can carry: each rule's id and each declaration level."""
    keys = [rule.id for rules in ruleset.payments.values() for rule in rules]
    keys += [rule.id for rule in ruleset.settlement]
    for declaration in ruleset.declarations:
        keys += [f"{declaration.id}:{level.id}" for level in declaration.levels]
    return keys
