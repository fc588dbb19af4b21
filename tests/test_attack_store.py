"""Attacks on the results store (`--store FILE`) by whoever wrote the file: views that never
end, triggers, huge rows, damaged pages, malformed hands, NaN, impossible seats, queries that
run on. Each is refused with the file (and the hand) named, within seconds, and the file is
never changed before it is accepted. See SECURITY.md, "Results stores"."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from test_simulation_cli import run  # tarot ARGS in this process: status, out, err

from tarot.core.stopping import Stopped, signals_stop_the_run
from tarot.core.summary import HandSummary
from tarot.measure import store_check
from tarot.measure.provenance import RunKey
from tarot.measure.store import PlanStore, ResultStore, StoreError

pytestmark = pytest.mark.timeout(60)
KEY = RunKey("mine", None, "hash", (("o", "r"),), ("random",) * 3, 1, "v1")
HAND = HandSummary(1, 0, (2.0, -1.0, -1.0), 30, 60, 0, 5, 2, {"rule": 1}, {"rule": 2.0})
TWO = dataclasses.asdict(dataclasses.replace(HAND, number=2))


def _store(tmp_path: Path, hands: int = 3) -> Path:
    path = tmp_path / "store.sqlite"
    store = ResultStore(str(path))
    run = store.run_id(KEY)
    store.keep((run, dataclasses.replace(HAND, number=n)) for n in range(1, hands + 1))
    store.close()
    return path


def _tamper(path: Path, *statements: str, values: tuple = ()) -> None:
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=DELETE")
        for statement in statements:
            db.execute(statement, values if "?" in statement else ())
    db.close()


def _unchanged_after_refusal(path: Path, message: str) -> None:
    before = path.read_bytes()
    started = time.monotonic()
    with pytest.raises(StoreError, match=message) as refused:
        ResultStore(str(path))
    assert time.monotonic() - started < 5
    assert str(path) in str(refused.value)
    assert path.read_bytes() == before
    assert not path.with_name(path.name + "-wal").exists()


def _lookup(path: Path) -> list:
    store = ResultStore(str(path))
    try:
        return PlanStore(store, [KEY]).lookup(range(1, 4))
    finally:
        store.close()


def test_a_view_that_never_ends_is_refused_at_once(tmp_path: Path) -> None:
    path = _store(tmp_path)
    _tamper(
        path,
        "DROP TABLE hands",
        "CREATE VIEW hands AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
        "SELECT 1 AS run, i AS hand, '{}' AS summary FROM n",
    )
    _unchanged_after_refusal(path, "no views or triggers")


def test_a_trigger_is_refused(tmp_path: Path) -> None:
    path = _store(tmp_path)
    _tamper(path, "CREATE TRIGGER gone AFTER INSERT ON hands BEGIN DELETE FROM hands; END")
    _unchanged_after_refusal(path, "trigger gone")


def test_another_column_or_table_is_refused(tmp_path: Path) -> None:
    path = _store(tmp_path)
    _tamper(path, "CREATE TABLE extra (x)")
    _unchanged_after_refusal(path, "not those of a results store")


def test_a_huge_summary_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = _store(tmp_path)
    huge = json.dumps({"pad": "x" * (store_check.MAX_SUMMARY + 10)})
    _tamper(path, "UPDATE hands SET summary = ? WHERE hand = 2", values=(huge,))
    _unchanged_after_refusal(path, "hand 2 of run 1 is not a hand number")


def test_a_damaged_file_is_refused_and_never_rewritten(tmp_path: Path) -> None:
    path = _store(tmp_path, hands=400)
    data = bytearray(path.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 4000] = b"\xff" * 4000
    path.write_bytes(bytes(data))
    _unchanged_after_refusal(path, "damaged|cannot read|not a results store")


@pytest.mark.parametrize(
    ("summary", "why"),
    [
        ({**TWO, "net": [float("nan"), 0, 0]}, "NaN is not a number"),
        ("{" * 100_000, "nested too deeply|not JSON"),
        ({**TWO, "net": [1e300, 0, 0]}, "not a finite number up to"),
        ({**TWO, "net": [1, -1]}, "a result for 2 seats, not 3"),
        ({**TWO, "winner": 7}, "a seat that is not one of the 3"),
        ({**TWO, "dealer": -1}, "a seat that is not one of the 3"),
        ({**TWO, "decisions": -5}, "a count below zero"),
        ({"number": 2}, "not the fields"),
        ([], "not the fields"),
    ],
    ids=["nan", "deep", "huge", "seats", "winner", "dealer", "count", "fields", "list"],
)
def test_a_malformed_hand_is_refused_with_its_number(
    tmp_path: Path, summary: object, why: str
) -> None:
    path = _store(tmp_path)
    text = summary if isinstance(summary, str) else json.dumps(summary, allow_nan=True)
    _tamper(path, "UPDATE hands SET summary = ? WHERE hand = 2", values=(text,))
    before = path.read_bytes()
    with pytest.raises(StoreError, match=f"hand 2 of run 1 is damaged .*({why})"):
        _lookup(path)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM hands").fetchone()[0] == 3
    assert len(path.read_bytes()) == len(before)


def test_a_long_query_stops_at_its_time_and_on_a_signal(monkeypatch: pytest.MonkeyPatch) -> None:
    endless = (
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
    )
    db = sqlite3.connect(":memory:")
    store_check.guard(db)
    monkeypatch.setattr(store_check, "QUERY_SECONDS", 0.5)
    store_check.begin(db)
    started = time.monotonic()
    with pytest.raises(sqlite3.OperationalError) as stopped:
        db.execute(endless).fetchone()
    assert time.monotonic() - started < 3
    assert "ran past" in store_check.interrupted(db, stopped.value)

    monkeypatch.setattr(store_check, "QUERY_SECONDS", 60.0)
    try:
        with signals_stop_the_run():  # as every command runs
            store_check.begin(db)
            threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM)).start()
            started = time.monotonic()
            with pytest.raises(sqlite3.OperationalError) as stopped:
                db.execute(endless).fetchone()
            assert time.monotonic() - started < 3
            with pytest.raises(Stopped):  # the signal's own exception, once SQLite stopped
                store_check.interrupted(db, stopped.value)
    finally:
        db.close()


def test_a_reading_s_deadline_does_not_stop_later_writes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The clock of a query ends with it: hands kept long after the last reading of the
    store are written (a long run's writes were once stopped as "interrupted" by the
    deadline of a reading made minutes before)."""
    now = [0.0]
    monkeypatch.setattr(store_check, "time", SimpleNamespace(monotonic=lambda: now[0]))
    monkeypatch.setattr(store_check, "PROGRESS_STEPS", 50)  # the clock looked at often
    store = ResultStore(str(tmp_path / "store.sqlite"))
    run = store.run_id(KEY)
    assert store.count(run, range(1, 1000)) == 0  # a reading, its clock begun at 0
    now[0] = 10 * store_check.QUERY_SECONDS
    store.keep((run, dataclasses.replace(HAND, number=n)) for n in range(1, 301))
    assert store.count(run, range(1, 1000)) == 300
    store.close()


def test_a_good_store_is_read_and_written_as_before(tmp_path: Path) -> None:
    path = _store(tmp_path)
    found = _lookup(path)
    assert [hands[0].number for hands in found] == [1, 2, 3]


# --- hands that fit the ruleset but were not played by this user: the seals ----------------


def _as_user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, who: str) -> None:
    """The user whose store key seals and checks hands from now on (their data folder)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / who))


def test_a_strangers_store_is_refused_unless_trusted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _as_user(monkeypatch, tmp_path, "stranger")
    path = _store(tmp_path)
    _as_user(monkeypatch, tmp_path, "me")
    _unchanged_after_refusal(path, "its hands are not sealed by you .* --trust-store")
    store = ResultStore(str(path), trust=True)
    assert store.resealed == 3
    store.close()
    assert [hands[0].number for hands in _lookup(path)] == [1, 2, 3]


def test_emptying_the_cache_keeps_the_users_stores_theirs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _as_user(monkeypatch, tmp_path, "me")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-1"))
    path = _store(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-2"))
    assert [hands[0].number for hands in _lookup(path)] == [1, 2, 3]


def _invent(net: list[float]) -> str:
    return json.dumps({**TWO, "net": net})


@pytest.mark.parametrize(
    "statements",
    [
        ("UPDATE hands SET summary = ? WHERE hand = 2",),
        ("DELETE FROM seals WHERE hand = 2", "UPDATE hands SET summary = ? WHERE hand = 2"),
        (
            "DELETE FROM hands WHERE hand = 2",
            "DELETE FROM seals WHERE hand = 2",
            "INSERT INTO hands VALUES (1, 2, ?)",
        ),
        ("UPDATE seals SET seal = ? WHERE hand = 2",),
        ("UPDATE seals SET seal = ? WHERE hand = 2",),
    ],
    ids=["edited", "edited-unsealed", "added", "seal-replaced", "seal-not-ascii"],
)
def test_a_hand_made_up_in_the_users_store_is_refused(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    statements: tuple[str, ...],
    request: pytest.FixtureRequest,
) -> None:
    seal = "é" * 64 if request.node.callspec.id.endswith("seal-not-ascii") else "0" * 64
    _as_user(monkeypatch, tmp_path, "me")
    path = _store(tmp_path)
    value = _invent([9.0, -4.5, -4.5]) if "seal =" not in statements[0] else seal
    _tamper(path, *statements, values=(value,))
    before = path.read_bytes()
    with pytest.raises(StoreError, match="hand 2 of run 1 is not sealed by you"):
        _lookup(path)
    assert len(path.read_bytes()) == len(before)


def test_a_genuine_hand_moved_to_another_run_or_number_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _as_user(monkeypatch, tmp_path, "me")
    path = _store(tmp_path)
    other = dataclasses.replace(KEY, seed=2)
    store = ResultStore(str(path))
    assert store.run_id(other) == 2
    store.close()
    _tamper(
        path, "UPDATE hands SET run = 2 WHERE hand = 2", "UPDATE seals SET run = 2 WHERE hand = 2"
    )
    store = ResultStore(str(path))
    try:
        with pytest.raises(StoreError, match="hand 2 of run 2 is not sealed by you"):
            PlanStore(store, [other]).lookup(range(1, 4))
    finally:
        store.close()


def _format_1(path: Path, hands: int) -> None:
    """A store as tarot wrote it before hands were sealed."""
    from tarot.measure import store as store_module

    with sqlite3.connect(path) as db:
        db.executescript(store_module._SCHEMAS["1"])
        db.execute(
            "INSERT INTO store VALUES ('format', ?), ('format_version', '1')",
            (store_module.FORMAT,),
        )
        values = ("hash", '{"o": "r"}', json.dumps(list(KEY.agents)), 1, "v1", "scalar")
        db.execute("INSERT INTO runs VALUES (1, ?, ?, ?, ?, ?, ?, 'mine')", values)
        for number in range(1, hands + 1):
            summary = dataclasses.asdict(dataclasses.replace(HAND, number=number))
            db.execute("INSERT INTO hands VALUES (1, ?, ?)", (number, json.dumps(summary)))
    db.close()


def test_a_store_from_before_seals_is_the_users_once_they_vouch_for_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _as_user(monkeypatch, tmp_path, "me")
    path = tmp_path / "old.sqlite"
    _format_1(path, 3)
    _unchanged_after_refusal(path, "before stores were sealed")
    store = ResultStore(str(path), trust=True)
    assert store.resealed == 3
    store.close()
    assert [hands[0].number for hands in _lookup(path)] == [1, 2, 3]
    store = ResultStore(str(path))  # the user's now: no --trust-store needed again
    assert store.resealed == 0
    store.close()


@pytest.mark.slow
def test_the_commands_refuse_a_strangers_store_and_take_it_when_trusted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sent.sqlite"
    args = ("simulate", "marolles-1637", "--hands", "4", "--jobs", "1", "--store", str(path))
    _as_user(monkeypatch, tmp_path, "stranger")
    status, played, _ = run(capsys, *args)
    assert status == 0
    _as_user(monkeypatch, tmp_path, "me")
    before = path.read_bytes()
    status, out, err = run(capsys, *args)
    assert status == 1 and out == "" and "not sealed by you" in err and "Traceback" not in err
    assert path.read_bytes() == before
    status, out, err = run(capsys, *args, "--trust-store")
    assert status == 0 and out == played
    assert "4 hand(s) sealed as yours" in err and "4 hand(s) read from it, 0 played" in err


def test_a_store_naming_the_user_as_its_owner_still_needs_their_seals(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _as_user(monkeypatch, tmp_path, "me")
    (tmp_path / "mine").mkdir()
    mine = _store(tmp_path / "mine")
    with sqlite3.connect(mine) as db:
        (owner,) = db.execute("SELECT value FROM store WHERE key = 'owner'").fetchone()
    db.close()
    _as_user(monkeypatch, tmp_path, "stranger")
    forged = _store(tmp_path)  # a stranger's store, its owner copied from one of mine
    _tamper(forged, "UPDATE store SET value = ? WHERE key = 'owner'", values=(owner,))
    _as_user(monkeypatch, tmp_path, "me")
    with pytest.raises(StoreError, match="hand 1 of run 1 is not sealed by you"):
        _lookup(forged)
    store = ResultStore(str(forged), trust=True)  # vouched for: every hand sealed again
    assert store.resealed == 3
    store.close()
    assert len(_lookup(forged)) == 3


def test_runs_of_other_types_or_huge_keys_are_passed_over_when_vouched_for(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _as_user(monkeypatch, tmp_path, "stranger")
    path = _store(tmp_path)
    _tamper(
        path,
        "INSERT INTO runs VALUES (2, 'h', ?, '[]', 1, 'v', 'scalar', 'r')",
        "INSERT INTO runs VALUES (3, X'00', '{}', '[]', 1, 'v', 'scalar', 'r')",
        "INSERT INTO hands SELECT 2, hand, summary FROM hands WHERE run = 1",
        "INSERT INTO hands SELECT 3, hand, summary FROM hands WHERE run = 1",
        values=("x" * 2_000_000,),
    )
    _as_user(monkeypatch, tmp_path, "me")
    store = ResultStore(str(path), trust=True)
    assert store.resealed == 3  # run 1's hands; runs 2 and 3 can match no key of this program
    store.close()


@pytest.mark.parametrize(("mode", "data"), [(0o644, b"k" * 32), (0o600, b"short")])
def test_a_store_key_open_to_others_or_damaged_is_refused_never_replaced(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, mode: int, data: bytes
) -> None:
    _as_user(monkeypatch, tmp_path, "me")
    path = _store(tmp_path)
    key = tmp_path / "me" / "tarot" / "keys" / "store-key"
    key.write_bytes(data)
    key.chmod(mode)
    with pytest.raises(StoreError, match="your store key .* cannot be used"):
        ResultStore(str(path))
    assert key.read_bytes() == data  # the user decides: chmod 600, or remove it


@pytest.mark.slow
def test_a_stores_words_reach_the_terminal_with_control_characters_escaped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _as_user(monkeypatch, tmp_path, "me")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute('CREATE TABLE "\x1b[2J\x1b[31mgone\x07" (x)')
    db.close()
    args = ("simulate", "marolles-1637", "--hands", "2", "--jobs", "1", "--store")
    status, _, err = run(capsys, *args, str(other))
    assert status == 1 and "\\u001b[2J" in err and "\x1b" not in err and "\x07" not in err
    mine = tmp_path / "mine.sqlite"
    assert run(capsys, *args, str(mine))[0] == 0
    summary = {**TWO, "number": 1, "fired": {"\x1b[2Jrule": "x"}}
    _tamper(mine, "UPDATE hands SET summary = ? WHERE hand = 1", values=(json.dumps(summary),))
    status, _, err = run(capsys, *args, str(mine))
    assert status == 1 and "hand 1 of run 1 is damaged" in err and "\x1b" not in err
