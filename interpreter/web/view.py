"""The person's seat as the page draws it: one JSON object per view of a table.

Where it sits: between a `Table` (`tarot.web.table`) and the page
(`interpreter/web/static/table.js`). Everything here is read from the seat's `SeatView`
(`tarot.engine.seat_view`), the one place that decides what a seat may know, and phrased by the
terminal's own words (`tarot.presentation.seat_screen`, `tarot.presentation.seat_news`): the hand
sorted as players hold it and the face-up tops of each seat's piles, the legal choices with their
labels, the talon when it is turned up, the trick on the table and every trick played (the page may
replay the computer players' cards one by one), the sides, shown cards and packets, every payment
with its rule and source, the news of the hand, its result and the game's totals. Another seat's
hidden cards are never read, only how many there are.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from tarot.api.choice_costs import discard_costs
from tarot.api.view import payments_of
from tarot.core.actions import DecisionKind
from tarot.core.cards import Card
from tarot.engine.events import Payment
from tarot.engine.phases.talon import REST_SHOWN, TAKEN_BY_KIND, TAKEN_SHOWN
from tarot.engine.score_sheet import Sheet, score_sheet
from tarot.engine.seat_view import SeatView
from tarot.expressions.numbers import jsonable
from tarot.presentation.seat_screen import (
    announced_line,
    cards_in_hand,
    choice_label,
    doubled_line,
    numbered_choices,
    packets_line,
    payment_lines,
    result_lines,
    short_name,
    shown_line,
    sides_line,
    sorted_hand,
)
from tarot.web.table import Table

#: how the seat view names cards of the talon turned face up (before or as they are taken)
TALON_UP = frozenset({"talon", TAKEN_BY_KIND, REST_SHOWN, *TAKEN_SHOWN.values()})


def card_json(card: Card) -> dict:
    """A card as the page draws it: its id, its name, and what its face shows."""
    row = "trumps" if card.is_trump else ("" if card.fool else str(card.suit))
    return {
        "id": card.id,
        "label": card.label(),
        "face": short_name(card),
        "row": row,
        "suit": card.suit,
        "rank": card.rank,
        "trump": card.trump,
        "fool": card.fool,
    }


def table_json(
    table: Table, seat: int | None = None, present: Collection[int] = frozenset()
) -> dict:
    """What the person at `seat` (by default the one who opened the table) may see now, and
    the news since their last view; `present`: the seats whose people have the table open."""
    seat = table.seat if seat is None else seat
    state, ruleset = table.state, table.ruleset
    view = SeatView(state, seat)
    cards = ruleset.deck.cards

    def drawn(indexes: Iterable[int]) -> list[dict]:
        return [card_json(cards[c]) for c in indexes]

    def plays(seat_cards: Iterable[tuple[int, int]]) -> list[dict]:
        return [{"seat": s, "card": card_json(cards[c])} for s, c in seat_cards]

    sheet = score_sheet(state) if view.over else None
    log, news_from = table.news(seat)
    # the piles' face-up tops are drawn as cards, not told in a line
    lines = (sides_line, announced_line, doubled_line, packets_line, shown_line)
    totals = [t + r for t, r in zip(table.totals_before, view.returns, strict=True)]
    tricks = [
        {
            "number": trick.number,
            "winner": trick.winner,
            "plays": plays(trick.plays),
        }
        for trick in view.tricks
    ]
    sitting = [list(hand.returns()) for hand in table.finished]
    sitting_totals = [sum(column) for column in zip(*sitting, strict=True)] or [0] * ruleset.players
    # numbers that are not whole as a record writes them: a decimal (45.5) or "p/q" ("40/3"),
    # which the page shows as 13 1/3
    seen = {
        "table": table.id,
        "ruleset": {
            "id": ruleset.id,
            "title": ruleset.title,
            "players": ruleset.players,
            "direction": ruleset.direction,
            "unit": ruleset.unit.plural,
            "suits": list(ruleset.deck.suits),
            "options": dict(ruleset.options),
        },
        "seat": seat,
        "agents": table.agent_names(),
        "people": [
            {"seat": person, "here": person == seat or person in present}
            for person in sorted(table.people)
        ],
        "seed": table.setup.seed if table.setup.seed_known else None,
        "hand_number": view.number,
        "dealer": view.dealer,
        "sitting_out": list(view.sitting_out),  # dealt nothing, asked nothing this hand
        "to_decide": view.to_decide,
        "over": view.over,
        "hand": drawn(sorted_hand(ruleset.deck, view.hand)),
        "pile_tops": [drawn(sorted_hand(ruleset.deck, tops)) for tops in view.pile_tops],
        "discards": drawn(view.discards),
        "hand_sizes": list(view.hand_sizes),
        "decision": _decision_json(view, discard_costs(state, seat)),
        "trick_number": view.trick_number,
        "leader": view.leader,
        "trick": plays(view.trick),
        "last_trick": tricks[-1] if tricks else None,
        "tricks": tricks,
        "talon_up": [
            {"seat": s, "cards": drawn(sorted_hand(ruleset.deck, shown))}
            for s, what, shown in view.shown
            if what in TALON_UP and shown
        ],
        "table_lines": [line for line in (make(view) for make in lines) if line],
        "payments": [
            {
                "rule": p.rule,
                "name": p.name,
                "payer": p.payer,
                "payee": p.payee,
                "amount": p.amount,
                "at": p.at,
                "source": p.source,
            }
            for p in payments_of(ruleset, view.payments)
        ],
        "news": log,
        "news_from": news_from,
        "returns": list(view.returns),
        "result": result_lines(view, sheet) if sheet is not None else None,
        "sheet": None if sheet is None else _sheet_json(sheet),
        "sitting": sitting,
        "game": {
            "hands_finished": len(table.finished),
            "totals": totals,
            "sitting_totals": sitting_totals,
            "winners": list(table.winners()),
            "may_deal": table.may_deal(),
        },
    }
    made = jsonable(seen)
    assert isinstance(made, dict)
    return made


def _decision_json(view: SeatView, costs: Mapping[str, Sequence[Payment]]) -> dict | None:
    """The decision the seat faces, with its legal choices (None: not its turn) and what the
    page tells beside them: how many cards are still to lay away, what each would cost."""
    facing = view.facing
    if facing is None:
        return None
    choices = numbered_choices(view)
    ruleset = view.ruleset
    by_id = ruleset.deck.by_id
    cost = {
        choice: "; ".join(payment_lines(ruleset, paid, view.seat)) for choice, paid in costs.items()
    }
    return {
        "kind": str(facing.kind),
        "on_hand": cards_in_hand(view, choices),
        "choices": [
            {
                "text": text,
                "label": choice_label(ruleset, text, facing.level_values, facing.kind),
                "card": text in by_id,
                "cost": cost.get(text),
            }
            for text in choices
        ],
        "notes": _discard_notes(view, choices, cost),
    }


def _discard_notes(view: SeatView, choices: Sequence[str], cost: Mapping[str, str]) -> list[str]:
    """How many cards the seat still lays away, and what the cards that cost something cost,
    grouped by what they cost."""
    if view.facing is None or view.facing.kind != DecisionKind.DISCARD:
        return []
    ruleset = view.ruleset
    done, left = len(view.discards), view.to_discard
    total = done + left
    notes = [
        f"Lay away {left} more {'card' if left == 1 else 'cards'} ({done} of {total} laid away)."
        if done
        else f"Lay away {total} {'card' if total == 1 else 'cards'}, one at a time."
    ]
    by_cost: dict[str, list[str]] = {}
    for choice in choices:
        if choice in cost:
            by_cost.setdefault(cost[choice], []).append(choice_label(ruleset, choice))
    for line, labels in by_cost.items():
        notes.append(f"Laying away {', '.join(labels)}: {line[:1].lower()}{line[1:]}.")
    return notes


def _sheet_json(sheet: Sheet) -> dict:
    """A finished hand's score sheet as the page draws it."""
    return {
        "thrown_in": sheet.thrown_in,
        "terms": [
            {
                "name": term.name,
                "description": term.description,
                "kind": term.kind,
                "value": term.value,
                "per_seat": None if term.per_seat is None else list(term.per_seat),
            }
            for term in sheet.terms
        ],
        "card_points": None if sheet.card_points is None else list(sheet.card_points),
        "paid": [{"rule": label, "net": list(net)} for label, net in sheet.paid],
        "net": list(sheet.net),
    }
