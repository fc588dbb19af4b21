"""The room the tables of `tarot serve` take on disk, kept under a cap.

Where it sits: under `tarot.web.tables`, which asks for room before it makes a table's folder
(`make_room`) and has a table measured again after it writes it (`measure`). The cap is
`ServeLimits.tables_bytes` (`tarot serve --tables-cap`).

Every folder of a table counts (its files rounded up to whole blocks of the disk, and the
folder itself). When a new table would pass the cap, the tables that hold no finished hand
(no `record.json`: at most the first hand's moves) and that the server does not hold in
memory leave the disk, the longest untouched first: abandoned tables, or a flood of tables
opened and left. A table with a finished hand is never removed: its record is what people
keep. When that frees too little, the new table is refused (507) and nothing is removed
beyond what was needed. Other files in the folder are neither counted nor touched.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tarot.web.table import Refused

BLOCK = 4096  # bytes a file takes at least on most disks
NEW_TABLE = 4 * BLOCK  # room a table takes before its upload: its folder, setup and record
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
SETUP_FILE, RECORD_FILE = "table.json", "record.json"


@dataclass
class _Kept:
    size: int  # bytes, in whole blocks
    touched: float  # when its setup was last written
    finished: bool  # whether it holds a finished hand's record


class TablesDisk:
    """The tables' folders in `folder` and the bytes they take, at most `cap`."""

    def __init__(self, folder: Path, cap: int) -> None:
        self.folder = folder
        self.cap = cap
        self._kept: dict[str, _Kept] | None = None  # read from the folder on first use
        self._lock = threading.Lock()

    def make_room(self, needed: int, held: Callable[[str], bool]) -> None:
        """Make sure a new table of `needed` bytes fits under the cap: remove tables with no
        finished hand that are not `held` in memory, the longest untouched first; 507 when
        that is not enough."""
        with self._lock:
            kept = self._tables()
            used = sum(table.size for table in kept.values())
            if used + needed <= self.cap:
                return
            idle = sorted(
                (table.touched, table_id)
                for table_id, table in kept.items()
                if not table.finished and not held(table_id)
            )
            freed, chosen = 0, []
            for _, table_id in idle:
                if used - freed + needed <= self.cap:
                    break
                freed += kept[table_id].size
                chosen.append(table_id)
            if used - freed + needed > self.cap:
                raise Refused(
                    507,
                    "the server keeps no more tables: they fill the "
                    f"{self.cap / 1e6:,.0f} MB it keeps for them, and those with a finished "
                    "hand or in play are kept; whoever runs it may remove old tables or raise "
                    "--tables-cap",
                )
            for table_id in chosen:
                shutil.rmtree(self.folder / table_id, ignore_errors=True)
                del kept[table_id]

    def measure(self, table_id: str) -> None:
        """Count a table's folder again (it was made or written)."""
        with self._lock:
            kept = self._tables()
            found = _measured(self.folder / table_id)
            if found is None:
                kept.pop(table_id, None)
            else:
                kept[table_id] = found

    def forget(self, table_id: str) -> None:
        """A table's folder was removed."""
        with self._lock:
            self._tables().pop(table_id, None)

    def _tables(self) -> dict[str, _Kept]:
        if self._kept is None:
            self._kept = {}
            try:
                entries = list(os.scandir(self.folder))
            except OSError:
                entries = []
            for entry in entries:
                if TABLE_ID.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False):
                    found = _measured(Path(entry.path))
                    if found is not None:
                        self._kept[entry.name] = found
        return self._kept


def _measured(home: Path) -> _Kept | None:
    """A table's folder as counted; None when it is not a table's folder (no setup)."""
    size, touched, finished = BLOCK, None, False
    try:
        for entry in os.scandir(home):
            info = entry.stat(follow_symlinks=False)
            size += -(-info.st_size // BLOCK) * BLOCK or BLOCK
            if entry.name == SETUP_FILE:
                touched = info.st_mtime
            finished = finished or entry.name == RECORD_FILE
    except OSError:
        return None
    return None if touched is None else _Kept(size, touched, finished)
