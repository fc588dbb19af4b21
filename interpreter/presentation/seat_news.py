"""What a seat has not been told yet of a hand: the other seats' public decisions, the
tricks finished and who won them, and every payment with the rule that made it.

Where it sits: beside `tarot.presentation.seat_screen` (the screen at a decision), used by
`tarot.presentation.human_seat` before each decision and at the end of a hand. It reads the
seat's `SeatView` only. A `Seen` remembers how far into the hand the seat has been told, so
nothing is told twice; the other seats' discards are told only as a count (and, where the
rules tell it, how many cards of a kind each laid away).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tarot.core.actions import DecisionKind, Declare, NoDeclaration, read_action
from tarot.core.ruleset import Ruleset
from tarot.engine.events import AT_SETTLEMENT, Payment, at_trick
from tarot.engine.phases.talon import REST_SHOWN, TAKEN_BY_KIND, TAKEN_SHOWN
from tarot.engine.seat_view import PRIVATE_KINDS, SeatView, SeenDecision, SeenTrick
from tarot.presentation.seat_screen import (
    PLAY,
    action_label,
    capital,
    card_list,
    current_trick,
    payment_lines,
    sorted_hand,
    told_line,
    verb,
    who,
)

#: the talon turned up for all, as `SeatView.shown` names it: what its seat does with it
TALON_TURNED_UP = {
    TAKEN_SHOWN["hand"]: "it",  # shown as it is taken, or before (the same name)
    TAKEN_SHOWN["pile"]: "it onto a pile",
    TAKEN_BY_KIND: "them",
    REST_SHOWN: "them to the tricks",
}


@dataclass
class Seen:
    """How far into a hand a seat has been told: decisions, payments and tricks so far."""

    started: bool = False
    deals: int = 0  # deals thrown in and dealt again within the hand
    decisions: int = 0
    payments: int = 0
    tricks: int = 0
    told: bool = False  # how many cards of a kind each seat laid away (`discard.told`)
    shown: int = 0  # the talon's cards turned up so far (`SeatView.shown`) told
    taken: int = 0  # the talon's takes into a hand so far (`SeatView.talon_taken`) told


def news_lines(view: SeatView, seen: Seen) -> list[str]:
    """What the seat has not been told yet: the start of the hand, the other seats' decisions,
    the tricks finished and who won them, and every payment with its rule; `seen` moves on.
    Payments made in the trick still on the table are left to `decision_lines`."""
    ruleset, me = view.ruleset, view.seat
    lines = [] if seen.started else _opening_lines(view)
    for deal in view.thrown_in_deals[seen.deals :]:
        lines += _decision_news(view, deal.decisions[seen.decisions :])
        reason = ruleset.rule_label("thrown_in:" + deal.reason)
        lines.append(f"The deal is thrown in ({reason}); {who(view.dealer, me)} deals again.")
        seen.deals, seen.decisions, seen.payments, seen.tricks = seen.deals + 1, 0, 0, 0
    talon = _talon_lines(view, seen)
    lines += _decision_news(view, view.decisions[seen.decisions :], talon)
    told = told_line(view) if view.told and not seen.told else None
    if told:
        lines.append(told + ".")
        seen.told = True
    finished = view.tricks[seen.tricks :]
    at_tricks = {at_trick(t.number) for t in finished} | {current_trick(view)}
    others = [p for p in view.payments[seen.payments :] if p.when not in at_tricks]
    lines += _payment_groups(ruleset, [p for p in others if p.when != AT_SETTLEMENT], me)
    for trick in finished:
        lines.append(_trick_line(view, trick))
        paid = [p for p in view.payments if p.when == at_trick(trick.number)]
        lines += ["  " + line for line in payment_lines(ruleset, paid, me)]
    lines += _payment_groups(ruleset, [p for p in others if p.when == AT_SETTLEMENT], me)
    seen.started = True
    seen.decisions = len(view.decisions)
    seen.payments = len(view.payments)
    seen.tricks = len(view.tricks)
    return lines


def _opening_lines(view: SeatView) -> list[str]:
    ruleset, me = view.ruleset, view.seat
    lines = [
        f"=== Hand {view.number} of {ruleset.title}: {who(view.dealer, me)} "
        f"{verb(view.dealer, me, 'deal')}; you are seat {me} ==="
    ]
    lines += [
        capital(f"{who(seat, me)} {verb(seat, me, 'sit')} this hand out: no cards, no say")
        for seat in view.sitting_out
    ]
    if view.cut_card is not None:
        card = ruleset.deck.cards[view.cut_card].label()
        lines.append(f"Cut card, shown to all: {card} (to the dealer)")
    return lines


def _talon_lines(view: SeatView, seen: Seen) -> list[str]:
    """The talon's cards turned up for all since the seat was last told, with who takes them
    (its taker told as `you`), then the talon taken into a hand unseen: its cards to their
    taker, their count to the others; `seen` moves on."""
    deck, me = view.ruleset.deck, view.seat
    lines = []
    for seat, what, cards in view.shown[seen.shown :]:
        if what in TALON_TURNED_UP and cards:
            shown = card_list(deck, sorted_hand(deck, cards))
            does = f"{who(seat, me)} {verb(seat, me, 'take')} {TALON_TURNED_UP[what]}"
            lines.append(f"The talon, shown to all: {shown} ({does}).")
    seen.shown = len(view.shown)
    for seat, count, cards in view.talon_taken[seen.taken :]:
        up = any(set(cards) <= set(shown) for _s, _what, shown in view.shown)
        if cards and up:
            continue  # told with the talon turned up
        of = "the talon's card" if count == 1 else f"the talon's {count} cards"
        if seat == me:
            taken = card_list(deck, sorted_hand(deck, list(cards)))
            lines.append(f"You take {of} into your hand: {taken}.")
        else:
            lines.append(f"{capital(who(seat, me))} takes {of} (not shown to you).")
    seen.taken = len(view.talon_taken)
    return lines


def _decision_news(
    view: SeatView, decisions: Sequence[SeenDecision], talon: Sequence[str] = ()
) -> list[str]:
    """The other seats' decisions in the order they were made (a run of private ones told as
    a count), with `talon` (what the talon showed) told before the first decision that lays
    cards away or hands them on, which follows it."""
    ruleset, me = view.ruleset, view.seat
    lines: list[str] = []
    private: dict[tuple[int, str], list[int]] = {}  # per seat and kind: its line, its count
    pending = list(talon)
    for decision in decisions:
        seat, kind, choice = decision.seat, decision.kind, decision.choice
        if pending and kind in PRIVATE_KINDS:
            lines += pending
            pending = []
        # shown cards are told with the declaration
        if seat == me or kind in (PLAY, DecisionKind.SHOW):
            continue
        if kind in PRIVATE_KINDS or choice is None:
            place = private.setdefault((seat, kind), [len(lines), 0])
            if place[0] == len(lines):
                lines.append("")
            place[1] += 1
            lines[place[0]] = _private_line(view, seat, kind, place[1])
            continue
        action = read_action(kind, choice, ruleset.deck)
        if isinstance(action, NoDeclaration):
            continue
        declared = isinstance(action, Declare) and ruleset.rule(choice) is not None
        label = ruleset.rule_label(choice) if declared else None  # the payment's name for it
        verb = "asks for" if kind == DecisionKind.NAME else "chose"  # a card named aloud
        lines.append(
            f"{capital(who(seat, me))} "
            + (label or f"{verb} {action_label(ruleset, action, None)}")
        )
        shown = [
            cards
            for s, d, cards in view.shown
            if s == seat and isinstance(action, Declare) and d == action.declaration
        ]
        if shown and shown[-1]:
            lines[-1] += ", showing " + card_list(
                ruleset.deck, sorted_hand(ruleset.deck, shown[-1])
            )
    return lines + pending


def _private_line(view: SeatView, seat: int, kind: str, count: int) -> str:
    """What the seat is told of `count` private decisions of another seat."""
    cards = "a card" if count == 1 else f"{count} cards"
    what = f"{capital(who(seat, view.seat))} chose {cards} to {kind.replace('_', ' ')}"
    return what + " (not shown to you)."


def _trick_line(view: SeatView, trick: SeenTrick) -> str:
    deck, me = view.ruleset.deck, view.seat
    played = ", ".join(f"{who(seat, me)} {deck.cards[card].label()}" for seat, card in trick.plays)
    winner = trick.winner
    return f"Trick {trick.number}: {played}; {who(winner, me)} {verb(winner, me, 'win')}."


def _payment_groups(ruleset: Ruleset, payments: Sequence[Payment], me: int) -> list[str]:
    """Payments under a heading for each stage of the hand they were made at."""
    lines: list[str] = []
    start = 0
    for end in range(1, len(payments) + 1):
        if end == len(payments) or payments[end].at != payments[start].at:
            lines.append(f"{capital(payments[start].at)}:")
            lines += ["  " + line for line in payment_lines(ruleset, payments[start:end], me)]
            start = end
    return lines
