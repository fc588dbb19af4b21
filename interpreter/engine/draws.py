"""Random draws the hand makes most often (a card chosen, a pack shuffled, a number below a
bound), drawn exactly as `random.Random.choice`, `shuffle` and `randrange` draw them, from
the same generator.

Where it sits: under the deal (`engine.game`), the random player, the play-outs' policies and
the search player's guessed deals (`agents.sampling`).
The standard library writes these two methods in Python, one call of `_randbelow` per draw;
here the draw is a loop of `getrandbits` calls in one function, which the compiled build
(mypyc) turns into C. The numbers drawn and what is done with them are those of CPython's
`Random` (a generator of the class `random.Random`, whose `_randbelow` uses `getrandbits`),
so records are the same either way (tests/test_draws.py compares them).
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


def choose(rng: random.Random, items: Sequence[T]) -> T:
    """`rng.choice(items)`: IndexError when there is nothing to choose from. The number is
    drawn as `Random._randbelow` draws it: the bits of the size, drawn again while too large
    (written out here and in `shuffle`: a call per draw is what this module saves)."""
    size = len(items)
    if not size:
        raise IndexError("Cannot choose from an empty sequence")
    bits = size.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= size:
        drawn = rng.getrandbits(bits)
    return items[drawn]


def shuffle(rng: random.Random, items: MutableSequence[T]) -> None:
    """`rng.shuffle(items)`, in place: from the last place down, each item exchanged with
    one at or before it."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        size = i + 1
        bits = size.bit_length()
        j = getrandbits(bits)
        while j >= size:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def below(rng: random.Random, bound: int) -> int:
    """`rng.randrange(bound)` for a positive `bound`: a number from 0 to `bound` - 1."""
    bits = bound.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= bound:
        drawn = rng.getrandbits(bits)
    return drawn
