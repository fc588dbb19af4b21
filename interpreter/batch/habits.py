"""The play-outs' card habit as array code: the search player's greedy policy for cards
(`tarot.players.playouts.card_scores`), for every hand of a batch at once.

Where it sits: a card chooser of the batch back end's trick play
(`tarot.batch.phases.play`), used by the search player's batched play-outs
(`tarot.players.batched_playouts`). The rules of thumb are the scalar habit's: leading, give
away the least (the cheapest card, a trump kept, a high one of its value); following, win a
trick that holds card points with the cheapest card that wins it, else give away as little
as possible; an excuse card, which stays with its holder before the last trick, gives away
no more than the pack's least valuable card. As in the scalar policy, one card in `explore`
is chosen at random instead (every card, for the random play-out).

Two things differ from the scalar habit, neither in what a card is worth: cards of equal
score are told apart by a random draw, where the scalar habit takes the first in hand (the
order of the deal: as good as random); and the random numbers are keyed by (seed, the
play-out's stream, its step), so the play-outs of one guessed deal share them whatever
action began them (common random numbers, as the scalar play-outs share a seed).
"""

from __future__ import annotations

import copy

import numpy as np

from tarot.batch import keyed_random
from tarot.batch.masks import Bools, Ints, Masks
from tarot.batch.phases.play import Excuses
from tarot.batch.state import BatchState, Logged
from tarot.batch.tables import DeckTables

STRENGTH_WEIGHT = 1 / 1000.0  # a slight preference for low cards, as the scalar habit has


class CardHabit:
    """A card chooser (`phases.play.CardChooser`) for the batch's hands, the play-out of
    row r drawing its random numbers from stream `streams[r]`, for up to `steps` cards."""

    def __init__(
        self, tables: DeckTables, seed: int, streams: Ints, steps: int, explore: float
    ) -> None:
        self.explore = explore
        # every draw of the play-outs at once: [rows, steps, (explore?, which card)]
        self.drawn = keyed_random.uniform(
            seed, streams[:, None], keyed_random.CHOICE, np.arange(steps)[None, :], lanes=2
        )
        self.values = tables.values
        self.least = float(tables.values.min(initial=0.0))
        self.strength = tables.strength * STRENGTH_WEIGHT
        self.beats_equal = tables.beats_equal
        self.leading = self.strength - tables.is_trump[:-1]  # a lead: a trump kept, a high card
        # what each card counts for in a trick, by what was led (row 0: a trump, row s + 1:
        # suit s; the last row, at [-1]: nothing yet): 1000 + strength for a trump, its
        # strength for a card of the suit led, -1 for another
        trump, suit, strength = tables.is_trump[:-1], tables.suit, tables.strength
        suits = len(tables.suits)
        led = np.arange(-1, suits + 1)[:, None]
        follows = (suit[None, :] == led) & ~trump & (led >= 0)
        self.keys = np.where(trump, 1000 + strength, np.where(follows, strength, -1))
        # by card led (and -1 for none): its row of `keys`
        self.suit_of_lead = np.append(np.where(trump, -1, suit) + 1, suits + 1)

    def subset(self, rows: Ints) -> CardHabit:
        """The same habit for the hands `rows` alone (a batch taken from this one's), each
        keeping its own draws."""
        part = copy.copy(self)
        part.drawn = self.drawn[rows]
        return part

    def __call__(
        self,
        state: BatchState,
        seats: Ints,
        legal: Masks,
        trick: Ints,
        played: int,
        excuses: Excuses,
    ) -> tuple[Ints, Ints]:
        # the legal cards of every hand as one flat list, hand after hand, each hand's in card
        # order: a hand holds a few legal cards of the deck's, so the work is on those only
        allowed = state.tables.layout.to_bools(legal)  # [hands, cards]
        # (`np.nonzero` of the 2-D array is several times slower than this, same order)
        hands, cards = np.divmod(np.flatnonzero(allowed), allowed.shape[1])
        counts = np.bincount(hands, minlength=state.size)
        starts = np.cumsum(counts) - counts  # where each hand's cards begin
        drawn = self.drawn[:, int(state.decisions[0])]  # the hands of a batch step together
        explored = drawn[:, 0] < self.explore
        if explored.all():
            chosen = np.ones(len(cards), dtype=np.bool_)
        else:
            chosen = self._best(state, hands, cards, starts, trick, played, excuses)
            chosen |= explored[hands]
        # the nth chosen card of each hand, n drawn at random among its chosen ones
        running = np.cumsum(chosen)
        before = running[starts] - chosen[starts]  # chosen cards of the hands before
        within = running - before[hands]
        nth = np.floor(drawn[:, 1] * within[starts + counts - 1]).astype(np.int64)
        picked = cards[chosen & (within == nth[hands] + 1)]
        if state.logging:
            state.decision_log.append(
                Logged(np.arange(state.size), ("card", "play", seats, picked))
            )
        return picked, counts

    def _best(
        self,
        state: BatchState,
        hands: Ints,
        cards: Ints,
        starts: Ints,
        trick: Ints,
        played: int,
        excuses: Excuses,
    ) -> Bools:
        """Which of the flat legal `cards` (of hand `hands`) are of their hand's best score
        (`card_scores`)."""
        values = self.values[cards]
        before_last = state.trick_number < state.total_tricks
        if excuses.per_hand:
            is_excuse = state.tables.layout.to_bools(excuses.mask)[hands, cards]
        else:
            is_excuse = state.tables.is_fool[cards]
        # before the last trick an excuse card stays with its holder: it gives away little
        staying = is_excuse & before_last
        has_staying = np.bincount(hands[staying], minlength=state.size) > 0
        least = np.where(has_staying, self.least, 0.0)[hands]
        given = np.where(staying, least, values)
        if played == 0:
            scores = self.leading[cards] - given
        else:
            on_table = trick[:, :played]
            counted = ~(excuses.of(on_table) & before_last)
            table_points = np.where(counted, self.values[on_table], 0.0).sum(axis=1)[hands]
            wins = _would_win(self, excuses, on_table, hands, cards) & ~is_excuse
            kept = np.where(staying, least, 0.0)
            scores = np.where(wins, table_points - kept, -given) - self.strength[cards]
        best = np.maximum.reduceat(scores, starts)
        return scores == best[hands]


def _would_win(
    habit: CardHabit, excuses: Excuses, on_table: Ints, hands: Ints, cards: Ints
) -> Bools:
    """For each flat legal card: whether the seat to play takes the trick so far by adding it
    (`tricks.winning`; the seat has not played to it, so holds nothing yet). An excuse card
    is told apart by the caller."""
    table_excuse = excuses.of(on_table)
    lead = np.full(len(on_table), -1, dtype=np.int64)
    for position in range(on_table.shape[1] - 1, -1, -1):  # the first that is no excuse
        lead = np.where(table_excuse[:, position], lead, on_table[:, position])
    key_rows = habit.suit_of_lead[lead]  # each hand's row of `keys`
    table_keys = habit.keys[key_rows[:, None], on_table]
    best = np.where(table_excuse, -1, table_keys).max(axis=1)
    keys = habit.keys[key_rows[hands], cards]
    wins = (keys > best[hands]) | ((keys == best[hands]) & habit.beats_equal[cards])
    return np.where(lead[hands] >= 0, wins, True)
