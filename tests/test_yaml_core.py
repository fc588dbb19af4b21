"""Rulesets are read as YAML 1.2 (core schema), as editors read them: `no` and `1637:00`
are text, and a value whose reading changed from YAML 1.1 is refused with what to write."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
import yaml

from tarot.compile.loader import load_ruleset
from tarot.errors import RulesetError
from tarot.load import paths
from tarot.load.yaml_source import parse_yaml


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("no", "no"),
        ("Yes", "Yes"),
        ("off", "off"),
        ("1637:00", "1637:00"),
        ("1_000", "1_000"),
        ("0b101", "0b101"),
        ("2024-01-31", "2024-01-31"),
        ("true", True),
        ("FALSE", False),
        ("~", None),
        ("0o17", 15),
        ("0x1F", 31),
        ("-12", -12),
        ("1e3", 1000.0),
        ("2.5", 2.5),
    ],
)
def test_plain_scalars_read_as_yaml_1_2(written: str, read: object) -> None:
    value = parse_yaml(f"key: {written}\n").data["key"]
    assert value == read and type(value) is type(read)


def _variant(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "variant.yaml"
    path.write_text(f"extends: marolles-1637\n{body}", encoding="utf-8")
    return path


def test_text_that_yaml_1_1_read_as_a_boolean_is_a_title(tmp_path: Path) -> None:
    ruleset = load_ruleset(_variant(tmp_path, "title: no\nperiod: 1637:00\n"))
    assert ruleset.document["title"] == "no"


def test_yes_where_a_boolean_is_meant_says_what_to_write(tmp_path: Path) -> None:
    body = "redeal:\n  - {id: x, when: 'false', choice: yes, source: mcleod}\n"
    with pytest.raises(RulesetError) as refused:
        load_ruleset(_variant(tmp_path, body))
    assert str(refused.value.problems[-1]).endswith(
        "variant.yaml:3:36: $.redeal[0].choice: expected a boolean: YAML 1.2 reads 'yes' as "
        "text (YAML 1.1 read it as true): write true"
    )


def test_base_60_where_a_number_is_meant_says_what_to_write(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(_variant(tmp_path, "players: {count: '1:0'}\nparameters: {}\n"))
    assert "YAML 1.2 reads '1:0' as text (YAML 1.1 read it as 60): write 60" in str(refused.value)


def test_a_leading_zero_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(_variant(tmp_path, "players: {count: 010}\n"))
    assert "variant.yaml:2:18: $.players.count: 010 has a leading zero" in str(refused.value)
    assert "write 10 or 8, without it" in str(refused.value)


def _as_yaml_1_1_reads(value: object) -> object:
    """What the loader makes of YAML 1.1's values: dates stay text."""
    if isinstance(value, datetime.date):
        return str(value)
    if isinstance(value, dict):
        return {key: _as_yaml_1_1_reads(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_yaml_1_1_reads(item) for item in value]
    return value


@pytest.mark.parametrize("name", sorted(paths.builtin_rulesets()))
def test_every_builtin_ruleset_reads_as_it_did_under_yaml_1_1(name: str) -> None:
    text = paths.find_builtin(name).read_text(encoding="utf-8")
    assert parse_yaml(text).data == _as_yaml_1_1_reads(yaml.safe_load(text))
