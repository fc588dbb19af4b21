"""`tarot simulate`, `tarot diff --hands / --family` and `tarot play --hand N`, run in this
process through `tarot.cli.main` (and once as a real command).

Numbers printed are checked against hands replayed on their own with the engine, and rows
written to disk against the report of the same run.
"""

from __future__ import annotations

import csv
import json
import re
import statistics
import sys
from functools import cache
from pathlib import Path

import pytest
from commands import tarot
from hands import FOUR_PLAYERS

from tarot.cli import main
from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand, play_hand
from tarot.load import paths
from tarot.measure import driver
from tarot.players.lineup import seat_agents

# the slow tier (`python -m pytest -m slow`): simulations and diffs run from the command line
pytestmark = pytest.mark.slow

LITERAL = "marolles-1637-ultimo-literal"
RANDOM = ("random",)


def run(capsys, *args: str) -> tuple[int, str, str]:
    """`tarot ARGS` in this process: (exit status, stdout, stderr)."""
    try:
        status = main(list(args))
    except SystemExit as exit_:  # argparse refusing the command line
        status = exit_.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def refused(capsys, *args: str, status: int = 1) -> str:
    got, out, err = run(capsys, *args)
    assert got == status, (got, out, err)
    assert err.strip(), "refused without a message"
    return err


@cache
def loaded(target: str):
    return load_ruleset(target)


def replayed_net(target: str, seed: int, number: int) -> tuple:
    ruleset = loaded(target)
    state = deal_hand(ruleset, seed, number)
    play_hand(state, seat_agents(RANDOM, seed, number, ruleset.players))
    return tuple(state.returns())


@pytest.fixture(scope="module")
def four_players(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("four") / "four.yaml"
    path.write_text(FOUR_PLAYERS, encoding="utf-8")
    return str(path)


# --- tarot simulate -----------------------------------------------------------------------------


def test_simulate_prints_the_measures(capsys) -> None:
    status, out, err = run(capsys, "simulate", "marolles-1637", "--hands", "40", "--jobs", "1")
    assert status == 0, err
    assert out.startswith("marolles-1637: 40 hands, seed 1, random players, 1 job(s)")
    for seat in range(3):
        assert re.search(rf"^  {seat} +[+-]\d+\.\d\d ± \d+\.\d\d$", out, re.M), out
    for label in (
        "mean result, dealer + 2",
        "win rate, dealer",
        "balance (1 - widest win-rate gap)",
        "drawn hands",
        "legal choices per decision",
        "decided after",
        "Rules that fired",
        "tarot_kept",
    ):
        assert label in out


def test_simulate_json_agrees_with_the_hands_replayed(capsys) -> None:
    status, out, err = run(
        capsys,
        *("simulate", "marolles-1637", "--hands", "40", "--jobs", "1", "--format", "json"),
        *("--backend", "scalar"),  # compared with the scalar engine's hands
    )
    assert status == 0, err
    report = json.loads(out)
    assert report["ruleset"] == "marolles-1637"
    assert report["run"]["hands_asked"] == 40
    assert report["run"]["interrupted"] is False
    measures = report["measures"]
    assert measures["hands"] == 40
    nets = [replayed_net("marolles-1637", 1, number) for number in range(1, 41)]
    for seat in range(3):
        got = measures["by_seat"][seat]
        assert got["n"] == 40
        assert got["mean"] == pytest.approx(statistics.mean(net[seat] for net in nets))
    draws = sum(1 for net in nets if list(net).count(max(net)) > 1)
    assert measures["draws"] == pytest.approx(draws / 40)
    assert sum(measures["win_rate_by_place"]) + measures["draws"] == pytest.approx(1.0)


def test_simulate_option_plays_as_the_variant(capsys) -> None:
    common = ("--hands", "25", "--jobs", "1", "--format", "json")
    status, out, _ = run(
        capsys, "simulate", "marolles-1637", "--option", "ultimo_failure=literal", *common
    )
    assert status == 0
    with_option = json.loads(out)
    status, out, _ = run(capsys, "simulate", LITERAL, *common)
    assert status == 0
    variant = json.loads(out)
    assert with_option["run"]["options"] == {"ultimo_failure": "literal"}
    assert with_option["options"]["ultimo_failure"] == "literal"
    assert with_option["measures"] == variant["measures"]


def test_diff_with_an_option_names_the_reading_of_b(capsys) -> None:
    common = ("--hands", "6", "--jobs", "1")
    args = ("diff", "marolles-1637", "marolles-1637", "--option", "ultimo_failure=literal")
    status, out, _ = run(capsys, *args, *common)
    assert status == 0
    assert "A is marolles-1637, B is marolles-1637 [ultimo_failure=literal]." in out
    status, out, _ = run(capsys, *args, *common, "--format", "json")
    assert status == 0
    assert json.loads(out)["b_options"] == {"ultimo_failure": "literal"}


def test_simulate_jobs_do_not_change_the_result(capsys) -> None:
    common = ("simulate", "marolles-1637", "--hands", "24", "--format", "json", "--seed", "9")
    status, out, _ = run(capsys, *common, "--jobs", "1")
    assert status == 0
    alone = json.loads(out)
    status, out, _ = run(capsys, *common, "--jobs", "2")
    assert status == 0
    spread = json.loads(out)
    assert spread["run"]["jobs"] == 2
    assert spread["measures"] == alone["measures"]


def test_simulate_as_a_command() -> None:
    result = tarot("simulate", "marolles-1637", "--hands", "20", "--jobs", "1", "--seed", "2")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.startswith("marolles-1637: 20 hands, seed 2")


# --- rows on disk -------------------------------------------------------------------------------


def test_simulate_csv_rows_match_the_report(capsys, tmp_path: Path) -> None:
    rows_file = tmp_path / "hands.csv"
    status, out, err = run(
        capsys,
        "simulate",
        "marolles-1637",
        "--backend",
        "scalar",
        "--hands",
        "30",
        "--jobs",
        "1",
        "--format",
        "json",
        "--out",
        str(rows_file),
    )
    assert status == 0, err
    assert str(rows_file) in err
    measures = json.loads(out)["measures"]
    with rows_file.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 30
    assert {"ruleset", "hand", "dealer", "net_0", "net_1", "net_2"} <= set(rows[0])
    assert [int(row["hand"]) for row in rows] == list(range(1, 31))
    assert {row["ruleset"] for row in rows} == {"marolles-1637"}
    for seat in range(3):
        values = [float(row[f"net_{seat}"]) for row in rows]
        assert statistics.mean(values) == pytest.approx(measures["by_seat"][seat]["mean"])
    for number, row in enumerate(rows, start=1):
        net = tuple(float(row[f"net_{seat}"]) for seat in range(3))
        assert net == replayed_net("marolles-1637", 1, number)
    for rule, fired in measures["rules"].items():
        paid_in = sum(1 for row in rows if int(row[f"fired.{rule}"]) > 0)
        assert paid_in / 30 == pytest.approx(fired["hands"]), rule


def test_diff_jsonl_rows_one_per_hand_per_ruleset(capsys, tmp_path: Path) -> None:
    rows_file = tmp_path / "hands.jsonl"
    status, _, err = run(
        capsys,
        "diff",
        "marolles-1637",
        LITERAL,
        "--backend",
        "scalar",
        "--hands",
        "20",
        "--jobs",
        "1",
        "--out",
        str(rows_file),
    )
    assert status == 0, err
    rows = [json.loads(line) for line in rows_file.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 40
    assert [(row["ruleset"], row["hand"]) for row in rows] == [
        (ruleset, number) for number in range(1, 21) for ruleset in ("marolles-1637", LITERAL)
    ]
    for row in rows:
        net = (row["net_0"], row["net_1"], row["net_2"])
        assert net == replayed_net(row["ruleset"], 1, row["hand"])


def test_rows_of_rulesets_with_different_player_counts(
    capsys, tmp_path: Path, four_players: str
) -> None:
    rows_file = tmp_path / "hands.csv"
    status, _, err = run(
        capsys,
        "diff",
        "marolles-1637",
        four_players,
        "--hands",
        "5",
        "--jobs",
        "1",
        "--out",
        str(rows_file),
    )
    assert status == 0, err
    with rows_file.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 10
    assert all(row["net_3"] == "" for row in rows[0::2]), "three players: no seat 3"
    assert all(row["net_3"] != "" for row in rows[1::2])


def test_out_with_a_wrong_extension_is_refused(capsys, tmp_path: Path) -> None:
    target = tmp_path / "x.txt"
    err = refused(
        capsys, "simulate", "marolles-1637", "--hands", "5", "--jobs", "1", "--out", str(target)
    )
    assert str(target) in err
    assert not target.exists()
    err = refused(capsys, "diff", "marolles-1637", LITERAL, "--hands", "5", "--out", str(target))
    assert str(target) in err


def test_out_in_a_missing_folder_is_refused(capsys, tmp_path: Path) -> None:
    target = tmp_path / "no such folder" / "x.csv"
    err = refused(capsys, "simulate", "marolles-1637", "--hands", "5", "--out", str(target))
    assert str(target) in err


# --- pictures -----------------------------------------------------------------------------------


def test_simulate_plot_png(capsys, tmp_path: Path) -> None:
    picture = tmp_path / "p.png"
    status, _, err = run(
        capsys, "simulate", "marolles-1637", "--hands", "20", "--jobs", "1", "--plot", str(picture)
    )
    assert status == 0, err
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_diff_plot_svg(capsys, tmp_path: Path) -> None:
    picture = tmp_path / "p.svg"
    status, _, err = run(
        capsys,
        "diff",
        "marolles-1637",
        LITERAL,
        "--hands",
        "20",
        "--jobs",
        "1",
        "--plot",
        str(picture),
    )
    assert status == 0, err
    text = picture.read_text(encoding="utf-8")
    assert "<svg" in text and text.rstrip().endswith("</svg>")


def test_plot_with_a_wrong_extension_is_refused(capsys, tmp_path: Path) -> None:
    target = tmp_path / "p.gif"
    err = refused(capsys, "simulate", "marolles-1637", "--hands", "5", "--plot", str(target))
    assert str(target) in err


def test_plot_without_matplotlib_is_refused_before_the_run(
    capsys, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    picture = tmp_path / "p.png"
    status, out, err = run(
        capsys, "simulate", "marolles-1637", "--hands", "5", "--jobs", "1", "--plot", str(picture)
    )
    assert status == 1
    assert "[plot]" in err
    assert out == "", "refused before playing"
    assert not picture.exists()
    status, _, err = run(
        capsys, "diff", "marolles-1637", LITERAL, "--hands", "5", "--plot", str(picture)
    )
    assert status == 1
    assert "[plot]" in err


# --- tarot diff A B --hands N -------------------------------------------------------------------


def test_diff_a_ruleset_with_itself_at_the_table(capsys) -> None:
    status, out, err = run(
        capsys,
        "diff",
        "marolles-1637",
        "marolles-1637",
        "--hands",
        "60",
        "--jobs",
        "1",
        "--format",
        "json",
    )
    assert status == 0, err
    report = json.loads(out)
    assert report["paper"]["options"] == [] and report["paper"]["rules"] == []
    table = report["table"]
    assert table["paired"] is True
    assert table["hands"] == 60
    assert len(table["difference_by_seat"]) == 3
    for seat in table["difference_by_seat"]:
        assert seat["mean"] == 0
        assert seat["ci95"] == [0, 0]
    assert table["differing_share"] == 0
    assert table["mean_abs_difference"]["mean"] == 0
    assert table["most_different"] == []


def test_diff_a_ruleset_with_itself_shows_zero_on_every_line(capsys) -> None:
    status, out, err = run(
        capsys, "diff", "marolles-1637", "marolles-1637", "--hands", "20", "--jobs", "1"
    )
    assert status == 0, err
    table = out.partition("At the table")[2]
    assert "Hands whose result differs: 0.0% (0 of 20)" in table
    sections = re.split(r"^(\S.*):$", table, flags=re.M)
    titled = dict(zip(sections[1::2], sections[2::2], strict=True))
    compared = 0
    summary = " ".join(titled.pop("Summary").split())
    assert "No clear effect: every 95% interval includes zero." in summary
    assert "every place's net result per hand has a B - A interval that includes zero" in summary
    assert "fired and paid the same in every hand under both" in summary
    names = titled.pop("Rule names")
    for title, body in titled.items():
        header, *lines = [line for line in body.splitlines() if line.startswith("  ")]
        assert lines, title
        for line in lines:
            if title.startswith(("Net result", "By place")):
                assert header.rstrip().endswith("B - A (paired)"), header
                assert line.endswith("+0.00 ± 0.00"), line
            elif title.startswith("Rules paid"):
                assert re.search(r"  \+0\.00 ± 0\.00  ", line), line
                assert f"  {line.split()[0]}: " in names or ":" not in line.split()[0], line
            elif title.startswith("Rules fired"):
                assert line.endswith("  +0.0 pp ± 0.0"), line
            else:
                assert header.rstrip().endswith("B - A"), header
                assert re.search(r"  \+0\.0+( pp)?$", line), line
            compared += 1
    assert compared >= 3 + 3 + 14, "seats, places, measures and rules all compared"
    assert max(len(line) for line in table.splitlines()) <= 100, "the tables fit 100 columns"


def test_diff_ultimo_literal_text(capsys) -> None:
    status, out, err = run(
        capsys, "diff", "marolles-1637", LITERAL, "--hands", "100", "--jobs", "1"
    )
    assert status == 0, err
    paper, _, table = out.partition("At the table")
    assert table, "the table part follows the paper part"
    assert "ultimo_failure" in paper
    assert "mcleod" in paper
    size = re.search(r"mean \|B - A\| per seat and hand \(marques\): (\d+\.\d+)", table)
    assert size, table
    assert float(size.group(1)) > 0
    differing = re.search(r"Hands whose result differs: [\d.]+% \((\d+) of 100\)", table)
    assert differing and int(differing.group(1)) > 0, table
    assert f"tarot play {LITERAL} --seed 1 --hand " in table
    summary = " ".join(table.partition("Summary:")[2].partition("Net result")[0].split())
    first = summary.partition("largest first: - ")[2]
    assert first.startswith("Ultimo lost: paid 0."), summary  # 1 marque where it cost 6
    assert "No place at the table gains or loses clearly" in summary


def test_diff_summary_in_json_and_markdown(capsys) -> None:
    common = ("diff", "marolles-1637", LITERAL, "--hands", "100", "--jobs", "1")
    status, out, err = run(capsys, *common, "--format", "json")
    assert status == 0, err
    summary = json.loads(out)["summary"]
    effects = summary["effects"]
    assert effects[0]["key"] == "rule.ultimo_lost"
    for effect in effects:
        low, high = effect["difference"]["ci95"]
        assert low > 0 or high < 0, effect  # only intervals that exclude zero
        assert effect["b"] - effect["a"] == pytest.approx(effect["difference"]["mean"], abs=1e-9)
    sizes = [abs(e["difference"]["mean"]) for e in effects if e["unit"] == "marques"]
    assert sizes == sorted(sizes, reverse=True), "ranked, the largest first"
    status, out, err = run(capsys, *common, "--format", "markdown")
    assert status == 0, err
    assert "### Summary" in out
    assert f"- {effects[0]['words']}" in out


def test_diff_most_different_hands_replay(capsys) -> None:
    status, out, err = run(
        capsys,
        "diff",
        "marolles-1637",
        LITERAL,
        "--backend",
        "scalar",
        "--hands",
        "100",
        "--jobs",
        "1",
        "--seed",
        "4",
        "--format",
        "json",
    )
    assert status == 0, err
    table = json.loads(out)["table"]
    assert table["most_different"], "some hand of 100 has a failed Ultimo"
    sizes = [hand["size"] for hand in table["most_different"]]
    assert sizes == sorted(sizes, reverse=True)
    for hand in table["most_different"]:
        net_a = replayed_net("marolles-1637", 4, hand["hand"])
        net_b = replayed_net(LITERAL, 4, hand["hand"])
        assert tuple(hand["net_a"]) == net_a
        assert tuple(hand["net_b"]) == net_b
        assert hand["size"] == sum(abs(b - a) for a, b in zip(net_a, net_b, strict=True))


def test_diff_unpaired_rulesets(capsys, four_players: str) -> None:
    status, out, err = run(
        capsys,
        "diff",
        "marolles-1637",
        four_players,
        "--hands",
        "10",
        "--jobs",
        "1",
        "--format",
        "json",
    )
    assert status == 0, err
    table = json.loads(out)["table"]
    assert table["paired"] is False
    assert table["differing_share"] is None
    assert len(table["b"]["by_place"]) == 4


@pytest.mark.parametrize("order", ["three first", "four first"])
def test_diff_text_shows_every_place_of_both_rulesets(capsys, four_players: str, order) -> None:
    """Whichever side has more players, its extra place gets a row in the game measures."""
    pair = ("marolles-1637", four_players)
    if order == "four first":
        pair = pair[::-1]
    status, out, err = run(capsys, "diff", *pair, "--hands", "10", "--jobs", "1")
    assert status == 0, err
    assert "UNPAIRED" in out
    assert re.search(r"^  3 ", out, re.M), "seat 3 of the four-player ruleset"
    assert "mean result, dealer + 3" in out
    assert "win rate, dealer + 3" in out


# --- tarot diff --family ------------------------------------------------------------------------


def test_diff_family_json_lists_every_variant_by_size(capsys) -> None:
    status, out, err = run(
        capsys,
        "diff",
        "--family",
        "marolles-1637",
        "--hands",
        "20",
        "--jobs",
        "1",
        "--format",
        "json",
    )
    assert status == 0, err
    report = json.loads(out)
    assert report["base"] == "marolles-1637"
    names = paths.builtin_variants("marolles-1637")
    assert len(names) >= 10
    variants = report["variants"]
    assert sorted(v["variant"] for v in variants) == sorted(names)
    paired = [v for v in variants if v["table"]["paired"]]
    unpaired = [v for v in variants if not v["table"]["paired"]]
    assert variants == paired + unpaired  # rulesets on another pack or table come last
    sizes = [v["table"]["mean_abs_difference"]["mean"] for v in paired]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[0] > 0
    for line in variants:
        assert line["table"]["hands"] == 20
    one_option = [v for v in paired if len(v["changed"]) == 1]
    assert len(one_option) >= 10
    for line in one_option:
        option = line["changed"][0].split(":")[0]
        text = paths.find_builtin(line["variant"]).read_text(encoding="utf-8")
        assert f"{option}:" in text, "the change named is the option the variant's file sets"
    literal = next(v for v in variants if v["variant"] == LITERAL)
    assert literal["changed"] == ["ultimo_failure: mcleod -> literal"]


def test_diff_family_text(capsys) -> None:
    status, out, err = run(
        capsys, "diff", "--family", "marolles-1637", "--hands", "4", "--jobs", "1"
    )
    assert status == 0, err
    assert out.startswith("Family of marolles-1637")
    for name in paths.builtin_variants("marolles-1637"):
        assert re.search(rf"^  {re.escape(name)} ", out, re.M), name


def test_diff_family_without_variants_is_the_readings_of_its_options(capsys) -> None:
    status, out, err = run(
        capsys, "diff", "--family", "minchiate", "--hands", "10", "--jobs", "1", "--format", "json"
    )
    assert status == 0, err
    report = json.loads(out)
    assert report["base"] == "minchiate"
    ruleset = load_ruleset("minchiate")
    expected = {
        f"{option}={reading}"
        for option, readings in ruleset.option_readings().items()
        for reading in readings
        if reading != ruleset.options[option]
    }
    assert len(expected) >= 2
    assert {line["variant"] for line in report["variants"]} == expected
    for line in report["variants"]:
        option, reading = line["variant"].split("=")
        assert line["changed"] == [f"{option}: {ruleset.options[option]} -> {reading}"]
        assert line["table"]["hands"] == 10


@pytest.mark.parametrize(
    ("base", "columns"),
    [("french-tarot", ["made B - A", "taker B - A"]), ("minchiate", ["dealer's side B - A"])],
)
def test_diff_family_table_reads_as_the_game_shape(capsys, base: str, columns: list) -> None:
    """A taker against defenders: contracts made and the taker's result; partners without an
    auction: the dealer's side's wins; each a B - A of the means, in the family's table."""
    status, out, err = run(capsys, "diff", "--family", base, "--hands", "60", "--jobs", "1")
    assert status == 0, err
    header = next(line for line in out.splitlines() if "differing  mean |B - A|" in line)
    for column in columns:
        assert column in header
    others = {"made B - A", "taker B - A", "dealer's side B - A"} - set(columns)
    assert not any(column in header for column in others)
    report = json.loads(
        run(capsys, "diff", "--family", base, "--hands", "60", "--jobs", "1", "--format", "json")[1]
    )
    first = report["variants"][0]
    row = next(line for line in out.splitlines() if line.startswith(f"  {first['variant']} "))
    if base == "french-tarot":
        made = [first["table"][side]["auction"]["made"]["rate"] for side in ("a", "b")]
        assert f"{100 * (made[1] - made[0]):+.1f} pp" in row
    else:
        wins = [first["table"][side]["dealer_side_wins"]["rate"] for side in ("a", "b")]
        assert f"{100 * (wins[1] - wins[0]):+.1f} pp" in row


def test_diff_family_of_a_ruleset_with_neither_variants_nor_options(capsys) -> None:
    lone = str(Path(__file__).parent / "data" / "rulesets" / "announcement-reopen.yaml")
    assert not load_ruleset(lone).option_readings()
    message = refused(capsys, "diff", "--family", lone, "--hands", "2", status=2)
    assert "no ruleset extends" in message and "no option with another reading" in message


def test_diff_every_reading_of_one_option(capsys) -> None:
    common = ("diff", "marolles-1637", "--option", "illegal_discard", "--hands", "12")
    status, out, err = run(capsys, *common, "--jobs", "1", "--format", "json")
    assert status == 0, err
    report = json.loads(out)
    assert report["base"] == "marolles-1637"
    lines = {line["variant"]: line for line in report["variants"]}
    assert set(lines) == {"per_discard", "forbidden"}, "every reading but the one in force"
    for reading, line in lines.items():
        assert line["changed"] == [f"illegal_discard: per_card -> {reading}"]
        assert line["table"]["hands"] == 12
    # each reading's hands are those of the ruleset loaded with that reading
    status, out, err = run(
        capsys,
        *("diff", "marolles-1637", "marolles-1637", "--option", "illegal_discard=forbidden"),
        *("--hands", "12", "--jobs", "1", "--format", "json"),
    )
    assert status == 0, err
    assert json.loads(out)["table"] == lines["forbidden"]["table"]
    status, out, err = run(capsys, *common, "--jobs", "1")
    assert status == 0, err
    assert out.startswith("Readings of illegal_discard in marolles-1637: each against per_card")
    assert re.search(r"^  forbidden  +100\.0%", out, re.M), out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_diff_every_reading_refusals(capsys) -> None:
    err = refused(capsys, "diff", "marolles-1637", "--option", "ultimo_falure", status=2)
    assert "did you mean 'ultimo_failure'?" in err
    err = refused(
        capsys, "diff", "marolles-1637", "--option", "ultimo_failure", "--option", "x", status=2
    )
    assert "name one" in err


def test_diff_family_refusals(capsys, tmp_path: Path) -> None:
    err = refused(capsys, "diff", "--family", "nonexistent", "--hands", "5", status=2)
    assert "nonexistent" in err
    refused(capsys, "diff", "marolles-1637", LITERAL, "--family", "marolles-1637", status=2)
    err = refused(
        capsys,
        "diff",
        "--family",
        "marolles-1637",
        "--hands",
        "5",
        "--plot",
        str(tmp_path / "p.png"),
        status=2,
    )
    assert "--plot" in err


# --- wrong command lines ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "marolles-1637", "--hands", "0"),
        ("simulate", "marolles-1637", "--hands", "5", "--jobs", "0"),
        ("diff", "marolles-1637", LITERAL, "--hands", "0"),
        ("diff", "marolles-1637", LITERAL, "--hands", "5", "--jobs", "0"),
        ("diff", "--family", "marolles-1637", "--hands", "-3"),
        ("play", "marolles-1637", "--hand", "0"),
    ],
)
def test_counts_below_one_exit_2(capsys, args) -> None:
    err = refused(capsys, *args, status=2)
    assert "at least 1" in err


def test_diff_needs_two_rulesets(capsys) -> None:
    err = refused(capsys, "diff", "marolles-1637", status=2)
    assert "two rulesets" in err
    err = refused(capsys, "diff", "marolles-1637", "--hands", "5", status=2)
    assert "two rulesets" in err


def test_out_and_plot_need_hands(capsys, tmp_path: Path) -> None:
    err = refused(
        capsys, "diff", "marolles-1637", LITERAL, "--out", str(tmp_path / "x.csv"), status=2
    )
    assert "--hands" in err


def test_simulate_an_unknown_ruleset(capsys) -> None:
    err = refused(capsys, "simulate", "no-such-ruleset", "--hands", "5", status=2)
    assert "no-such-ruleset" in err


# --- tarot play --hand N ------------------------------------------------------------------------


def test_play_hand_n_reproduces_hand_n_of_a_game(capsys, tmp_path: Path) -> None:
    game_file, hand_file = tmp_path / "game.json", tmp_path / "hand.json"
    status, _, err = run(
        capsys,
        "play",
        "marolles-1637",
        "--seed",
        "6",
        "--hands",
        "4",
        "--quiet",
        "--record",
        str(game_file),
    )
    assert status == 0, err
    status, _, err = run(
        capsys,
        "play",
        "marolles-1637",
        "--seed",
        "6",
        "--hand",
        "3",
        "--quiet",
        "--record",
        str(hand_file),
    )
    assert status == 0, err
    game = json.loads(game_file.read_text(encoding="utf-8"))
    alone = json.loads(hand_file.read_text(encoding="utf-8"))
    assert [hand["number"] for hand in game["hands"]] == [1, 2, 3, 4]
    assert len(alone["hands"]) == 1
    assert alone["hands"][0] == game["hands"][2]
    assert alone["hands"][0]["dealer"] == 2, "the deal moves round: hand 3 is dealt by seat 2"
    assert alone["totals"] == game["hands"][2]["net"]
    assert tuple(alone["totals"]) == replayed_net("marolles-1637", 6, 3)


# --- Ctrl-C -------------------------------------------------------------------------------------


def interrupt_after(monkeypatch, hands: int) -> None:
    """Make the run stop as Ctrl-C would, once `hands` hands have finished."""
    real = driver.run_chunks

    def stopping(plan, rulesets, jobs=1, store=None, start="spawn"):
        done = 0
        for chunk in real(plan, rulesets, jobs, store, start):
            for results in chunk:  # handed on a hand at a time, to stop between two
                if done == hands:
                    raise KeyboardInterrupt
                done += 1
                yield [results]

    monkeypatch.setattr(driver, "run_chunks", stopping)


def test_interrupted_simulate_keeps_what_finished(capsys, tmp_path: Path, monkeypatch) -> None:
    interrupt_after(monkeypatch, 7)
    rows_file = tmp_path / "hands.csv"
    common = ("simulate", "marolles-1637", "--hands", "50", "--jobs", "1", "--backend", "scalar")
    status, out, err = run(capsys, *common, "--out", str(rows_file))
    assert status == 130
    assert out.startswith("marolles-1637: 7 of 50 hands (interrupted)")
    assert "interrupted" in err
    with rows_file.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(row["hand"]) for row in rows] == list(range(1, 8))

    status, out, _ = run(capsys, *common, "--format", "json")
    assert status == 130
    report = json.loads(out)
    assert report["run"]["interrupted"] is True
    assert report["run"]["hands_asked"] == 50
    assert report["measures"]["hands"] == 7
    nets = [replayed_net("marolles-1637", 1, number) for number in range(1, 8)]
    assert report["measures"]["by_seat"][0]["mean"] == pytest.approx(
        statistics.mean(net[0] for net in nets)
    )


def test_interrupted_diff_keeps_what_finished(capsys, tmp_path: Path, monkeypatch) -> None:
    interrupt_after(monkeypatch, 4)
    rows_file = tmp_path / "hands.jsonl"
    status, out, _ = run(
        capsys,
        "diff",
        "marolles-1637",
        LITERAL,
        "--hands",
        "50",
        "--jobs",
        "1",
        "--format",
        "json",
        "--out",
        str(rows_file),
    )
    assert status == 130
    report = json.loads(out)
    assert report["run"]["interrupted"] is True
    assert report["table"]["hands"] == 4
    assert len(rows_file.read_text(encoding="utf-8").splitlines()) == 8


def test_interrupted_before_any_hand(capsys, tmp_path: Path, monkeypatch) -> None:
    interrupt_after(monkeypatch, 0)
    rows_file = tmp_path / "hands.csv"
    status, out, err = run(
        capsys, "simulate", "marolles-1637", "--hands", "50", "--jobs", "1", "--out", str(rows_file)
    )
    assert status == 130
    assert out == ""
    assert "interrupted" in err
    with rows_file.open(newline="", encoding="utf-8") as handle:
        assert list(csv.DictReader(handle)) == []


def test_out_json_is_refused_with_the_name_to_use(capsys, tmp_path: Path) -> None:
    target = tmp_path / "rows.json"
    err = refused(capsys, "simulate", "marolles-1637", "--hands", "5", "--out", str(target))
    assert ".jsonl" in err
    assert not target.exists()


def test_plot_in_a_missing_folder_is_refused_before_the_run(
    capsys, tmp_path: Path, monkeypatch
) -> None:
    def no_run(*_args, **_kwargs):
        raise AssertionError("the run started before the picture's folder was checked")

    monkeypatch.setattr(driver, "run_chunks", no_run)
    target = tmp_path / "no such folder" / "p.png"
    err = refused(capsys, "simulate", "marolles-1637", "--hands", "5", "--plot", str(target))
    assert "no such folder" in err


def test_play_refuses_hand_together_with_hands(capsys) -> None:
    refused(capsys, "play", "marolles-1637", "--hand", "3", "--hands", "4", status=2)
