"""A results store read as untrusted input: what `measure.store` checks before it uses one.

Where it sits: under `measure.store.ResultStore`, which calls `accept` before it opens an
existing file for writing, `guard` on every connection, and `check_summary` on every hand it
reads. A store may have been sent by someone else, or edited: the checks here keep such a
file from running past Ctrl-C (a view that never ends), deleting or changing hands behind the
tool's back (a trigger), exhausting memory (a summary of hundreds of megabytes), being
rewritten before it is refused (the WAL switch), or putting a traceback, NaN or an
impossible seat into a report. They cannot tell a made-up hand that fits the ruleset from one
played: a store's hands are results its writer vouches for (SECURITY.md).
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from tarot.core.output_files import OutputError
from tarot.core.stopping import raise_received
from tarot.core.summary import HandSummary

MAX_SUMMARY = 1_000_000  # bytes of one hand's summary (a long sitting's is a few kB)
QUERY_SECONDS = 120.0  # a query of the store running longer is stopped
MAX_NUMBER = 1e15  # as the expressions' bound
PROGRESS_STEPS = 20_000  # SQLite steps between two calls of the progress handler


class _Clock:
    """The deadline of the query running on a connection, and a signal caught in it."""

    def __init__(self) -> None:
        self.deadline = math.inf
        self.caught: BaseException | None = None
        self.ran_out = False  # the deadline stopped a query

    def begin(self) -> None:
        self.deadline = time.monotonic() + QUERY_SECONDS
        self.caught = None
        self.ran_out = False

    def end(self) -> None:
        self.deadline = math.inf

    def progress(self) -> int:
        """SQLite's progress handler: non-zero stops the query. Running Python code here
        lets a signal's handler run (Ctrl-C, SIGTERM); what it raises is kept and raised
        again once SQLite has stopped (`interrupted`)."""
        try:
            self.ran_out = time.monotonic() > self.deadline
            return int(self.ran_out)
        except BaseException as signal:  # noqa: BLE001 - raised again by `interrupted`
            self.caught = signal
            return 1


_CLOCKS: dict[int, _Clock] = {}


def guard(db: sqlite3.Connection) -> None:
    """Make every query on `db` stoppable: by a signal, and past `QUERY_SECONDS` once
    `begin(db)` started its clock. Schema code is not trusted (`trusted_schema`)."""
    clock = _CLOCKS.setdefault(id(db), _Clock())
    db.set_progress_handler(clock.progress, PROGRESS_STEPS)
    db.execute("PRAGMA trusted_schema = OFF")


def forget(db: sqlite3.Connection) -> None:
    """The connection is closed: its clock goes."""
    _CLOCKS.pop(id(db), None)


def begin(db: sqlite3.Connection) -> None:
    """Start the clock of the next query on `db`; it runs until `end` (or the next `begin`),
    for a connection closed after its reading; else use `clocked`."""
    clock = _CLOCKS.get(id(db))
    if clock is not None:
        clock.begin()


def end(db: sqlite3.Connection) -> None:
    """Stop the clock of `db`: the queries after it run without a deadline (a signal still
    stops them), not under one begun for an earlier query."""
    clock = _CLOCKS.get(id(db))
    if clock is not None:
        clock.end()


@contextmanager
def clocked(db: sqlite3.Connection) -> Iterator[None]:
    """The queries of the block stopped once `QUERY_SECONDS` have passed since it began."""
    begin(db)
    try:
        yield
    finally:
        end(db)


def interrupted(db: sqlite3.Connection, error: sqlite3.Error) -> str:
    """After a query failed: raise again the signal caught during it; else why it failed
    (said plainly when the clock stopped it)."""
    clock = _CLOCKS.get(id(db))
    if clock is not None and clock.caught is not None:
        caught, clock.caught = clock.caught, None
        raise caught
    if clock is not None and clock.ran_out:
        return f"a query ran past {QUERY_SECONDS:g} s and was stopped"
    if "interrupted" in str(error):
        # the progress handler raised when it was entered, and sqlite3 dropped what it
        # raised: only a stopping signal's handler raises there
        raise_received()
    return str(error)


def _entries(db: sqlite3.Connection) -> set[tuple[str, str, str]]:
    return {
        (kind, name, " ".join((sql or "").split()))
        for kind, name, sql in db.execute("SELECT type, name, sql FROM sqlite_master")
    }


def _expected(schema: str) -> set[tuple[str, str, str]]:
    made = sqlite3.connect(":memory:")
    try:
        made.executescript(schema)
        return _entries(made)
    finally:
        made.close()


def accept(path: str, schemas: Mapping[str, str]) -> None:
    """Check an existing store file opened read-only (nothing in it is changed): no view or
    trigger; a store of a format version this program reads holds exactly the tables of its
    `schemas[version]`, passes SQLite's check of its pages, and no hand's summary passes
    `MAX_SUMMARY` bytes or is not text. Raise `OutputError` naming what is wrong. A file
    that is not a store of a version it reads at all is left to the caller to name."""
    from tarot.measure.store import FORMAT  # the store imports this module

    where = f"--store {path}"
    file = Path(path).resolve()
    # with no journal beside it, no run is writing it: read it as it lies, making no file
    # (SQLite would make the WAL's shared memory even to read)
    alone = not file.with_name(file.name + "-wal").exists()
    try:
        db = sqlite3.connect(file.as_uri() + ("?immutable=1" if alone else "?mode=ro"), uri=True)
    except sqlite3.Error as error:
        raise OutputError(f"{where}: cannot open it: {error}") from None
    try:
        guard(db)
        begin(db)
        try:
            found = _entries(db)
        except sqlite3.DatabaseError:
            return  # not SQLite, or damaged: the caller says so
        odd = sorted(f"{kind} {name}" for kind, name, _ in found if kind in ("view", "trigger"))
        if odd:
            raise OutputError(
                f"{where}: a results store holds no views or triggers, and this file holds "
                f"{', '.join(odd)}; it is left as it is: give a new file name or a store "
                "written by tarot"
            )
        try:
            format_rows = dict(db.execute("SELECT key, value FROM store").fetchall())
        except sqlite3.Error:
            return  # another program's database: the caller says so
        version = str(format_rows.get("format_version"))
        if format_rows.get("format") != FORMAT or version not in schemas:
            return
        expected = _expected(schemas[version])
        if found != expected:
            differing = sorted(f"{kind} {name}" for kind, name, _ in found ^ expected)
            raise OutputError(
                f"{where}: its tables are not those of a results store ({', '.join(differing)} "
                "differ); it is left as it is"
            )
        _check_contents(db, where)
    except sqlite3.Error as error:
        raise OutputError(f"{where}: cannot read it: {interrupted(db, error)}") from None
    finally:
        forget(db)
        db.close()


def _check_contents(db: sqlite3.Connection, where: str) -> None:
    begin(db)
    (verdict,) = db.execute("PRAGMA quick_check(1)").fetchone()
    if verdict != "ok":
        raise OutputError(f"{where}: the file is damaged ({verdict}); it is left as it is")
    begin(db)
    bad = db.execute(
        "SELECT run, hand, typeof(summary), length(CAST(summary AS BLOB)) FROM hands "
        "WHERE typeof(run) != 'integer' OR typeof(hand) != 'integer' "
        "OR typeof(summary) != 'text' OR length(CAST(summary AS BLOB)) > ? LIMIT 1",
        (MAX_SUMMARY,),
    ).fetchone()
    if bad is not None:
        run, hand, kind, size = bad
        raise OutputError(
            f"{where}: hand {str(hand)[:20]} of run {str(run)[:20]} is not a hand number with "
            f"a summary of at most {MAX_SUMMARY:,} bytes of text ({kind}, {size:,} bytes); "
            "nothing was changed in the store"
        )


def no_json_constant(name: str) -> object:
    """`json.loads`'s `parse_constant`: NaN, Infinity and -Infinity are refused."""
    raise ValueError(f"{name} is not a number JSON allows")


def check_summary(summary: HandSummary, players: int | None) -> None:
    """ValueError when a hand read from a store cannot be one of the ruleset's: a number
    that is not finite or past `MAX_NUMBER`, a count below zero, a seat not among
    `players` (when given), a result for another number of seats."""
    numbers = [*summary.net, *summary.paid.values()]
    for deal in summary.deals:
        numbers += deal.net
    if any(not math.isfinite(value) or abs(value) > MAX_NUMBER for value in numbers):
        raise ValueError(f"a result that is not a finite number up to {MAX_NUMBER:g}")
    counts = [summary.number, summary.decisions, summary.choices, summary.lead_changes]
    counts += [*summary.fired.values()]
    if summary.decided_at is not None:
        counts.append(summary.decided_at)
    if any(count < 0 or count > MAX_NUMBER for count in counts):
        raise ValueError("a count below zero or past the bound")
    if players is None:
        return
    seats = [summary.dealer, summary.winner, summary.taker, summary.partner, *summary.winners]
    for deal in summary.deals:
        seats += [deal.dealer, deal.taker, deal.partner]
        if len(deal.net) != players:
            raise ValueError(f"a deal's result for {len(deal.net)} seats, not {players}")
    if len(summary.net) != players:
        raise ValueError(f"a result for {len(summary.net)} seats, not {players}")
    if any(seat is not None and not 0 <= seat < players for seat in seats):
        raise ValueError(f"a seat that is not one of the {players}")
