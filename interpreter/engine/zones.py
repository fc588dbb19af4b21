"""Where every card of a hand lies: hands, discards, tricks won, piles, the talon, the trick.
(Finished tricks, in the order they were played, are trick play's: `PlayState.trick_log`.)

Where it sits: one `Zones` value per hand state (`tarot.engine.state`), changed by the
phases as cards move and copied whole by `copy()` when the state is cloned for a search.

Every zone is an ordered list, because its order is seen from outside: a hand's order is the
order of a seat's legal cards (what an agent chooses among, and a random choice with it),
discards and cards played are told in that order by records and the transcript, the talon is
a stock drawn from the top, and tricks won, piles and the cards played are handed to the
ruleset's expressions (`tricks(seat)`, `pile(seat)`, `played(seat)`) as they lie.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Zones:
    hands: list[list[int]]
    discards: list[list[int]]
    won: list[list[int]]  # cards of the tricks each seat won, in the order they were won
    played: list[list[int]]  # cards each seat played, in order
    set_aside: list[list[int]]  # talon cards scoring for a seat, unseen until the end
    piles: list[list[list[int]]]  # per seat, piles on the table, bottom card first
    talon: list[int]  # the talon, or a stock drawn from the top after each trick
    trick: list[tuple[int, int]]  # (seat, card) on the table, in the order played
    packets: list[list[int]]  # the talon laid out face up in packets, one emptied when taken

    @classmethod
    def empty(cls, players: int) -> Zones:
        def per_seat() -> list[list[int]]:
            return [[] for _ in range(players)]

        return cls(per_seat(), per_seat(), per_seat(), per_seat(), per_seat(), [], [], [], [])

    def copy(self) -> Zones:
        """An independent copy."""
        return Zones(
            [list(hand) for hand in self.hands],
            [list(pile) for pile in self.discards],
            [list(pile) for pile in self.won],
            [list(pile) for pile in self.played],
            [list(pile) for pile in self.set_aside],
            [[list(pile) for pile in piles] for piles in self.piles],
            list(self.talon),
            list(self.trick),
            [list(packet) for packet in self.packets],
        )

    def holder(self, card: int | None, leaving_out: int | None = None) -> int | None:
        """The first seat (other than `leaving_out`) holding `card` in hand, if any."""
        for seat, hand in enumerate(self.hands):
            if seat != leaving_out and card in hand:
                return seat
        return None
