"""Tricks won by another card than the trick rules say (`play.winner_exceptions`), for every
hand of a batch at once.

Where it sits: called by the batch's trick play (`tarot.batch.phases.play`) once a trick is
full and its winner found by the trick rules, before it is taken; the scalar engine's is
`tarot.engine.phases.play._exceptional_winner`. The exceptions are compiled with the program's
play rules (`tarot.batch.trick_rules`, `tarot.batch.contract_play`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tarot.batch.masks import Ints
from tarot.batch.state import BatchState
from tarot.batch.trick_rules import ArrayException
from tarot.batch.values import Cards, Ctx, per_row


def exceptional_winner(
    exceptions: Sequence[ArrayException],
    state: BatchState,
    seats: Ints,
    variables: dict[str, object],
    winner: Ints,
) -> Ints:
    """The seat that takes each trick under the first exception whose `when` holds and
    whose `wins` has a card in it (the seat that played the first such card); else
    `winner`. `seats`: the seat that played each card of the trick, in order."""
    rows = np.arange(state.size)
    trick, layout = state.trick_cards, state.tables.layout
    on_table = Cards((np.bitwise_or.reduce(layout.from_cards(trick), axis=1),))
    ctx = Ctx(state, rows, {**variables, "trick": on_table, "winner": winner})
    winner = winner.copy()
    open_ = np.ones(state.size, dtype=np.bool_)  # no exception has given the trick yet
    for exception in exceptions:
        holds = open_ & per_row(exception.when.fn(ctx), state.size).astype(np.bool_)
        if not holds.any():
            continue
        sub = ctx.subset(holds)
        wins = np.broadcast_to(exception.wins.fn(sub).union(), (sub.size, layout.words))
        there = layout.contains(wins[:, None, :], trick[holds])  # [hands, positions]
        found = there.any(axis=1)
        at = np.flatnonzero(holds)[found]
        winner[at] = seats[at, np.argmax(there[found], axis=1)]
        open_[at] = False
    return winner
