"""`--cluster`: the hands of simulate and diff played on a Dask cluster that the tests start,
with the rows and the report of `--jobs 1` byte for byte, and clear refusals when the cluster
is missing, unreachable or lost."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import distributed
import pytest
from test_simulation_cli import run  # tarot ARGS in this process: status, out, err

from tarot.compile.loader import load_ruleset
from tarot.measure import cluster
from tarot.measure.provenance import results_version
from tarot.measure.rows import RowWriter
from tarot.measure.runner import RulesetSpec, RunPlan, Written, run_hands

# the slow tier (`python -m pytest -m slow`): a local dask cluster started and stopped
pytestmark = pytest.mark.slow

BASE = "marolles-1637"
LITERAL = "marolles-1637-ultimo-literal"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a cluster of two worker processes on this machine."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as local:
        yield local.scheduler_address


def _same_but_where(cluster_report: str, local_report: str, where: str) -> None:
    """The reports are equal byte for byte, but for where the heading says the jobs ran."""
    assert "1 job(s)" in local_report
    assert cluster_report == local_report.replace("1 job(s)", where, 1)


def test_simulate_on_a_cluster_writes_the_rows_and_report_of_one_job(
    capsys, tmp_path: Path, scheduler: str
) -> None:
    common = ("simulate", BASE, "--hands", "60", "--seed", "4")
    status, alone, _ = run(capsys, *common, "--jobs", "1", "--out", str(tmp_path / "a.jsonl"))
    assert status == 0
    status, spread, err = run(
        capsys, *common, "--cluster", scheduler, "--out", str(tmp_path / "b.jsonl")
    )
    assert status == 0, err
    assert (tmp_path / "b.jsonl").read_bytes() == (tmp_path / "a.jsonl").read_bytes()
    _same_but_where(spread, alone, f"2 job(s) on cluster {scheduler}")


def test_diff_and_family_on_a_cluster_match_one_job(capsys, scheduler: str) -> None:
    for command in (
        ("diff", BASE, LITERAL, "--hands", "40", "--format", "json"),
        ("diff", "--family", BASE, "--hands", "6", "--format", "json"),
    ):
        status, alone, _ = run(capsys, *command, "--jobs", "1")
        assert status == 0
        status, spread, err = run(capsys, *command, "--cluster", scheduler)
        assert status == 0, err
        local, remote = json.loads(alone), json.loads(spread)
        assert (local["run"]["jobs"], local["run"]["cluster"]) == (1, None)
        assert (remote["run"]["jobs"], remote["run"]["cluster"]) == (2, scheduler)
        for report in (local, remote):
            del report["run"]["jobs"], report["run"]["cluster"]
        assert remote == local


def test_a_cluster_started_by_the_command(capsys, tmp_path: Path) -> None:
    store = str(tmp_path / "hands.sqlite")
    common = ("simulate", BASE, "--hands", "30", "--seed", "2", "--format", "markdown")
    status, alone, _ = run(capsys, *common, "--jobs", "1")
    assert status == 0
    status, spread, err = run(capsys, *common, "--cluster", "local:1", "--store", store)
    assert status == 0, err
    assert "0 hand(s) read from it, 30 played" in err
    _same_but_where(spread, alone, "1 job(s) on cluster local:1")


def test_a_worker_lost_mid_run_has_its_chunks_played_again(scheduler: str) -> None:
    ruleset = load_ruleset(BASE)
    plan = RunPlan((RulesetSpec(BASE),), 8, 600)
    with cluster.dask_executor(cluster.ClusterAddress(scheduler)) as executor:
        hands = run_hands(plan, [ruleset], executor)
        got = [next(hands)]
        pids = executor._client.run(os.getpid)  # the worker processes
        os.kill(next(iter(pids.values())), signal.SIGKILL)  # its nanny starts another
        got += list(hands)
    assert got == list(run_hands(plan, [ruleset], 1))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_scheduler_is_named_and_nothing_is_written(
    capsys, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{_free_port()}"
    rows = tmp_path / "rows.csv"
    status, out, err = run(
        capsys, "simulate", BASE, "--hands", "5", "--cluster", address, "--out", str(rows)
    )
    assert status == 1
    assert f"--cluster {address}: cannot reach the scheduler" in err
    assert out == ""
    assert not rows.exists()


def test_losing_every_worker_stops_the_run_naming_the_address_and_keeps_the_rows(
    capsys, tmp_path: Path, monkeypatch
) -> None:
    """One `dask worker` as on a real cluster, killed once the first hand is written."""
    monkeypatch.setattr(cluster, "WORKER_WAIT", 1.0)
    with distributed.LocalCluster(n_workers=0, dashboard_address=":0") as only_scheduler:
        address = only_scheduler.scheduler_address
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--no-nanny"],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            write = RowWriter.write

            def write_then_kill(self: RowWriter, results: object) -> None:
                write(self, results)  # type: ignore[arg-type]
                if worker.poll() is None:
                    worker.kill()
                    worker.wait()

            monkeypatch.setattr(RowWriter, "write", write_then_kill)
            rows = tmp_path / "rows.jsonl"
            args = ("simulate", BASE, "--hands", "100000", "--seed", "3", "--out", str(rows))
            args += ("--backend", "scalar")  # compared below with the scalar engine's hands
            status, out, err = run(capsys, *args, "--cluster", address)
        finally:
            worker.kill()
            worker.wait()
    assert status == 1
    assert f"--cluster {address}: no worker connected to the scheduler for 1 s" in err
    kept = [json.loads(line) for line in rows.read_text(encoding="utf-8").splitlines()]
    assert kept, "the hands written before the loss are kept"
    assert [row["hand"] for row in kept] == list(range(1, len(kept) + 1))
    ruleset = load_ruleset(BASE)
    alone = run_hands(RunPlan((RulesetSpec(BASE),), 3, len(kept)), [ruleset], 1)
    assert [row["net_0"] for row in kept] == [hand[0].net[0] for hand in alone]


def test_without_the_cluster_extra_the_command_says_what_to_install(capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    status, out, err = run(capsys, "simulate", BASE, "--hands", "3", "--cluster", "local:1")
    assert status == 1
    assert "pip install 'tarot-rules[cluster]'" in err
    assert out == ""


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (("--cluster", "somewhere"), "wants local, local:N or a scheduler address"),
        (("--cluster", "local:0"), "must be at least 1"),
        (("--cluster", "local", "--jobs", "2"), "not allowed with argument --cluster"),
    ],
)
def test_a_mistyped_cluster_is_a_usage_error(capsys, flags: tuple[str, ...], message) -> None:
    status, _, err = run(capsys, "simulate", BASE, "--hands", "3", *flags)
    assert status == 2
    assert message in err


def test_a_worker_running_other_code_refuses_the_chunk() -> None:
    ruleset = load_ruleset(BASE)
    plan = RunPlan((RulesetSpec(BASE),), 1, 2)
    job = cluster._Job("run", plan, (Written.of(ruleset),), "0.0.1+code.0000")
    with pytest.raises(cluster.ClusterError, match=r"runs results version .* 0\.0\.1\+code"):
        cluster.play_chunk(job, [(1, (0,))])
    same = cluster._Job("run", plan, (Written.of(ruleset),), results_version())
    answer = cluster.play_chunk(same, [(1, (0,))])  # a JSON text, checked by the client
    expected = [next(run_hands(plan, [ruleset], 1))]
    assert cluster.checked_answer(answer, [(1, (0,))], [ruleset]) == expected


def test_ctrl_c_to_the_process_group_stops_a_run_on_a_local_cluster(tmp_path: Path) -> None:
    """As at a terminal: the command and the workers it started all receive SIGINT; the
    workers ignore it, the command reports what finished and keeps its rows."""
    rows = tmp_path / "rows.jsonl"
    args = ("simulate", BASE, "--hands", "100000", "--cluster", "local:1", "--out", str(rows))
    args += ("--backend", "scalar")  # the batch back end could finish before the signal comes
    process = subprocess.Popen(
        [sys.executable, "-m", "tarot", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while not (rows.exists() and len(rows.read_bytes().splitlines()) >= 4):
        assert process.poll() is None, "the command ended before writing rows"
        assert time.monotonic() < deadline, "no rows after two minutes"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert "Traceback" not in out + err, err[-3000:]
    assert process.returncode == 130, err
    assert "(interrupted)" in out
    assert all(json.loads(line) for line in rows.read_text(encoding="utf-8").splitlines())
