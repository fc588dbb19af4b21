"""What the loader reads faster and remembers (`read_ruleset_file`, libyaml for the package's
own files, the expression trees and lark's grammar cache) gives what it gave before."""

from __future__ import annotations

import os
import stat
import textwrap
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.errors import RulesetError
from tarot.expressions import ExpressionError
from tarot.expressions import parser as expression_parser
from tarot.load import parse_yaml, paths, yaml_limits
from tarot.load.yaml_source import load_yaml, read_ruleset_file

needs_libyaml = pytest.mark.skipif(
    yaml_limits.FastBoundedLoader is None, reason="PyYAML is built without libyaml here"
)


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def as_tuple(doc):
    return doc.data, doc.positions, doc.key_positions, doc.scalars


@needs_libyaml
@pytest.mark.parametrize("path", sorted(paths.rulesets_dir().glob("*/*.yaml")), ids=str)
def test_libyaml_reads_every_package_file_as_the_pure_loader(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fast = parse_yaml(text, str(path), libyaml=True)
    assert as_tuple(fast) == as_tuple(parse_yaml(text, str(path)))
    assert as_tuple(read_ruleset_file(path)) == as_tuple(fast)


@needs_libyaml
@pytest.mark.parametrize(
    "text",
    [
        "a: [b, c\nd: e\n",  # a flow list never closed
        "a: 1\na: 2\n",  # a duplicate key, found by the builder
        "a: &x [*x]\n",  # a recursive alias
        "a: " + "[" * 60 + "]" * 60 + "\n",  # past the nesting budget
        "a: 'b\n",  # a quoted value never closed
    ],
)
def test_libyaml_problems_are_the_pure_loaders(text: str) -> None:
    with pytest.raises(RulesetError) as pure:
        parse_yaml(text, "r.yaml")
    with pytest.raises(RulesetError) as fast:
        parse_yaml(text, "r.yaml", libyaml=True)
    assert str(fast.value) == str(pure.value)


def test_a_users_file_is_read_by_the_pure_loader(tmp_path: Path) -> None:
    """libyaml reads a tab inside a plain value; the pure loader refuses it, and a user's
    file gets the pure loader's answer whether libyaml is there or not."""
    path = tmp_path / "tab.yaml"
    path.write_text("title: Early\tFrench\n", encoding="utf-8")
    with pytest.raises(RulesetError) as error:
        read_ruleset_file(path)
    assert "tab.yaml:1:13" in str(error.value)
    assert "cannot start any token" in str(error.value)


def test_a_file_edited_between_two_loads_is_read_again(tmp_path: Path) -> None:
    path = write(tmp_path / "mine.yaml", "extends: early-french\ntitle: One\n")
    assert load_ruleset(path).title == "One"
    path.write_text("extends: early-french\ntitle: Two\n", encoding="utf-8")  # same size
    assert load_ruleset(path).title == "Two"
    path.write_text("extends: early-french\ntitle: [Two\n", encoding="utf-8")
    with pytest.raises(RulesetError) as error:
        load_ruleset(path)
    assert "mine.yaml:3:1: $: YAML syntax error" in str(error.value)


def test_a_file_read_twice_unchanged_is_parsed_once(tmp_path: Path) -> None:
    path = write(tmp_path / "mine.yaml", "title: One\n")
    first = read_ruleset_file(path)
    assert read_ruleset_file(path) is first
    assert load_yaml(path) is not first  # the public reader makes a document of its own
    assert as_tuple(load_yaml(path)) == as_tuple(first)


def test_an_option_reading_that_does_not_fit_is_reported_where_it_is_written(
    tmp_path: Path,
) -> None:
    """The schema is checked again only in the sections a reading went into; a reading that
    does not fit there is still found, once, at the reading's value."""
    path = write(
        tmp_path / "wrong-reading.yaml",
        """
        extends: early-french
        options:
          direction:
            readings:
              anticlockwise:
                value: 5
        deal:
          first_dealer: -1
        """,
    )
    with pytest.raises(RulesetError) as error:
        load_ruleset(path)
    assert [str(problem) for problem in error.value.problems] == [
        f"{path}:6:16: $.players.direction: 5 is not allowed; use one of: "
        '"clockwise", "anticlockwise" (with the options\' chosen readings)',
        f"{path}:8:17: $.deal.first_dealer: must be at least 0, not -1",
    ]


def test_expression_trees_are_remembered_and_errors_are_not() -> None:
    assert expression_parser.parse("1 + 2") is expression_parser.parse("1 + 2")
    for _ in range(2):
        with pytest.raises(ExpressionError, match="unexpected end of expression"):
            expression_parser.parse("1 +")


def test_the_grammar_cache_goes_to_a_private_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tarot.expressions import grammar_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cache_file = grammar_cache._place(False)[0]
    assert cache_file is not None and cache_file.parent == tmp_path / "tarot"
    if hasattr(os, "getuid"):
        assert not cache_file.parent.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO)
        cache_file.parent.chmod(0o777)  # anyone could plant a file there: not used
        assert grammar_cache._place(False)[0] is None


def no_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache folder's place taken by a file: there is no cache."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))


def test_no_grammar_cache_without_a_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tarot.expressions import grammar_cache

    no_cache_folder(tmp_path, monkeypatch)
    assert grammar_cache._place(False)[0] is None


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache folder of its own, and the list of valid documents read afresh."""
    from tarot.check import known_valid

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    known_valid._known.cache_clear()
    yield tmp_path / "tarot" / known_valid.FILE
    known_valid._known.cache_clear()


def counted_validations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the validations the schema check runs (each asks for its validator class)."""
    from tarot.check import schema_check

    calls: list[int] = []
    real = schema_check.validator_for

    def validator_for(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(schema_check, "validator_for", validator_for)
    return calls


def merged_document(name: str) -> dict:
    from tarot.compile.loader import locate
    from tarot.load.inheritance import resolve

    return resolve(locate(name), paths.find_named, paths.list_named).data


def test_a_document_found_valid_is_not_validated_again(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tarot.check import known_valid
    from tarot.check.schema_check import validation_errors
    from tarot.compile.loader import load_schema

    schema = load_schema("ruleset")
    calls = counted_validations(monkeypatch)
    document = merged_document("french-tarot")
    assert validation_errors(document, schema) == []
    assert len(calls) == 1 and fresh_cache.read_text().count("\n") == 1
    known_valid._known.cache_clear()  # as a new process would, from the file
    assert validation_errors(merged_document("french-tarot"), schema) == []
    assert len(calls) == 1, "read from the list of valid documents"
    assert validation_errors(merged_document("french-tarot-3"), schema) == []
    assert len(calls) == 2, "another document"
    load_ruleset("french-tarot")  # and a load finds it there


def test_a_ruleset_with_options_is_known_valid_at_its_next_load(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The readings of its options checked in place are checked on the whole document, which
    is remembered once valid: the next load (a new process) validates nothing."""
    from tarot.check import known_valid

    calls = counted_validations(monkeypatch)
    ruleset = load_ruleset("marolles-1637")
    assert ruleset.options and len(calls) == 2  # as written, then with its readings in place
    known_valid._known.cache_clear()  # as a new process would, from the file
    load_ruleset("marolles-1637")
    assert len(calls) == 2, "both documents read from the list of valid documents"


def test_an_invalid_document_and_one_that_is_not_plain_json_are_checked_every_time(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import datetime

    from tarot.check import known_valid
    from tarot.check.schema_check import validation_errors
    from tarot.compile.loader import load_schema

    schema = load_schema("ruleset")
    calls = counted_validations(monkeypatch)
    broken = {"id": "x"}
    for _ in range(2):
        assert validation_errors(broken, schema)
    assert known_valid.document_key({"when": datetime.date(2020, 1, 1)}, schema) is None
    assert known_valid.document_key({"when": "2020-01-01"}, schema) is not None
    assert known_valid.document_key({"n": 1}, schema) != known_valid.document_key(
        {"n": 1.0}, schema
    )
    assert len(calls) == 2 and not fresh_cache.exists()


def test_without_a_cache_folder_every_document_is_validated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tarot.check import known_valid
    from tarot.check.schema_check import validation_errors
    from tarot.compile.loader import load_schema

    no_cache_folder(tmp_path, monkeypatch)
    known_valid._known.cache_clear()
    schema = load_schema("ruleset")
    calls = counted_validations(monkeypatch)
    try:
        document = merged_document("french-tarot")
        validation_errors(document, schema)
        validation_errors(document, schema)
        assert len(calls) == 1, "remembered in the process"
        known_valid._known.cache_clear()  # a new process: nothing was written
        validation_errors(document, schema)
        assert len(calls) == 2
    finally:
        known_valid._known.cache_clear()


def test_expression_trees_are_read_back_by_a_later_process(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lark import Lark

    from tarot.expressions import tree_store

    def as_a_new_process() -> None:
        monkeypatch.setattr(tree_store, "STORE", tree_store.TreeStore())
        expression_parser._parse_remembered.cache_clear()

    as_a_new_process()
    first = load_ruleset("french-tarot-5")
    as_a_new_process()
    parsed: list[str] = []
    real = Lark.parse

    def counting(self, text, *args, **kwargs):
        parsed.append(text)
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(Lark, "parse", counting)
    again = load_ruleset("french-tarot-5")
    assert parsed == [], "every tree read back"
    assert again.document == first.document and again.id == first.id
    expression_parser._parse_remembered.cache_clear()


def test_a_damaged_tree_file_is_no_file(fresh_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tarot.expressions import tree_store

    path = tree_store._file()
    assert path is not None
    path.write_bytes(b"not a database")
    monkeypatch.setattr(tree_store, "STORE", tree_store.TreeStore())
    assert tree_store.STORE.recall("1 + 2") is None
    expression_parser._parse_remembered.cache_clear()
    try:
        assert load_ruleset("french-tarot").id == "french-tarot"
    finally:
        expression_parser._parse_remembered.cache_clear()
