"""`tarot diff`: comparing two rulesets as written (tarot.measure.diff.paper and .render)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from commands import tarot

from tarot.errors import RulesetError
from tarot.measure.diff import diff_rulesets, render, to_json, to_markdown, to_text
from tarot.measure.diff.paper import RulesetDiff

MCLEOD = 'John McLeod, "Early 17th Century French Tarot'


@pytest.fixture(scope="module")
def ultimo() -> RulesetDiff:
    return diff_rulesets("marolles-1637", "marolles-1637-ultimo-literal")


@pytest.fixture()
def variant(tmp_path: Path) -> Path:
    path = tmp_path / "no-belle.yaml"
    path.write_text(
        "extends: marolles-1637\n"
        "title: Marolles 1637 without la Belle, average 30\n"
        "payments:\n"
        "  - {id: belle_played, remove: true}\n"
        "parameters:\n"
        "  average:\n"
        "    value: 30\n",
        encoding="utf-8",
    )
    return path


# --- paper --------------------------------------------------------------------------------------


def test_self_diff_is_empty() -> None:
    diff = diff_rulesets("marolles-1637", "marolles-1637")
    assert diff.empty
    assert (diff.options, diff.rules, diff.other) == ([], [], [])
    assert "no differences" in to_text(diff)
    data = json.loads(to_json(diff))
    assert (data["options"], data["rules"], data["other"]) == ([], [], [])


def test_ultimo_literal_changes_exactly_one_option(ultimo: RulesetDiff) -> None:
    assert [o.option for o in ultimo.options] == ["ultimo_failure"]
    option = ultimo.options[0]
    assert option.kind == "changed" and option.reading_changed
    assert option.definition == [] and option.follows == []
    old, new = option.old, option.new
    assert old is not None and new is not None
    assert (old.reading, old.value, old.source) == ("mcleod", 6, "mcleod")
    # McLeod's page names the literal reading
    assert (new.reading, new.value, new.source) == ("literal", 1, "mcleod")
    assert old.citation.startswith(MCLEOD)
    assert new.citation.startswith(MCLEOD)
    assert old.description and new.description
    # the payment reads the option by name: its text is unchanged, so it is no rule change
    assert option.read_by == ["$.payments[8].amount"]
    assert ultimo.rules == []
    assert [c.path for c in ultimo.other] == ["$.title"]
    assert set(ultimo.citations) == {"mcleod"}


def test_ultimo_literal_text(ultimo: RulesetDiff) -> None:
    text = to_text(ultimo)
    assert "Options (1)" in text and "ultimo_failure: reading changed" in text
    assert "was mcleod = 6  (source: mcleod)" in text
    assert "now literal = 1  (source: mcleod)" in text
    assert MCLEOD in text
    assert "Rules" not in text
    assert text.index("Options") < text.index("Other")


def test_deal_packets_follow_their_option() -> None:
    diff = diff_rulesets("marolles-1637", "marolles-1637-deal-threes")
    assert [o.option for o in diff.options] == ["deal_packets"]
    option = diff.options[0]
    assert option.old is not None and option.new is not None
    assert (option.old.reading, option.new.reading) == ("fives", "threes")
    assert [c.path for c in option.follows] == ["$.deal.packets"]
    follows = option.follows[0]
    assert follows.old == option.old.value and follows.new == option.new.value
    assert (follows.old_option, follows.new_option) == ("deal_packets", "deal_packets")
    assert (follows.old_source, follows.new_source) == ("mcleod", "mcleod")
    # not reported again as an unexplained change
    assert all(not c.path.startswith("$.deal") for c in diff.other)
    assert "$.deal.packets follows option deal_packets" in to_text(diff)


def test_removed_payment_and_changed_parameter(variant: Path) -> None:
    diff = diff_rulesets("marolles-1637", variant)
    assert diff.options == []
    assert [(r.section, r.id, r.kind) for r in diff.rules] == [
        ("payments", "belle_played", "removed")
    ]
    removed = diff.rules[0]
    assert removed.name == "La Belle played" and removed.old_source == "mcleod"
    assert removed.rule is not None and removed.rule["event"] == "card_played"
    other = {c.path: c for c in diff.other}
    assert set(other) == {"$.title", "$.parameters.average.value"}
    average = other["$.parameters.average.value"]
    assert (average.kind, average.old, average.new) == ("changed", 25, 30)
    assert (average.old_source, average.new_source) == ("mcleod", "mcleod")
    text = to_text(diff)
    assert 'payments belle_played "La Belle played": removed' in text
    assert "$.parameters.average.value: 25 -> 30  (source: mcleod)" in text


def test_changed_rule_fields_and_sources(tmp_path: Path) -> None:
    path = tmp_path / "ultimo-won.yaml"
    path.write_text(
        "extends: marolles-1637\n"
        "payments:\n"
        "  - {id: ultimo_won, amount: 5, source: dummett_mcleod_2004}\n",
        encoding="utf-8",
    )
    diff = diff_rulesets("marolles-1637", path)
    assert [(r.id, r.kind) for r in diff.rules] == [("ultimo_won", "changed")]
    rule = diff.rules[0]
    assert (rule.old_source, rule.new_source) == ("mcleod", "dummett_mcleod_2004")
    fields = {c.path: (c.old, c.new) for c in rule.fields}
    assert fields == {
        "$.payments[7].amount": (6, 5),
        "$.payments[7].source": ("mcleod", "dummett_mcleod_2004"),
    }


def test_changed_reading_definition(tmp_path: Path) -> None:
    path = tmp_path / "capped-3.yaml"
    path.write_text(
        "extends: marolles-1637\n"
        "options:\n"
        "  small_totals:\n"
        "    readings:\n"
        "      capped: {value: 3}\n",
        encoding="utf-8",
    )
    diff = diff_rulesets("marolles-1637", path)
    assert [o.option for o in diff.options] == ["small_totals"]
    option = diff.options[0]
    assert not option.reading_changed
    assert [(c.path, c.old, c.new, c.new_source) for c in option.definition] == [
        ("$.options.small_totals.readings.capped.value", 4, 3, "rules_facts")
    ]


def test_load_error_is_a_ruleset_error() -> None:
    with pytest.raises(RulesetError, match="no-such-game"):
        diff_rulesets("marolles-1637", "no-such-game")


# --- render -------------------------------------------------------------------------------------


def test_json_parses(ultimo: RulesetDiff) -> None:
    data = json.loads(render(ultimo, "json"))
    assert data["a"]["name"] == "marolles-1637"
    assert data["b"]["name"] == "marolles-1637-ultimo-literal"
    (option,) = data["options"]
    assert option["old"]["value"] == 6 and option["new"]["value"] == 1
    assert option["new"]["source"] == "mcleod"
    assert data["rules"] == []


def test_markdown_has_tables(ultimo: RulesetDiff, variant: Path) -> None:
    markdown = to_markdown(ultimo)
    assert "## Options" in markdown
    assert "| option | change | a: reading |" in markdown
    assert "|---|---|" in markdown
    assert (
        "| ultimo_failure | reading changed | mcleod | `6` | mcleod | literal | `1` |" in markdown
    )
    rules = to_markdown(diff_rulesets("marolles-1637", variant))
    assert "## Rules" in rules and "`belle_played`" in rules and "removed" in rules
    assert "No differences." in to_markdown(diff_rulesets("marolles-1637", "marolles-1637"))


# --- the command --------------------------------------------------------------------------------


def test_cli_diff_exit_codes(variant: Path) -> None:
    same = tarot("diff", "marolles-1637", "marolles-1637")
    assert same.returncode == 0, same.stderr
    assert "no differences" in same.stdout

    differ = tarot("diff", "marolles-1637", str(variant), "--format", "json")
    assert differ.returncode == 0, differ.stderr
    assert json.loads(differ.stdout)["rules"][0]["id"] == "belle_played"

    markdown = tarot(
        "diff", "marolles-1637", "marolles-1637-ultimo-literal", "--format", "markdown"
    )
    assert markdown.returncode == 0 and "| option |" in markdown.stdout

    missing = tarot("diff", "marolles-1637", "no-such-game")
    assert missing.returncode == 1
    assert "no-such-game" in missing.stderr and "Traceback" not in missing.stderr


def test_cli_diff_broken_variant(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("extends: marolles-1637\npayments:\n  - {id: nothing, remove: true}\n")
    result = tarot("diff", str(path), "marolles-1637")
    assert result.returncode == 1
    assert result.stderr.strip() and "Traceback" not in result.stderr
