"""Random numbers keyed by (seed, hand number, stream, step): a hand's draws never depend on
how many hands share its batch or which ones.

Where it sits: under the batch back end's deal and players (`tarot.batch`). Each
number is a hash of its key (splitmix64's finaliser, applied to the key's parts in turn), so
hand 17 draws the same numbers whether it is played alone or among 4,096 others: its draws
depend on its own seed, number and the step of its own hand (the decisions it has taken).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tarot.batch.masks import Ints

Floats = npt.NDArray[np.float64]
_U64 = np.uint64
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

#: the streams a hand draws from: the shuffle, and the players' choices
DEAL, CHOICE = 1, 2


def _mix(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """splitmix64's finaliser: a bijection of 64-bit words that spreads every input bit."""
    x = (x ^ (x >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> _U64(27))) * _U64(0x94D049BB133111EB)
    return x ^ (x >> _U64(31))


def _absorb(state: npt.NDArray[np.uint64], part: Ints | int) -> npt.NDArray[np.uint64]:
    value = np.asarray(part).astype(np.int64).astype(_U64)
    return _mix(state + _U64(_GOLDEN) + (value * _U64(0xD6E8FEB86659FD93)))


Seed = int | Ints  # one seed for every hand, or each hand's own


def words(
    seed: Seed, hands: Ints, stream: int, steps: Ints | int, lanes: int = 0
) -> npt.NDArray[np.uint64]:
    """One 64-bit random word per hand (shape [hands]), or `lanes` per hand ([hands, lanes]);
    `seed`: the game's, or an array of each hand's own (hands of sittings)."""
    with np.errstate(over="ignore"):
        if isinstance(seed, np.ndarray):
            start = _mix(seed.astype(np.int64).astype(_U64))
        else:
            start = _mix(np.asarray([seed & _MASK], dtype=_U64))
        state = _absorb(_absorb(_absorb(start, hands), stream), steps)
        if lanes:
            state = _absorb(state[..., None], np.arange(lanes))
    return state


def uniform(seed: Seed, hands: Ints, stream: int, steps: Ints | int, lanes: int = 0) -> Floats:
    """Numbers in [0, 1) keyed as `words` keys them."""
    drawn = words(seed, hands, stream, steps, lanes) >> _U64(11)
    return drawn.astype(np.float64) * (1.0 / (1 << 53))


def below(seed: Seed, hands: Ints, stream: int, steps: Ints, counts: Ints) -> Ints:
    """A whole number in 0..count-1 for each hand (each count at least 1)."""
    drawn = np.floor(uniform(seed, hands, stream, steps) * counts).astype(np.int64)
    return np.minimum(drawn, counts - 1)


def permutations(seed: Seed, hands: Ints, size: int, deal: int = 0) -> Ints:
    """A shuffled order of 0..size-1 for each hand (shape [hands, size]): its first deal,
    or its `deal`-th deal again after deals thrown in."""
    keys = words(seed, hands, DEAL, deal, lanes=size)
    return np.argsort(keys, axis=-1, kind="stable").astype(np.int64)
