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

import pytest

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


def test_a_good_store_is_read_and_written_as_before(tmp_path: Path) -> None:
    path = _store(tmp_path)
    found = _lookup(path)
    assert [hands[0].number for hands in found] == [1, 2, 3]
