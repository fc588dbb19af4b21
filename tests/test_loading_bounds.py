"""Rulesets are data with bounds: the limits of yaml_limits (file size, depth, values with
aliases expanded, numbers), the schema's bounds and whole numbers, and the later stages run
on the parts the schema left intact (broken_parts)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from commands import tarot

from tarot.check.broken_parts import BrokenParts, part_of
from tarot.compile.loader import load_ruleset
from tarot.engine.state import MAX_REDEALS
from tarot.errors import RulesetError
from tarot.load import load_yaml, parse_yaml, paths
from tarot.load.yaml_limits import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_MAGNITUDE,
    MAX_VALUES,
    number_problem,
)

SCHEMA = json.loads((paths.schemas_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))


def refusal(text: str, name: str = "r.yaml") -> list[str]:
    with pytest.raises(RulesetError) as caught:
        parse_yaml(text, name)
    return [str(problem) for problem in caught.value.problems]


def variant(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "v.yaml"
    path.write_text("extends: marolles-1637\n" + textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    return [str(problem).replace(str(path), "v.yaml") for problem in caught.value.problems]


# --- the file --------------------------------------------------------------------------------


def test_a_file_over_the_size_bound_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("# " + "x" * MAX_FILE_BYTES + "\n", encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_yaml(path)
    assert str(caught.value) == (
        f"{path}: $: the file is larger than {MAX_FILE_BYTES:,} bytes; a ruleset needs far less"
    )


def test_bad_utf8_is_placed_at_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "l.yaml"
    path.write_bytes("a: 1\nb: d\xe9j\xe0\n".encode("latin-1"))
    with pytest.raises(RulesetError) as caught:
        load_yaml(path)
    assert str(caught.value).startswith(f"{path}:2:5: $: the file is not valid UTF-8 (byte 0xe9)")


def test_a_folder_is_not_a_ruleset(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as caught:
        load_yaml(tmp_path)
    assert str(caught.value) == f"{tmp_path}: $: this is a folder, not a ruleset file"


def test_empty_and_non_mapping_files_name_the_file(tmp_path: Path) -> None:
    (tmp_path / "e.yaml").write_text("# only a comment\n", encoding="utf-8")
    with pytest.raises(RulesetError, match=r"e\.yaml: \$: the file is empty"):
        load_ruleset(tmp_path / "e.yaml")
    (tmp_path / "s.yaml").write_text("just words\n", encoding="utf-8")
    with pytest.raises(RulesetError, match=r"s\.yaml:1:1: \$: a ruleset is a mapping") as caught:
        load_ruleset(tmp_path / "s.yaml")
    assert "words" not in str(caught.value), "the content of a file that is not a ruleset"


def test_a_long_chain_of_variants_is_refused(tmp_path: Path) -> None:
    (tmp_path / "v0.yaml").write_text("extends: marolles-1637\n", encoding="utf-8")
    for i in range(1, 30):
        (tmp_path / f"v{i}.yaml").write_text(f"extends: v{i - 1}\n", encoding="utf-8")
    load_ruleset(tmp_path / "v10.yaml")
    with pytest.raises(RulesetError, match=r"v10\.yaml:1:10: \$\.extends: more than 20"):
        load_ruleset(tmp_path / "v29.yaml")


# --- depth and values ------------------------------------------------------------------------


def test_nesting_up_to_the_bound_is_read_and_one_more_is_refused() -> None:
    deepest = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_yaml(deepest, "d.yaml").data is not None
    problems = refusal("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "d.yaml")
    assert problems == [
        f"d.yaml:1:{MAX_DEPTH + 1}: $: the document is nested too deeply: more than "
        f"{MAX_DEPTH} mappings and lists inside each other"
    ]


@pytest.mark.slow
def test_values_are_counted_with_aliases_expanded() -> None:
    count = MAX_VALUES // 10
    fits = f"a: &a [{', '.join(['1'] * 8)}]\nb: [{', '.join(['*a'] * (count - 2))}]\n"
    assert len(parse_yaml(fits).data["b"]) == count - 2
    problems = refusal(f"a: &a [{', '.join(['1'] * 9)}]\nb: [{', '.join(['*a'] * count)}]\n")
    assert len(problems) == 1
    assert problems[0].startswith("r.yaml:2:")
    assert f"more than {MAX_VALUES:,} values" in problems[0]
    assert "the alias *a repeats 10 values" in problems[0]


def test_an_alias_of_billions_is_refused_where_it_is_written() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    lines += [
        f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    ]
    problems = refusal("\n".join(lines) + "\n", "laughs.yaml")
    assert problems[0].startswith("laughs.yaml:5:")  # *c repeats 1,111 values; *d 11,111
    assert "the alias *d repeats 11,111 values" in problems[0]


def test_merge_keys_still_work_within_the_budget() -> None:
    doc = parse_yaml("base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\n", "m.yaml")
    assert doc.data["c"] == {"x": 1, "y": 3}


# --- numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (".inf", "'.inf' is not a finite number"),
        ("-.Inf", "'-.Inf' is not a finite number"),
        (".nan", "'.nan' is not a number"),
        ("1.0e+999", "'1.0e+999' is not a finite number"),
        (str(MAX_MAGNITUDE + 1), f"{MAX_MAGNITUDE + 1} is too large"),
        (f"-{MAX_MAGNITUDE + 1}.5", "is too large"),
        ("9" * 41, "a number written with 41 characters is too long"),
        ("9" * 5000, "a number written with 5,000 characters is too long"),
    ],
)
def test_numbers_out_of_bounds_are_refused_in_place(text: str, words: str) -> None:
    [problem] = refusal(f"players:\n  count: {text}\n")
    assert problem.startswith("r.yaml:2:10: $.players.count: ")
    assert words in problem


def test_numbers_at_the_bound_are_read() -> None:
    doc = parse_yaml(f"a: {MAX_MAGNITUDE}\nb: -{MAX_MAGNITUDE}.0\nc: 0.000001\nd: 0x1F\n")
    assert doc.data == {"a": MAX_MAGNITUDE, "b": -float(MAX_MAGNITUDE), "c": 1e-6, "d": 31}
    assert number_problem("12", 12) is None


def test_whole_numbers_with_a_decimal_point_are_refused_everywhere(tmp_path: Path) -> None:
    problems = variant(
        tmp_path,
        """\
        players: {count: 3.0}
        discard: {counts: {dealer: 4, others: 1.0}}
        counting: {group_size: 3.0}
        game: {ends_when: true, winners: seats, source: mcleod, max_hands: 2.0}
        deal: {first_dealer: 1.0}
        """,
    )
    assert problems == [
        "v.yaml:2:18: $.players.count: write 3, a whole number without a decimal point",
        "v.yaml:3:39: $.discard.counts.others: write 1, a whole number without a decimal point",
        "v.yaml:4:24: $.counting.group_size: write 3, a whole number without a decimal point",
        "v.yaml:5:68: $.game.max_hands: write 2, a whole number without a decimal point",
        "v.yaml:6:22: $.deal.first_dealer: write 1, a whole number without a decimal point",
    ]


def test_a_fraction_where_a_whole_number_is_meant_is_refused(tmp_path: Path) -> None:
    [problem] = variant(tmp_path, "players: {count: 2.5}\n")
    assert problem == "v.yaml:2:18: $.players.count: expected an integer, got number 2.5"


def test_every_field_of_a_deal_step_is_reported(tmp_path: Path) -> None:
    problems = variant(
        tmp_path,
        """\
        deal:
          packets:
            - {rounds: 6.0, each: 5}
            - {rounds: 2, dealer: 3, others: 3.0}
            - {rounds: 1000, each: 0}
        """,
    )
    assert problems == [
        "v.yaml:4:16: $.deal.packets[0].rounds: write 6, a whole number without a decimal point",
        "v.yaml:5:38: $.deal.packets[1].others: write 3, a whole number without a decimal point",
        "v.yaml:6:16: $.deal.packets[2].rounds: must be at most 200, not 1000",
    ]


# --- the schema states the bounds ------------------------------------------------------------


def test_the_schema_states_the_loader_bounds() -> None:
    description = SCHEMA["description"]
    for bound in (MAX_FILE_BYTES, MAX_VALUES, MAX_MAGNITUDE):
        assert f"{bound:,}" in description
    assert f"{MAX_DEPTH} deep" in description
    assert (
        f"At most {MAX_REDEALS} deals"
        in (SCHEMA["properties"]["deal"]["properties"]["redeal_by"]["description"])
    )


def _bounded_fields(node: object, path: str = "$"):
    if isinstance(node, dict):
        if "maximum" in node:
            yield path, node
        for key, value in node.items():
            yield from _bounded_fields(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _bounded_fields(value, f"{path}[{i}]")


def test_every_maximum_is_stated_in_its_description() -> None:
    for path, field in _bounded_fields(SCHEMA):
        if "description" in field:
            assert f"{field['maximum']:,}" in field["description"], path


# --- later stages run on what the schema left intact -----------------------------------------


def test_parts_are_rules_declarations_definitions_or_sections() -> None:
    assert part_of(("payments", 3, "amount")) == ("payments", 3)
    assert part_of(("declarations", "table", 2, "levels", 0)) == ("declarations", "table", 2)
    assert part_of(("declarations", "timing")) == ("declarations",)
    assert part_of(("definitions", "target", "value")) == ("definitions", "target")
    assert part_of(("deal", "packets", 0, "each")) == ("deal",)
    broken = BrokenParts()
    broken.add([("payments", 3, "amount")])
    assert ("payments", 3, "when") in broken and ("payments", 2) not in broken
    assert not broken.whole("payments") and not broken.stops_compiling
    broken.add([("deck", "pips")])
    assert broken.stops_compiling


def test_a_broken_definition_is_reported_once_and_its_users_say_they_use_it(
    tmp_path: Path,
) -> None:
    problems = variant(
        tmp_path,
        """\
        definitions:
          stake: {value: [1], source: mcleod}
        settlement:
          - {id: staked, name: S, from: dealer, to: "opponents(dealer)", amount: stake,
             source: mcleod}
          - {id: typo, name: T, from: dealer, to: "opponents(dealer)", amount: stak,
             source: mcleod}
        """,
    )
    assert len(problems) == 3, problems
    assert problems[0].startswith("v.yaml:3:")
    assert problems[1].startswith("v.yaml:5:74: $.settlement[3].amount: uses the definition")
    assert "'stake', which has a problem of its own (reported at line 3)" in problems[1]
    assert "v.yaml:7:" in problems[2] and "unknown name 'stak'" in problems[2]


def test_one_run_reports_the_schema_the_checks_and_the_compiler(tmp_path: Path) -> None:
    problems = variant(
        tmp_path,
        """\
        deal:
          packets: [{rounds: 1, each: 2}]
        settlement:
          - {id: wrong_key, name: W, from: dealer, to: "opponents(dealer)", amount: 1,
             source: mcleod, colour: red}
          - {id: unknown_source, name: U, from: dealer, to: "opponents(dealer)", amount: 1,
             source: nobody}
          - {id: wrong_type, name: T, from: dealer, to: "opponents(dealer)", amount: dealer,
             source: mcleod}
        """,
    )
    deal, schema, source, expression, hands = problems
    assert deal.startswith("v.yaml:3:12: $.deal.packets: the deal does not add up")
    assert schema.startswith("v.yaml:6:22: $.settlement[3]: unknown key 'colour'")
    assert source.startswith("v.yaml:8:14: $.settlement[4].source: unknown source 'nobody'")
    assert expression == (
        "v.yaml:9:78: $.settlement[5].amount: expected a NUMBER expression, got SEAT"
    )
    assert "marolles-1637.yaml:" in hands and "more cards to discard than are dealt" in hands


def test_a_broken_foundation_stops_after_the_schema(tmp_path: Path) -> None:
    problems = variant(
        tmp_path,
        """\
        deck: {pips: 11}
        payments:
          - {id: cut_tarot, when: "card in nothing"}
        """,
    )
    assert problems == ["v.yaml:2:14: $.deck.pips: must be at most 10, not 11"]


def test_validate_goes_on_after_a_target_it_cannot_find(tmp_path: Path) -> None:
    result = tarot("validate", str(tmp_path / "missing.yaml"), "marolles-1637")
    assert result.returncode == 1
    assert f"{tmp_path / 'missing.yaml'}: $: no such file" in result.stderr
    assert "marolles-1637.yaml: ok" in result.stdout
    assert "Traceback" not in result.stderr
