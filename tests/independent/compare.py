"""Sets the independent reading of each hand beside what the game record says and lists the
differences, first one first: the deal's outcome, the sides, every trick's winner, the
Excuse's exchange, each side's card points and every seat's net.

A hand that differs from 003 is read again under the record's reading of each known doubt
(`hand.Doubts`); if it then agrees in everything, the difference is reported as known, under
the doubt's name, and the rest of the hand has still been checked."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, fields

from .cards import LOW_CARD_POINTS, cards_of
from .hand import ATTACK, DEFENCE, Doubts, HandReading, RuleBroken, read_hand

DOUBT_NAMES = [field.name for field in fields(Doubts)]


@dataclass(frozen=True)
class Difference:
    """One hand's first difference from 003; `known` names the doubt that explains it."""

    hand: int
    text: str
    known: str | None = None


def hand_difference(hand: dict, options: dict[str, str]) -> Difference | None:
    """The first thing the record says of this hand that 003 does not, or None."""
    found = _differences(hand, options, Doubts())
    if not found:
        return None
    for count in range(1, len(DOUBT_NAMES) + 1):
        for names in itertools.combinations(DOUBT_NAMES, count):
            if not _differences(hand, options, Doubts(**dict.fromkeys(names, True))):
                return Difference(hand["number"], found[0], known="+".join(names))
    return Difference(hand["number"], found[0])


def _differences(hand: dict, options: dict[str, str], doubts: Doubts) -> list[str]:
    try:
        reading = read_hand(hand, options, doubts)
    except RuleBroken as broken:
        return [f"003 forbids what the record does: {broken}"]
    found = []
    if hand.get("thrown_in") != reading.thrown_in:
        found.append(f"thrown in: record {hand.get('thrown_in')!r}, 003 {reading.thrown_in!r}")
        return found
    if reading.thrown_in is None:
        found += _sides_and_play(hand, reading)
    if not found and hand["net"] != reading.net:
        found.append(f"net per seat: record {hand['net']}, 003 {reading.net}")
    return found


def _sides_and_play(hand: dict, reading: HandReading) -> list[str]:
    sides = hand.get("sides") or {}
    said = (sides.get("taker"), sides.get("contract"), sides.get("partner"))
    read = (reading.taker, reading.contract, reading.partner)
    if said != read:
        return [f"taker, contract, partner: record {said}, 003 {read}"]
    for trick, winner in zip(hand["tricks"], reading.trick_winners, strict=False):
        if trick["winner"] != winner:
            return [f"trick {trick['number']}: record seat {trick['winner']}, 003 seat {winner}"]
    if len(hand["tricks"]) != len(reading.trick_winners):
        return [f"{len(hand['tricks'])} tricks recorded, {len(reading.trick_winners)} played"]
    found = _excuse_exchange(hand, reading, set(sides["attackers"]))
    attackers = set(sides["attackers"])
    recorded = {
        ATTACK: sum(p for seat, p in enumerate(hand["card_points"]) if seat in attackers),
        DEFENCE: sum(p for seat, p in enumerate(hand["card_points"]) if seat not in attackers),
    }
    if recorded != reading.side_points:
        found.append(
            f"card points (taker's side, defence): record {recorded}, 003 {reading.side_points}"
        )
    return found


def _excuse_exchange(hand: dict, reading: HandReading, attackers: set[int]) -> list[str]:
    exchanges = hand.get("excuse_exchanges", [])
    debt = reading.excuse_debt
    owed = debt is not None and (debt.paid_after_trick is not None or debt.paid_from_talon)
    if len(exchanges) != int(owed):
        expected = f"one after trick {debt.paid_after_trick}" if owed else "none"
        return [f"Excuse exchange: record {exchanges}, 003 {expected}"]
    if not owed:
        return []
    if debt.paid_from_talon:
        return [f"Excuse exchange: record {exchanges}, 003 from the talon at the end"]
    given = exchanges[0]
    card = cards_of(hand["deck"]).get(given["card"])
    debtor_seats = attackers if debt.debtor == ATTACK else set(range(len(hand["net"]))) - attackers
    problems = []
    if given["after_trick"] != debt.paid_after_trick:
        problems.append(f"after trick {given['after_trick']}, 003 after {debt.paid_after_trick}")
    if given["to"] != debt.creditor_seat or given["from"] not in debtor_seats:
        problems.append(f"from {given['from']} to {given['to']}")
    if card is None or card.points != LOW_CARD_POINTS:
        problems.append(f"{given['card']} is not a half-point card")
    return [f"Excuse exchange: {problem}" for problem in problems]


def record_differences(record: dict) -> list[Difference]:
    """Every hand's first difference; and the dealer's turn passing to the right (the next
    seat in play) from hand to hand."""
    options = record["ruleset"]["options"]
    found = []
    previous_dealer = None
    for hand in record["hands"]:
        players = len(hand["hands_dealt"])
        if previous_dealer is not None and hand["dealer"] != (previous_dealer + 1) % players:
            found.append(
                Difference(hand["number"], f"dealer {hand['dealer']} after {previous_dealer}")
            )
        previous_dealer = hand["dealer"]
        difference = hand_difference(hand, options)
        if difference:
            found.append(difference)
    return found
