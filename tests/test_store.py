"""The results store (`--store`), rows that name what they were played with, and
`tarot diff A B --option`.

A run with a store must print and write exactly what the same run without one prints and
writes, whatever the store held before (nothing, some hands, every hand, hands of other
keys), with one job or two, and after a run killed half-way. A store file that is not one is
refused naming it and left as it was.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from commands import ROOT, run_in_process
from hands import FOUR_PLAYERS

from tarot.compile.loader import load_ruleset
from tarot.core.summary import HandSummary
from tarot.measure import provenance
from tarot.measure.hand_summary import play_summarized
from tarot.measure.provenance import RunKey, results_version
from tarot.measure.runner import RulesetSpec, RunPlan, run_hands
from tarot.measure.store import (
    PlanStore,
    ResultStore,
    summary_from_json,
    summary_to_json,
)
from tarot.players.lineup import seat_agents

# the slow tier (`python -m pytest -m slow`): simulations stored, resumed and read again
pytestmark = pytest.mark.slow

TARGET = "marolles-1637"
LITERAL = "marolles-1637-ultimo-literal"


run = run_in_process  # `tarot ARGS` in this process: (exit status, stdout, stderr)


def stored_hands(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT count(*) FROM hands").fetchone()[0])


# --- the same results with and without a store --------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_store_reuses_its_hands_and_changes_nothing_printed(
    capsys, tmp_path: Path, jobs: str
) -> None:
    store = tmp_path / "results.sqlite"
    common = ("simulate", TARGET, "--jobs", jobs, "--format", "json")
    status, clean, _ = run(capsys, *common, "--hands", "60", "--out", str(tmp_path / "a.jsonl"))
    assert status == 0
    status, _, err = run(capsys, *common, "--hands", "25", "--store", str(store))
    assert status == 0
    assert "0 hand(s) read from it, 25 played and added" in err
    status, out, err = run(
        capsys, *common, "--hands", "60", "--store", str(store), "--out", str(tmp_path / "b.jsonl")
    )
    assert status == 0
    assert "25 hand(s) read from it, 35 played and added" in err
    assert out == clean
    assert (tmp_path / "b.jsonl").read_bytes() == (tmp_path / "a.jsonl").read_bytes()
    status, out, err = run(capsys, *common, "--hands", "60", "--store", str(store))
    assert "60 hand(s) read from it, 0 played and added" in err
    assert out == clean
    assert stored_hands(store) == 60


def test_the_batch_back_end_reads_and_adds_to_a_store_under_its_own_key(
    capsys, tmp_path: Path
) -> None:
    """Batch hands are stored and read a chunk at a time, never served for scalar ones."""
    store = tmp_path / "results.sqlite"
    common = ("simulate", TARGET, "--jobs", "1", "--format", "json", "--backend", "batch")
    status, clean, _ = run(capsys, *common, "--hands", "300")
    assert status == 0
    status, _, err = run(capsys, *common, "--hands", "100", "--store", str(store))
    assert "0 hand(s) read from it, 100 played and added" in err
    status, out, err = run(capsys, *common, "--hands", "300", "--store", str(store))
    assert "100 hand(s) read from it, 200 played and added" in err
    assert out == clean
    scalar = ("simulate", TARGET, "--jobs", "1", "--hands", "100", "--store", str(store))
    scalar += ("--backend", "scalar")
    status, _, err = run(capsys, *scalar)
    assert "0 hand(s) read from it, 100 played and added" in err
    assert stored_hands(store) == 400


def test_a_diff_and_a_family_read_the_hands_a_simulation_stored(capsys, tmp_path: Path) -> None:
    store = tmp_path / "results.sqlite"
    run(capsys, "simulate", TARGET, "--hands", "30", "--jobs", "1", "--store", str(store))
    diff = ("diff", TARGET, LITERAL, "--hands", "30", "--jobs", "2", "--format", "json")
    status, clean, _ = run(capsys, *diff)
    assert status == 0
    status, out, err = run(capsys, *diff, "--store", str(store))
    assert "30 hand(s) read from it, 30 played and added" in err  # A's hands, from simulate
    assert out == clean
    family = ("diff", "--family", TARGET, "--hands", "30", "--jobs", "1", "--format", "json")
    status, clean, _ = run(capsys, *family)
    assert status == 0
    status, out, err = run(capsys, *family, "--store", str(store))
    assert status == 0
    assert "60 hand(s) read from it" in err  # the base and the literal reading
    assert out == clean


def _planned(store: ResultStore, plan: RunPlan) -> tuple[list, PlanStore]:
    rulesets = [spec.load() for spec in plan.rulesets]
    return rulesets, PlanStore(store, plan.keys(rulesets))


def test_a_store_never_serves_a_hand_of_another_key(tmp_path: Path, monkeypatch) -> None:
    """Hands stored under one ruleset, options, agents, seed, program version or back end
    are not read for another: each change below finds nothing to read."""
    store = ResultStore(str(tmp_path / "s.sqlite"))
    base = RunPlan((RulesetSpec(TARGET),), seed=3, hands=4, agents=("random",))
    rulesets, seen = _planned(store, base)
    list(run_hands(base, rulesets, 1, seen))
    assert (seen.read, seen.played) == (0, 4)
    others = [
        RunPlan((RulesetSpec(LITERAL),), 3, 4, ("random",)),
        RunPlan((RulesetSpec(TARGET, (("ultimo_failure", "literal"),)),), 3, 4, ("random",)),
        RunPlan((RulesetSpec(TARGET),), 4, 4, ("random",)),
        RunPlan((RulesetSpec(TARGET),), 3, 4, ("heuristic",)),
        RunPlan((RulesetSpec(TARGET),), 3, 4, ("random", "random", "heuristic")),
        RunPlan((RulesetSpec(TARGET),), 3, 4, ("search:samples=2",)),
    ]
    for plan in others:
        rulesets, seen = _planned(store, plan)
        assert seen.missing(range(1, 5)) == 4, plan
    rulesets, seen = _planned(store, base)
    assert seen.missing(range(1, 5)) == 0
    other_engine = [replace(key, backend="batch") for key in base.keys(rulesets)]
    assert PlanStore(store, other_engine).missing(range(1, 5)) == 4
    monkeypatch.setattr(provenance, "results_version", lambda: "another program")
    rulesets, seen = _planned(store, base)
    assert seen.missing(range(1, 5)) == 4
    store.close()


def test_one_kind_for_every_seat_is_the_same_key_as_the_kind_in_each_seat() -> None:
    ruleset = load_ruleset(TARGET)
    assert RunKey.of(TARGET, ruleset, ("random",), 1) == RunKey.of(
        TARGET, ruleset, ("random",) * 3, 1
    )


def test_stored_hands_are_the_hands_played(tmp_path: Path) -> None:
    """What the store gives back equals, field by field, the hand played again."""
    store = ResultStore(str(tmp_path / "s.sqlite"))
    plan = RunPlan((RulesetSpec(TARGET), RulesetSpec(LITERAL)), seed=8, hands=6)
    rulesets, seen = _planned(store, plan)
    played = list(run_hands(plan, rulesets, 1, seen))
    rulesets, seen = _planned(store, plan)
    read = list(run_hands(plan, rulesets, 2, seen))
    assert (seen.read, seen.played) == (12, 0)
    assert read == played
    for results in read:
        for ruleset, summary in zip(rulesets, results, strict=True):
            number = summary.number
            agents = seat_agents(("random",), 8, number, 3)
            assert summary == play_summarized(ruleset, 8, number, agents)
    store.close()


def test_a_summary_survives_the_text_it_is_stored_as() -> None:
    ruleset = load_ruleset(TARGET)
    for number in range(1, 6):
        summary = play_summarized(ruleset, 2, number, seat_agents(("random",), 2, number, 3))
        again = summary_from_json(summary_to_json(summary))
        assert again == summary
        assert type(again.net) is tuple
        assert [type(v) for v in again.net] == [type(v) for v in summary.net]


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"number": 1}',
        json.dumps(
            {
                "number": 1,
                "dealer": 0,
                "net": [1, "two", 3],
                "decisions": 1,
                "choices": 1,
                "winner": None,
                "decided_at": None,
                "lead_changes": 0,
                "fired": {},
            }
        ),
        json.dumps(
            {
                "number": True,
                "dealer": 0,
                "net": [1, 2, 3],
                "decisions": 1,
                "choices": 1,
                "winner": None,
                "decided_at": None,
                "lead_changes": 0,
                "fired": {"a": 1.5},
            }
        ),
    ],
)
def test_a_damaged_summary_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        summary_from_json(text)


# --- a run killed half-way ---------------------------------------------------------------------


def test_a_run_killed_half_way_resumes_to_the_result_of_a_clean_run(tmp_path: Path) -> None:
    """kill -9 to the whole run (parent and workers) once the store holds some hands; the
    same command again plays the rest and prints, byte for byte, what a run never stopped
    prints, and writes the same rows."""
    store = tmp_path / "results.sqlite"
    command = [sys.executable, "-m", "tarot", "simulate", TARGET, "--hands", "1500"]
    command += ["--jobs", "2", "--seed", "5"]
    process = subprocess.Popen(
        [*command, "--store", str(store)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while not (store.exists() and _count_or_zero(store) > 0):
        assert process.poll() is None, "the run ended before the store held a hand"
        assert time.monotonic() < deadline, "no hand stored after two minutes"
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=60)
    kept = stored_hands(store)
    assert 0 < kept < 1500, "killed half-way"
    resumed = subprocess.run(
        [*command, "--store", str(store), "--out", str(tmp_path / "resumed.csv")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{kept} hand(s) read from it, {1500 - kept} played and added" in resumed.stderr
    clean = subprocess.run(
        [*command, "--out", str(tmp_path / "clean.csv")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert clean.returncode == 0, clean.stderr
    assert resumed.stdout == clean.stdout
    assert (tmp_path / "resumed.csv").read_bytes() == (tmp_path / "clean.csv").read_bytes()


def _count_or_zero(path: Path) -> int:
    try:
        return stored_hands(path)
    except sqlite3.Error:  # not made yet
        return 0


# --- files that are not a store ----------------------------------------------------------------


def _refused_and_untouched(capsys, path: Path, *words: str) -> None:
    before = path.read_bytes()
    status, out, err = run(capsys, "simulate", TARGET, "--hands", "3", "--store", str(path))
    assert status == 1, (out, err)
    assert f"--store {path}" in err
    for word in words:
        assert word in err
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_database_is_refused(capsys, tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_text("my notes, not a database\n" * 50, encoding="utf-8")
    _refused_and_untouched(capsys, path, "not a results store")


def test_another_programs_database_is_refused(capsys, tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE accounts (name TEXT, balance INTEGER)")
        db.execute("INSERT INTO accounts VALUES ('x', 5)")
    db.close()
    _refused_and_untouched(capsys, path, "another program", "accounts")


def test_a_store_of_another_format_version_is_refused(capsys, tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    ResultStore(str(path)).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE store SET value = '99' WHERE key = 'format_version'")
    db.close()
    _refused_and_untouched(capsys, path, "format version 99")


def test_a_damaged_hand_in_the_store_stops_the_run_with_its_number(capsys, tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    status, _, _ = run(capsys, "simulate", TARGET, "--hands", "5", "--store", str(path))
    assert status == 0
    with sqlite3.connect(path) as db:
        db.execute("UPDATE hands SET summary = '{\"number\": 4' WHERE hand = 4")
    db.close()
    status, out, err = run(capsys, "simulate", TARGET, "--hands", "5", "--store", str(path))
    assert status == 1
    assert f"--store {path}: hand 4 of run 1 is damaged" in err
    assert stored_hands(path) == 5, "nothing stored is lost"


def test_a_cut_off_database_is_refused(capsys, tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    status, _, _ = run(capsys, "simulate", TARGET, "--hands", "200", "--store", str(path))
    assert status == 0
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 3])
    status, out, err = run(capsys, "simulate", TARGET, "--hands", "200", "--store", str(path))
    assert status == 1, (out, err)
    assert f"--store {path}" in err


def test_a_store_path_that_is_a_folder_or_has_no_folder(capsys, tmp_path: Path) -> None:
    for path, words in [(tmp_path, "is a folder"), (tmp_path / "no" / "s.db", "no such folder")]:
        status, _, err = run(capsys, "simulate", TARGET, "--hands", "3", "--store", str(path))
        assert status == 1
        assert f"--store {path}: {words}" in err


def test_a_bad_store_leaves_the_rows_file_alone(capsys, tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    rows.write_text("earlier rows\n", encoding="utf-8")
    bad = tmp_path / "bad.sqlite"
    bad.write_text("x" * 4096, encoding="utf-8")
    args = ("simulate", TARGET, "--hands", "3", "--out", str(rows), "--store", str(bad))
    status, _, _ = run(capsys, *args)
    assert status == 1
    assert rows.read_text(encoding="utf-8") == "earlier rows\n"


def test_store_without_hands_on_diff_is_refused(capsys, tmp_path: Path) -> None:
    status, _, err = run(capsys, "diff", TARGET, LITERAL, "--store", str(tmp_path / "s.db"))
    assert status == 2  # a usage mistake
    assert err.startswith("tarot: error: --store needs --hands N")


# --- rows that name everything needed to replay them -------------------------------------------


def _replayed_from(capsys, row: dict[str, str], tmp_path: Path) -> dict:
    """`tarot play` built from the row's own fields alone; the record it writes."""
    record = tmp_path / f"hand-{row['hand']}.json"
    args = ["play", row["ruleset_file"] or row["ruleset"], "--seed", str(row["seed"])]
    args += ["--hand", str(row["hand"]), "--agents", row["agents"], "--quiet"]
    for column, reading in row.items():
        if column.startswith("option.") and reading not in (None, ""):
            args += ["--option", f"{column.removeprefix('option.')}={reading}"]
    status, _, err = run(capsys, *args, "--record", str(record))
    assert status == 0, err
    return json.loads(record.read_text(encoding="utf-8"))


def test_a_row_alone_replays_its_hand(capsys, tmp_path: Path) -> None:
    rows_file = tmp_path / "rows.csv"
    status, _, err = run(
        capsys,
        "simulate",
        TARGET,
        "--hands",
        "4",
        "--seed",
        "9",
        "--agents",
        "heuristic,random,search:samples=2",
        "--option",
        "ultimo_failure=literal",
        "--out",
        str(rows_file),
    )
    assert status == 0, err
    row = list(csv.DictReader(rows_file.read_text(encoding="utf-8").splitlines()))[3]
    assert row["agents"] == "heuristic,random,search:samples=2"
    assert row["option.ultimo_failure"] == "literal"
    assert row["version"] == results_version()
    assert row["ruleset_file"] == ""
    record = _replayed_from(capsys, row, tmp_path)
    assert record["ruleset"]["hash"] == row["ruleset_hash"]
    assert record["hands"][0]["number"] == 4
    assert record["hands"][0]["net"] == [float(row[f"net_{seat}"]) for seat in range(3)]
    assert record["hands"][0]["dealer"] == int(row["dealer"])


def test_rows_of_a_diff_replay_each_side_and_name_a_ruleset_file(capsys, tmp_path: Path) -> None:
    four = tmp_path / "four.yaml"
    four.write_text(FOUR_PLAYERS, encoding="utf-8")
    rows_file = tmp_path / "rows.jsonl"
    status, _, err = run(
        capsys,
        *("diff", str(four), str(four), "--hands", "3", "--out", str(rows_file)),
        *("--backend", "scalar"),  # its rows replayed by the scalar engine
    )
    assert status == 0, err
    rows = [json.loads(line) for line in rows_file.read_text(encoding="utf-8").splitlines()]
    assert {row["ruleset_file"] for row in rows} == {str(four)}
    assert all(row["seed"] == 1 and row["version"] == results_version() for row in rows)
    for row in rows[-2:]:
        record = _replayed_from(capsys, row, tmp_path)
        assert record["ruleset"]["hash"] == row["ruleset_hash"]
        assert record["hands"][0]["net"] == [row[f"net_{seat}"] for seat in range(4)]


# --- tarot diff A B --option ---------------------------------------------------------------------


def test_diff_option_plays_b_as_the_variant_file(capsys) -> None:
    """B with --option ultimo_failure=literal gives the very numbers of the variant file."""
    common = ("--hands", "40", "--jobs", "1", "--format", "json")
    status, by_option, err = run(
        capsys, "diff", TARGET, TARGET, "--option", "ultimo_failure=literal", *common
    )
    assert status == 0, err
    status, by_file, err = run(capsys, "diff", TARGET, LITERAL, *common)
    assert status == 0, err
    option_report, file_report = json.loads(by_option), json.loads(by_file)
    assert option_report["table"] == file_report["table"]
    changed = [change["option"] for change in option_report["paper"]["options"]]
    assert changed == ["ultimo_failure"]
    assert option_report["table"]["differing_share"] > 0


def test_diff_option_replay_commands_carry_the_reading(capsys) -> None:
    status, out, _ = run(
        capsys, "diff", TARGET, TARGET, "--option", "ultimo_failure=literal", "--hands", "40"
    )
    assert status == 0
    assert f"tarot play {TARGET} --option ultimo_failure=literal --seed 1 --hand" in out


def test_diff_option_on_paper_only(capsys) -> None:
    status, out, _ = run(
        capsys, "diff", TARGET, TARGET, "--option", "kings_values=marolles_figures"
    )
    assert status == 0
    assert "kings_values: reading changed" in out


@pytest.mark.parametrize(
    ("option", "words"),
    [
        ("ultimo=literal", ["no option 'ultimo'", "did you mean 'ultimo_failure'?", "options:"]),
        ("ultimo_failure=literall", ["no reading 'literall'", "did you mean 'literal'?"]),
        ("ultimo_failure", ["write NAME=READING"]),
        ("zzz=1", ["no option 'zzz'", "options: deal_packets"]),
    ],
)
def test_diff_option_mistakes_are_usage_errors(capsys, option: str, words: list[str]) -> None:
    status, _, err = run(capsys, "diff", TARGET, LITERAL, "--option", option, "--hands", "5")
    assert status == 2
    for word in words:
        assert word in err


def test_diff_option_with_family_is_a_usage_error(capsys) -> None:
    status, _, err = run(capsys, "diff", "--family", TARGET, "--option", "ultimo_failure=literal")
    assert status == 2
    assert "--option chooses readings for B" in err


def test_diff_option_twice_with_two_readings_is_a_usage_error(capsys) -> None:
    status, _, err = run(
        capsys,
        "diff",
        TARGET,
        TARGET,
        "--option",
        "ultimo_failure=literal",
        "--option",
        "ultimo_failure=mcleod",
    )
    assert status == 2
    assert "already chosen" in err


# --- the program version in the key ---------------------------------------------------------


def test_the_results_version_counts_the_modules_that_play_a_hand() -> None:
    assert provenance._plays_hands("engine/state.py")
    assert provenance._plays_hands("players/search_agent.py")
    assert provenance._plays_hands("measure/hand_summary.py")
    assert provenance._plays_hands("a_module_added_later.py")
    assert not provenance._plays_hands("cli/__init__.py")
    assert not provenance._plays_hands("measure/diff/render.py")
    assert not provenance._plays_hands("measure/report.py")
    assert results_version() == results_version()
    assert "+code." in results_version()


def test_hand_summary_fields_are_all_stored() -> None:
    """A field added to HandSummary is stored too (the store writes every field)."""
    summary = HandSummary(3, 1, (1.5, -1.5, 0), 10, 30, 0, 4, 2, {"rule": 1})
    assert summary_from_json(summary_to_json(summary)) == summary
