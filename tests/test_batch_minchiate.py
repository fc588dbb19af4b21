"""The batch back end (`tarot.batch`) on Minchiate and the mechanisms it needs: runs of
cards (`runs(C, n)`), cards of a kind taken from the talon by rule (`talon.takes`), compulsory
declarations and sides set by rule (`play.sides`). Every hand tested replays through the
scalar engine with every payment, the net, the rule counts and the winning side equal;
means agree with the scalar engine's in distribution."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from batch_checks import means_agree, play_outs_replayed, replayed
from test_batch_playouts import _moment, _trials

from tarot.batch.card_runs import runs
from tarot.batch.run import play_batch, play_summaries, program_of
from tarot.batch.support import supports
from tarot.batch.values import Cards, Ctx
from tarot.compile.card_runs import cards_in_runs
from tarot.compile.loader import load_ruleset
from tarot.expressions import EvaluationError
from tarot.measure.hand_summary import play_summarized
from tarot.players.lineup import seat_agents

DATA = Path(__file__).parent / "data" / "rulesets"
RUNS_ROBBING = str(DATA / "runs-robbing.yaml")
COMPULSORY = str(DATA / "two-handed-over-compulsory.yaml")
#: readings of Minchiate that take other paths: overtrumping, no payment for the last trick
READINGS = (("overtrump", "required"), ("making_the_last", "none"))
#: French Tarot played in fixed partnerships opposite, over its auction's sides
PARTNERS = (
    "extends: french-tarot\n"
    "title: French Tarot in fixed partnerships\n"
    "play:\n"
    "  sides:\n"
    "    of_seat: s\n"
    '    value: "[t in seats if t == s or t == next_seat(next_seat(s))]"\n'
    "    source: tarot_003\n"
)


@cache
def loaded(target: str, options: tuple[tuple[str, str], ...] = ()):
    return load_ruleset(target, dict(options))


def _variant(tmp_path: Path, text: str):
    path = tmp_path / "variant.yaml"
    path.write_text(text, encoding="utf-8")
    return load_ruleset(str(path))


@pytest.mark.parametrize(
    ("target", "kind"),
    [("minchiate", "discard"), (RUNS_ROBBING, "discard"), (COMPULSORY, "give")],
)
def test_every_payment_agrees_with_the_scalar_engine(target, kind):
    """Cards taken from the talon are laid away; cards handed over for a declaration made
    by the rules are given back before play, as the scalar engine asks for them."""
    records, kinds, _fired = replayed(loaded(target), 11, 40)
    assert sum(len(r["payments"]) for r in records) > 40
    assert kinds["play"] > 0 and kinds[kind] > 0


@pytest.mark.parametrize("reading", READINGS)
def test_other_readings_of_minchiate_agree(reading):
    records, _kinds, fired = replayed(loaded("minchiate", (reading,)), 3, 30)
    assert ("making_the_last" in fired) == (reading != ("making_the_last", "none"))


def test_minchiate_runs_whole_and_is_read_by_partnerships():
    """The ruleset is run whole; a hand's winners are a partnership opposite, as the scalar
    engine's summary reads them."""
    ruleset = loaded("minchiate")
    assert supports(ruleset) == []
    played = play_summaries(ruleset, 5, range(1, 201))
    won = [h.winners for h in played if h.winners]
    assert won and {tuple(w) for w in won} <= {(0, 2), (1, 3)}
    assert all(h.winner in (0, 1) for h in played if h.winners)
    scalar = play_summarized(ruleset, 5, 7, seat_agents(("random",), 5, 7, ruleset.players))
    assert set(scalar.winners) <= {0, 2} or set(scalar.winners) <= {1, 3}


@pytest.mark.parametrize("length", ["per hand", 3, 1, 60])
def test_runs_are_the_scalar_engines(length):
    """runs(C, n) over random collections, repeats included, is the scalar fact's: n drawn
    for each hand, or one n for every hand (as rulesets write it), down to 1 and past the
    longest group."""
    for target in ("minchiate", RUNS_ROBBING):
        ruleset = loaded(target)
        state = play_batch(ruleset, 1, range(1, 65))
        layout, places = state.tables.layout, ruleset.deck.run_places
        draw = np.random.default_rng(7)
        held = draw.random((64, layout.cards)) < 0.4
        again = held & (draw.random((64, layout.cards)) < 0.3)  # some cards twice
        drawn = draw.integers(-1, 6, 64)
        lengths = drawn if length == "per hand" else np.full(64, length)
        ctx = Ctx(state, np.arange(64), {})
        cards = Cards((layout.from_bools(held), layout.from_bools(again)))
        found = runs(ctx, cards, lengths)
        first, second = (layout.to_bools(term) for term in found.terms)
        for hand in range(64):
            collection = [*np.flatnonzero(held[hand]), *np.flatnonzero(again[hand])]
            expected = Counter(cards_in_runs(places, collection, max(1, int(lengths[hand]))))
            got = Counter([*np.flatnonzero(first[hand]), *np.flatnonzero(second[hand])])
            assert got == expected, (target, hand)


def test_compulsory_declarations_take_no_decision_and_pay():
    records, kinds, fired = replayed(loaded(RUNS_ROBBING), 2, 60)
    assert "declare" not in kinds
    assert fired["sequence:held"] > 0
    assert any(p["rule"] == "sequence:held" for r in records for p in r["payments"])


def test_sides_set_by_rule_replace_the_auctions(tmp_path):
    ruleset = _variant(tmp_path, PARTNERS)
    assert supports(ruleset) == []
    records, kinds, _fired = replayed(ruleset, 4, 40)
    assert kinds["bid"] > 0
    assert {tuple(r["winners"]) for r in records if r["winners"]} <= {(0, 2), (1, 3)}


def test_sides_that_do_not_split_the_table_are_refused_as_by_the_scalar_engine(tmp_path):
    ruleset = _variant(
        tmp_path,
        PARTNERS.replace("t == s or t == next_seat(next_seat(s))", "t == s or t == next_seat(s)"),
    )
    with pytest.raises(EvaluationError, match="does not split the seats into sides") as error:
        play_batch(ruleset, 1, range(1, 5))
    assert "play.sides.value" in error.value.where or "sides" in error.value.where


def test_a_definition_is_worked_out_again_in_each_evaluation():
    """Definitions are kept only while one expression is evaluated: once the hands change,
    the next evaluation sees them changed."""
    ruleset = loaded("minchiate")
    program = program_of(ruleset)
    state = play_batch(ruleset, 2, range(1, 9))
    rule = next(r for r in program.settlement if r.key == "honours")
    rows = np.arange(state.size)
    before = rule.payees.fn(Ctx(state, rows, state.names(rows))).copy()
    assert program.compiler._memo is None  # nothing kept between evaluations
    state.won[:, 0] |= state.won[:, 1] | state.won[:, 3]  # one side takes every trick
    state.won[:, 1] = 0
    state.won[:, 3] = 0
    after = rule.payees.fn(Ctx(state, rows, state.names(rows)))
    assert after[:, [0, 2]].all() and not after[:, [1, 3]].any()
    assert (before != after).any()


@pytest.mark.parametrize(("trick", "on_table"), [(2, 1), (14, 3)])
def test_search_play_outs_of_minchiate_are_batched_and_replay_exactly(trick, on_table):
    """The search player's play-outs in a partnership game are taken up by the batch back
    end, the sides carried over, and each replays through the scalar engine."""
    for number in (1, 2):
        state = _moment("minchiate", number, trick, on_table)
        batch = play_outs_replayed(*_trials(state, 3, number))
        assert batch.side_table.all(axis=(1, 2)).sum() == 0 and batch.side_table[:, 0, 2].all()


@pytest.mark.slow
def test_minchiate_agrees_over_many_seeds():
    ruleset = loaded("minchiate")
    for seed in range(1, 9):
        replayed(ruleset, seed, 150)
    for reading in READINGS:
        replayed(loaded("minchiate", (reading,)), 21, 100)
    replayed(loaded(RUNS_ROBBING), 21, 400)


@pytest.mark.slow
def test_minchiate_means_agree_in_distribution():
    means_agree(loaded("minchiate"), 21, 1500, {}, rules_at_least=4)
