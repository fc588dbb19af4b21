"""Who plays each hand of a batch and in what order: every seat at the table, or all but
those sitting it out (`players.sit_out`), as tables by dealer.

Where it sits: built once per ruleset with the deck's tables (`tarot.batch.tables`) and
read through `BatchState` by every batch phase that goes round the table (the deal, the
auction, the announcements, the doublings, each trick) and by the facts and names that mean
"the seats in play". Who sits out depends on the dealer alone (the expression choosing them
sees the dealer and the whole table, nothing of a hand), so each dealer's seating is the
scalar engine's own (`tarot.engine.seating.seating_of`), worked out once: a lane of a batch
keeps the table's seats, the seats sitting out masked out of every round. Without
`sit_out` every seat plays and a round from a seat is `(seat + i) % players`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tarot.batch.masks import Bools, Ints
from tarot.core.ruleset import Ruleset
from tarot.engine.dealing import Dealt, deal_packets
from tarot.engine.seating import first_leader, seating_of
from tarot.errors import TarotError
from tarot.expressions import EvaluationError


class SeatingRefused(TarotError):
    """The expression choosing who sits out fails for a dealer (the text says why)."""


@dataclass(frozen=True)
class SeatingTables:
    """Each dealer's seating as arrays (`m`: the seats in play, `players`: at the table)."""

    rounds: Ints  # [dealers, seats, m]: the seats in play in order of play from each seat
    next_seats: Ints  # [dealers, seats]: each seat's next seat in play
    in_play: Bools  # [dealers, seats]
    leaders: dict[str, Ints]  # by `first_leader` word: [dealers], the first trick's leader

    @property
    def in_hand(self) -> int:
        return self.rounds.shape[2]

    @property
    def sits_out(self) -> bool:
        """Whether some seat sits a hand out."""
        return not bool(self.in_play.all())

    @staticmethod
    def of(ruleset: Ruleset) -> SeatingTables:
        """The seatings of the ruleset's dealers; SeatingRefused when `sit_out.seats` fails
        for one (the scalar engine stops that hand saying why)."""
        n = ruleset.players
        try:
            seatings = tuple(seating_of(ruleset, dealer) for dealer in range(n))
        except EvaluationError as error:
            raise SeatingRefused(f"players.sit_out.seats: {error}") from None
        rounds = np.array([s.rounds for s in seatings], dtype=np.int64).reshape(n, n, -1)
        in_play = np.zeros((n, n), dtype=np.bool_)
        for dealer, seating in enumerate(seatings):
            in_play[dealer, list(seating.in_play)] = True
        words = ("dealer", "next")
        leaders = {
            word: np.array(
                [first_leader(s, d, word) for d, s in enumerate(seatings)], dtype=np.int64
            )
            for word in words
        }
        return SeatingTables(
            rounds,
            np.array([s.next_seats for s in seatings], dtype=np.int64),
            in_play,
            leaders,
        )

    def first_leader(self, dealers: Ints, word: str) -> Ints:
        """The first trick's leader by the play rules' `first_leader` word: the dealer (the
        first seat in play after him when he sits out), or the seat in play after him."""
        return self.leaders["dealer" if word == "dealer" else "next"][dealers]


def dealt_by(ruleset: Ruleset, dealer: int) -> Dealt:
    """The places of the pack the dealer deals to each seat, the talon and the piles: round
    the seats in play from his next, as the scalar engine deals."""
    order = seating_of(ruleset, dealer).from_next(dealer)
    n = ruleset.players
    return deal_packets(ruleset.packets, range(len(ruleset.deck)), order, dealer, seats=n)
