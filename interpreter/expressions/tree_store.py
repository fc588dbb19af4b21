"""Expression trees kept between processes, so that a ruleset loaded again is not parsed again.

Where it sits: under the parser (`expressions.parser`), which asks here before parsing a
text and hands over every tree it parses; the loader (`ruleset_loader.load_ruleset`) has the
new ones written once a ruleset is loaded. Parsing is most of what loading a large ruleset
costs in a fresh process. Only the
trees without positions are kept (those every load uses; an error is worded from a tree
parsed again with them).

The file is an SQLite table, in the user's private cache folder (`tarot.user_cache`), of
trees written as JSON (`tree_json`, data only: rule names, token types and values), each
sealed with the user's key over the grammar's version and the expression's text as well as
the tree, so that a tree is only ever used for the text it was parsed from, by the grammar
that parsed it. The file is named after lark's version, Python's and the grammar's text. It
is read as a stranger's file: a file that is not a regular file of the user's, is larger than
`MAX_FILE`, or holds anything but the one table is removed (with a note) and made again; a
row larger than `MAX_ROW`, or whose seal or JSON fails, is not known (the text is parsed,
and the row replaced on the next save).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from pathlib import Path

import lark
from lark import Token, Tree

from tarot.user_cache import (
    cache_folder,
    create_private,
    discard,
    seal,
    signing_key,
    unfit,
    unseal,
)

KEEP = 20_000  # trees kept in the file at most (the oldest go first)
MAX_FILE = 64 * 2**20  # bytes of the file; a larger one is not read
MAX_ROW = 256 * 2**10  # bytes of one sealed tree (the largest built-in's are under 10 kB)
FORMAT = "json-3"  # how trees are written: a change starts a new file
GRAMMAR = Path(__file__).with_name("grammar.lark")
TABLE = "CREATE TABLE trees (text TEXT PRIMARY KEY, tree BLOB)"


def tree_json(tree: Tree | Token | None) -> object:
    """A tree as JSON data: a token as `[TYPE, VALUE, start, line, column, end_line,
    end_column, end]`, a tree as `{"r": RULE, "c": [CHILD...]}`, an optional part left out
    as null."""
    if tree is None:
        return None
    if isinstance(tree, Token):
        return [
            tree.type,
            str(tree),
            tree.start_pos,
            tree.line,
            tree.column,
            tree.end_line,
            tree.end_column,
            tree.end_pos,
        ]
    data = tree.data
    rule = tree_json(data) if isinstance(data, Token) else str(data)
    return {"r": rule, "c": [tree_json(child) for child in tree.children]}


def json_tree(data: object) -> Tree | Token | None:
    """The tree `tree_json` wrote; ValueError for anything else."""
    if type(data) is dict:
        rule, children = data["r"], data["c"]
        if type(rule) is list:
            rule = json_tree(rule)
        if type(rule) is not str and type(rule) is not Token or type(children) is not list:
            raise ValueError("not a tree")
        return Tree(rule, [json_tree(child) for child in children])
    if type(data) is list:
        name, value, start, line, column, end_line, end_column, end = data
        if type(name) is not str or type(value) is not str:
            raise ValueError("not a token")
        return Token(name, value, start, line, column, end_line, end_column, end)
    if data is None:
        return None
    raise ValueError("not a tree")


class TreeStore:
    """The trees parsed since the last save, to be written, and the file, read a tree at a
    time (a file of every ruleset's trees would cost more to read whole than one ruleset's
    parse)."""

    def __init__(self) -> None:
        self.new: dict[str, Tree] = {}
        self._connection: sqlite3.Connection | None = None
        self._opened = False
        self._purpose = b""
        self._key: bytes | None = None

    def _open(self) -> sqlite3.Connection | None:
        if not self._opened:
            self._opened = True
            path = _file()
            if path is not None:
                self._purpose = f"expression-tree/{path.name}".encode()
                self._key = signing_key()
                self._connection = None if self._key is None else _connect(path)
        return self._connection

    def recall(self, text: str) -> Tree | None:
        connection = self._open()
        if connection is None:
            return None
        try:
            row = connection.execute(
                "SELECT tree FROM trees WHERE text = ? AND length(tree) <= ?", (text, MAX_ROW)
            ).fetchone()
        except sqlite3.Error:  # locked, damaged: not known
            return None
        if row is None or not isinstance(row[0], bytes):
            return None
        payload = unseal(self._purpose + b"\0" + text.encode("utf-8"), row[0], self._key)
        if payload is None:
            return None
        try:
            tree = json_tree(json.loads(payload))
        except (ValueError, TypeError, KeyError, RecursionError):  # a seal that lies
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
        rows = []
        for text, tree in new.items():
            payload = json.dumps(tree_json(tree), separators=(",", ":")).encode("utf-8")
            sealed = seal(self._purpose + b"\0" + text.encode("utf-8"), payload, self._key)
            if sealed is not None and len(sealed) <= MAX_ROW:
                rows.append((text, sealed))
        try:
            with connection:
                connection.executemany("INSERT OR REPLACE INTO trees VALUES (?, ?)", rows)
                connection.execute(
                    "DELETE FROM trees WHERE rowid <= (SELECT MAX(rowid) FROM trees) - ?", (KEEP,)
                )
        except sqlite3.Error:
            pass  # a cache that cannot be written is a cache that is not used


def _connect(path: Path) -> sqlite3.Connection | None:
    """The file opened, checked to hold the one table and nothing else (made afresh when it
    does not); None when no file can be used."""
    why = unfit(path, MAX_FILE)
    if why is not None:
        discard(path, why)
    create_private(path)
    try:
        connection = sqlite3.connect(path, timeout=0.5)
        connection.execute("PRAGMA trusted_schema = OFF")
        connection.execute(TABLE.replace("TABLE", "TABLE IF NOT EXISTS", 1))
        found = connection.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            return None  # another process writes: no cache this time
        discard(path, f"it is not an SQLite file of expression trees ({error})")
        return None
    except sqlite3.Error as error:
        discard(path, f"it is not an SQLite file of expression trees ({error})")
        return None
    if sorted(found) != [("index", "sqlite_autoindex_trees_1", None), ("table", "trees", TABLE)]:
        connection.close()
        discard(path, "it holds more than the table of expression trees")
        return None
    return connection


def _file() -> Path | None:
    folder = cache_folder()
    if folder is None:
        return None
    try:
        grammar = hashlib.sha256(GRAMMAR.read_bytes()).hexdigest()[:16]
    except OSError:
        return None
    python = "{}.{}".format(*sys.version_info[:2])
    name = f"expression-trees-{FORMAT}-lark-{lark.__version__}-python-{python}-{grammar}.sqlite"
    return folder / name


STORE = TreeStore()
