"""A run's hands handed on a chunk at a time (`measure.runner.run_chunks`, `driver.drive`):
the measures folded a chunk at a time give every figure to the last bit as hand by hand, a
failed write keeps the report and the rows together, the batch back end's chunks are even
across the workers, and workers are forked only where that is safe.
"""

from __future__ import annotations

import json
import random
import threading

import pytest

from tarot.batch.run import play_summaries
from tarot.compile.loader import load_ruleset
from tarot.core.output_files import OutputError
from tarot.measure.comparison import Comparison
from tarot.measure.driver import drive
from tarot.measure.measures import RulesetMeasures
from tarot.measure.runner import (
    BATCH_CHUNK,
    CHUNK,
    POOLED_CHUNK,
    RulesetSpec,
    RunPlan,
    _chunk_size,
    quick_start,
    run_hands,
)
from tarot.measure.statistics import KeyedMeans, RunningMean


def random_chunks(items: list, rng: random.Random) -> list[list]:
    chunks, at = [], 0
    while at < len(items):
        size = rng.choice([1, 2, 7, 50, 333])
        chunks.append(items[at : at + size])
        at += size
    return chunks


def test_running_mean_add_all_is_add_in_turn_to_the_last_bit() -> None:
    rng = random.Random(4)
    values = [rng.choice([0, 0, 0, 1.5, -2, 7.25, rng.random() * 100]) for _ in range(5000)]
    one, chunked = RunningMean(), RunningMean()
    for value in values:
        one.add(value)
    for chunk in random_chunks(values, rng):
        chunked.add_all(chunk)
    assert (chunked.count, chunked.mean, chunked.variance) == (one.count, one.mean, one.variance)


def test_keyed_means_add_all_with_quantities_first_seen_inside_a_chunk() -> None:
    rows = [{}, {"a": 2.0}, {"a": 4.0, "b": 6.0}, {}, {"c": 1.0}, {"a": -1.0}]
    one, chunked = KeyedMeans(), KeyedMeans()
    for row in rows:
        one.add(row)
    chunked.add_all(rows[:1])
    chunked.add_all(rows[1:5])
    chunked.add_all(rows[5:])
    assert chunked.count == one.count == 6
    for key in ("a", "b", "c"):
        mine, theirs = chunked.means[key], one.means[key]
        assert (mine.count, mine.mean, mine.variance) == (
            theirs.count,
            theirs.mean,
            theirs.variance,
        )
        assert list(chunked.histogram(key).items()) == list(one.histogram(key).items())
    assert chunked.histogram("c") == {0.0: 5, 1.0: 1}


@pytest.mark.parametrize("name", ["marolles-1637", "french-tarot"])
def test_measures_folded_a_chunk_at_a_time_are_those_hand_by_hand(name: str) -> None:
    """French Tarot has an auction (`TakerMeasures`), Marolles declarations."""
    ruleset = load_ruleset(name)
    hands = play_summaries(ruleset, 3, range(1, 801))
    one, chunked = RulesetMeasures.of(ruleset), RulesetMeasures.of(ruleset)
    for hand in hands:
        one.add(hand)
    for chunk in random_chunks(hands, random.Random(5)):
        chunked.add_all(chunk)
    assert json.dumps(chunked.report()) == json.dumps(one.report())
    assert [list(h.items()) for h in chunked.histogram] == [list(h.items()) for h in one.histogram]


def test_a_comparison_folded_a_chunk_at_a_time_is_the_same() -> None:
    a, b = load_ruleset("marolles-1637"), load_ruleset("marolles-1637-ultimo-literal")
    under_a, under_b = play_summaries(a, 2, range(1, 401)), play_summaries(b, 2, range(1, 401))
    pairs = list(zip(under_a, under_b, strict=True))
    one, chunked = Comparison(a, b), Comparison(a, b)
    for under_a, under_b in pairs:
        one.add(under_a, under_b)
    for chunk in random_chunks(pairs, random.Random(6)):
        chunked.add_all(chunk)
    assert json.dumps(chunked.report()) == json.dumps(one.report())


class FailingRows:
    """Rows whose third write fails, as a full disk would."""

    def __init__(self) -> None:
        self.written: list[int] = []

    def write(self, results) -> None:
        if len(self.written) == 2:
            raise OutputError("--out rows.csv: no space left on the device")
        self.written.append(results[0].number)

    def close(self) -> None:
        pass


def test_a_failed_write_keeps_the_hands_written_before_it_in_the_report() -> None:
    ruleset = load_ruleset("marolles-1637")
    plan = RunPlan((RulesetSpec("marolles-1637"),), 1, 40, backend="batch")
    consumed: list[int] = []
    rows = FailingRows()
    end = drive(
        plan,
        [ruleset],
        1,
        lambda chunk: consumed.extend(results[0].number for results in chunk),
        rows,  # type: ignore[arg-type]
    )
    assert end.failure == "--out rows.csv: no space left on the device"
    assert consumed == rows.written == [1, 2]


def test_the_batch_back_ends_chunks_are_even_across_the_workers() -> None:
    assert _chunk_size(20000, 2, "batch") == 5000  # two each, not two and one
    assert _chunk_size(20000, 1, "auto") == 6667
    assert _chunk_size(40000, 2, "batch") == 6667  # three each, not three and two
    assert _chunk_size(1000, 2, "batch") == 250  # at least two chunks a worker
    for hands, jobs in [(20000, 2), (100000, 2), (8193, 2), (16385, 2), (50000, 3)]:
        size = _chunk_size(hands, jobs, "batch")
        assert size <= BATCH_CHUNK and -(-hands // size) % jobs == 0


def test_hands_side_by_side_come_in_chunks_of_up_to_the_pooled_size() -> None:
    assert _chunk_size(1000, 2, pooled=True) == POOLED_CHUNK  # the family report's
    assert _chunk_size(40, 2, pooled=True) == 10  # two chunks a worker, when few hands
    assert _chunk_size(1000, 2) == CHUNK  # a hand at a time: the scalar chunk
    assert CHUNK < POOLED_CHUNK


def test_workers_are_forked_only_from_a_process_of_one_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the threads other tests leave behind must not decide: the count is the process's own
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert quick_start() == "fork"
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert quick_start() == "spawn"


@pytest.mark.parametrize("backend", ["scalar", "auto"])
def test_forked_and_spawned_workers_play_the_hands_of_one_process(backend: str) -> None:
    ruleset = load_ruleset("marolles-1637")
    plan = RunPlan((RulesetSpec("marolles-1637"),), 5, 24, backend=backend)
    alone = list(run_hands(plan, [ruleset], 1))
    assert list(run_hands(plan, [ruleset], 2, start="fork")) == alone
    assert list(run_hands(plan, [ruleset], 2, start="spawn")) == alone
