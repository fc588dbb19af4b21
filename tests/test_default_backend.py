"""The default back end of `simulate`, `diff` and `study`: the batch back end where it runs
every ruleset and player of the run, the scalar engine otherwise, with one line saying why;
the report and the rows name the engine that played, and a command run again gives the
same result."""

from __future__ import annotations

import csv
import json

from tarot.cli import main

BASE = "marolles-1637"


def run(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def test_simulate_plays_in_batch_by_default_and_says_so(capsys, tmp_path):
    rows = tmp_path / "rows.csv"
    common = ("simulate", BASE, "--hands", "120", "--jobs", "1")
    status, out, err = run(capsys, *common, "--out", str(rows))
    assert status == 0 and "scalar engine" not in err
    assert out.startswith(f"{BASE}: 120 hands, seed 1, random players, 1 job(s), batch back end")
    with rows.open() as handle:
        assert {row["backend"] for row in csv.DictReader(handle)} == {"batch"}
    again = run(capsys, *common)
    assert again == (0, out, "")  # the same seed, the same back end: the same report
    assert run(capsys, *common, "--backend", "auto")[1] == out  # the default is auto
    status, scalar, err = run(capsys, *common, "--backend", "scalar")
    assert status == 0 and err == ""
    assert "1 job(s), scalar engine" in scalar.splitlines()[0]
    assert scalar != out  # the batch back end deals with random numbers of its own


def test_a_player_the_batch_cannot_run_keeps_the_run_on_the_scalar_engine(capsys):
    common = ("simulate", BASE, "--hands", "6", "--jobs", "1", "--agents", "heuristic")
    status, out, err = run(capsys, *common, "--format", "json")
    assert status == 0
    assert err.splitlines() == [
        "tarot: playing on the scalar engine, since the batch back end cannot run "
        f"{BASE}: the player 'heuristic': only the random player runs in the batch back end"
    ]
    assert json.loads(out)["run"]["backend"] == "scalar"
    status, scalar, err = run(capsys, *common, "--format", "json", "--backend", "scalar")
    assert status == 0 and err == "" and scalar == out  # the same hands, without the note


def test_diff_of_rulesets_the_batch_runs_is_played_in_batch(capsys):
    status, out, err = run(
        capsys, "diff", BASE, f"{BASE}-ultimo-literal", "--hands", "100", "--jobs", "1"
    )
    assert status == 0 and err == ""
    assert "100 hands, seed 1, random players, 1 job(s), batch back end" in out
    assert "--backend batch" in out.split("Hands that differ most")[1]  # its replay commands


def test_study_names_the_engine_that_played(capsys):
    common = ("study", BASE, "--options", "ultimo_failure", "--hands", "40", "--jobs", "1")
    status, out, err = run(capsys, *common, "--format", "json")
    assert status == 0, err
    assert json.loads(out)["run"]["backend"] == "batch"
