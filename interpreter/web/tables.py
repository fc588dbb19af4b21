"""The tables of `tarot serve`, in memory and in a folder: open, find again, keep on disk.

Where it sits: between the web app (`tarot.web.app`) and each `Table`
(`tarot.web.table`). A table is known by an unguessable id. Its folder holds
`table.json` (how it was set up and every action taken: rewritten after each one),
`record.json` (the game record of its finished hands, as `tarot play --record` writes it:
`tarot replay` checks it) and an uploaded ruleset file, if any. A table the server no longer
holds (a restart, or one of the least recently used when more than the limits allow are open:
`tarot.web.limits`) is rebuilt from its folder when its id is asked for, so a closed tab, a
table put away or a stopped server loses nothing recorded.

A table plays a built-in ruleset named by the request, or the file the page sent, whose
`extends` may only name a built-in ruleset (`tarot.compile.loader.load_confined`): no
request makes the server read another file of the machine.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from tarot.compile.loader import load_confined
from tarot.core.actions import IllegalAction
from tarot.core.ruleset import Ruleset
from tarot.errors import RulesetError, did_you_mean
from tarot.expressions import EvaluationError
from tarot.load import paths
from tarot.players.lineup import LineupError
from tarot.records.record_json import RecordError, record_text
from tarot.web.limits import ServeLimits
from tarot.web.table import Refused, Table, TableSetup
from tarot.web.tables_disk import NEW_TABLE, RECORD_FILE, SETUP_FILE, TABLE_ID, TablesDisk
from tarot.web.thinking import check_agents

UPLOAD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.ya?ml")
MAX_UPLOAD = 1_000_000  # characters of an uploaded ruleset
MAX_SEED = 10**9
BUSY_WAIT = 2.0  # seconds a request waits for a table whose players are thinking

Result = TypeVar("Result")


def default_folder() -> Path:
    """Where tables are kept unless `tarot serve --tables` says: the user's data folder."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "tarot" / "tables"


class Tables:
    """Every table the server holds, by id, kept in `folder`."""

    def __init__(self, folder: Path, limits: ServeLimits | None = None) -> None:
        self.folder = folder
        self.limits = limits or ServeLimits()
        self._tables: OrderedDict[str, Table] = OrderedDict()  # the least recently used first
        self._recorded: dict[str, int] = {}  # per table, the finished hands its record holds
        self._lock = threading.Lock()
        self.disk = TablesDisk(folder, self.limits.tables_bytes)

    def create(
        self,
        ruleset: str,
        options: Mapping[str, str],
        seat: int,
        agents: str,
        seed: int | None = None,
        upload: tuple[str, str] | None = None,
        tokens: Mapping[int, str] | None = None,
    ) -> Table:
        """A new table (`upload`: the name and text of a ruleset file sent by the page;
        `tokens`: the seats people take, `seat` among them, with their links' tokens)."""
        table_id = secrets.token_urlsafe(16)
        home = self.folder / table_id
        seed_known = seed is not None
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        elif not 0 <= seed < MAX_SEED:
            raise Refused(400, f"seed {seed}: a seed is a whole number from 0 to {MAX_SEED - 1}")
        if upload is None:
            _builtin_file(ruleset)  # a name the server knows, before anything is written
        needed = NEW_TABLE + (len(upload[1].encode()) if upload is not None else 0)
        self.disk.make_room(needed, self.held)
        try:
            home.mkdir(mode=0o700, parents=True)
            if upload is not None:
                ruleset = _save_upload(home, *upload).name
            setup = TableSetup(ruleset, dict(options), seat, agents, seed, [], seed_known)
            setup.tokens = dict(tokens or {})
            table = self._open(table_id, setup, checked=True)
        except BaseException:
            shutil.rmtree(home, ignore_errors=True)
            self.disk.forget(table_id)
            raise
        self.save(table)
        self._hold(table)
        return table

    def held(self, table_id: str) -> bool:
        """Whether the table is in memory (finding it needs no rebuilding)."""
        with self._lock:
            return table_id in self._tables

    def find(self, table_id: str) -> Table:
        """The table with this id, rebuilt from its folder if the server no longer holds it."""
        with self._lock:
            table = self._tables.get(table_id)
            if table is not None:
                self._tables.move_to_end(table_id)
                return table
            if not TABLE_ID.fullmatch(table_id):
                raise Refused(404, f"no table {table_id[:70]!r}: a table's id is in its address")
            setup_file = self.folder / table_id / SETUP_FILE
            try:
                data = json.loads(setup_file.read_text(encoding="utf-8"))
                setup = TableSetup.of_json(data)
            except FileNotFoundError:
                raise Refused(404, f"no table {table_id!r} is kept here") from None
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
                kind = type(error).__name__
                raise Refused(500, f"table {table_id!r} cannot be read back ({kind})") from None
        table = self._open(table_id, setup)
        return self._hold(table)

    def _hold(self, table: Table) -> Table:
        """Keep the table in memory (the one already held if another request rebuilt it
        meanwhile), and let the least recently used tables past the limits leave it (one
        whose computer players are thinking stays until they are done)."""
        limits = self.limits
        with self._lock:
            table = self._tables.setdefault(table.id, table)
            self._tables.move_to_end(table.id)
            uploaded = [t for t in self._tables.values() if t.setup.ruleset not in _BUILTIN]
            for old in list(self._tables.values()):
                over = len(self._tables) > limits.open_tables
                over_uploaded = len(uploaded) > limits.open_uploaded and old in uploaded
                if old is table or not (over or over_uploaded) or old.lock.locked():
                    continue
                del self._tables[old.id]
                self._recorded.pop(old.id, None)
                if old in uploaded:
                    uploaded.remove(old)
            return table

    def save(self, table: Table) -> None:
        """Write the table's setup and actions, and the record of its finished hands."""
        home = self.folder / table.id
        _write(home / SETUP_FILE, json.dumps(table.setup.as_json(), indent=1) + "\n")
        if len(table.finished) != self._recorded.get(table.id, 0):
            try:
                _write(home / RECORD_FILE, record_text(table.record()) + "\n")
            except RecordError as error:
                raise Refused(500, f"the record could not be written: {error}") from None
            self._recorded[table.id] = len(table.finished)
        self.disk.measure(table.id)

    def _open(self, table_id: str, setup: TableSetup, checked: bool = False) -> Table:
        """The table set up by `setup` (`checked`: its agents are checked against the limits,
        for a new table; one kept in the folder was checked when it was set up)."""
        home = self.folder / table_id
        try:
            ruleset = self._ruleset(home, setup)
            if checked:
                check_agents(_agent_specs(setup.agents), self.limits.think_seconds)
            return Table(table_id, ruleset, setup, self.limits.think_seconds)
        except RulesetError as error:
            raise Refused(400, _shown_error(str(error), home)) from None
        except LineupError as error:
            raise Refused(400, str(error).replace("--agents ", "agents ", 1)) from None
        except IllegalAction as error:
            raise Refused(500, f"table {table_id!r}: its actions do not replay: {error}") from None

    @staticmethod
    def _ruleset(home: Path, setup: TableSetup) -> Ruleset:
        """The table's ruleset: a built-in name, or the name of the file kept with the table
        (tables kept before the name was enough hold its path in the table's folder)."""
        kept = setup.ruleset
        if kept in _BUILTIN:
            return load_confined(_builtin_file(kept), setup.options)
        name = Path(kept).name
        if (
            not UPLOAD_NAME.fullmatch(name)
            or Path(kept) not in (Path(name), home / name)
            or not (home / name).is_file()
        ):
            raise Refused(500, "the table's ruleset is neither built in nor kept with it")
        setup.ruleset = name
        return load_confined(home / name, setup.options)

    def __len__(self) -> int:
        return len(self._tables)


@contextmanager
def busy(table: Table) -> Iterator[None]:
    """Hold the table's lock; 409 when it is not free within `BUSY_WAIT` seconds (its
    computer players are thinking), so that no thread waits on a table for long."""
    if not table.lock.acquire(timeout=BUSY_WAIT):
        raise Refused(409, "the computer players are thinking at this table: ask again soon")
    try:
        yield
    finally:
        table.lock.release()


def guarded(table: Table, tables: Tables, step: Callable[[], Result]) -> Result:
    """Run a step at the table under its lock, and keep what it did on disk."""
    with busy(table):
        try:
            return step()
        except EvaluationError as error:
            raise Refused(500, f"the hand was stopped: {error}") from None
        finally:
            tables.save(table)


_BUILTIN = frozenset(paths.list_builtins())


def _builtin_file(name: str) -> Path:
    """The file of a built-in ruleset, by name; 400 for any other name (never a path)."""
    if not name:
        raise Refused(400, "an empty ruleset name: give a built-in ruleset's name or a file")
    found = paths.find_builtin(name) if name in _BUILTIN else None
    if found is None:
        known = sorted(_BUILTIN)
        listed = did_you_mean(name, known) + "built-in: " + ", ".join(known)
        raise Refused(400, f"no ruleset named {name[:60]!r}; {listed}")
    return found


def _agent_specs(agents: str) -> list[str]:
    return [part.strip() for part in agents.split(",")]


def _save_upload(home: Path, name: str, text: str) -> Path:
    base = Path(name).name
    if not UPLOAD_NAME.fullmatch(base):
        raise Refused(400, f"{base[:80]!r}: a ruleset file's name ends in .yaml or .yml")
    if len(text) > MAX_UPLOAD:
        raise Refused(400, f"{base}: {len(text):,} characters; a ruleset is at most {MAX_UPLOAD:,}")
    path = home / base
    path.write_text(text, encoding="utf-8")
    return path


def _shown_error(message: str, home: Path) -> str:
    """A loading error as the page shows it: an uploaded file named as it was sent."""
    return message.replace(f"{home}{os.sep}", "")


def _write(path: Path, text: str) -> None:
    """Replace the file's content at once: a reader sees the old text or the new, whole."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
