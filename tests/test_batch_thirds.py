"""Payments in thirds in the batch back end (`tarot.batch.scaled_amounts`: every payment
counted in 1/scale, the common denominator of the divisions by a number of seats), and a
seat sitting out that settles as a defender (`tarot.batch.defender_share`): on the small game
written for both (tests/data/rulesets/shares-in-thirds.yaml: a taker alone against three
defenders who share the game's value) and on Romanian Tarok, whose payments are shared among
a side of three; each hand (or sitting) replayed through the scalar engine with every
payment and net the same exact number, never a float near it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from batch_checks import loaded, means_agree, play_outs_replayed, replayed
from small_games import edited
from test_batch_playouts import _trials
from test_batch_sit_out import _moment

from tarot.batch import array_exprs, program
from tarot.batch.phases import settle
from tarot.batch.program import Program
from tarot.batch.run import play_summaries
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.records.batch_agreement import replay_sitting, sitting_records
from tarot.records.replay import ReplayMismatch
from tests.commands import tarot

GAME = Path(__file__).parent / "data" / "rulesets" / "shares-in-thirds.yaml"
ROMANIAN = "romanian-tarok"


def _thirds(records: list[dict]) -> int:
    """The payments whose amount is a third of a whole number (or a ninth)."""
    return sum(
        isinstance(p["amount"], Fraction) and p["amount"].denominator % 3 == 0
        for r in records
        for p in r["payments"]
    )


def test_payments_in_thirds_replay_exactly():
    ruleset = load_ruleset(GAME)
    assert supports(ruleset) == []
    assert Program.of(ruleset).scale == 12  # count(defenders): up to the 4 seats in play
    records, kinds, fired = replayed(ruleset, 3, 300)
    assert kinds["play"] > 3000
    assert set(fired) >= {"game_won", "game_lost", "points_bonus", "king_trick"}
    assert _thirds(records) > 300
    for record in records:
        amounts = [p["amount"] for p in record["payments"]]
        assert all(type(a) in (int, Fraction) for a in [*amounts, *record["net"]])
        assert sum(record["net"]) == 0


def test_the_summaries_give_the_float_nearest_each_exact_result():
    """A run's summaries (no log kept: every pair paid at once) give for each seat the
    float nearest its exact result, as the scalar engine's measures do."""
    ruleset = load_ruleset(GAME)
    numbers = range(1, 201)
    summaries = play_summaries(ruleset, 4, numbers)
    records, _kinds, _fired = replayed(ruleset, 4, 200)
    for summary, record in zip(summaries, records, strict=True):
        assert list(summary.net) == [float(x) for x in record["net"]]
        paid: dict[str, Fraction] = {}
        for p in record["payments"]:
            paid[p["rule"]] = paid.get(p["rule"], Fraction(0)) + p["amount"]
        assert summary.paid == {rule: float(x) for rule, x in paid.items()}


def test_means_agree_with_the_scalar_engine():
    means_agree(load_ruleset(GAME), 6, 400, {}, rules_at_least=3)


def test_without_the_scale_the_thirds_would_not_replay(monkeypatch):
    """The check can fail: with the shares worked out as float64 quotients (the scale left
    at 1, the refusals of such a division lifted), a payment of 20/3 comes out as the float
    nearest it, which the exact comparison refuses."""
    monkeypatch.setattr(program, "payment_scale", lambda *_args: 1)
    monkeypatch.setattr(array_exprs.exactness, "counts_seats", lambda *_args: False)
    monkeypatch.setattr(array_exprs.exactness, "constant_divisor", lambda *_args: None)
    monkeypatch.setattr(array_exprs.exactness, "quotient", lambda a, b, _r: np.true_divide(a, b))
    ruleset = load_ruleset(GAME)
    with pytest.raises(ReplayMismatch, match="payments"):
        replayed(ruleset, 3, 40)


def test_a_seat_s_total_is_read_only_where_it_is_compared(tmp_path: Path):
    """With payments in thirds a seat's total is held as the nearest float, exact only for
    comparing it: arithmetic on it is refused at load, naming the rule."""

    def when(condition: str) -> Path:
        def change(document: dict) -> None:
            document["settlement"][2]["when"] = condition

        return edited(GAME, tmp_path, change)

    compared = load_ruleset(when("total(taker) >= max(s in seats: total(s))"))
    assert supports(compared) == []
    summed = load_ruleset(when("total(taker) * 3 > 0"))
    assert supports(summed) == [
        "payment rule points_bonus: total() used other than in comparisons, where payments "
        "come in fractions (of 1/12) that float64 arrays hold only nearly"
    ]


def test_a_seat_sitting_out_settles_as_a_defender():
    """The dealer sits out and pays (or is paid) the defenders' average share of each
    rule: his result is the defenders' mean, in ninths where theirs are thirds."""
    ruleset = load_ruleset(GAME, {"share": "as_defender"})
    assert supports(ruleset) == []
    assert Program.of(ruleset).scale == 72  # 12, times the shares among 1 to 3 defenders
    records, _kinds, _fired = replayed(ruleset, 3, 300)
    shared = at_tricks = 0
    for record in records:
        out, net = record["dealer"], record["net"]
        takers = {p["to"] for p in record["payments"] if p["rule"] == "points_bonus"}
        if not takers:
            continue
        (taker,) = takers
        defenders = [s for s in range(5) if s not in (out, taker)]
        assert net[out] == Fraction(sum(net[s] for s in defenders)) / 3
        shared += any(out in (p["from"], p["to"]) for p in record["payments"])
        # a rule paying at several moments is shared moment by moment
        at_tricks += any(
            out in (p["from"], p["to"]) and p["at"].startswith("trick") for p in record["payments"]
        )
    assert shared > 200 and at_tricks > 50
    assert _thirds(records) > 300


def test_without_the_share_the_seat_sitting_out_would_not_replay(monkeypatch):
    """The check can fail: with the batch paying the seat sitting out nothing, the scalar
    engine's payments of a defender's share are missing."""
    monkeypatch.setattr(settle, "pay_as_defenders", lambda _state: None)
    ruleset = load_ruleset(GAME, {"share": "as_defender"})
    with pytest.raises(ReplayMismatch, match="payments"):
        replayed(ruleset, 3, 40)


def test_a_defender_s_share_in_halves_replays():
    """The game for a seat sitting out (three in play: one or two defenders, halves a
    float holds) with the seat sitting out paying as a defender: the scale stays 1."""
    ruleset = load_ruleset(GAME.parent / "sit-out.yaml", {"share": "as_defender"})
    assert Program.of(ruleset).scale == 1
    records, _kinds, _fired = replayed(ruleset, 5, 200)
    assert sum(r["dealer"] in (p["from"], p["to"]) for r in records for p in r["payments"]) > 100


@pytest.mark.parametrize(
    ("name", "options"), [(str(GAME), {}), (str(GAME), {"share": "as_defender"}), (ROMANIAN, {})]
)
def test_the_search_player_s_play_outs_run_in_batch(name, options):
    """Play-outs taken up from a scalar hand (in a sitting, with game totals in thirds
    behind it) replay with every payment and result the same exact number."""
    thirds = 0
    for number in (1, 2):
        state = _moment(name, number, 3, options)
        state.totals_before = [Fraction(40, 3), Fraction(-40, 3), 5, -5, 0][: len(state.net())]
        trials, streams = _trials(state, 3, number)
        batch = play_outs_replayed(trials, streams)
        assert batch.scale > 1
        thirds += int(np.any(batch.net % batch.scale))  # results not whole
    assert thirds


def test_romanian_tarok_runs_in_batch_and_its_sittings_replay():
    ruleset = loaded(ROMANIAN)
    assert supports(ruleset) == []
    sittings = sitting_records(ruleset, list(range(1, 13)))
    for i, records in enumerate(sittings):
        for record in records:
            record["fired"] = dict(sorted(record["fired"].items()))
        replay_sitting(ruleset, records, f"sitting {i}")
    assert _thirds([r for records in sittings for r in records]) > 50


def test_simulate_romanian_tarok_plays_it_in_batch():
    ran = tarot("simulate", ROMANIAN, "--backend", "batch", "--hands", "40", "--seed", "2")
    assert ran.returncode == 0, ran.stderr
    assert "batch back end" in ran.stdout.splitlines()[0]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_romanian_tarok_sittings_replay_over_many_seeds(seed):
    ruleset = loaded(ROMANIAN)
    seeds = [seed * 1000 + n for n in range(60)]
    for i, records in enumerate(sitting_records(ruleset, seeds)):
        for record in records:
            record["fired"] = dict(sorted(record["fired"].items()))
        replay_sitting(ruleset, records, f"sitting {seeds[i]}")


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"share": "as_defender"}])
def test_thirds_replay_over_many_seeds(options):
    ruleset = load_ruleset(GAME, options)
    for seed in range(1, 6):
        replayed(ruleset, seed, 400)
