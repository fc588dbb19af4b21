"""Expression trees kept between processes, so that a ruleset loaded again is not parsed again.

Where it sits: under the parser (`expressions.parser`), which asks here before parsing a
text and hands over every tree it parses; the loader (`ruleset_loader.load_ruleset`) has the
new ones written once a ruleset is loaded. Parsing is most of what loading a large ruleset
costs in a fresh process (about 25 ms for the 265 texts of the largest built-in). Only the
trees without positions are kept (those every load uses; an error is worded from a tree
parsed again with them). The file is an SQLite table of pickled trees by text in the user's
private cache folder (`tarot.user_cache`, as lark's own cache of the grammar, also a pickle),
named after lark's version, Python's and the grammar's text, so a change of any of them
starts afresh; anything wrong with it (missing, locked, damaged) is the same as no file.
"""

from __future__ import annotations

import hashlib
import pickle
import sqlite3
import sys
from pathlib import Path

import lark
from lark import Tree

from tarot.user_cache import cache_folder

KEEP = 20_000  # trees kept in the file at most (the oldest go first)
GRAMMAR = Path(__file__).with_name("grammar.lark")


class TreeStore:
    """The trees parsed since the last save, to be written, and the file, read a tree at a
    time (a file of every ruleset's trees would cost more to read whole than one ruleset's
    parse)."""

    def __init__(self) -> None:
        self.new: dict[str, Tree] = {}
        self._connection: sqlite3.Connection | None = None
        self._opened = False

    def _open(self) -> sqlite3.Connection | None:
        if not self._opened:
            self._opened = True
            path = _file()
            try:
                connection = sqlite3.connect(path, timeout=0.5) if path else None
                if connection is not None:
                    connection.execute(
                        "CREATE TABLE IF NOT EXISTS trees (text TEXT PRIMARY KEY, tree BLOB)"
                    )
                self._connection = connection
            except sqlite3.Error:
                self._connection = None
        return self._connection

    def recall(self, text: str) -> Tree | None:
        connection = self._open()
        if connection is None:
            return None
        try:
            row = connection.execute("SELECT tree FROM trees WHERE text = ?", (text,)).fetchone()
            tree = None if row is None else pickle.loads(row[0])
        except Exception:  # locked, damaged, not what was written: not known
            return None
        return tree if isinstance(tree, Tree) else None

    def keep(self, text: str, tree: Tree) -> None:
        self.new[text] = tree

    def save(self) -> None:
        """Write the trees parsed since the last save."""
        new, self.new = self.new, {}
        connection = self._open()
        if not new or connection is None:
            return
        rows = [
            (text, pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL))
            for text, tree in new.items()
        ]
        try:
            with connection:
                connection.executemany("INSERT OR REPLACE INTO trees VALUES (?, ?)", rows)
                connection.execute(
                    "DELETE FROM trees WHERE rowid <= (SELECT MAX(rowid) FROM trees) - ?", (KEEP,)
                )
        except sqlite3.Error:
            pass  # a cache that cannot be written is a cache that is not used


def _file() -> Path | None:
    folder = cache_folder()
    if folder is None:
        return None
    try:
        grammar = hashlib.sha256(GRAMMAR.read_bytes()).hexdigest()[:16]
    except OSError:
        return None
    python = "{}.{}".format(*sys.version_info[:2])
    return folder / f"expression-trees-lark-{lark.__version__}-python-{python}-{grammar}.sqlite"


STORE = TreeStore()
