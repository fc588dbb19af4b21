"""The command line under hostile conditions: it never loses finished work and never crashes.

Signals sent to a running command (SIGTERM, SIGHUP, to the command or its whole process
group), writes that fail half-way (a full disk, imitated with a file size limit), memory over
long runs, lazy work lists, --jobs beyond the cores, workers and the ruleset they play, and
anything a person types at the human seat. The cases that are one command line with a fixed
answer are attack cases in tests/data/attacks/commands/cli-*.case.yaml.
"""

from __future__ import annotations

import csv
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from commands import ROOT, tarot

from tarot.cli import main
from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.measure import driver, runner
from tarot.measure.runner import RulesetMismatch, RulesetSpec, RunPlan, run_hands
from tarot.players.lineup import seat_agents
from tarot.records.record import game_record
from tarot.records.record_file import RecordFile

# the slow tier (`python -m pytest -m slow`): processes killed, signalled and starved
pytestmark = pytest.mark.slow

TARGET = "marolles-1637"
COMMAND = [sys.executable, "-m", "tarot"]


def started(args: list[str], **options) -> subprocess.Popen:
    return subprocess.Popen(
        [*COMMAND, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **options,
    )


def wait_for(condition, process: subprocess.Popen, what: str) -> None:
    """Wait (up to two minutes on a loaded machine) until `condition()` holds."""
    deadline = time.monotonic() + 120
    while not condition():
        assert process.poll() is None, f"the command ended before {what}"
        assert time.monotonic() < deadline, f"no {what} after two minutes"
        time.sleep(0.05)


def has_rows(path: Path, rows: int) -> bool:
    return path.exists() and len(path.read_bytes().splitlines()) >= rows


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text, text[-3000:]


# --- signals ------------------------------------------------------------------------------------


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_stops_play_and_keeps_a_record_that_replays(tmp_path: Path, signum) -> None:
    record = tmp_path / "game.json"
    process = started(["play", TARGET, "--hands", "100000", "--quiet", "--record", str(record)])
    wait_for(lambda: record.exists() and record.stat().st_size > 0, process, "record")
    process.send_signal(signum)
    out, err = process.communicate(timeout=120)
    no_traceback(out, err)
    assert process.returncode == 128 + signum, err
    assert "interrupted: stopped during hand" in err
    finished = int(re.search(r"Totals after (\d+) hand", out).group(1))
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert [hand["number"] for hand in saved["hands"]] == list(range(1, finished + 1))
    assert tarot("replay", str(record)).returncode == 0


@pytest.mark.parametrize(
    ("signum", "command"),
    [
        (signal.SIGHUP, ["simulate", TARGET, "--hands", "100000"]),
        (signal.SIGTERM, ["diff", TARGET, "marolles-1637-ultimo-literal", "--hands", "100000"]),
    ],
)
def test_a_signal_to_the_process_group_stops_a_run_over_two_workers(
    tmp_path: Path, signum, command
) -> None:
    """As when the terminal is closed: the parent and its workers all receive the signal;
    the parent reports what finished, keeps its rows, and no process prints a traceback."""
    rows = tmp_path / "rows.jsonl"
    process = started([*command, "--jobs", "2", "--out", str(rows)], start_new_session=True)
    wait_for(lambda: has_rows(rows, 4), process, "rows")
    os.killpg(process.pid, signum)
    out, err = process.communicate(timeout=120)
    no_traceback(out, err)
    assert process.returncode == 128 + signum, err
    assert "interrupted: the report covers the hands that finished" in err
    assert "(interrupted)" in out
    assert all(json.loads(line) for line in rows.read_text(encoding="utf-8").splitlines())


def test_sigterm_to_the_parent_alone_stops_its_workers(tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    process = started(["simulate", TARGET, "--hands", "100000", "--jobs", "2", "--out", str(rows)])
    wait_for(lambda: has_rows(rows, 3), process, "rows")
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=120)
    no_traceback(out, err)
    assert process.returncode == 128 + signal.SIGTERM
    assert "(interrupted)" in out


def _children(pid: int) -> list[int]:
    """The processes `pid` started (Linux's /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_a_worker_killed_from_outside_stops_the_run_with_a_message(tmp_path: Path) -> None:
    """A worker killed by another program (or the system, out of memory) ends the run with
    exit 1 and a message, never a traceback or a wait for ever; the rows written are kept."""
    rows = tmp_path / "rows.jsonl"
    process = started(["simulate", TARGET, "--hands", "100000", "--jobs", "2", "--out", str(rows)])
    wait_for(lambda: has_rows(rows, 3), process, "rows")
    workers = [child for child in _children(process.pid) if child != process.pid]
    assert workers, "no worker process found"
    for worker in workers:
        os.kill(worker, signal.SIGKILL)
    out, err = process.communicate(timeout=120)
    no_traceback(out, err)
    assert process.returncode == 1, err
    assert "a worker process ended without answering" in err
    assert all(json.loads(line) for line in rows.read_text(encoding="utf-8").splitlines())


def test_a_huge_number_of_hands_starts_at_once_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    process = started(
        ["simulate", TARGET, "--hands", str(10**12), "--jobs", "2", "--out", str(rows)]
    )
    wait_for(lambda: has_rows(rows, 2), process, "rows")
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    no_traceback(out, err)
    assert process.returncode == 130
    assert f"of {10**12} hands (interrupted)" in out


# --- writes that fail half-way --------------------------------------------------------------------


def on_a_small_disk(size: int, *args: str) -> tuple[subprocess.CompletedProcess, int]:
    """`tarot ARGS` where no file may grow past `size` bytes (as on a disk that fills up):
    it must fail with exit 1 and no traceback; returns it and the hands the file keeps."""

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    done = subprocess.run(
        [*COMMAND, *args], cwd=ROOT, capture_output=True, text=True, timeout=300, preexec_fn=limit
    )
    no_traceback(done.stdout, done.stderr)
    assert done.returncode == 1, done.stderr
    assert "cannot write: File too large; the file keeps" in done.stderr
    return done, int(re.search(r"of the (\d+) hand\(s\) before", done.stderr).group(1))


def test_a_record_that_fills_the_disk_keeps_the_hands_before(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ("play", TARGET, "--hands", "50", "--quiet", "--record", str(record))
    done, kept = on_a_small_disk(100_000, *args)
    assert 0 < kept < 50
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert [hand["number"] for hand in saved["hands"]] == list(range(1, kept + 1))
    assert f"Totals after {kept} hand(s)" in done.stdout
    assert tarot("replay", str(record)).returncode == 0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_rows_that_fill_the_disk_keep_whole_hands_and_report(tmp_path: Path, jobs: str) -> None:
    rows = tmp_path / "rows.csv"
    args = ("simulate", TARGET, "--hands", "500", "--jobs", jobs, "--out", str(rows))
    done, kept = on_a_small_disk(20_000, *args)
    lines = rows.read_text(encoding="utf-8").splitlines()
    assert len(lines) == kept + 1  # the header, then one whole row per hand
    hands = [int(row["hand"]) for row in csv.DictReader(lines)]
    assert hands == list(range(1, kept + 1))
    assert f"{TARGET}: {kept} of 500 hands (interrupted)" in done.stdout


def test_a_device_that_is_full_is_reported(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    full.symlink_to("/dev/full")
    done = tarot("simulate", TARGET, "--hands", "5", "--jobs", "1", "--out", str(full))
    no_traceback(done.stdout, done.stderr)
    assert done.returncode == 1
    assert "No space left on device" in done.stderr


def test_output_paths_are_checked_before_any_hand(capsys, tmp_path: Path, monkeypatch) -> None:
    def no_run(*_args, **_kwargs):
        raise AssertionError("a hand was played before the output path was checked")

    monkeypatch.setattr(driver, "run_chunks", no_run)
    monkeypatch.setattr("tarot.cli.play.play_hands", no_run)
    (tmp_path / "folder.csv").mkdir()
    cases = [
        (["play", TARGET, "--record", str(tmp_path)], "is a folder"),
        (["play", TARGET, "--record", str(tmp_path / "no" / "r.json")], "no such folder"),
        (["play", TARGET, "--record", str(tmp_path / ("r" * 300))], "File name too long"),
        (["simulate", TARGET, "--out", str(tmp_path / "folder.csv")], "is a folder"),
        (["simulate", TARGET, "--out", str(tmp_path / ("r" * 300 + ".csv"))], "too long"),
        (["simulate", TARGET, "--plot", str(tmp_path / "no" / "p.png")], "no such folder"),
    ]
    for args, words in cases:
        assert main(args) == 1
        _out, err = capsys.readouterr()
        assert words in err, (args, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.csv"], "the checks left files"


def test_checking_an_existing_record_leaves_it_unchanged(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_text("kept\n", encoding="utf-8")
    done = tarot("play", TARGET, "--human", "0", "--record", str(record), stdin="")
    assert done.returncode == 130  # the person left before the first hand finished
    assert "no record written" in done.stderr
    assert record.read_text(encoding="utf-8") == "kept\n"


# --- the record, written hand by hand ---------------------------------------------------------


@pytest.mark.parametrize(("target", "hands"), [(TARGET, 4), ("early-french", None)])
def test_the_record_written_hand_by_hand_is_the_record_of_the_game(
    tmp_path: Path, target: str, hands: int | None
) -> None:
    ruleset = load_ruleset(target)

    def agents(number: int):
        return seat_agents(("random",), 7, number, ruleset.players)

    states = play_game(ruleset, 7, agents, hands)
    path = tmp_path / "game.json"
    record = RecordFile(str(path), ruleset, 7, [a.name for a in agents(1)])
    for state in states:
        record.add(state)
    record.close()
    whole = json.dumps(game_record(ruleset, 7, [a.name for a in agents(1)], states), indent=1)
    assert path.read_text(encoding="utf-8") == whole + "\n"


def test_play_stops_at_the_game_end_and_its_record_names_the_winners(tmp_path: Path) -> None:
    # with seed 3, seat 1 of early-french-6 passes the target (50) in hand 1: --hands 3 plays
    # that hand only, says why, and the record of that one game names its winner and replays
    path = tmp_path / "game.json"
    done = tarot("play", "early-french-6", "--seed", "3", "--hands", "3", "--record", str(path))
    assert done.returncode == 0, done.stderr
    assert "is over after hand 1" in done.stderr
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["game_winners"] == [1] and len(record["hands"]) == 1
    replayed = tarot("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr


def test_the_record_on_standard_output_is_the_record_in_a_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    args = ("play", TARGET, "--hands", "3", "--seed", "4", "--quiet")
    to_file = tarot(*args, "--record", str(path))
    to_stdout = tarot(*args, "--record", "-")
    assert to_file.returncode == to_stdout.returncode == 0
    assert to_stdout.stdout == path.read_text(encoding="utf-8")


# --- memory and work lists --------------------------------------------------------------------


def _peak_kilobytes(*args: str) -> int:
    code = (
        "import resource, sys\n"
        "from tarot.cli import main\n"
        "main(sys.argv[1:])\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return int(done.stderr.strip().splitlines()[-1])


def test_play_memory_does_not_grow_with_the_number_of_hands(tmp_path: Path) -> None:
    """Before, 2,000 hands took 3x the memory of 200 (13x with --record). Ten times the
    hands may now cost at most a few megabytes more (allocator noise), not 100 kB a hand."""
    record = str(tmp_path / "game.json")
    few = _peak_kilobytes("play", TARGET, "--hands", "50", "--quiet", "--record", record)
    many = _peak_kilobytes("play", TARGET, "--hands", "500", "--quiet", "--record", record)
    assert many - few < 8_000, (few, many)


def test_the_work_list_is_lazy(marolles) -> None:
    plan = RunPlan((RulesetSpec(TARGET),), 1, 10**12)
    for jobs in (1, 2):
        hands = run_hands(plan, [marolles], jobs)
        assert next(hands)[0].number == 1
        hands.close()  # stops the workers


# --- jobs and workers -------------------------------------------------------------------------


def test_jobs_beyond_the_cores_are_capped_and_said(capsys, monkeypatch) -> None:
    monkeypatch.setattr("tarot.cli.simulate.available_cores", lambda: 1)
    status = main(["simulate", TARGET, "--hands", "3", "--jobs", "40", "--format", "json"])
    out, err = capsys.readouterr()
    assert status == 0
    assert "--jobs 40: only 1 core(s) here; using 1" in err
    assert json.loads(out)["run"]["jobs"] == 1


def test_workers_play_the_ruleset_loaded_not_the_file_as_it_is_now(tmp_path: Path) -> None:
    base = load_ruleset(TARGET)
    path = tmp_path / "edited.yaml"
    path.write_text(f"extends: {TARGET}\ntitle: before\n", encoding="utf-8")
    loaded = load_ruleset(path)
    path.write_text(f"extends: {TARGET}\nplayers: {{count: 4}}\n", encoding="utf-8")
    plan = RunPlan((RulesetSpec(str(path)),), 3, 12)
    spread = [results[0].net for results in run_hands(plan, [loaded], jobs=2)]
    alone = [results[0].net for results in run_hands(plan, [base], jobs=1)]
    assert spread == alone


def test_a_worker_refuses_a_ruleset_whose_hash_differs(marolles) -> None:
    written = runner.Written.of(marolles)
    assert written.build().content_hash == marolles.content_hash
    forged = runner.Written(written.path, written.document, written.options, "sha256:0")
    with pytest.raises(RulesetMismatch, match="not the sha256:0 the run was started with"):
        forged.build()


# --- the human seat -----------------------------------------------------------------------------


def test_anything_typed_at_the_human_seat_is_answered_and_the_game_goes_on() -> None:
    hostile = [
        b"\xff\xfe\xc3(\n",  # not UTF-8
        b"9" * 5000 + b"\n",  # a 5,000-digit number
        b"9" * 900 + b"\n",  # a 900-digit number
        b"\x1b[A\x01\x7f\n",  # control characters
        b"x" * 200_000 + b"\n",  # a very long line
        b"\n",  # an empty line
        "\u00b2\n".encode(),  # a digit int() does not read
        b"\x00\n",
    ]
    stdin = b"".join(hostile) + b"1\n" * 200
    done = subprocess.run(
        [*COMMAND, "play", TARGET, "--human", "0"],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=120,
    )
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    no_traceback(out, err)
    assert done.returncode == 0, err
    for refusal in (
        "Not accepted: the line is not UTF-8 text.",
        "Not accepted: the line is too long (more than 1000 characters).",
        "Not accepted: there is no choice [a 900-digit number]",
        "Not accepted: the line holds control characters.",
        "Please choose (? for help).",
        "Not accepted: '\u00b2' is not one of the choices",
    ):
        assert refusal in out, refusal
    assert "\x1b" not in out and "\x00" not in out, "control characters echoed to the terminal"
    assert "Totals after 1 hand(s)" in out
