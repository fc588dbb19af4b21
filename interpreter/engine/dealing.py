"""The deal: a pack handed out packet by packet to the seats and to the talon.

Pure function of the compiled packet steps; the deal phase (`engine.phases.deal`) calls it
once per deal and keeps the packets each seat received, since some rules look at a particular
packet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tarot.core.ruleset import PacketStep


@dataclass
class Dealt:
    packets: list[list[list[int]]]  # per seat, the packets it received in order
    talon: list[int]
    piles: list[list[list[int]]]  # per seat, its piles on the table, bottom card first
    position: int  # how many cards of the pack are dealt out


def deal_packets(
    steps: Sequence[PacketStep],
    pack: Sequence[int],
    seat_order: Sequence[int],
    dealer: int,
    start: int = 0,
    seats: int | None = None,
) -> Dealt:
    """Deal `pack` from the top (from card `start`, where an earlier part of the deal
    stopped): each step goes round `seat_order` `rounds` times, giving each seat its packet
    and one card on each of its `piles`, and lays its talon cards after the first
    `talon_after` seats of each round. `seats`: how many sit at the table, when some of them
    sit the hand out and are missing from `seat_order` (they receive nothing)."""
    table = range(len(seat_order) if seats is None else seats)
    packets: list[list[list[int]]] = [[] for _ in table]
    piles: list[list[list[int]]] = [[] for _ in table]
    talon: list[int] = []
    position = start

    def take(count: int) -> list[int]:
        nonlocal position
        cards = list(pack[position : position + count])
        position += count
        return cards

    for step in steps:
        for _ in range(step.rounds):
            for place, seat in enumerate(seat_order):
                if step.talon and place == step.talon_after:
                    talon += take(step.talon)
                count = step.dealer if seat == dealer else step.others
                if count:
                    packets[seat].append(take(count))
                if step.piles:
                    while len(piles[seat]) < step.piles:
                        piles[seat].append([])
                    for pile, card in zip(piles[seat], take(step.piles), strict=True):
                        pile.append(card)
            if step.talon and step.talon_after >= len(seat_order):
                talon += take(step.talon)
    return Dealt(packets, talon, piles, position)
