"""Measures that fit the game (tarot.measure): intervals that fit the quantity, the
auction's measures, what each rule paid, whole games, and the diff's picture.

Expected values come from elsewhere: printed tables, coverage by simulation, a ruleset whose
results are known by construction, hands replayed through the engine.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from dataclasses import replace
from pathlib import Path

import pytest

from tarot.cli import main
from tarot.compile.loader import load_ruleset
from tarot.core.summary import HandSummary
from tarot.engine.game import deal_hand, play_game, play_hand
from tarot.measure.comparison import Comparison
from tarot.measure.games import GameMeasures, game_seed, play_game_summarized
from tarot.measure.in_words import rule_name
from tarot.measure.measures import RulesetMeasures
from tarot.measure.plot import difference_rows
from tarot.measure.report import _rule_gap_rows
from tarot.measure.runner import RulesetSpec, RunPlan, run_hands
from tarot.measure.shape import GameShape
from tarot.measure.statistics import Z95, KeyedMeans, RunningMean, t95, wilson
from tarot.players.lineup import seat_agents

LITERAL = "marolles-1637-ultimo-literal"
DATA = Path(__file__).parent / "data" / "rulesets"

# French Tarot cut down to one contract that the taker always wins, by ten from each of the
# three defenders: every hand taken is at that contract, made, +30 to the taker.
ONE_CONTRACT = """\
extends: french-tarot
title: One contract, always won by ten from each defender
redeal:
  - {id: le_petit, remove: true}
  - {id: petit_sec, remove: true}
bidding:
  contracts:
    - {id: petite, remove: true}
    - {id: garde, remove: true}
    - {id: garde_sans, remove: true}
    - {id: garde_contre, remove: true}
    - id: only
      name: The only contract
      values: {multiplier: 1}
      talon: {to: hand, seat: taker, shown: true}
      source: tarot_003
      assumption: A contract written for a test.
declarations:
  table:
    - {id: chelem, remove: true}
    - {id: poignee, remove: true}
settlement:
  - {id: contract, remove: true}
  - id: fixed
    name: Ten from each defender
    from: defenders
    to: taker
    amount: "10"
    source: tarot_003
    assumption: A payment written for a test.
"""


@pytest.fixture(scope="module")
def one_contract(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("one") / "one-contract.yaml"
    path.write_text(ONE_CONTRACT, encoding="utf-8")
    return path


def run(capsys, *args: str) -> tuple[int, str, str]:
    """`tarot ARGS` in this process, on one job: (exit status, stdout, stderr)."""
    status = main([*args, "--jobs", "1"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


# --- intervals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("df", "printed"),
    [(1, 12.7062), (2, 4.3027), (4, 2.7764), (9, 2.2622), (29, 2.0452), (120, 1.9799)],
)
def test_t_quantile_matches_the_printed_table(df: int, printed: float) -> None:
    assert t95(df) == pytest.approx(printed, abs=5e-5)


def _coverage(interval, draws: int = 3000) -> float:
    rng = random.Random(15)
    hits = 0
    for _ in range(draws):
        low, high = interval(rng)
        hits += low <= 0.0 <= high
    return hits / draws


def test_t_interval_of_five_values_covers_the_mean_as_often_as_it_says() -> None:
    def sample(rng: random.Random) -> RunningMean:
        running = RunningMean()
        for _ in range(5):
            running.add(rng.gauss(0.0, 3.0))
        return running

    def t_interval(rng: random.Random) -> tuple[float, float]:
        e = sample(rng).estimate()
        return e.low, e.high

    def normal_interval(rng: random.Random) -> tuple[float, float]:
        running = sample(rng)
        half = Z95 * running.standard_error()
        return running.mean - half, running.mean + half

    assert 0.935 <= _coverage(t_interval) <= 0.965
    assert _coverage(normal_interval) < 0.9, "the normal interval is too short for five values"


def test_wilson_matches_published_values() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(3, 0) is None


def test_wilson_covers_a_rare_rate_as_often_as_it_says() -> None:
    rate, trials = 0.03, 60

    def interval(rng: random.Random, wald: bool = False) -> tuple[float, float]:
        hits = sum(rng.random() < rate for _ in range(trials))
        if wald:
            share = hits / trials
            half = Z95 * math.sqrt(share * (1 - share) / trials)
            return share - half - rate, share + half - rate
        found = wilson(hits, trials)
        assert found is not None
        return found[0] - rate, found[1] - rate

    assert 0.92 <= _coverage(interval) <= 0.99
    assert _coverage(lambda rng: interval(rng, wald=True)) < 0.85, "the normal one falls short"


def test_keyed_means_count_a_late_quantity_as_zero_before_it_appeared() -> None:
    keyed = KeyedMeans()
    rows = [{}, {"a": 2.0}, {"a": 4.0, "b": 6.0}, {}]
    for row in rows:
        keyed.add(row)
    assert keyed.mean("a") == pytest.approx(statistics.mean([0, 2, 4, 0]))
    assert keyed.mean("b") == pytest.approx(statistics.mean([0, 0, 6, 0]))
    assert keyed.estimate("b").count == 4
    half = keyed.estimate("a").half_width
    assert half == pytest.approx(t95(3) * statistics.stdev([0, 2, 4, 0]) / 2)
    assert keyed.histogram("b") == {0.0: 3, 6.0: 1}
    assert keyed.histogram("never") == {0.0: 4}


# --- the auction --------------------------------------------------------------------------------


def _hand(number: int, net, dealer: int = 0, **fields) -> HandSummary:
    return HandSummary(number, dealer, tuple(net), 10, 20, None, None, 0, **fields)


def test_taker_measures_by_contract() -> None:
    measures = RulesetMeasures(GameShape(3, ("low", "high")))
    measures.add(_hand(1, (4, -2, -2), 0, taker=0, contract="low", paid={"c": 4}))
    measures.add(_hand(2, (-3, 6, -3), 1, taker=0, contract="low", paid={"c": 6}))
    measures.add(_hand(3, (5, 5, -10), 2, taker=2, contract="high", paid={"c": 10}))
    measures.add(_hand(4, (0, 0, 0), 0, fired={"thrown_in:all_passed": 1}))
    auction = measures.report()["auction"]
    assert auction["taken"]["hits"] == 3 and auction["taken"]["n"] == 4
    low, high = auction["contracts"]["low"], auction["contracts"]["high"]
    assert (low["bid"]["hits"], low["made"]["hits"], low["made"]["n"]) == (2, 1, 2)
    assert low["taker"]["mean"] == pytest.approx((4 + -3) / 2)
    assert (high["bid"]["hits"], high["made"]["hits"]) == (1, 0)
    assert auction["taker"]["mean"] == pytest.approx((4 - 3 - 10) / 3)
    assert auction["defence"]["mean"] == pytest.approx((-2 + 1.5 + 5) / 3)
    # seat 0 took as dealer and as dealer + 2 (dealer 1); seat 2 as the dealer
    assert [r["hits"] for r in auction["takes_by_place"]] == [2, 0, 1]
    rules = measures.report()["rules"]
    assert rules["c"]["paid"]["mean"] == pytest.approx(20 / 4)
    assert rules["c"]["share_of_swing"] == pytest.approx(1.0)


def test_a_game_without_auction_reports_none() -> None:
    measures = RulesetMeasures(GameShape(3))
    measures.add(_hand(1, (1, 0, -1), taker=None))
    assert measures.report()["auction"] is None


def test_the_dealers_side_share_of_the_wins_counts_only_hands_won() -> None:
    def won(number: int, net, dealer: int, winners: tuple[int, ...]) -> HandSummary:
        return replace(_hand(number, net, dealer), winner=winners[0], winners=winners)

    measures = RulesetMeasures(GameShape(4, partners=True))
    measures.add(won(1, (5, -5, 5, -5), 0, (0, 2)))  # the dealer's side won
    measures.add(won(2, (5, -5, 5, -5), 1, (0, 2)))  # the other side won
    measures.add(_hand(3, (0, 0, 0, 0), 2))  # drawn: not counted
    measures.add(won(4, (-3, 3, -3, 3), 3, (1, 3)))  # the dealer's side won
    report = measures.report()
    assert report["dealer_side_wins"]["hits"] == 2 and report["dealer_side_wins"]["n"] == 3
    assert report["draws"] == 0.25
    assert report["shape"]["partners"] is True


def test_a_partnership_game_without_auction_is_reported_by_sides(capsys) -> None:
    partners = str(DATA / "partners-trump-order.yaml")
    assert GameShape.of(load_ruleset(partners)).partners
    assert not GameShape.of(load_ruleset("marolles-1637")).partners
    assert not GameShape.of(load_ruleset("french-tarot")).partners  # sides from the auction
    status, out, err = run(capsys, "simulate", partners, "--hands", "12")
    assert status == 0, err
    assert "Game measures (partners, a side winning a hand as one" in out
    assert "hands won by the dealer's side (of those won)" in out
    status, out, err = run(capsys, "simulate", "marolles-1637", "--hands", "6")
    assert status == 0, err
    assert "Game measures (each for himself)" in out and "dealer's side" not in out


def test_one_contract_always_won_gives_the_rates_it_was_built_for(capsys, one_contract) -> None:
    hands = 60
    status, out, err = run(
        capsys,
        "simulate",
        str(one_contract),
        "--hands",
        str(hands),
        "--format",
        "json",
        "--backend",
        "scalar",
    )
    assert status == 0, err
    measures = json.loads(out)["measures"]
    ruleset = load_ruleset(one_contract)
    passed = 0
    for number in range(1, hands + 1):  # the hands nobody took, counted on the scalar engine
        state = deal_hand(ruleset, 1, number)
        play_hand(state, seat_agents(("random",), 1, number, ruleset.players))
        passed += state.auction.taker is None
    assert 0 < passed < hands, "random bidders sometimes all pass"
    auction = measures["auction"]
    only = auction["contracts"]["only"]
    assert list(auction["contracts"]) == ["only"]
    assert only["bid"]["hits"] == auction["taken"]["hits"] == hands - passed
    assert only["made"]["rate"] == 1.0
    assert only["taker"]["mean"] == 30 and only["taker"]["ci95"] == [30, 30]
    assert auction["defence"]["mean"] == -10
    fixed = measures["rules"]["fixed"]
    assert fixed["paid"]["mean"] == pytest.approx(30 * (hands - passed) / hands)
    assert fixed["share_of_swing"] == 1.0
    assert measures["shape"]["taker_against_defenders"] is True


def test_the_french_tarot_report_shows_the_auction_not_winners(capsys) -> None:
    status, out, err = run(capsys, "simulate", "french-tarot", "--hands", "30")
    assert status == 0, err
    for label in ("The auction by contract", "garde_contre", "contracts made", "a defender's"):
        assert label in out
    for label in ("drawn hands", "decided after", "lead changes", "win rate"):
        assert label not in out, label


# --- what each rule paid, in a diff -------------------------------------------------------------


def test_the_changed_rule_shows_what_it_really_paid(capsys) -> None:
    """The Ultimo reading changes what a failed Ultimo pays, not how often it fires: the
    diff shows the paired difference of the amounts, checked on the hands replayed."""
    hands, seed = 120, 1
    a, b = load_ruleset("marolles-1637"), load_ruleset(LITERAL)
    plan = RunPlan((RulesetSpec("marolles-1637"), RulesetSpec(LITERAL)), seed, hands)
    comparison = Comparison(a, b)
    gaps = []
    for under_a, under_b in run_hands(plan, [a, b]):
        comparison.add(under_a, under_b)
        paid = []
        for ruleset in (a, b):
            state = deal_hand(ruleset, seed, under_a.number)
            play_hand(state, seat_agents(("random",), seed, under_a.number, 3))
            paid.append(sum(p.amount for p in state.payments if p.rule == "ultimo_lost"))
        gaps.append(paid[1] - paid[0])
    gap = comparison.report()["rule_differences"]["ultimo_lost"]
    assert gap["mean"] == pytest.approx(statistics.mean(gaps))
    # random players play the same cards under both: a failed Ultimo fires in the same hands
    assert comparison.report()["fired_differences"]["ultimo_lost"] == {
        "mean": 0.0,
        "ci95": [0.0, 0.0],
        "n": hands,
    }
    assert gap["ci95"][1] < 0, "the literal reading pays a failed Ultimo less, surely"
    assert comparison.report()["rule_differences"]["tarot_kept"]["mean"] == 0
    rows = difference_rows(comparison, lambda rule: rule_name([a, b], rule))
    # only what changed, by its name: the seats whose interval excludes zero, then the rule
    clear = [
        f"Seat {seat}"
        for seat, e in enumerate(comparison.seat_differences())
        if e["ci95"][0] > 0 or e["ci95"][1] < 0
    ]
    assert len(clear) < 3
    assert [row.title for row in rows] == [*clear, "Ultimo lost"]
    assert sum(rows[-1].gap.values()) == hands
    # a comparison of a ruleset with itself changes nothing: the picture shows every seat
    same = Comparison(a, a)
    for under_a, _ in run_hands(plan, [a, b]):
        same.add(under_a, under_a)
    assert [row.title for row in difference_rows(same)] == ["Seat 0", "Seat 1", "Seat 2"]


@pytest.mark.slow
def test_diff_markdown_shows_the_picture_in_place(capsys, tmp_path: Path) -> None:
    picture = tmp_path / "ultimo diff.png"
    status, out, err = run(
        capsys,
        *("diff", "marolles-1637", LITERAL, "--hands", "40"),
        *("--format", "markdown", "--plot", str(picture)),
    )
    assert status == 0, err
    assert picture.stat().st_size > 0
    assert f"]({str(picture).replace(' ', '%20')})" in out
    rules = out.partition("### Rules paid per hand")[2]
    first = [line for line in rules.splitlines() if line.startswith("| ")][1]
    assert first.startswith("| ultimo_lost | Ultimo lost |"), "the rule that moved most first"


# --- whole games --------------------------------------------------------------------------------


def test_a_game_summary_is_the_game_tarot_play_deals() -> None:
    ruleset = load_ruleset("jeu-de-tarot")
    for number in (1, 2):
        game = play_game_summarized(ruleset, 5, number, ("random",))
        seed = game_seed(5, number)
        assert game.seed == seed
        played = play_game(
            ruleset,
            seed,
            lambda hand, seed=seed: seat_agents(("random",), seed, hand, 4),
            None,
        )
        assert game.hands == len(played) == 4, "as many hands as players"
        totals = [sum(state.returns()[s] for state in played) for s in range(4)]
        assert game.winners == tuple(s for s in range(4) if totals[s] == max(totals))
    assert game_seed(5, 1) != game_seed(5, 2) != game_seed(6, 1)


def test_game_measures_count_shared_wins_for_each() -> None:
    measures = GameMeasures(3)
    for game in (
        play_game_summarized(load_ruleset("jeu-de-tarot-3"), 1, n, ("random",)) for n in (1, 2)
    ):
        measures.add(game)
    report = measures.report()
    assert report["games"] == 2
    assert report["hands_per_game"]["mean"] == 3
    wins = sum(rate["hits"] for rate in report["win_rate_by_seat"])
    assert wins >= 2, "every game has a winner, and a shared win counts for each"


@pytest.mark.parametrize(("target", "games"), [("early-french", True), ("marolles-1637", False)])
def test_simulate_plays_whole_games_where_the_ruleset_has_them(capsys, target, games) -> None:
    status, out, err = run(capsys, "simulate", target, "--hands", "12", "--format", "json")
    assert status == 0, err
    report = json.loads(out)
    assert (report["games"] is not None) is games
    if games:
        played = report["games"]
        assert played["hands_per_game"]["n"] == played["games"] >= 1
        assert len(played["win_rate_by_seat"]) == 4


def test_how_often_a_rule_fires_gets_a_paired_interval_in_a_diff() -> None:
    """Whether a rule fired, under B less under A hand by hand: a t interval on the 1, 0 and
    -1 of each hand, shown as percentage points in the rule table."""
    marolles = load_ruleset("marolles-1637")
    comparison = Comparison(marolles, marolles)
    under_b = ([1, 0], [1, 1], [0, 0], [1, 0], [0, 1], [1, 0], [1, 0], [0, 0])
    for number, (b_fires, a_fires) in enumerate(under_b):
        summaries = [
            HandSummary(number, 0, (0.0, 0.0, 0.0), 1, 1, None, None, 0, fired=fired)
            for fired in ({"r": 1} if a_fires else {}, {"r": 2} if b_fires else {})
        ]
        comparison.add(*summaries)
    differences = [b - a for b, a in under_b]
    found = comparison.report()["fired_differences"]["r"]
    assert found["mean"] == pytest.approx(statistics.mean(differences))  # 3/8
    half = 2.3646 * statistics.stdev(differences) / len(differences) ** 0.5  # t, 7 df
    assert found["ci95"] == pytest.approx([0.375 - half, 0.375 + half], rel=1e-3)
    row = _rule_gap_rows(
        [marolles, marolles],
        [comparison.a.report(), comparison.b.report()],
        comparison.rule_differences(),
        comparison.fired_differences(),
    )[0]
    assert row[4] == f"+37.5 pp ± {100 * half:.1f}"
