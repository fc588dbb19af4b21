"""The random player as array code: a keyed uniform choice among each hand's legal moves.

Where it sits: called by the batch phases (`tarot.batch.phases`) at every decision.
The choice of hand h at its k-th decision is keyed by (seed, h, k), so it does not depend on
the other hands of the batch. Like the scalar random player, it picks uniformly among the
legal actions; the hands it plays are not the scalar player's (another generator), only
alike in distribution. With a log kept, each choice is noted for the replay (`agree.py`).
"""

from __future__ import annotations

import numpy as np

from tarot.batch import keyed_random
from tarot.batch.masks import Bools, Ints, Masks, count
from tarot.batch.state import BatchState, Logged


def choose_card(
    state: BatchState, rows: Ints, seats: Ints, legal: Masks, kind: str
) -> tuple[Ints, Ints]:
    """One card of each hand's `legal` mask, and how many there were to choose from."""
    counts = count(legal)
    nth = keyed_random.below(
        state.seed_of(rows), state.numbers[rows], keyed_random.CHOICE, state.decisions[rows], counts
    )
    cards = state.tables.layout.nth_card(legal, nth)
    if state.logging:
        state.decision_log.append(Logged(rows, ("card", kind, seats, cards)))
    return cards, counts


def choose_index(state: BatchState, rows: Ints, counts: Ints) -> Ints:
    """A number in 0..count-1 for each hand (the caller logs what it stands for)."""
    return keyed_random.below(
        state.seed_of(rows), state.numbers[rows], keyed_random.CHOICE, state.decisions[rows], counts
    )


def log_texts(state: BatchState, rows: Ints, seats: Ints, kind: str, texts: list[str]) -> None:
    if state.logging:
        state.decision_log.append(
            Logged(rows, ("text", kind, seats, np.array(texts, dtype=object)))
        )


def choose_first(
    state: BatchState, rows: Ints, seats: Ints, kind: str, first: str, second: str
) -> Bools:
    """Each hand's choice between two answers, `first` (True) and `second` (yes or no,
    redeal or play on, join or stay out), drawn as any decision, logged and counted."""
    counts = np.full(len(rows), 2, dtype=np.int64)
    chosen = choose_index(state, rows, counts) == 0
    if state.logging:
        log_texts(state, rows, seats, kind, [first if c else second for c in chosen.tolist()])
    state.decided(rows, counts)
    return chosen
