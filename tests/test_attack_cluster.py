"""Attacks on `--cluster` from a worker that answers what it likes, and mistyped addresses:
a worker's answer is JSON text checked by the client (counts, hand numbers, seats, finite
numbers, size), never a pickle; a worker that plays another seed is caught by the client's
own replay of a hand; a cluster started by the command listens on this machine only; a
mistyped address is a usage error at once. See SECURITY.md, "The cluster"."""

from __future__ import annotations

import dataclasses
import json
import pickle
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_simulation_cli import run  # tarot ARGS in this process: status, out, err

from tarot.compile.loader import load_ruleset
from tarot.measure import cluster
from tarot.measure.runner import RulesetSpec, RunPlan, Table, Work
from tarot.measure.store import summary_to_json

pytestmark = pytest.mark.timeout(60)
BASE = "marolles-1637"
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("tpc://127.0.0.1:8786", "begins with tcp://"),
        ("tcp://127.0.0.1:99999", "a port is from 1 to 65535"),
        ("tcp://127.0.0.1", "wants local, local:N or a scheduler address"),
        ("tcp:/127.0.0.1:8786", "wants local, local:N or a scheduler address"),
        ("tcp://no-such-host.invalid:8786", "no host 'no-such-host.invalid' is known"),
        ("tcp://user@127.0.0.1:8786", "wants local, local:N or a scheduler address"),
    ],
)
def test_a_mistyped_address_is_a_usage_error_at_once(
    capsys: pytest.CaptureFixture[str], address: str, message: str
) -> None:
    started = time.monotonic()
    status, _, err = run(capsys, "simulate", BASE, "--hands", "3", "--cluster", address)
    assert status == 2 and message in err and "Traceback" not in err
    assert time.monotonic() - started < 5


@pytest.fixture(scope="module")
def played() -> tuple[Any, RunPlan, Work, list]:
    ruleset = load_ruleset(BASE)
    plan = RunPlan((RulesetSpec(BASE),), 1, 4)
    work: Work = [(number, (0,)) for number in range(1, 5)]
    return ruleset, plan, work, Table(plan, [ruleset]).play(work)


def _text(hands: list) -> str:
    return json.dumps([[summary_to_json(summary) for summary in hand] for hand in hands])


def _changed(hands: list, index: int, **changes: object) -> list:
    hands = list(hands)
    hands[index] = (dataclasses.replace(hands[index][0], **changes),)
    return hands


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (lambda hands: pickle.dumps(hands), "not a text"),
        (lambda hands: _text(hands[:3]), "not 4 hands"),
        (lambda hands: _text(_changed(hands, 1, number=9)), "the summary of hand 9"),
        (lambda hands: _text(_changed(hands, 2, winner=5)), "a seat that is not one of the 3"),
        (lambda hands: _text(_changed(hands, 0, net=(1.0, 2.0))), "a result for 2 seats"),
        (lambda hands: _text(hands).replace("[", "[NaN, ", 1), "NaN is not a number"),
        (lambda hands: " " * (cluster.MAX_ANSWER + 1), "not a text of at most"),
        (lambda hands: "[" * 100_000, "nested too deeply"),
    ],
    ids=["pickle", "count", "number", "seat", "seats", "nan", "huge", "deep"],
)
def test_an_answer_that_does_not_fit_is_refused(
    played: tuple, answer: Callable[[list], object], why: str
) -> None:
    ruleset, _plan, work, hands = played
    assert cluster.checked_answer(_text(hands), work, [ruleset]) == hands
    with pytest.raises(ValueError, match=why):
        cluster.checked_answer(answer(hands), work, [ruleset])


class _Done:
    def __init__(self, value: object) -> None:
        self.value = value

    def result(self, timeout: float | None = None) -> object:
        return self.value


class _HostileClient:
    """A cluster whose worker runs `worker` in place of the program's play_chunk."""

    def __init__(self, worker: Callable[[Any, Work], object]) -> None:
        self.worker = worker

    def nthreads(self) -> dict[str, int]:
        return {"tcp://worker": 1}

    def submit(self, function: Callable, *args: Any, **_options: Any) -> _Done:
        if function is cluster.play_chunk:
            job, work = args
            return _Done(self.worker(job.value, work))
        return _Done(function(*args))

    def cancel(self, *_args: Any, **_options: Any) -> None:
        pass


def _run(worker: Callable[[Any, Work], object], played: tuple) -> list:
    ruleset, plan, work, _hands = played
    executor = cluster.DaskExecutor(_HostileClient(worker), "tcp://worker:8786")  # type: ignore[arg-type]
    return list(executor.play(plan, [ruleset], iter([work])))


def test_an_honest_worker_is_taken(played: tuple) -> None:
    assert _run(cluster.play_chunk, played) == [played[3]]


def test_a_worker_that_changes_a_result_is_caught(played: tuple) -> None:
    def lying(job: Any, work: Work) -> str:
        hands = cluster._table(job).play(work)
        first = hands[0][0]
        net = (first.net[0] + 10, first.net[1] - 10, *first.net[2:])
        return _text([(dataclasses.replace(first, net=net),), *hands[1:]])

    with pytest.raises(cluster.ClusterError, match="is not the one this machine plays"):
        _run(lying, played)


def test_a_worker_that_plays_another_seed_is_caught(played: tuple) -> None:
    def other_seed(job: Any, work: Work) -> str:
        plan = dataclasses.replace(job.plan, seed=job.plan.seed + 1)
        return _text(Table(plan, [w.build() for w in job.written]).play(work))

    with pytest.raises(cluster.ClusterError, match="hand 1 is not the one this machine plays"):
        _run(other_seed, played)


def test_a_worker_answering_a_pickle_is_refused(played: tuple) -> None:
    with pytest.raises(cluster.ClusterError, match="not one this program gives"):
        _run(lambda job, work: pickle.dumps(cluster._table(job).play(work)), played)


@pytest.mark.slow
def test_a_cluster_started_by_the_command_listens_on_this_machine_only() -> None:
    with cluster.dask_executor(cluster.ClusterAddress("local:1", 1)) as executor:
        client = executor._client
        assert client.scheduler.address.startswith("tcp://127.0.0.1:")
        assert all(address.startswith("tcp://127.0.0.1:") for address in client.nthreads())
        assert "127.0.0.1" in (client.dashboard_link or "127.0.0.1")
