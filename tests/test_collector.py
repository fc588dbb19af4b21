"""The garbage collector's setting for playing hands (`engine.collector.few_collections`)."""

from __future__ import annotations

import gc

from tarot.engine.collector import YOUNG_THRESHOLD, few_collections


def test_nested_blocks_freeze_and_only_the_outermost_hands_back() -> None:
    gc.unfreeze()
    threshold = gc.get_threshold()
    with few_collections():
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == max(threshold[0], YOUNG_THRESHOLD)
        with few_collections():
            made_inside = [object() for _ in range(10)]
            with few_collections():
                assert gc.get_freeze_count() > 0
            assert gc.get_freeze_count() > 0, "an inner block leaves the outer's objects frozen"
        assert gc.get_freeze_count() > 0
        del made_inside
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == threshold


def test_what_was_frozen_before_the_block_stays_frozen() -> None:
    gc.unfreeze()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with few_collections():
            with few_collections():
                pass
        assert gc.get_freeze_count() >= frozen
    finally:
        gc.unfreeze()


def test_a_block_left_by_an_error_restores_the_collector() -> None:
    gc.unfreeze()
    threshold = gc.get_threshold()
    try:
        with few_collections():
            raise ValueError("out")
    except ValueError:
        pass
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == threshold
    with few_collections():  # the next block is an outermost one again
        pass
    assert gc.get_freeze_count() == 0
