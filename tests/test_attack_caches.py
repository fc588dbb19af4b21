"""Attacks on the caches kept between processes (`tarot.user_cache`): files planted, swapped,
forged or grown in the cache folder never run code, never change what a ruleset means or
whether it is valid, are read within bounds, and are passed over with a note and made again.
See SECURITY.md, "The cache folder"."""

from __future__ import annotations

import json
import os
import pickle
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tarot.check import known_valid
from tarot.expressions import grammar_cache, tree_store
from tarot.expressions import parser as expression_parser
from tests.commands import tarot

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.timeout(60)


class _Planted:
    """A pickle that, if anything unpickled it, would write `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple:
        return (Path.write_text, (self.path, "code ran"))


def _tarot(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT)}
    return tarot(*args, env=env)


def _warm(cache: Path) -> Path:
    """The cache folder after one load of a ruleset (every file made)."""
    done = _tarot(cache, "validate", "french-tarot")
    assert done.returncode == 0, done.stderr
    return cache / "tarot"


def _trees_file(folder: Path) -> Path:
    (found,) = folder.glob("expression-trees-*.sqlite")
    return found


def test_planted_pickles_never_run_and_the_load_is_right(tmp_path: Path) -> None:
    folder = _warm(tmp_path / "cache")
    marker = tmp_path / "ran"
    planted = pickle.dumps(_Planted(marker))
    with sqlite3.connect(_trees_file(folder)) as trees:
        trees.execute("UPDATE trees SET tree = ?", (planted,))
    for grammar in folder.glob("expression-grammar-*.json"):
        grammar.write_bytes(planted)
    # a pickle under the names the earlier versions read
    (folder / "expression-grammar-plain-lark-1.3.1-python-3.11.cache").write_bytes(planted)
    done = _tarot(tmp_path / "cache", "validate", "french-tarot")
    assert done.returncode == 0 and not marker.exists()
    assert "Traceback" not in done.stderr


def test_a_tree_swapped_for_another_texts_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    store = tree_store.TreeStore()
    for text in ("price * 1", "price * 10"):
        store.keep(text, expression_parser._parse(text, False))
    store.save()
    path = store._open() and tree_store._file()
    assert path is not None
    with sqlite3.connect(path) as trees:
        (ten,) = trees.execute("SELECT tree FROM trees WHERE text = 'price * 10'").fetchone()
        trees.execute("UPDATE trees SET tree = ? WHERE text = 'price * 1'", (ten,))
    again = tree_store.TreeStore()
    assert again.recall("price * 1") is None  # sealed for another text: parsed again
    assert again.recall("price * 10") == expression_parser._parse("price * 10", False)


@pytest.mark.parametrize(
    "row",
    [
        b"",
        b"x" * 40,
        b"\0" * 32 + b'{"r": "number", "c": []}',
        b"x" * (tree_store.MAX_ROW + 1),
    ],
    ids=["empty", "short", "unsealed", "huge"],
)
def test_a_forged_or_damaged_row_is_not_known(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, row: bytes
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    store = tree_store.TreeStore()
    store.keep("1 + 2", expression_parser._parse("1 + 2", False))
    store.save()
    with sqlite3.connect(tree_store._file()) as trees:  # type: ignore[arg-type]
        trees.execute("UPDATE trees SET tree = ?", (row,))
    assert tree_store.TreeStore().recall("1 + 2") is None


@pytest.mark.parametrize(
    "schema",
    [
        "CREATE VIEW trees AS SELECT 'x' AS text, zeroblob(10) AS tree",
        "CREATE TABLE trees (text TEXT PRIMARY KEY, tree BLOB); CREATE TRIGGER t AFTER INSERT "
        "ON trees BEGIN DELETE FROM trees; END",
        "CREATE TABLE other (x)",
    ],
    ids=["view", "trigger", "other-table"],
)
def test_a_trees_file_holding_anything_else_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], schema: str
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = tree_store._file()
    assert path is not None
    with sqlite3.connect(path) as made:
        made.executescript(schema)
    path.chmod(0o600)
    assert tree_store.TreeStore().recall("1 + 2") is None
    assert "passed over and made again" in capsys.readouterr().err
    assert not path.exists()
    store = tree_store.TreeStore()  # the next process makes it afresh
    store.keep("1 + 2", expression_parser._parse("1 + 2", False))
    store.save()
    assert tree_store.TreeStore().recall("1 + 2") is not None


def test_a_trees_file_that_is_not_sqlite_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = tree_store._file()
    assert path is not None
    path.write_bytes(b"not a database" * 100)
    path.chmod(0o600)
    assert tree_store.TreeStore().recall("1 + 2") is None
    assert "passed over" in capsys.readouterr().err


def test_the_validity_list_says_valid_only_for_the_users_own_seals(tmp_path: Path) -> None:
    folder = _warm(tmp_path / "cache")
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: french-tarot\nplayers: {count: 0}\n", encoding="utf-8")
    first = _tarot(tmp_path / "cache", "validate", str(broken))
    assert first.returncode == 1
    # the key of the broken document, as an attacker who knows the schema computes it
    from tarot.compile.loader import load_schema
    from tarot.load import paths
    from tarot.load.inheritance import resolve

    data = resolve(broken, paths.find_named, paths.list_named).data
    key = known_valid.document_key(data, load_schema("ruleset"))
    assert key is not None
    with (folder / known_valid.FILE).open("a", encoding="ascii") as out:
        out.write(f"{key}\n{'0' * 64}\n{'z' * 64}\n")
    again = _tarot(tmp_path / "cache", "validate", str(broken))
    assert again.returncode == 1 and again.stderr == first.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_cache_files_that_are_links_or_endless_are_not_read(tmp_path: Path) -> None:
    folder = _warm(tmp_path / "cache")
    for name in (known_valid.FILE, _trees_file(folder).name):
        (folder / name).unlink()
        (folder / name).symlink_to("/dev/zero")
    for grammar in folder.glob("expression-grammar-*.json"):
        grammar.unlink()
        grammar.symlink_to("/dev/zero")
    done = _tarot(tmp_path / "cache", "validate", "french-tarot")
    assert done.returncode == 0, done.stderr
    assert "passed over and made again" in done.stderr and "Traceback" not in done.stderr
    assert not any(path.is_symlink() for path in folder.iterdir())


def test_a_cache_folder_open_to_others_is_not_used(tmp_path: Path) -> None:
    """As when a project's folder (checked out, 0755) is given as the cache."""
    project = tmp_path / "project"
    (project / "tarot").mkdir(parents=True)
    (project / "tarot").chmod(0o755)
    done = _tarot(project, "validate", "french-tarot")
    assert done.returncode == 0
    assert "not a folder of yours closed to others" in done.stderr
    assert list((project / "tarot").iterdir()) == []


def test_a_planted_signing_key_open_to_others_is_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "cache" / "tarot"
    folder.mkdir(parents=True, mode=0o700)
    (folder / "signing-key").write_bytes(b"k" * 32)
    (folder / "signing-key").chmod(0o644)
    done = _tarot(tmp_path / "cache", "validate", "french-tarot")
    assert done.returncode == 0 and "signing-key is passed over" in done.stderr
    assert (folder / "signing-key").read_bytes() != b"k" * 32


def test_the_grammar_read_back_parses_as_the_grammar_analysed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    texts = ["1 + 2 * 3", "a and not b or c", "max(1, 2) - -3", "x in [1, 2]", "1 +"]
    analysed = grammar_cache.grammar_parser(False)  # written
    path = grammar_cache._place(False)[0]
    assert path is not None and path.is_file()
    read_back = grammar_cache.grammar_parser(False)
    for text in texts:
        results = []
        for parser in (analysed, read_back):
            try:
                results.append(parser.parse(text))
            except Exception as error:  # noqa: BLE001 - the same error from both
                results.append(type(error).__name__)
        assert results[0] == results[1], text
    # a seal that fails: analysed again, and the file written again
    sealed = path.read_bytes()
    path.write_bytes(sealed[:40] + json.dumps({"data": {}, "memo": {}}).encode())
    assert grammar_cache.grammar_parser(False).parse("1 + 2") == analysed.parse("1 + 2")
    assert path.read_bytes() != sealed[:40]
