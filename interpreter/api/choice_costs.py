"""What laying a card away costs or brings the seat that lays it, before it does.

Where it sits: beside `tarot.api.view`, read by the pages that show a seat its discard
(`tarot.web.view`). Nothing here knows a game: each legal discard is tried on a copy of the
hand (`HandState.clone`) and the payments the ruleset's own rules make at that moment, for
that card, are what it costs (a payment the seat makes) or brings (one it receives). The rules
that pay at a discard read the card laid away and the seat's own hand, which the seat knows;
what they make is public once made, so nothing hidden is told.
"""

from __future__ import annotations

from tarot.core.actions import DecisionKind
from tarot.engine.events import Payment, PaymentTime
from tarot.engine.state import HandState


def discard_costs(state: HandState, seat: int) -> dict[str, list[Payment]]:
    """For each card `seat` may lay away now, the payments laying it away makes at once
    (cards that cost nothing are left out); {} unless the seat faces a discard."""
    decision = state.decision
    if decision is None or decision.seat != seat or decision.kind != DecisionKind.DISCARD:
        return {}
    made = len(state.payments)
    costs: dict[str, list[Payment]] = {}
    for choice in decision.choices:
        tried = state.clone()
        tried.apply_action(choice)
        paid = [
            payment
            for payment in tried.payments[made:]
            if payment.when.time == PaymentTime.DISCARD and seat in (payment.payer, payment.payee)
        ]
        if paid:
            costs[choice] = paid
    return costs
