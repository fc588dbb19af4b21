"""A whole record of 002 beside the checker's reading: every hand's first difference (trick
winners, the Fool's payments, card points, nets, a claim), then the running totals and the
game to 50 with its winners."""

from __future__ import annotations

from dataclasses import dataclass

from .hand import CLAIM_AT, RuleBroken, read_hand


@dataclass(frozen=True)
class Difference:
    """One hand's (or the game's, hand 0) first difference from 002."""

    hand: int
    text: str


def hand_difference(hand: dict, options: dict[str, str], totals: list[int]) -> str | None:
    """The first thing the record says of this hand that 002 does not, or None."""
    try:
        reading = read_hand(hand, options, totals)
    except RuleBroken as broken:
        return f"002 forbids what the record does: {broken}"
    for trick, winner in zip(hand["tricks"], reading.trick_winners, strict=False):
        if trick["winner"] != winner:
            return f"trick {trick['number']}: record seat {trick['winner']}, 002 seat {winner}"
    pairs = [
        ("Fool payments", hand.get("excuse_exchanges", []), reading.exchanges),
        ("card points", hand["card_points"], reading.card_points),
        ("net", hand["net"], reading.net),
        ("claimed", hand.get("claimed", []), reading.claimed),
    ]
    for what, recorded, read in pairs:
        if recorded != read:
            return f"{what}: record {recorded}, 002 {read}"
    return None


def game_winners(totals: list[int], claimed: list[int], tie_break: str) -> list[int]:
    """Who has won once a hand is over: a claim, or the game to 50 by the `tie_break` reading."""
    if claimed:
        return sorted(claimed)
    reached = [seat for seat, total in enumerate(totals) if total >= CLAIM_AT]
    if not reached or tie_break == "shared":
        return reached
    best = max(totals[seat] for seat in reached)
    return [seat for seat in reached if totals[seat] == best]


def record_differences(record: dict) -> list[Difference]:
    """Every hand's first difference, then the game's totals and winners (as hand 0)."""
    options = record["ruleset"]["options"]
    totals = [0] * len(record["seats"])
    found = []
    winners: list[int] = []
    for hand in record["hands"]:
        if winners:
            found.append(Difference(hand["number"], f"played after the game was won by {winners}"))
            break
        difference = hand_difference(hand, options, totals)
        if difference:
            found.append(Difference(hand["number"], difference))
        totals = [total + net for total, net in zip(totals, hand["net"], strict=True)]
        winners = game_winners(totals, hand.get("claimed", []), options["tie_break"])
    if record["totals"] != totals:
        found.append(Difference(0, f"totals: record {record['totals']}, 002 {totals}"))
    if record["game_winners"] != winners:
        found.append(Difference(0, f"winners: record {record['game_winners']}, 002 {winners}"))
    return found
