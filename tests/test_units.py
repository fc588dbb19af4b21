"""The unit of the results comes from the ruleset (`unit`): every report, table, plot label,
row, transcript line and rules page names it, and a ruleset without one counts in points.

The rulesets here are small ones written for the test, counting in words no code could
hold by chance (ducats, groats), so that a unit written into the code fails these tests.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from commands import tarot
from test_explain import SMALL
from test_simulation_cli import run

from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import ScoreUnit
from tarot.engine.game import play_game
from tarot.engine.state import Payment
from tarot.measure import plot
from tarot.players.lineup import seat_agents
from tarot.presentation.explain import explain_page, render
from tarot.presentation.seat_screen import choice_label, payment_lines
from tarot.presentation.transcript import hand_transcript, totals_line

DUCATS = (
    SMALL.replace("One point.", "One ducat.")
    .replace("Three points.", "Three ducats.")
    .replace("- id: points", "- id: card_count")
    + "unit: {singular: ducat, plural: ducats, source: book}\n"
)
GROATS = """\
extends: ducats.yaml
title: The small test game, counted in groats
unit: {singular: groat, plural: groats, source: notes}
"""
#: a declaration, so that the worth of a declaration is shown too
DECLARING = """\
declarations:
  source: book
  table:
    - id: pair_of_tops
      name: Two top trumps
      source: book
      levels:
        - {id: two, when: "count(c in hand(player): c in trumps) >= 2", value: 2}
"""
OTHER_UNITS = re.compile(r"\b(marques?|points?)\b", re.I)


@pytest.fixture()
def ducats(tmp_path: Path) -> Path:
    path = tmp_path / "ducats.yaml"
    path.write_text(DUCATS + DECLARING, encoding="utf-8")
    (tmp_path / "groats.yaml").write_text(GROATS, encoding="utf-8")
    (tmp_path / "plain.yaml").write_text(SMALL, encoding="utf-8")
    return path


def _diff_in_two_units(capsys, ducats: Path, *more: str) -> str:
    """The output of `tarot diff` of the ducats ruleset against its groats variant."""
    groats = str(ducats.parent / "groats.yaml")
    status, out, err = run(capsys, "diff", str(ducats), groats, "--jobs", "1", *more)
    assert status == 0, err
    return out


def _without_card_points(text: str) -> str:
    """The text less the card-counting notions and percentage points, which are no unit."""
    return re.sub(r"card points|points\(|percentage points", "", text, flags=re.I)


# --- the ruleset ---------------------------------------------------------------------------


def test_the_unit_is_read_from_the_ruleset_and_inherited(ducats: Path) -> None:
    assert load_ruleset(ducats).unit == ScoreUnit("ducat", "ducats")
    assert load_ruleset(ducats.parent / "groats.yaml").unit == ScoreUnit("groat", "groats")


def test_a_ruleset_without_a_unit_counts_in_points(ducats: Path) -> None:
    plain = load_ruleset(ducats.parent / "plain.yaml")
    assert plain.unit == ScoreUnit("point", "points")
    assert (plain.unit.of(1), plain.unit.of(-1), plain.unit.of(2), plain.unit.of(0.5)) == (
        "point",
        "point",
        "points",
        "points",
    )


def test_a_unit_without_its_plural_is_refused_where_it_is_written(tmp_path: Path) -> None:
    path = tmp_path / "half.yaml"
    path.write_text(SMALL + "unit:\n  singular: ducat\n  source: book\n", encoding="utf-8")
    checked = tarot("validate", str(path))
    assert checked.returncode == 1
    found = r"half\.yaml:\d+:\d+: \$\.unit: missing required key 'plural'"
    assert re.search(found, checked.stderr), checked.stderr
    assert "Traceback" not in checked.stdout + checked.stderr


def test_a_unit_citing_an_unknown_source_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "uncited.yaml"
    path.write_text(SMALL + "unit: {singular: a, plural: bs, source: nowhere}\n")
    checked = tarot("validate", str(path))
    assert checked.returncode == 1
    assert "$.unit.source: unknown source 'nowhere'" in checked.stderr


# --- tarot simulate, --out and --plot ---------------------------------------------------------


def test_simulate_names_the_unit_in_every_format(capsys, ducats: Path) -> None:
    args = ("simulate", str(ducats), "--hands", "30", "--jobs", "1")
    status, text, err = run(capsys, *args)
    assert status == 0, err
    assert "Net result per hand by seat (ducats, mean ± 95% interval):" in text
    assert re.search(r"^  won by the winners \(ducats\)  ", text, re.M)
    assert not OTHER_UNITS.search(_without_card_points(text)), text
    status, markdown, err = run(capsys, *args, "--format", "markdown")
    assert status == 0, err
    assert "### Net result per hand by seat (ducats, mean ± 95% interval)" in markdown
    assert "| won by the winners (ducats) |" in markdown
    status, out, err = run(capsys, *args, "--format", "json")
    assert status == 0, err
    assert json.loads(out)["unit"] == {"singular": "ducat", "plural": "ducats"}


def test_rows_name_the_unit(capsys, ducats: Path, tmp_path: Path) -> None:
    for name in ("rows.jsonl", "rows.csv"):
        out = tmp_path / name
        _diff_in_two_units(capsys, ducats, "--hands", "4", "--out", str(out))
        text = out.read_text(encoding="utf-8")
        if name.endswith(".csv"):
            rows = list(csv.DictReader(text.splitlines()))
        else:
            rows = [json.loads(line) for line in text.splitlines()]
        assert len(rows) == 8
        units = {row["ruleset"]: row["unit"] for row in rows}
        assert units == {"ducats": "ducats", "groats": "groats"}


class _Axes:
    def __init__(self, drawn: list[str]) -> None:
        self.drawn = drawn

    def set_xlabel(self, label: str) -> None:
        self.drawn.append(label)

    def get_legend_handles_labels(self) -> tuple[list, list]:
        return [], []

    def __getattr__(self, _name: str):
        return lambda *args, **kwargs: None


class _Figure:
    def __getattr__(self, _name: str):
        return lambda *args, **kwargs: None


class _Pyplot:
    """What `plot_results` asks of matplotlib, keeping the axis labels it is given."""

    def __init__(self) -> None:
        self.labels: list[str] = []

    def subplots(self, rows: int, columns: int, **_kwargs):
        return _Figure(), [[_Axes(self.labels) for _ in range(columns)] for _ in range(rows)]

    def close(self, _figure) -> None:
        pass


def test_plots_label_results_in_the_unit(capsys, ducats: Path, tmp_path: Path, monkeypatch):
    pyplot = _Pyplot()
    monkeypatch.setattr(plot, "_pyplot", lambda: pyplot)
    picture = str(tmp_path / "p.png")
    status, _, err = run(
        capsys, "simulate", str(ducats), "--hands", "5", "--jobs", "1", "--plot", picture
    )
    assert status == 0, err
    assert pyplot.labels == ["net result of a hand (ducats)"] * 2
    pyplot.labels.clear()
    _diff_in_two_units(capsys, ducats, "--hands", "5", "--plot", picture)
    both = "A in ducats, B in groats"
    assert (
        pyplot.labels
        == [
            f"net result of a hand ({both})",
            f"B - A of the net result of a hand ({both})",
        ]
        * 2
    ), "each seat: A and B, then the paired B - A"


def test_a_drawn_picture_holds_the_unit(capsys, ducats: Path, tmp_path: Path) -> None:
    picture = tmp_path / "p.svg"
    status, _, err = run(
        capsys, "simulate", str(ducats), "--hands", "5", "--jobs", "1", "--plot", str(picture)
    )
    assert status == 0, err
    assert "net result of a hand (ducats)" in picture.read_text(encoding="utf-8")


# --- tarot diff A B --hands ---------------------------------------------------------------------


def test_diff_names_each_side_s_unit(capsys, ducats: Path) -> None:
    paper, _, table = _diff_in_two_units(capsys, ducats, "--hands", "10").partition("At the table")
    assert re.search(r"unit\.plural: \"ducats\" -> \"groats\"", paper), paper
    assert "Net result per hand by seat (A in ducats, B in groats, mean ± 95% interval)" in table
    assert "mean |B - A| per seat and hand (A in ducats, B in groats):" in table
    assert "won by the winners (A in ducats, B in groats)" in table
    out = _diff_in_two_units(capsys, ducats, "--hands", "5", "--format", "json")
    assert json.loads(out)["unit"] == {
        "a": {"singular": "ducat", "plural": "ducats"},
        "b": {"singular": "groat", "plural": "groats"},
    }


def test_diff_of_one_unit_names_it_once(capsys, ducats: Path) -> None:
    status, out, err = run(capsys, "diff", str(ducats), str(ducats), "--hands", "10", "--jobs", "1")
    assert status == 0, err
    table = out.partition("At the table")[2]
    assert "Net result per hand by seat (ducats, mean ± 95% interval)" in table
    assert "mean |B - A| per seat and hand (ducats):" in table
    assert not OTHER_UNITS.search(_without_card_points(table)), table


def test_family_report_names_the_unit(capsys) -> None:
    status, out, err = run(
        capsys, "diff", "--family", "early-french", "--hands", "2", "--jobs", "1"
    )
    assert status == 0, err
    assert "mean per seat and hand of the paired difference, in points;" in " ".join(out.split())
    status, out, err = run(
        capsys,
        *("diff", "--family", "early-french", "--hands", "2", "--jobs", "1", "--format", "json"),
    )
    assert status == 0, err
    report = json.loads(out)
    assert report["unit"] == {"singular": "point", "plural": "points"}
    assert all(v["unit"] == report["unit"] for v in report["variants"])


# --- a hand: the transcript, the seat's screen, the rules page --------------------------------


def test_transcript_and_screen_name_the_unit(ducats: Path) -> None:
    ruleset = load_ruleset(ducats)
    states = play_game(ruleset, 3, lambda n: seat_agents(("random",), 3, n, 2), 20)
    text = "\n".join(hand_transcript(state) for state in states)
    paid = re.findall(r"^    pay: seat \d -> seat \d  (\S+ \S+)  ", text, re.M)
    assert paid and all(re.fullmatch(r"1 ducat|\d+ ducats", amount) for amount in paid), paid
    assert re.search(r"^Net \(ducats\): seat 0 ", text, re.M)
    assert not OTHER_UNITS.search(_without_card_points(text))
    assert totals_line(3, [2, -2], ruleset.unit.plural).startswith(
        "Totals after 3 hand(s), in ducats:"
    )
    assert payment_lines(ruleset, [Payment("top_won", 1, 0, 2, "trick 2")], 0) == [
        "Seat 1 pays 2 ducats to you: Top trump won [stake=small: book]"
    ]
    assert payment_lines(ruleset, [Payment("card_count", 0, 1, 1, "settlement")], 1) == [
        "Seat 0 pays 1 ducat to you: Card points"
    ]
    assert choice_label(ruleset, "pair_of_tops:two", {"two": 2}) == (
        "declare Two top trumps (two), worth 2 ducats"
    )


def test_rules_page_names_the_unit(ducats: Path, tmp_path: Path) -> None:
    page = explain_page(load_ruleset(ducats))
    rules = {rule.title: rule for section in page.sections for rule in section.rules}
    unit = rules["The unit of the results"]
    assert unit.lines == ["Results are counted in ducats (singular: ducat)."]
    assert unit.sources == ["book"]
    assert "Each of `[s in seats if points(s) < 6]` pays each of" in rules["Card points"].lines[1]
    assert rules["Card points"].lines[1].endswith("`1` ducat.")
    assert rules["Top trump won"].lines[-1].endswith("`prize` ducats.")
    assert any("worth `2` ducats" in line for line in rules["Two top trumps"].lines)
    text = render(page, "text")
    assert not OTHER_UNITS.search(_without_card_points(text)), text
    plain = explain_page(load_ruleset(tmp_path / "plain.yaml"))
    rules = {rule.title: rule for section in plain.sections for rule in section.rules}
    assert rules["The unit of the results"].lines == [
        "Results are counted in points (singular: point) (the ruleset names no `unit`: the"
        " default)."
    ]
    assert rules["The unit of the results"].sources == []
