"""`tarot study`: designs, their aliasing, and effects known by construction.

`tests/data/rulesets/study-known-effects.yaml` adds four options to Marolles whose payments,
all made by the dealer to each opponent at the cut, change no card played: the effect of
each on each place's result is exact (no interval at all around it), and an option read by
a rule that never pays has an effect of exactly zero.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from commands import ROOT, run_in_process

from tarot.measure.study.design import Design, make_design

# the slow tier (`python -m pytest -m slow`): study designs played out
pytestmark = pytest.mark.slow

KNOWN = str(ROOT / "tests" / "data" / "rulesets" / "study-known-effects.yaml")
OPTIONS = ("--options", "stake,idle,left,right")
HANDS = "12"


run = run_in_process


def study_json(capsys, *args: str) -> dict:
    status, out, _ = run(capsys, "study", KNOWN, *OPTIONS, "--format", "json", *args)
    assert status == 0
    return json.loads(out)


def by_effect(report: dict) -> dict[str, dict]:
    return {effect["effect"]: effect for effect in report["effects"]}


def dealer(effect: dict) -> dict:
    return effect["estimates"]["place.0"]


# --- effects known by construction --------------------------------------------------------------


def test_a_full_factorial_ranks_the_options_by_their_known_effects(capsys) -> None:
    report = study_json(capsys, "--hands", HANDS, "--jobs", "1")
    assert report["design"]["kind"] == "full"
    assert len(report["design"]["runs"]) == 16
    mains = [e for e in report["effects"] if e["main"]]
    assert [e["effect"] for e in mains] == ["stake", "left", "right", "idle"]
    # what the dealer pays, exactly, with nothing around it: no card changed
    assert [dealer(e)["mean"] for e in mains] == [-20.0, -12.0, -6.0, 0.0]
    assert [dealer(e)["ci95"] for e in mains[:3]] == [[-20.0, -20.0], [-12.0, -12.0], [-6, -6]]
    effects = by_effect(report)
    for place in ("place.1", "place.2"):
        assert effects["stake"]["estimates"][place]["mean"] == 10.0
    assert [e["verdict"] for e in mains] == [
        "changes results",
        "changes results",
        "changes results",
        "not noticed",
    ]
    # the option no rule pays on: every interval includes zero
    for key, estimate in effects["idle"]["estimates"].items():
        low, high = estimate["ci95"]
        assert low <= 0.0 <= high, key
    assert effects["stake"]["rule_moved_most"] == "rule.stake_paid"
    assert effects["idle"]["rule_moved_most"] is None


def test_the_interacting_pair_leads_the_interactions(capsys) -> None:
    report = study_json(capsys, "--hands", HANDS, "--jobs", "1")
    interactions = [e for e in report["effects"] if not e["main"]]
    assert len(interactions) == 6  # every pair of four, none confounded
    assert interactions[0]["effect"] == "left x right"
    assert dealer(interactions[0])["mean"] == -4.0  # half of the 8 the dealer pays for both
    assert interactions[0]["verdict"] == "changes results"
    for other in interactions[1:]:  # additive payments: no other interaction by place
        assert dealer(other)["mean"] == 0.0
        assert other["estimates"]["rule.left_paid"]["mean"] == 0.0


def test_the_text_report_ranks_and_names_what_nobody_would_notice(capsys) -> None:
    status, out, _ = run(capsys, "study", KNOWN, *OPTIONS, "--hands", HANDS, "--jobs", "1")
    assert status == 0
    lines = out.splitlines()
    start = next(
        i for i, line in enumerate(lines) if line.startswith("Main effects on the results")
    )
    ranked = [line.split()[0] for line in lines[start + 2 : start + 6]]
    assert ranked == ["stake", "left", "right", "idle"]
    assert "none: a full factorial estimates every effect on its own" in out
    assert "No player would notice" in out
    noticed = next(line for line in lines if line.strip().startswith("No player would notice"))
    assert noticed.endswith(": idle")


def test_a_fraction_estimates_the_same_main_effects_and_names_its_aliasing(capsys) -> None:
    report = study_json(capsys, "--hands", HANDS, "--jobs", "1", "--design", "fractional")
    assert report["design"]["kind"] == "fractional"
    assert len(report["design"]["runs"]) == 8
    confounded = report["design"]["confounded"]
    assert len(confounded) == 3
    assert "stake x idle = left x right" in confounded
    effects = by_effect(report)
    assert [dealer(effects[name])["mean"] for name in ("stake", "left", "right", "idle")] == [
        -20.0,
        -12.0,
        -6.0,
        0.0,
    ]
    # the pair's interaction is read in its group, which is named whole
    assert dealer(effects["stake x idle = left x right"])["mean"] == -4.0


def test_the_markdown_report_lists_the_aliasing_and_the_verdicts(capsys) -> None:
    status, out, _ = run(
        capsys, "study", KNOWN, *OPTIONS, "--hands", "4", "--jobs", "1", "--design",
        "fractional", "--format", "markdown",
    )  # fmt: skip
    assert status == 0
    assert "\n- [1] stake x idle = left x right\n" in out
    assert "| stake x idle [1] | -4.00 ± 0.00 |" in out
    assert "### Verdicts\n\n- Change results" in out


def test_levels_picks_the_reading_studied(capsys) -> None:
    report = study_json(capsys, "--hands", "3", "--jobs", "1", "--levels", "stake=high")
    assert report["factors"][0] == {"option": "stake", "low": "low", "high": "high", "left_out": []}


# --- the runner: jobs and the store -------------------------------------------------------------


def test_two_jobs_give_the_report_of_one(capsys) -> None:
    one = study_json(capsys, "--hands", "16", "--jobs", "1", "--design", "fractional")
    two = study_json(capsys, "--hands", "16", "--jobs", "2", "--design", "fractional")
    for report in (one, two):
        del report["run"]["jobs"]
    assert one == two


def test_a_second_study_reads_every_hand_from_the_store(capsys, tmp_path: Path) -> None:
    store = str(tmp_path / "study.sqlite")
    common = ("study", KNOWN, *OPTIONS, "--design", "fractional", "--jobs", "1")
    status, first, err = run(capsys, *common, "--hands", "10", "--store", store)
    assert status == 0
    assert "0 hand(s) read from it, 80 played and added" in err  # 8 runs x 10 hands
    status, second, err = run(capsys, *common, "--hands", "10", "--store", store)
    assert status == 0
    assert "80 hand(s) read from it, 0 played and added" in err
    assert second == first
    status, _, err = run(capsys, *common, "--hands", "12", "--store", store)
    assert "80 hand(s) read from it, 16 played and added" in err


# --- designs ------------------------------------------------------------------------------------


@pytest.mark.parametrize("factors", range(1, 17))
def test_every_design_keeps_main_effects_clear(factors: int) -> None:
    design = make_design("auto", factors)
    design.check_resolution()
    assert design.kind == ("full" if factors <= 4 else "fractional")
    assert len(design.runs) <= 32
    assert len(set(design.runs)) == len(design.runs)


def test_a_resolution_three_design_is_refused() -> None:
    runs = tuple((a, b, a * b) for a in (-1, 1) for b in (-1, 1))  # C = AB
    with pytest.raises(AssertionError, match="two-way interaction"):
        Design("fractional", runs).check_resolution()


def test_without_the_design_library_the_study_names_the_extra(capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pydoe", None)  # an import of it fails
    status, out, err = run(capsys, "study", KNOWN, *OPTIONS, "--hands", "2")
    assert status == 1
    assert "pip install 'tarot-rules[study]'" in err
    assert out == ""


# --- usage mistakes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--options", "stak"), "did you mean 'stake'?"),
        (("--options", "stake,stake"), "named twice"),
        (("--options", "stake", "--levels", "left=on"), "not among the options studied"),
        (("--options", "stake", "--levels", "stake=low"), "default reading"),
        (("--options", "stake", "--levels", "stake=middle"), "readings: low, high"),
        (("--levels", "stake"), "write NAME=READING"),
        (("--design", "half"), "invalid choice"),
    ],
)
def test_a_wrong_flag_is_a_usage_mistake(capsys, args: tuple[str, ...], words: str) -> None:
    status, out, err = run(capsys, "study", KNOWN, *args, "--hands", "2")
    assert status == 2
    assert words in err
    assert out == ""


def test_a_ruleset_with_options_to_study_by_default(capsys) -> None:
    status, out, err = run(capsys, "study", "marolles-1637", "--options", "deal_packets",
                           "--hands", "2", "--jobs", "1", "--format", "json")  # fmt: skip
    assert status == 0
    report = json.loads(out)
    assert [f["option"] for f in report["factors"]] == ["deal_packets"]
    assert report["design"]["runs"] == [{"deal_packets": "fives"}, {"deal_packets": "threes"}]
