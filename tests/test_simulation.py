"""Many hands played and measured (tarot.measure): streaming statistics, hand
summaries, game measures, paired comparisons and the hand runner.

The expected values here are computed another way (the standard library's `statistics`, a
hand replayed with `deal_hand`/`play_hand`, sums worked out by hand), never read back from
the code under test.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from pathlib import Path

import pytest
from hands import FOUR_PLAYERS
from hypothesis import given, settings
from hypothesis import strategies as st

from tarot.compile.loader import load_ruleset
from tarot.core.summary import HandSummary, rule_keys, sole_leader
from tarot.engine.game import deal_hand, play_hand
from tarot.measure.comparison import MOST_DIFFERENT, Comparison, can_pair
from tarot.measure.hand_summary import play_summarized
from tarot.measure.measures import RulesetMeasures
from tarot.measure.runner import RulesetSpec, RunPlan, run_hands
from tarot.measure.statistics import (
    Estimate,
    RunningMean,
    difference_of_means,
)
from tarot.players.lineup import seat_agents


def t975(df: float) -> float:
    """The 97.5th percentile of Student's t, found another way than the code's (which
    inverts the incomplete beta function): the density integrated by Simpson's rule from 0,
    the upper end found by bisection."""
    front = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)

    def mass(t: float, steps: int = 4000) -> float:  # P(0 < T < t)
        h = t / steps
        total = sum(
            (1 if i in (0, steps) else 4 if i % 2 else 2)
            * (1 + (i * h) ** 2 / df) ** (-(df + 1) / 2)
            for i in range(steps + 1)
        )
        return front * total * h / 3

    low, high = 0.0, 15.0
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if mass(middle) < 0.475 else (low, middle)
    return (low + high) / 2


def welch_df(var_a: float, n_a: int, var_b: float, n_b: int) -> float:
    va, vb = var_a / n_a, var_b / n_b
    return (va + vb) ** 2 / (va**2 / (n_a - 1) + vb**2 / (n_b - 1))


RANDOM = ("random",)
LITERAL = "marolles-1637-ultimo-literal"


# A Marolles variant with other cards stripped (a different pack of the same size).
OTHER_DECK = """\
extends: marolles-1637
title: Marolles with other pips stripped
deck:
  removed:
    - {suits: [swords, batons], ranks: [4, 5, 6]}
    - {suits: [cups, coins], ranks: [5, 6, 7]}
"""


@pytest.fixture(scope="module")
def literal():
    return load_ruleset(LITERAL)


@pytest.fixture(scope="module")
def variant_files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("variants")
    files = {"four": folder / "four.yaml", "other_deck": folder / "other-deck.yaml"}
    files["four"].write_text(FOUR_PLAYERS, encoding="utf-8")
    files["other_deck"].write_text(OTHER_DECK, encoding="utf-8")
    return files


@pytest.fixture(scope="module")
def four(variant_files):
    return load_ruleset(variant_files["four"])


@pytest.fixture(scope="module")
def other_deck(variant_files):
    return load_ruleset(variant_files["other_deck"])


def summary(number: int, net, dealer: int = 0, **fields) -> HandSummary:
    """A hand-built summary; the winner is given explicitly by the tests that need it."""
    values = {
        "number": number,
        "dealer": dealer,
        "net": tuple(net),
        "decisions": 10,
        "choices": 20,
        "winner": None,
        "decided_at": None,
        "lead_changes": 0,
        "fired": {},
    }
    values.update(fields)
    return HandSummary(**values)


def replayed_net(ruleset, seed: int, number: int) -> tuple:
    """Hand `number` played with the plain engine calls, with fresh agents."""
    state = deal_hand(ruleset, seed, number)
    play_hand(state, seat_agents(RANDOM, seed, number, ruleset.players))
    return tuple(state.returns())


# --- statistics ---------------------------------------------------------------------------------

values_lists = st.lists(
    st.floats(min_value=-1e4, max_value=1e4, allow_nan=False, allow_infinity=False),
    min_size=2,
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(values_lists)
def test_running_mean_matches_the_statistics_module(values: list[float]) -> None:
    running = RunningMean()
    for value in values:
        running.add(value)
    assert running.count == len(values)
    assert running.mean == pytest.approx(statistics.mean(values), rel=1e-9, abs=1e-7)
    assert running.variance == pytest.approx(statistics.variance(values), rel=1e-7, abs=1e-5)
    assert running.std == pytest.approx(statistics.stdev(values), rel=1e-7, abs=1e-4)


@settings(max_examples=40, deadline=None)
@given(values_lists)
@pytest.mark.slow
def test_estimate_half_width_is_t_standard_errors(values: list[float]) -> None:
    running = RunningMean()
    for value in values:
        running.add(value)
    e = running.estimate()
    expected = t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    assert e.count == len(values)
    assert e.half_width == pytest.approx(expected, rel=1e-5, abs=1e-5)
    assert e.low == e.mean - e.half_width
    assert e.high == e.mean + e.half_width
    assert e.as_dict()["ci95"] == [e.low, e.high]
    assert e.as_dict()["n"] == len(values)


def test_fewer_than_two_values_give_no_interval() -> None:
    empty = RunningMean()
    assert empty.estimate().half_width is None
    assert empty.standard_error() is None
    one = RunningMean()
    one.add(-3.5)
    e = one.estimate()
    assert (e.mean, e.count) == (-3.5, 1)
    assert e.half_width is None and e.low is None and e.high is None
    assert e.as_dict() == {"mean": -3.5, "ci95": [None, None], "n": 1}
    assert one.variance == 0.0
    assert not e.excludes_zero(), "no interval, so nothing is excluded"


def test_constant_values_have_a_zero_width_interval() -> None:
    running = RunningMean()
    for _ in range(7):
        running.add(4.0)
    e = running.estimate()
    assert (e.mean, e.half_width) == (4.0, 0.0)
    assert e.excludes_zero()


def means(values) -> RunningMean:
    running = RunningMean()
    for value in values:
        running.add(value)
    return running


def test_difference_of_means_by_hand() -> None:
    a_values = [1.0, 2.0, 3.0, 4.0]
    b_values = [2.0, 4.0, 6.0, 9.0, 11.0, -1.0]
    # a: mean 2.5, variance 5/3; b: mean 31/6, variance (sum of squares - n mean^2) / 5
    b_mean = 31 / 6
    b_variance = (sum(v * v for v in b_values) - 6 * b_mean**2) / 5
    error = math.sqrt((5 / 3) / 4 + b_variance / 6)
    e = difference_of_means(means(a_values), means(b_values))
    assert e.mean == pytest.approx(b_mean - 2.5)
    df = welch_df(5 / 3, 4, b_variance, 6)
    assert e.half_width == pytest.approx(t975(df) * error, rel=1e-6)
    assert e.count == 4, "the smaller sample"
    reverse = difference_of_means(means(b_values), means(a_values))
    assert reverse.mean == pytest.approx(2.5 - b_mean)
    assert reverse.half_width == pytest.approx(e.half_width)


def test_difference_of_means_with_a_single_value_has_no_interval() -> None:
    e = difference_of_means(means([5.0]), means([1.0, 2.0, 3.0]))
    assert e.mean == pytest.approx(-3.0)
    assert e.half_width is None
    assert not e.excludes_zero()


@pytest.mark.parametrize(
    ("mean", "half_width", "excludes"),
    [
        (1.0, 0.5, True),
        (-1.0, 0.5, True),
        (0.4, 0.5, False),
        (-0.4, 0.5, False),
        (0.5, 0.5, False),  # zero on the edge of the interval is not excluded
        (0.0, 0.0, False),
        (0.1, 0.0, True),
        (3.0, None, False),
    ],
)
def test_excludes_zero(mean: float, half_width: float | None, excludes: bool) -> None:
    assert Estimate(mean, half_width, 10).excludes_zero() is excludes


# --- hand summaries -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 7, 1637])
@pytest.mark.parametrize("number", [1, 2, 9])
def test_summary_matches_the_hand_played_with_the_engine(marolles, seed: int, number: int) -> None:
    agents = seat_agents(RANDOM, seed, number, marolles.players)
    hand = play_summarized(marolles, seed, number, agents)
    state = deal_hand(marolles, seed, number)
    play_hand(state, seat_agents(RANDOM, seed, number, marolles.players))
    assert hand.number == number
    assert hand.dealer == state.dealer
    assert hand.net == tuple(state.returns())
    assert sum(hand.net) == 0, "payments only move marques around"
    assert hand.decisions == len(state.decisions)
    assert hand.fired == state.fired
    best = max(hand.net)
    if list(hand.net).count(best) == 1:
        assert hand.winner == list(hand.net).index(best)
    else:
        assert hand.winner is None
    if hand.winner is None:
        assert hand.decided_at is None
    else:
        assert 0 <= hand.decided_at <= hand.decisions


def traced_hand(ruleset, seed: int, number: int):
    """Play a hand step by step, noting the legal choices and the sole leader of the running
    result (from `returns()`) after every decision."""
    state = deal_hand(ruleset, seed, number)
    agents = seat_agents(RANDOM, seed, number, ruleset.players)

    def leader() -> int | None:
        net = state.returns()
        top = max(net)
        return net.index(top) if net.count(top) == 1 else None

    leaders = [leader()]
    choices = 0
    while not state.is_terminal():
        seat = state.current_player()
        choices += len(state.legal_actions())
        state.apply_action(agents[seat].choose(state, seat))
        leaders.append(leader())
    return state, leaders, choices


def test_summaries_agree_with_a_traced_replay(marolles) -> None:
    """Over 60 hands: choices, decided_at, lead changes and the rules that paid, against a
    decision-by-decision replay and the hand's own payments."""
    seed = 3
    seen = Counter()
    for number in range(1, 61):
        hand = play_summarized(
            marolles, seed, number, seat_agents(RANDOM, seed, number, marolles.players)
        )
        state, leaders, choices = traced_hand(marolles, seed, number)
        assert hand.net == tuple(state.returns())
        assert hand.decisions == len(state.decisions) == len(leaders) - 1
        assert hand.choices == choices
        assert hand.winner == leaders[-1], "the final sole leader is the winner"
        if hand.winner is None:
            seen["draw"] += 1
            assert hand.decided_at is None
            assert hand.decided_share is None
        else:
            seen["won"] += 1
            first_for_good = min(
                i for i in range(len(leaders)) if all(x == hand.winner for x in leaders[i:])
            )
            assert hand.decided_at == first_for_good
            assert 0 <= hand.decided_share <= 1
            seen["decided late"] += hand.decided_at > 0
        led = [x for x in leaders if x is not None]
        changes = sum(1 for x, y in zip(led, led[1:], strict=False) if x != y)
        assert hand.lead_changes == changes
        seen["lead changed"] += changes > 0

        paid = Counter(payment.rule for payment in state.payments)
        assert set(hand.fired) == set(paid), "a rule is counted exactly when it paid"
        for rule, times in hand.fired.items():
            assert 1 <= times <= paid[rule]
        assert set(hand.fired) <= set(rule_keys(marolles)), "every paying rule has a column"
    # the 60 hands exercise every branch above
    assert seen["draw"] and seen["won"] and seen["decided late"] and seen["lead changed"], seen


@pytest.mark.parametrize(
    ("net", "leader"),
    [
        ((1, 2, 3), 2),
        ((-3, -1, -2), 1),
        ((7, 0, -7), 0),
        ((3, 3, -6), None),
        ((0, 2.5, 2.5), None),
        ((0, 0, 0), None),
        ((-1, -1, 2, -0), 2),
        ((5,), 0),
    ],
)
def test_sole_leader(net, leader) -> None:
    assert sole_leader(net) == leader


def test_decided_share() -> None:
    assert summary(1, (0, 0, 0), decided_at=None).decided_share is None
    assert summary(1, (1, 0, -1), winner=0, decided_at=0, decisions=0).decided_share == 0.0
    assert summary(1, (1, 0, -1), winner=0, decided_at=5, decisions=20).decided_share == 0.25


# --- measures -----------------------------------------------------------------------------------


@pytest.fixture()
def four_hands() -> list[HandSummary]:
    """Four three-player hands, chosen so that every place wins differently."""
    return [
        # dealer 0: places 0, 1, 2 are seats 0, 1, 2; seat 0 (the dealer) wins
        summary(
            1, (6, -3, -3), 0, winner=0, decisions=10, choices=40, decided_at=5, fired={"a": 2}
        ),
        # dealer 1: places 0, 1, 2 are seats 1, 2, 0; seat 1 (the dealer) wins
        summary(
            2,
            (-2, 4, -2),
            1,
            winner=1,
            decisions=20,
            choices=50,
            decided_at=0,
            fired={"a": 1, "b": 1},
        ),
        # dealer 2: places 0, 1, 2 are seats 2, 0, 1; a draw
        summary(3, (1, 1, -2), 2, winner=None, decisions=10, choices=10, decided_at=None),
        # dealer 1 again: seat 2 (dealer + 1) wins
        summary(
            4, (0, -5, 5), 1, winner=2, decisions=20, choices=20, decided_at=20, fired={"b": 3}
        ),
    ]


def test_measures_by_seat_and_by_place(four_hands) -> None:
    measures = RulesetMeasures(3)
    for hand in four_hands:
        measures.add(hand)
    report = measures.report()
    assert report["hands"] == 4
    by_seat = [[6, -2, 1, 0], [-3, 4, 1, -5], [-3, -2, -2, 5]]
    by_place = [[6, 4, -2, -5], [-3, -2, 1, 5], [-3, -2, 1, 0]]
    for got, values in zip(report["by_seat"], by_seat, strict=True):
        assert got["mean"] == pytest.approx(statistics.mean(values))
        assert got["n"] == 4
        half = (got["ci95"][1] - got["ci95"][0]) / 2
        assert half == pytest.approx(t975(3) * statistics.stdev(values) / 2, rel=1e-5)
    for got, values in zip(report["by_place"], by_place, strict=True):
        assert got["mean"] == pytest.approx(statistics.mean(values))
        assert got["n"] == 4
    assert measures.histogram[1] == Counter({-3: 1, 4: 1, 1: 1, -5: 1})


def test_measures_wins_balance_draws_choices_and_rules(four_hands) -> None:
    measures = RulesetMeasures(3)
    for hand in four_hands:
        measures.add(hand)
    report = measures.report()
    assert report["win_rate_by_place"] == pytest.approx([2 / 4, 1 / 4, 0.0])
    assert report["balance"] == pytest.approx(1 - (2 / 4 - 0.0))
    assert report["draws"] == pytest.approx(1 / 4)
    assert report["choices_per_decision"] == pytest.approx((40 + 50 + 10 + 20) / 60)
    assert report["decisions_per_hand"]["mean"] == pytest.approx(15.0)
    assert report["decided_after"]["mean"] == pytest.approx(statistics.mean([0.5, 0.0, 1.0]))
    assert report["decided_after"]["n"] == 3, "the drawn hand has no decided share"
    assert report["moved"]["mean"] == pytest.approx(statistics.mean([6, 4, 2, 5]))
    assert report["spread"]["mean"] == pytest.approx(
        statistics.mean(statistics.pstdev(hand.net) for hand in four_hands)
    )
    assert {rule: (r["hands"], r["per_hand"]) for rule, r in report["rules"].items()} == {
        "a": (pytest.approx(2 / 4), pytest.approx(3 / 4)),
        "b": (pytest.approx(2 / 4), pytest.approx(4 / 4)),
    }
    assert report["rules"]["a"]["fired"]["hits"] == 2


def test_balance_is_one_when_every_place_wins_as_often() -> None:
    measures = RulesetMeasures(3)
    for number, dealer in enumerate([0, 1, 2], start=1):
        # the seat after the dealer wins each hand: always place 1
        winner = (dealer + 1) % 3
        net = [-1, -1, -1]
        net[winner] = 2
        measures.add(summary(number, net, dealer, winner=winner, decided_at=0))
    assert measures.win_rates() == pytest.approx([0.0, 1.0, 0.0])
    assert measures.balance() == pytest.approx(0.0)
    for number, dealer in enumerate([0, 1, 2], start=4):
        winner = dealer  # now the dealer, then dealer + 2
        net = [-1, -1, -1]
        net[winner] = 2
        measures.add(summary(number, net, dealer, winner=winner, decided_at=0))
        winner = (dealer + 2) % 3
        net = [-1, -1, -1]
        net[winner] = 2
        measures.add(summary(number + 10, net, dealer, winner=winner, decided_at=0))
    assert measures.win_rates() == pytest.approx([1 / 3, 1 / 3, 1 / 3])
    assert measures.balance() == pytest.approx(1.0)
    assert measures.report()["draws"] == 0


# --- comparison ---------------------------------------------------------------------------------


def test_can_pair(marolles, literal, four, other_deck) -> None:
    assert can_pair(marolles, marolles)
    assert can_pair(marolles, literal)
    assert can_pair(marolles, load_ruleset("marolles-1637-deal-threes")), "deal, not deck"
    assert not can_pair(marolles, four), "player count differs"
    assert not can_pair(four, marolles)
    assert not can_pair(marolles, other_deck), "the pack holds other cards"


def paired_run(targets: tuple[str, str], hands: int, seed: int = 1):
    rulesets = [load_ruleset(target) for target in targets]
    plan = RunPlan(tuple(RulesetSpec(t) for t in targets), seed, hands, RANDOM)
    return rulesets, list(run_hands(plan, rulesets, jobs=1))


def test_a_ruleset_against_itself_differs_nowhere(marolles) -> None:
    (a, b), results = paired_run(("marolles-1637", "marolles-1637"), 40)
    comparison = Comparison(a, b)
    for under_a, under_b in results:
        comparison.add(under_a, under_b)
    report = comparison.report()
    assert report["paired"] is True
    assert report["hands"] == 40
    assert len(report["difference_by_seat"]) == 3
    for seat in report["difference_by_seat"]:
        assert seat == {"mean": 0.0, "ci95": [0.0, 0.0], "n": 40}
    assert report["differing_share"] == 0
    assert report["mean_abs_difference"]["mean"] == 0
    assert report["most_different"] == []
    assert report["a"] == report["b"]
    for place in report["difference_by_place"]:
        assert place == {"mean": 0.0, "ci95": [0.0, 0.0], "n": 40}
    assert report["spread_difference"]["mean"] == 0


@pytest.mark.slow
def test_ultimo_literal_against_marolles_hand_by_hand(marolles, literal) -> None:
    seed, hands = 1, 150
    (a, b), results = paired_run(("marolles-1637", LITERAL), hands, seed)
    comparison = Comparison(a, b)
    differing = {}
    gaps_by_seat = [[] for _ in range(3)]
    gaps_by_place = [[] for _ in range(3)]
    spread_gaps = []
    for under_a, under_b in results:
        comparison.add(under_a, under_b)
        number = under_a.number
        assert under_a.dealer == under_b.dealer == (number - 1) % 3
        gaps = [vb - va for va, vb in zip(under_a.net, under_b.net, strict=True)]
        for seat, gap in enumerate(gaps):
            gaps_by_seat[seat].append(gap)
            gaps_by_place[(seat - under_a.dealer) % 3].append(gap)
        spread_gaps.append(statistics.pstdev(under_b.net) - statistics.pstdev(under_a.net))
        if any(gaps):
            differing[number] = sum(abs(g) for g in gaps)
            # the difference is the difference of the two hands replayed on their own
            net_a = replayed_net(marolles, seed, number)
            net_b = replayed_net(literal, seed, number)
            assert gaps == [vb - va for va, vb in zip(net_a, net_b, strict=True)], number
            # only a failed Ultimo is paid differently
            assert "ultimo_lost" in under_a.fired and "ultimo_lost" in under_b.fired, number
        else:
            assert under_a.net == replayed_net(literal, seed, number), number
        # the same decisions are taken under both: the option changes no legal action
        assert (under_a.decisions, under_a.choices) == (under_b.decisions, under_b.choices)
    assert differing, "some hand of 150 has a failed Ultimo"
    report = comparison.report()
    assert report["paired"] is True
    assert report["differing_share"] == pytest.approx(len(differing) / hands)
    for got, gaps in zip(report["difference_by_seat"], gaps_by_seat, strict=True):
        assert got["mean"] == pytest.approx(statistics.mean(gaps))
        half = (got["ci95"][1] - got["ci95"][0]) / 2
        expected = t975(hands - 1) * statistics.stdev(gaps) / math.sqrt(hands)
        assert half == pytest.approx(expected, rel=1e-5)
    for got, gaps in zip(report["difference_by_place"], gaps_by_place, strict=True):
        assert got["mean"] == pytest.approx(statistics.mean(gaps))
        assert got["n"] == hands
    assert report["spread_difference"]["mean"] == pytest.approx(statistics.mean(spread_gaps))
    expected_size = statistics.mean(sum(abs(g[i]) for g in gaps_by_seat) / 3 for i in range(hands))
    assert report["mean_abs_difference"]["mean"] == pytest.approx(expected_size)
    assert report["mean_abs_difference"]["mean"] > 0
    largest = sorted(differing, key=lambda n: (-differing[n], n))[:MOST_DIFFERENT]
    assert [h["hand"] for h in report["most_different"]] == largest
    for entry in report["most_different"]:
        assert entry["size"] == differing[entry["hand"]]
        assert tuple(entry["net_a"]) == replayed_net(marolles, seed, entry["hand"])
        assert tuple(entry["net_b"]) == replayed_net(literal, seed, entry["hand"])


def test_most_different_keeps_the_largest_and_the_earlier_of_a_tie(marolles) -> None:
    comparison = Comparison(marolles, marolles)
    sizes = [4, 10, 4, 0, 6, 10, 2, 8]
    for number, size in enumerate(sizes, start=1):
        comparison.add(summary(number, (0, 0, 0)), summary(number, (size / 2, -size / 2, 0)))
    assert comparison.differing == 7
    assert [h.number for h in comparison.most_different()] == [2, 6, 8, 5, 1]
    assert [h.size for h in comparison.most_different()] == [10, 10, 8, 6, 4]
    assert comparison.report()["differing_share"] == pytest.approx(7 / 8)


def test_unpaired_comparison(marolles, four) -> None:
    comparison = Comparison(marolles, four)
    a_nets = [(3, 0, -3), (-6, 3, 3), (0, 1, -1)]
    b_nets = [(4, 0, -2, -2), (1, 1, 1, -3), (-5, 0, 5, 0), (2, 2, -2, -2)]
    for number, (net_a, net_b) in enumerate(zip(a_nets, b_nets, strict=False), start=1):
        comparison.add(summary(number, net_a), summary(number, net_b))
    report = comparison.report()
    assert report["paired"] is False
    assert report["differing_share"] is None
    assert report["mean_abs_difference"] is None
    assert report["most_different"] == []
    assert len(report["difference_by_seat"]) == 3, "only the seats both rulesets have"
    for seat, got in enumerate(report["difference_by_seat"]):
        a_values = [net[seat] for net in a_nets]
        b_values = [net[seat] for net in b_nets[:3]]
        assert got["mean"] == pytest.approx(statistics.mean(b_values) - statistics.mean(a_values))
        var_a, var_b = statistics.variance(a_values), statistics.variance(b_values)
        error = math.sqrt(var_a / 3 + var_b / 3)
        half = (got["ci95"][1] - got["ci95"][0]) / 2
        assert half == pytest.approx(t975(welch_df(var_a, 3, var_b, 3)) * error, rel=1e-5)
    assert len(report["b"]["by_seat"]) == 4


def test_unpaired_when_the_pack_differs(marolles, variant_files) -> None:
    target = str(variant_files["other_deck"])
    (a, b), results = paired_run(("marolles-1637", target), 20)
    comparison = Comparison(a, b)
    for under_a, under_b in results:
        comparison.add(under_a, under_b)
    report = comparison.report()
    assert report["paired"] is False
    assert report["differing_share"] is None
    assert report["hands"] == 20
    for seat, got in enumerate(report["difference_by_seat"]):
        a_mean = statistics.mean(r[0].net[seat] for r in results)
        b_mean = statistics.mean(r[1].net[seat] for r in results)
        assert got["mean"] == pytest.approx(b_mean - a_mean)


# --- runner -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_run_hands_is_the_same_over_two_processes() -> None:
    targets = ("marolles-1637", LITERAL)
    rulesets = [load_ruleset(t) for t in targets]
    plan = RunPlan(tuple(RulesetSpec(t) for t in targets), 11, 30, RANDOM)
    alone = list(run_hands(plan, rulesets, jobs=1))
    spread = list(run_hands(plan, rulesets, jobs=2))
    assert [r[0].number for r in spread] == list(range(1, 31)), "in hand order"
    assert all(len(r) == 2 and r[0].number == r[1].number for r in spread)
    assert spread == alone


def test_run_hands_plays_the_numbered_hands_in_order(marolles) -> None:
    plan = RunPlan((RulesetSpec("marolles-1637"),), 4, 12, RANDOM, first=5)
    results = list(run_hands(plan, [marolles], jobs=1))
    assert [r[0].number for r in results] == list(range(5, 17))
    for (hand,) in results:
        assert hand.net == replayed_net(marolles, 4, hand.number)


def test_a_spec_with_an_option_plays_as_the_variant(literal) -> None:
    spec = RulesetSpec("marolles-1637", (("ultimo_failure", "literal"),))
    with_option = spec.load()
    assert with_option.options == literal.options
    plan = RunPlan((spec,), 1, 30, RANDOM)
    got = [r[0].net for r in run_hands(plan, [with_option], jobs=1)]
    assert got == [replayed_net(literal, 1, number) for number in range(1, 31)]
