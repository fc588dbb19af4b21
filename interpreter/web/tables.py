"""The tables of `tarot serve`, in memory and in a folder: open, find again, keep on disk.

Where it sits: between the web app (`tarot.web.app`) and each `Table`
(`tarot.web.table`). A table is known by an unguessable id. Its folder holds
`table.json` (how it was set up and every action taken: rewritten after each one),
`record.json` (the game record of its finished hands, as `tarot play --record` writes it:
`tarot replay` checks it) and an uploaded ruleset file, if any. A table the server no longer
holds (a restart) is rebuilt from its folder when its id is asked for, so a closed tab or a
stopped server loses nothing recorded.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

from tarot.agents.lineup import LineupError
from tarot.engine.actions import IllegalAction
from tarot.errors import RulesetError
from tarot.expressions import EvaluationError
from tarot.record_json import RecordError, record_text
from tarot.ruleset_loader import load_ruleset
from tarot.web.table import Refused, Table, TableSetup

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
UPLOAD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.ya?ml")
MAX_UPLOAD = 1_000_000  # characters of an uploaded ruleset
MAX_SEED = 10**9
SETUP_FILE, RECORD_FILE = "table.json", "record.json"

Result = TypeVar("Result")


def default_folder() -> Path:
    """Where tables are kept unless `tarot serve --tables` says: the user's data folder."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "tarot" / "tables"


class Tables:
    """Every table the server holds, by id, kept in `folder`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._tables: dict[str, Table] = {}
        self._recorded: dict[str, int] = {}  # per table, the finished hands its record holds
        self._lock = threading.Lock()

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
        try:
            home.mkdir(parents=True)
            if upload is not None:
                ruleset = str(_save_upload(home, *upload))
            setup = TableSetup(ruleset, dict(options), seat, agents, seed, [], seed_known)
            setup.tokens = dict(tokens or {})
            table = self._open(table_id, setup)
        except BaseException:
            shutil.rmtree(home, ignore_errors=True)
            raise
        self.save(table)
        with self._lock:
            self._tables[table_id] = table
        return table

    def find(self, table_id: str) -> Table:
        """The table with this id, rebuilt from its folder if the server no longer holds it."""
        with self._lock:
            table = self._tables.get(table_id)
            if table is not None:
                return table
            if not TABLE_ID.fullmatch(table_id):
                raise Refused(404, f"no table {table_id[:70]!r}: a table's id is in its address")
            setup_file = self.folder / table_id / SETUP_FILE
            try:
                data = json.loads(setup_file.read_text(encoding="utf-8"))
                setup = TableSetup.of_json(data)
            except FileNotFoundError:
                raise Refused(
                    404, f"no table {table_id!r} (none is kept in {self.folder})"
                ) from None
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
                raise Refused(500, f"table {table_id!r} cannot be read back: {error}") from None
            table = self._open(table_id, setup)
            self._tables[table_id] = table
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

    def _open(self, table_id: str, setup: TableSetup) -> Table:
        try:
            ruleset = load_ruleset(setup.ruleset, setup.options)
            return Table(table_id, ruleset, setup)
        except RulesetError as error:
            raise Refused(400, _shown_error(str(error), self.folder / table_id)) from None
        except LineupError as error:
            raise Refused(400, str(error).replace("--agents ", "agents ", 1)) from None
        except IllegalAction as error:
            raise Refused(500, f"table {table_id!r}: its actions do not replay: {error}") from None

    def __len__(self) -> int:
        return len(self._tables)


def guarded(table: Table, tables: Tables, step: Callable[[], Result]) -> Result:
    """Run a step at the table under its lock, and keep what it did on disk."""
    with table.lock:
        try:
            return step()
        except EvaluationError as error:
            raise Refused(500, f"the hand was stopped: {error}") from None
        finally:
            tables.save(table)


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
