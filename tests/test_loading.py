"""Tests for the loading pipeline: yaml_source -> inheritance -> schema_check."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

# Let plain `pytest` find the package until pyproject sets `pythonpath = ["."]`.
if str(Path(__file__).resolve().parent.parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarot.check.schema_check import check_schema  # noqa: E402
from tarot.errors import Position, Problem, RulesetError, json_path  # noqa: E402
from tarot.load import (  # noqa: E402
    load_yaml,
    parse_yaml,
    position_in_scalar,
    resolve,
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def no_builtins(name: str) -> Path | None:
    return None


def problems_of(exc: pytest.ExceptionInfo[RulesetError]) -> list[Problem]:
    return exc.value.problems


# --- errors -------------------------------------------------------------------------------


def test_json_path_and_problem_str() -> None:
    assert json_path([]) == "$"
    assert json_path(("payments", 3, "amount")) == "$.payments[3].amount"
    assert json_path(("a b",)) == '$["a b"]'
    p = Problem(Position("r.yaml", 3, 5), "$.x", "bad")
    assert str(p) == "r.yaml:3:5: $.x: bad"
    assert str(Problem(Position("r.yaml", 0, 0), "$", "file not found")) == (
        "r.yaml: $: file not found"
    )
    err = RulesetError([p, Problem(None, "$.y", "worse")])
    assert str(err) == "r.yaml:3:5: $.x: bad\n$.y: worse"


# --- yaml_source --------------------------------------------------------------------------


def test_positions_of_nested_values(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "r.yaml",
        """
        title: Test
        players:
          count: 3
        payments:
          - id: a
            amount: 10
          - {id: b, amount: 20}
        """,
    )
    doc = load_yaml(path)
    assert doc.data == {
        "title": "Test",
        "players": {"count": 3},
        "payments": [{"id": "a", "amount": 10}, {"id": "b", "amount": 20}],
    }
    f = str(path)
    assert doc.positions[()] == Position(f, 1, 1)
    assert doc.positions[("title",)] == Position(f, 1, 8)
    assert doc.positions[("players", "count")] == Position(f, 3, 10)
    assert doc.positions[("payments", 0)] == Position(f, 5, 5)
    assert doc.positions[("payments", 0, "amount")] == Position(f, 6, 13)
    assert doc.positions[("payments", 1, "amount")] == Position(f, 7, 21)
    assert doc.key_positions[("players", "count")] == Position(f, 3, 3)
    assert doc.file == f


def test_scalar_types_follow_safe_loader(tmp_path: Path) -> None:
    doc = parse_yaml("a: 1\nb: 1.5\nc: true\nd: ~\ne: '1'\nf: 2024-01-01\n", "x.yaml")
    assert doc.data == {"a": 1, "b": 1.5, "c": True, "d": None, "e": "1", "f": "2024-01-01"}
    assert doc.scalar_styles == {("e",): "single", ("f",): "plain"}


def test_duplicate_key(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", "a: 1\nb:\n  x: 1\n  y: 2\n  x: 3\n")
    with pytest.raises(RulesetError) as exc:
        load_yaml(path)
    [problem] = problems_of(exc)
    assert problem.position == Position(str(path), 5, 3)
    assert problem.path == "$.b.x"
    assert problem.message == "duplicate key 'x' (first at line 3)"


def test_all_problems_at_once_and_non_string_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", "a: 1\na: 2\n3: x\nnested:\n  true: 1\n")
    with pytest.raises(RulesetError) as exc:
        load_yaml(path)
    problems = problems_of(exc)
    assert [p.position.line for p in problems] == [2, 3, 5]
    assert "not a string" in problems[1].message
    assert "bool" in problems[2].message


def test_yaml_syntax_error_position(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", "a: 1\nb: [1, 2\nc: 3\n")
    with pytest.raises(RulesetError) as exc:
        load_yaml(path)
    [problem] = problems_of(exc)
    assert problem.position is not None and problem.position.file == str(path)
    assert problem.position.line == 3
    assert problem.message.startswith("YAML syntax error")

    path = write(tmp_path, "s.yaml", "a: 1\n  b: 2\n")
    with pytest.raises(RulesetError) as exc:
        load_yaml(path)
    assert problems_of(exc)[0].position == Position(str(path), 2, 4)


def test_missing_file_and_bad_tags(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as exc:
        load_yaml(tmp_path / "nope.yaml")
    assert str(exc.value) == f"{tmp_path / 'nope.yaml'}: $: file not found"
    with pytest.raises(RulesetError) as exc:
        parse_yaml("a: !python/object x\nb: !!int zz\n", "t.yaml")
    assert [p.position.line for p in problems_of(exc)] == [1, 2]


def test_recursive_alias_and_merge_keys() -> None:
    doc = parse_yaml("base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\n", "m.yaml")
    assert doc.data["c"] == {"x": 1, "y": 3}
    with pytest.raises(RulesetError):
        parse_yaml("a: &a [*a]\n", "r.yaml")


def test_position_in_plain_and_quoted_scalars() -> None:
    text = "a: x + y\nb: 'x + y'\nc: \"x + y\"\n"
    doc = parse_yaml(text, "e.yaml")
    assert position_in_scalar(doc, ("a",), 1, 5) == Position("e.yaml", 1, 8)
    assert position_in_scalar(doc, ("b",), 1, 5) == Position("e.yaml", 2, 9)
    assert position_in_scalar(doc, ("c",), 1, 1) == Position("e.yaml", 3, 5)


def test_position_in_block_scalars() -> None:
    text = "top:\n  expr: |\n    first line\n    x + y\n  other: >-\n    aa bb\n    cc\n"
    doc = parse_yaml(text, "b.yaml")
    assert doc.scalar_styles[("top", "expr")] == "literal"
    assert doc.scalar_styles[("top", "other")] == "folded"
    # literal: line 2 column 3 of the value is "+" on file line 4, column 7
    assert position_in_scalar(doc, ("top", "expr"), 2, 3) == Position("b.yaml", 4, 7)
    assert position_in_scalar(doc, ("top", "expr"), 1, 1) == Position("b.yaml", 3, 5)
    # folded: the value is "aa bb cc" on one line; "cc" comes from file line 7
    assert doc.data["top"]["other"] == "aa bb cc"
    assert position_in_scalar(doc, ("top", "other"), 1, 4) == Position("b.yaml", 6, 8)
    assert position_in_scalar(doc, ("top", "other"), 1, 7) == Position("b.yaml", 7, 5)


def test_position_in_multiline_plain_scalar() -> None:
    doc = parse_yaml("k: alpha\n  beta gamma\n", "p.yaml")
    assert doc.data == {"k": "alpha beta gamma"}
    assert position_in_scalar(doc, ("k",), 1, 2) == Position("p.yaml", 1, 5)
    assert position_in_scalar(doc, ("k",), 1, 12) == Position("p.yaml", 2, 8)


# --- inheritance --------------------------------------------------------------------------


BASE = """
title: Base
players:
  count: 3
  direction: anticlockwise
payments:
  - id: petit
    amount: 10
  - id: marque
    amount: 5
  - id: ultimo
    amount: 20
tags: [a, b]
"""


def test_extends_override_merge_append_remove(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", BASE)
    child = write(
        tmp_path,
        "child.yaml",
        """
        extends: base
        title: Child
        players:
          count: 4
        payments:
          - id: marque
            remove: true
          - id: ultimo
            amount: 30
          - id: chelem
            amount: 100
        tags: [c]
        """,
    )
    merged = resolve(child, no_builtins, any_base=True)
    assert merged.data == {
        "title": "Child",
        "players": {"count": 4, "direction": "anticlockwise"},
        "payments": [
            {"id": "petit", "amount": 10},
            {"id": "ultimo", "amount": 30},
            {"id": "chelem", "amount": 100},
        ],
        "tags": ["c"],
    }
    assert merged.chain == [child, tmp_path / "base.yaml"]
    c, b = str(child), str(tmp_path / "base.yaml")
    prov = merged.provenance
    assert prov[("title",)] == Position(c, 2, 8)
    assert prov[("players", "count")] == Position(c, 4, 10)
    assert prov[("players", "direction")] == Position(b, 4, 14)
    # merged list indexes: petit stays 0 (base), ultimo becomes 1, chelem 2
    assert prov[("payments", 0, "amount")] == Position(b, 7, 13)
    assert prov[("payments", 1, "amount")] == Position(c, 9, 13)
    assert prov[("payments", 1, "id")] == Position(c, 8, 9)  # the child restates the id
    assert prov[("payments", 2, "amount")] == Position(c, 11, 13)
    assert prov[("tags", 0)] == Position(c, 12, 8)
    assert ("tags", 1) not in prov
    assert "extends" not in merged.data


def test_remove_unknown_id(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", BASE)
    child = write(
        tmp_path,
        "child.yaml",
        """
        extends: base.yaml
        payments:
          - id: ultimoo
            remove: true
        """,
    )
    with pytest.raises(RulesetError) as exc:
        resolve(child, no_builtins, any_base=True)
    [problem] = problems_of(exc)
    assert problem.position == Position(str(child), 3, 9)
    assert "cannot remove id 'ultimoo'" in problem.message
    assert "did you mean 'ultimo'" in problem.message


def test_remove_in_list_the_base_lacks(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "title: B\n")
    child = write(tmp_path, "child.yaml", "extends: base\nrules:\n  - id: x\n    remove: true\n")
    with pytest.raises(RulesetError) as exc:
        resolve(child, no_builtins)
    [problem] = problems_of(exc)
    assert problem.position == Position(str(child), 3, 9)
    assert problem.path == "$.rules[0]"


def test_id_list_merge_is_recursive_and_other_lists_replace(tmp_path: Path) -> None:
    write(
        tmp_path,
        "base.yaml",
        "levels:\n  - id: a\n    pay: {x: 1, y: 2}\n    ids: [1, 2]\nmixed: [{id: a}, 3]\n",
    )
    child = write(
        tmp_path,
        "child.yaml",
        "extends: base\nlevels:\n  - id: a\n    pay: {y: 5}\n    ids: [3]\nmixed: [{id: b}]\n",
    )
    merged = resolve(child, no_builtins, any_base=True)
    assert merged.data == {
        "levels": [{"id": "a", "pay": {"x": 1, "y": 5}, "ids": [3]}],
        "mixed": [{"id": "b"}],
    }


def test_extends_cycle(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "extends: b.yaml\nx: 1\n")
    write(tmp_path, "b.yaml", "title: B\nextends: a\n")
    with pytest.raises(RulesetError) as exc:
        resolve(a, no_builtins)
    [problem] = problems_of(exc)
    assert problem.message == "extends cycle: a.yaml -> b.yaml -> a.yaml"
    assert problem.position == Position(str(tmp_path / "b.yaml"), 2, 10)
    assert problem.path == "$.extends"


def test_self_extends_by_name_uses_builtin(tmp_path: Path) -> None:
    builtin = write(tmp_path, "builtins/tarot.yaml", "title: Builtin\nx: 1\n")
    local = write(tmp_path, "local/tarot.yaml", "extends: tarot\ntitle: Local\n")
    merged = resolve(local, lambda name: builtin if name == "tarot" else None)
    assert merged.data == {"title": "Local", "x": 1}
    assert merged.chain == [local, builtin]


def test_missing_base_with_suggestion(tmp_path: Path) -> None:
    child = write(tmp_path, "child.yaml", "title: C\nextends: marole-1637\n")
    with pytest.raises(RulesetError) as exc:
        resolve(child, no_builtins, lambda: ["marolles-1637", "minchiate"])
    [problem] = problems_of(exc)
    assert problem.position == Position(str(child), 2, 10)
    assert "'marole-1637' not found" in problem.message
    assert "did you mean 'marolles-1637'" in problem.message


def test_extends_must_be_a_string(tmp_path: Path) -> None:
    child = write(tmp_path, "child.yaml", "extends: [a]\n")
    with pytest.raises(RulesetError) as exc:
        resolve(child, no_builtins)
    assert problems_of(exc)[0].position == Position(str(child), 1, 10)


def test_relative_path_base_and_builtin_chain(tmp_path: Path) -> None:
    builtin = write(tmp_path, "lib/root.yaml", "title: Root\nplayers: {count: 3}\n")
    write(tmp_path, "shared/mid.yaml", "extends: root\nperiod: '1637'\n")
    child = write(tmp_path, "games/child.yaml", "extends: ../shared/mid.yml\ntitle: Child\n")
    with pytest.raises(RulesetError):
        resolve(child, lambda n: builtin if n == "root" else None)
    child = write(tmp_path, "games/child.yaml", "extends: ../shared/mid.yaml\ntitle: Child\n")
    merged = resolve(child, lambda n: builtin if n == "root" else None)
    assert merged.data == {"title": "Child", "players": {"count": 3}, "period": "1637"}
    assert merged.chain == [child, tmp_path / "games/../shared/mid.yaml", builtin]
    assert merged.provenance[("players", "count")].file == str(builtin)
    assert merged.provenance[("period",)].file == str(tmp_path / "games/../shared/mid.yaml")


def test_merged_position_in_scalar(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "rules:\n  - id: r\n    when: 'a and b'\n")
    child = write(tmp_path, "child.yaml", "extends: base\nrules:\n  - id: s\n    when: c\n")
    merged = resolve(child, no_builtins, any_base=True)
    assert merged.position_in_scalar(("rules", 0, "when"), 1, 3) == Position(
        str(tmp_path / "base.yaml"), 3, 14
    )
    assert merged.position_in_scalar(("rules", 1, "when"), 1, 1) == Position(str(child), 4, 11)


# --- schema_check -------------------------------------------------------------------------


SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["title", "players"],
    "properties": {
        "title": {"type": "string"},
        "players": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "count": {"type": "integer"},
                "direction": {"enum": ["clockwise", "anticlockwise"]},
            },
        },
        "score": {
            "oneOf": [
                {"type": "integer"},
                {
                    "type": "object",
                    "properties": {"points": {"type": "integer"}},
                    "required": ["points"],
                },
            ]
        },
    },
}


def test_schema_unknown_key_enum_and_required(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "r.yaml",
        """
        players:
          count: 3
          directon: clockwise
        titel: X
        """,
    )
    merged = resolve(path, no_builtins)
    problems = check_schema(merged.data, merged.provenance, SCHEMA, merged.key_provenance)
    assert [(p.position.line if p.position else None, p.path) for p in problems] == [
        (1, "$"),
        (3, "$.players"),
        (4, "$"),
    ]
    required, unknown_dir, unknown_title = problems
    assert required.message == "missing required key 'title'"
    assert "unknown key 'directon'" in unknown_dir.message
    assert "did you mean 'direction'" in unknown_dir.message
    assert "allowed keys: count, direction" in unknown_dir.message
    assert unknown_dir.position == Position(str(path), 3, 3)
    assert unknown_title.message.startswith("unknown key 'titel' (did you mean 'title'?)")
    assert "did you mean 'title'" in unknown_title.message


def test_schema_enum_lists_values_and_provenance_fallback() -> None:
    doc = parse_yaml("title: T\nplayers:\n  direction: sunwise\n", "e.yaml")
    problems = check_schema(doc.data, doc.positions, SCHEMA)
    [problem] = problems
    assert problem.position == Position("e.yaml", 3, 14)
    assert problem.path == "$.players.direction"
    assert '"clockwise", "anticlockwise"' in problem.message
    # fall back to the nearest ancestor with a position
    positions = {(): Position("e.yaml", 1, 1), ("players",): Position("e.yaml", 3, 3)}
    [problem] = check_schema(doc.data, positions, SCHEMA)
    assert problem.position == Position("e.yaml", 3, 3)


def test_schema_one_of_uses_best_match() -> None:
    doc = parse_yaml("title: T\nplayers: {}\nscore: {points: many}\n", "o.yaml")
    [problem] = check_schema(doc.data, doc.positions, SCHEMA)
    assert problem.path == "$.score.points"
    assert problem.position == Position("o.yaml", 3, 17)
    assert "expected an integer" in problem.message
    assert "not valid under any" not in problem.message


def test_schema_key_position_without_key_provenance() -> None:
    doc = parse_yaml("title: T\nplayers: {}\nextra: 1\n", "k.yaml")
    [problem] = check_schema(doc.data, doc.positions, SCHEMA)
    assert problem.position == Position("k.yaml", 3, 8)
    assert problem.path == "$"


def test_position_in_quoted_scalars_with_escapes() -> None:
    doc = parse_yaml("a: 'it''s x'\nb: \"\\t\\u00e9 y\"\n", "q.yaml")
    assert doc.data == {"a": "it's x", "b": "\té y"}
    assert position_in_scalar(doc, ("a",), 1, 6) == Position("q.yaml", 1, 11)
    assert position_in_scalar(doc, ("b",), 1, 4) == Position("q.yaml", 2, 14)


def test_every_character_maps_back_to_itself() -> None:
    text = "k: >\n\n  a b\n  c\n\n  d e\n    more\n  f\nl: |+\n  x\n   y\n\nm: one\n\n  two\n"
    doc = parse_yaml(text, "t.yaml")
    lines = text.splitlines()
    for key in ("k", "l", "m"):
        for line_no, row in enumerate(doc.data[key].split("\n"), 1):
            for col, ch in enumerate(row, 1):
                if ch != " ":
                    p = position_in_scalar(doc, (key,), line_no, col)
                    assert lines[p.line - 1][p.column - 1] == ch, (key, line_no, col)
