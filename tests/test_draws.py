"""`engine.draws` draws as `random.Random.choice`, `shuffle` and `randrange` do: the same
results from generators in the same state, which are left in the same state after."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarot.engine import draws


@given(seed=st.integers(0, 2**64), size=st.integers(1, 300), times=st.integers(1, 20))
def test_choose_draws_what_choice_draws(seed: int, size: int, times: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    items = list(range(size))
    for _ in range(times):
        assert draws.choose(ours, items) == theirs.choice(items)
    assert ours.getstate() == theirs.getstate()


@given(seed=st.integers(0, 2**64), size=st.integers(0, 200))
def test_shuffle_shuffles_as_shuffle_does(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, standard = list(range(size)), list(range(size))
    draws.shuffle(ours, mine)
    theirs.shuffle(standard)
    assert mine == standard
    assert ours.getstate() == theirs.getstate()


@given(seed=st.integers(0, 2**64), bound=st.integers(1, 2**70), times=st.integers(1, 20))
def test_below_draws_what_randrange_draws(seed: int, bound: int, times: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(times):
        assert draws.below(ours, bound) == theirs.randrange(bound)
    assert ours.getstate() == theirs.getstate()


def test_nothing_to_choose_from_is_an_index_error() -> None:
    with pytest.raises(IndexError):
        draws.choose(random.Random(1), [])
