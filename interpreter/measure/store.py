"""The results store (`--store FILE`): every hand played, kept in one SQLite file.

Where it sits: beside `runner`, which asks it, chunk by chunk, for the hands already played
and gives it the hands it plays. A hand is kept under its `RunKey` (the ruleset's content
hash, the options in force, the agent in each seat with its settings, the seed, the
program's `results_version` and the back end that played it) and its number, so a run
reuses every hand already in the store, plays only the missing ones, and a run that was
stopped (Ctrl-C, a kill) goes on where it stopped. A hand under another key is never served.

SQLite (the standard library's `sqlite3`) and not a column store such as DuckDB: it adds no
dependency, the store is one file, and its locking lets runs on one machine share a store.
Only the process that drives a run writes; workers never open the store. The store commits
after every batch of hands it is given (WAL journal, so a kill loses at most the batch being
written, never what was committed). A file that is not a store made by this program (not
SQLite, another program's database, a damaged file, another store format) is refused with
`StoreError`, naming it, and never written.

A store may come from someone else, so it is read as untrusted input (`store_check`):
opened read-only until it is accepted (its tables, columns and indexes exactly those this
program makes, no view or trigger, SQLite's own check of its pages, no hand's summary over
`store_check.MAX_SUMMARY` bytes); only then is it opened for writing (and switched to a WAL
journal). Every hand read is checked before it is used: plain JSON (no NaN or infinity),
each field of its type, every number finite and bounded, every seat one of the ruleset's;
a hand that fails is refused with its run and number, and nothing in the store is changed.
Every query runs under a progress handler that lets Ctrl-C and SIGTERM stop it and stops
one that runs past `store_check.QUERY_SECONDS`.

A hand that passes those checks may still be made up: every hand is kept with a seal made
with the user's store key (`store_seal`, in the `seals` table of format version 2), and one
without the user's seal is never counted. A store sealed by someone else, or of format 1
(written before seals), is refused when it is opened unless the user vouches for it
(`trust`, `--trust-store`), which seals its hands as theirs.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import types
import typing
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from tarot.core.output_files import OutputError, held_signals
from tarot.core.summary import HandSummary
from tarot.measure import store_check
from tarot.measure.provenance import RunKey
from tarot.measure.store_seal import NoKey, Sealer, run_text

FORMAT = "tarot-results-store"
FORMAT_VERSION = "2"  # 1: before hands were sealed (taken with `trust`, then sealed)
BUSY_WAIT = 60.0  # seconds to wait for another run writing to the same store
MAX_RUN_KEY = 100_000  # characters of a run's key (a ruleset's options and agents: a few kB)

_SCHEMA = """
CREATE TABLE store (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    ruleset_hash TEXT NOT NULL,
    options TEXT NOT NULL,
    agents TEXT NOT NULL,
    seed INTEGER NOT NULL,
    version TEXT NOT NULL,
    backend TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    UNIQUE (ruleset_hash, options, agents, seed, version, backend)
);
CREATE TABLE hands (
    run INTEGER NOT NULL REFERENCES runs (id),
    hand INTEGER NOT NULL,
    summary TEXT NOT NULL,
    PRIMARY KEY (run, hand)
) WITHOUT ROWID;
"""
_SEALS = """
CREATE TABLE seals (
    run INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    seal TEXT NOT NULL,
    PRIMARY KEY (run, hand)
) WITHOUT ROWID;
"""
#: the tables of each format version this program reads
_SCHEMAS = {"1": _SCHEMA, "2": _SCHEMA + _SEALS}


class StoreError(OutputError):
    """A store file that cannot be used, or a read or write of it that failed."""


class ResultStore:
    """One store file, open for reading and writing (`trust`: the user vouches for the
    hands of a store not sealed by them, which are sealed as theirs)."""

    def __init__(self, path: str, trust: bool = False) -> None:
        self.path = path
        self.trust = trust
        self.resealed = 0  # hands sealed as the user's because of `trust`
        self._runs: dict[int, str] = {}  # run id: its key as the seals cover it
        try:
            self._sealer = Sealer()
        except NoKey as error:
            raise StoreError(f"--store {path}: cannot be used: {error}") from None
        where = Path(path)
        try:
            if where.is_dir():
                raise StoreError(f"--store {path}: is a folder; give a file name in it")
            if not where.parent.is_dir():
                raise StoreError(f"--store {path}: no such folder {str(where.parent)!r}")
        except OSError as error:  # a name too long, say
            raise StoreError(f"--store {path}: cannot use it: {error.strerror}") from None
        try:
            if where.is_file() and where.stat().st_size > 0:
                store_check.accept(path, _SCHEMAS)  # read-only: refused before any write
        except OSError as error:
            raise StoreError(f"--store {path}: cannot use it: {error.strerror}") from None
        except OutputError as error:
            raise StoreError(str(error)) from None
        try:
            self._db = sqlite3.connect(path, timeout=BUSY_WAIT, isolation_level=None)
            store_check.guard(self._db)
        except sqlite3.Error as error:
            raise self._error("cannot open it", error) from None
        try:
            self._check_or_create()
        except BaseException:
            self._db.close()
            raise

    def _error(self, doing: str, error: sqlite3.Error | str) -> StoreError:
        return StoreError(f"--store {self.path}: {doing}: {error}")

    def _check_or_create(self) -> None:
        try:
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as error:
            raise self._error(
                "not a results store (not an SQLite database, or a damaged one); "
                "give a new file name or a store written by tarot",
                error,
            ) from None
        if not tables:
            self._create()
            return
        found = None
        if "store" in tables:
            try:
                found = dict(self._db.execute("SELECT key, value FROM store").fetchall())
            except sqlite3.DatabaseError:
                found = None
        if found is None or found.get("format") != FORMAT:
            raise StoreError(
                f"--store {self.path}: an SQLite database of another program, not a results "
                f"store (tables: {', '.join(sorted(tables))}); it is left as it is: give a "
                "new file name or a store written by tarot"
            )
        version = found.get("format_version")
        if version not in _SCHEMAS:
            raise StoreError(
                f"--store {self.path}: a results store of format version {version}, which "
                f"this version of tarot does not read (it reads {', '.join(_SCHEMAS)}); it is "
                "left as it is: give a new file name"
            )
        if self.trust:  # every hand, even in a store that names the user (anyone can)
            self._adopt(version)
        elif version != FORMAT_VERSION or found.get("owner") != self._sealer.owner:
            raise StoreError(
                f"--store {self.path}: its hands are not sealed by you (a store written "
                "by someone else, by you on another machine, or by tarot before stores "
                "were sealed), and tarot counts only hands it can tell you played; it is "
                "left as it is. If you trust whoever wrote it, add --trust-store once to "
                "seal its hands as yours; else give a new file name to play them again"
            )
        self._set_journal()

    def _adopt(self, version: str | None) -> None:
        """Seal every hand of the store as the user's (they vouch for them: `trust`), in
        one transaction, and name the user its owner."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if version != FORMAT_VERSION:
                    self._db.execute(_SEALS)
                with store_check.clocked(self._db):
                    runs = {  # only runs a key of this program can match: of its types, small
                        int(run): run_text(values)
                        for run, *values in self._db.execute(
                            "SELECT id, ruleset_hash, options, agents, seed, version, backend "
                            "FROM runs WHERE typeof(id) = 'integer' "
                            "AND typeof(seed) = 'integer' "
                            "AND typeof(ruleset_hash) = 'text' AND typeof(options) = 'text' "
                            "AND typeof(agents) = 'text' AND typeof(version) = 'text' "
                            "AND typeof(backend) = 'text' AND length(ruleset_hash) "
                            "+ length(options) + length(agents) + length(version) "
                            f"+ length(backend) <= {MAX_RUN_KEY}"
                        )
                    }
                self._db.execute("DELETE FROM seals")
                with store_check.clocked(self._db):
                    hands = self._db.execute("SELECT run, hand, summary FROM hands")
                    self._db.executemany(
                        "INSERT INTO seals VALUES (?, ?, ?)",
                        (
                            (run, hand, self._sealer.seal(runs[run], hand, summary))
                            for run, hand, summary in hands
                            if run in runs  # a hand of no run is never read
                        ),
                    )
                self.resealed = self._db.execute("SELECT count(*) FROM seals").fetchone()[0]
                self._db.execute(
                    "INSERT OR REPLACE INTO store VALUES ('format_version', ?), ('owner', ?)",
                    (FORMAT_VERSION, self._sealer.owner),
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise self._error(
                "cannot seal its hands", store_check.interrupted(self._db, error)
            ) from None

    def _create(self) -> None:
        try:
            with held_signals():
                self._db.execute("BEGIN IMMEDIATE")
                if self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    self._db.execute("ROLLBACK")  # another run created it meanwhile
                    self._check_or_create()
                    return
                for statement in _SCHEMAS[FORMAT_VERSION].split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(
                    "INSERT INTO store VALUES ('format', ?), ('format_version', ?), ('owner', ?)",
                    (FORMAT, FORMAT_VERSION, self._sealer.owner),
                )
                self._db.execute("COMMIT")
        except sqlite3.Error as error:
            raise self._error("cannot create a store in it", error) from None
        self._set_journal()

    def _set_journal(self) -> None:
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.Error as error:
            raise self._error("cannot use it", error) from None

    def run_id(self, key: RunKey) -> int:
        """The number the store gives the hands played under `key` (made if new)."""
        values = (
            key.ruleset_hash,
            json.dumps(dict(key.options), sort_keys=True),
            json.dumps(list(key.agents)),
            key.seed,
            key.version,
            key.backend,
        )
        try:
            with held_signals():
                self._db.execute(
                    "INSERT OR IGNORE INTO runs "
                    "(ruleset_hash, options, agents, seed, version, backend, ruleset) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (*values, key.ruleset),
                )
            row = self._db.execute(
                "SELECT id FROM runs WHERE ruleset_hash = ? AND options = ? AND agents = ? "
                "AND seed = ? AND version = ? AND backend = ?",
                values,
            ).fetchone()
        except sqlite3.Error as error:
            raise self._error("cannot read or write it", error) from None
        run = int(row[0])
        self._runs[run] = run_text(values)
        return run

    def _select(self, columns: str, run: int, numbers: range) -> list[tuple]:
        """`columns` of the run's hands of these numbers."""
        try:
            with store_check.clocked(self._db):
                return self._db.execute(
                    f"SELECT {columns} FROM hands WHERE run = ? AND hand BETWEEN ? AND ?",
                    (run, numbers.start, numbers.stop - 1),
                ).fetchall()
        except sqlite3.Error as error:
            raise self._error("cannot read it", store_check.interrupted(self._db, error)) from None

    def count(self, run: int, numbers: range) -> int:
        """How many of these hand numbers the store holds for the run."""
        return int(self._select("count(*)", run, numbers)[0][0])

    def hands(self, run: int, numbers: range, players: int | None = None) -> dict[int, HandSummary]:
        """The hands of these numbers that the store holds for the run (`players`: the
        ruleset's seats, which every seat a hand names must be one of)."""
        try:
            with store_check.clocked(self._db):
                rows = self._db.execute(
                    "SELECT h.hand, CASE WHEN typeof(h.summary) = 'text' AND "
                    f"length(CAST(h.summary AS BLOB)) <= {store_check.MAX_SUMMARY} "
                    "THEN h.summary END, CASE WHEN typeof(s.seal) = 'text' "
                    "AND length(s.seal) = 64 THEN s.seal "
                    "END FROM hands AS h LEFT JOIN seals AS s "
                    "ON s.run = h.run AND s.hand = h.hand "
                    "WHERE h.run = ? AND h.hand BETWEEN ? AND ?",
                    (run, numbers.start, numbers.stop - 1),
                ).fetchall()
        except sqlite3.Error as error:
            raise self._error("cannot read it", store_check.interrupted(self._db, error)) from None
        found = {}
        for number, text, seal in rows:
            try:
                if type(number) is not int or not isinstance(text, str):
                    raise ValueError(
                        "not a hand number and a summary of at most "
                        f"{store_check.MAX_SUMMARY:,} bytes of text"
                    )
                summary = summary_from_json(text)
                if summary.number != number:
                    raise ValueError(f"it holds hand {summary.number}")
                store_check.check_summary(summary, players)
            except ValueError as error:
                raise StoreError(
                    f"--store {self.path}: hand {number} of run {run} is damaged ({error}); "
                    "nothing was changed in the store"
                ) from None
            if not self._sealer.fits(seal, self._runs[run], number, text):
                raise StoreError(
                    f"--store {self.path}: hand {number} of run {run} is not sealed by you "
                    "(added or changed by someone else since you kept it); nothing was "
                    "changed in the store. If you trust whoever changed it, add --trust-store "
                    "to seal its hands as yours; else give a new file name"
                )
            found[number] = summary
        return found

    def keep(self, hands: Iterable[tuple[int, HandSummary]]) -> None:
        """Store hands, each under the run it was played in, and commit them."""
        rows = [(run, summary.number, summary_to_json(summary)) for run, summary in hands]
        if not rows:
            return
        seals = [
            (run, number, self._sealer.seal(self._runs[run], number, text))
            for run, number, text in rows
        ]
        try:
            with held_signals():  # the batch is in the store, or none of it
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._db.executemany("INSERT OR IGNORE INTO hands VALUES (?, ?, ?)", rows)
                    self._db.executemany("INSERT OR IGNORE INTO seals VALUES (?, ?, ?)", seals)
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
        except sqlite3.Error as error:
            raise self._error("cannot write it (the hands stored before are kept)", error) from None

    def close(self) -> None:
        store_check.forget(self._db)
        try:
            self._db.close()
        except sqlite3.Error as error:
            raise self._error("cannot close it", error) from None


class PlanStore:
    """A store seen by one run: the run of each of its rulesets, and counts of the hands read
    and played."""

    def __init__(self, store: ResultStore, keys: Sequence[RunKey]) -> None:
        self.store = store
        self.runs = [store.run_id(key) for key in keys]
        self.players = [len(key.agents) for key in keys]  # one agent text per seat
        self.read = 0
        self.played = 0

    def missing(self, numbers: range) -> int:
        """The most hands of these numbers that one ruleset of the run still has to play."""
        return max(len(numbers) - self.store.count(run, numbers) for run in self.runs)

    def lookup(self, numbers: range) -> list[list[HandSummary | None]]:
        """For each hand number, each ruleset's stored hand, or None where it is missing."""
        stored = [
            self.store.hands(run, numbers, players)
            for run, players in zip(self.runs, self.players, strict=True)
        ]
        found = [[by_number.get(number) for by_number in stored] for number in numbers]
        self.read += sum(hand is not None for hands in found for hand in hands)
        return found

    def keep(self, played: Iterable[tuple[int, HandSummary]]) -> None:
        """Store hands just played, each with the index of its ruleset in the run."""
        rows = [(self.runs[index], summary) for index, summary in played]
        self.store.keep(rows)
        self.played += len(rows)


# --- a hand's summary as text ----------------------------------------------------------------


def summary_to_json(summary: HandSummary) -> str:
    return json.dumps(dataclasses.asdict(summary), separators=(",", ":"))


def summary_from_json(text: str) -> HandSummary:
    """The summary `summary_to_json` wrote; ValueError if the text is not one."""
    try:
        data = json.loads(text, parse_constant=store_check.no_json_constant)
    except (json.JSONDecodeError, TypeError) as error:
        raise ValueError(f"not JSON: {error}") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None
    value = _conform(data, HandSummary, "$")
    assert isinstance(value, HandSummary)
    return value


@cache
def _hints(cls: type) -> dict[str, typing.Any]:
    return typing.get_type_hints(cls)


def _conform(value: object, hint: typing.Any, where: str) -> object:
    """`value` as read from JSON, checked against the type `hint` and made of its types
    (tuples and dataclasses again); ValueError naming `where` if it does not fit."""
    origin = typing.get_origin(hint)
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        names = [f.name for f in dataclasses.fields(hint)]
        if not isinstance(value, dict) or set(value) != set(names):
            raise ValueError(f"{where}: not the fields {', '.join(names)}")
        hints = _hints(hint)
        return hint(**{n: _conform(value[n], hints[n], f"{where}.{n}") for n in names})
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            try:
                return _conform(value, option, where)
            except ValueError:
                continue
        raise ValueError(f"{where}: {value!r} is not {hint}")
    if origin is tuple and isinstance(value, list):
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_conform(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
        if len(args) == len(value):
            return tuple(
                _conform(v, a, f"{where}[{i}]")
                for i, (v, a) in enumerate(zip(args, value, strict=True))
            )
    if origin is list and isinstance(value, list):
        (item,) = typing.get_args(hint)
        return [_conform(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
    if origin is dict and isinstance(value, dict):
        _, item = typing.get_args(hint)
        return {k: _conform(v, item, f"{where}.{k}") for k, v in value.items()}
    if hint is type(None) and value is None:
        return None
    if hint is float and isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if hint in (int, str, bool) and type(value) is hint:
        return value
    raise ValueError(f"{where}: {value!r} is not {getattr(hint, '__name__', hint)}")
