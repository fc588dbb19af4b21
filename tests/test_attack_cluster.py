"""Attacks on `--cluster` from a worker that answers what it likes, and mistyped addresses:
a worker's answer is JSON text checked by the client (counts, hand numbers, seats, finite
numbers, size), never a pickle; a worker that plays another seed is caught by the client's
own replay of a hand; a cluster started by the command listens on this machine only; a
mistyped address is a usage error at once. See SECURITY.md, "The cluster"."""

from __future__ import annotations

import dataclasses
import json
import pickle
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import dask
import distributed
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


@pytest.mark.parametrize(
    "address", ["tcp://192.0.2.1:8786", "ws://192.0.2.1:8786", "tcp://0.0.0.0:8786"]
)
def test_a_plain_address_of_another_machine_is_refused_at_once(
    capsys: pytest.CaptureFixture[str], address: str
) -> None:
    status, _, err = run(capsys, "simulate", BASE, "--hands", "3", "--cluster", address)
    assert status == 2 and "is reached over TLS only (tls://" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "address", ["tcp://127.0.0.1:8786", "tcp://localhost:8786", "tcp://[::1]:8786"]
)
def test_a_plain_address_on_this_machine_is_taken(address: str) -> None:
    taken = cluster.cluster_address(address)
    assert taken.text == address and taken.connect is None


def test_a_plain_name_is_connected_to_as_it_resolved_when_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A name whose owner makes it resolve to the loopback, then elsewhere (DNS rebinding),
    is not looked up a second time when the client connects."""
    answers = [
        (socket.AF_INET6, 1, 6, "", ("::1", 8786, 0, 0)),
        (socket.AF_INET, 1, 6, "", ("127.0.0.1", 8786)),
    ]
    monkeypatch.setattr(cluster.socket, "getaddrinfo", lambda *args, **kwargs: answers)
    taken = cluster.cluster_address("tcp://scheduler.example:8786")
    assert taken.connect == "tcp://127.0.0.1:8786"


def test_tls_without_dask_tls_settings_says_which_are_missing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with dask.config.set({"distributed.comm.tls.ca-file": None}):
        started = time.monotonic()
        status, _, err = run(
            capsys, "simulate", BASE, "--hands", "3", "--cluster", "tls://192.0.2.1:8786"
        )
    assert status == 1 and "distributed.comm.tls.ca-file" in err and "Traceback" not in err
    assert time.monotonic() - started < 5


def _files(security: Any, folder: Path) -> dict[str, str]:
    """Dask's TLS settings naming files that hold `security`'s certificate and key."""
    (folder / "ca.pem").write_text(security.tls_ca_file)
    (folder / "me.pem").write_text(security.tls_client_cert)
    (folder / "me.key").write_text(security.tls_client_key)
    return {
        "distributed.comm.tls.ca-file": str(folder / "ca.pem"),
        "distributed.comm.tls.client.cert": str(folder / "me.pem"),
        "distributed.comm.tls.client.key": str(folder / "me.key"),
    }


@pytest.mark.slow
def test_a_tls_scheduler_is_used_with_dask_settings_and_refused_with_others(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ours = distributed.Security.temporary()
    theirs = distributed.Security.temporary()
    (tmp_path / "ours").mkdir()
    (tmp_path / "theirs").mkdir()
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        host="127.0.0.1",
        protocol="tls://",
        security=ours,
        dashboard_address=None,
    ) as scheduled:
        address = scheduled.scheduler_address
        args = ("simulate", BASE, "--hands", "4", "--cluster", address)
        with dask.config.set(_files(ours, tmp_path / "ours")):
            status, out, err = run(capsys, *args)
        assert status == 0 and f"on cluster {address}" in out, err
        with dask.config.set(_files(theirs, tmp_path / "theirs")):
            status, out, err = run(capsys, *args)
        assert status == 1 and "cannot reach the scheduler" in err and out == ""


@pytest.mark.slow
def test_a_cluster_started_by_the_command_is_this_runs_alone() -> None:
    """On 127.0.0.1, over TLS with certificates made for the run: a client of another user
    of this machine (plain, or with certificates of its own) cannot connect; no dashboard."""
    with cluster.dask_executor(cluster.ClusterAddress("local:1", 1)) as executor:
        client = executor._client
        address = client.scheduler.address
        assert address.startswith("tls://127.0.0.1:")
        assert all(worker.startswith("tls://127.0.0.1:") for worker in client.nthreads())
        http = client.cluster.scheduler.http_server  # type: ignore[union-attr]
        assert http.address == "127.0.0.1"
        pages = {"health": 200, "status": 404, "info/main/workers.html": 404, "metrics": 404}
        for page, status in pages.items():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{http.port}/{page}") as answer:
                    found = answer.status
            except urllib.error.HTTPError as error:
                found = error.code
            assert found == status, page
        for security in (None, distributed.Security.temporary()):
            with pytest.raises((OSError, TypeError)):
                distributed.Client(address, timeout=3, set_as_default=False, security=security)


def test_a_local_cluster_without_cryptography_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing() -> None:
        raise ImportError("No module named 'cryptography'")

    monkeypatch.setattr(distributed.Security, "temporary", staticmethod(missing))
    status, out, err = run(capsys, "simulate", BASE, "--hands", "3", "--cluster", "local:1")
    assert status == 1 and out == "" and "Traceback" not in err
    assert "needs the cryptography package" in err and cluster.INSTALL in err


def test_a_worker_that_changes_a_batch_result_is_caught() -> None:
    """The client's own replay of a hand covers the batch back end too (a hand played alone
    is the hand played in a chunk)."""
    ruleset = load_ruleset(BASE)
    plan = RunPlan((RulesetSpec(BASE),), 1, 4, ("random",) * 3, 1, "batch")
    work: Work = [(number, (0,)) for number in range(1, 5)]

    def lying(job: Any, work: Work) -> str:
        hands = cluster._table(job).play(work)
        first = hands[0][0]
        net = (first.net[0] + 10, first.net[1] - 10, *first.net[2:])
        return _text([(dataclasses.replace(first, net=net),), *hands[1:]])

    executor = cluster.DaskExecutor(_HostileClient(lying), "tcp://worker:8786")  # type: ignore[arg-type]
    with pytest.raises(cluster.ClusterError, match="is not the one this machine plays"):
        list(executor.play(plan, [ruleset], iter([work])))
