"""The batch back end's short ways with expressions: a body that depends on its card alone
worked out once per card of the deck (`tarot.batch.card_tables`); a seat filter or
aggregation that asks only whether a seat is among others worked out once, not once per
seat; the settlement's facts kept for the same hands and arguments. Each gives what the long
way gives, value for value and of the same kind of number, and the hands replay through the
scalar engine with every payment equal."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from batch_checks import replayed

from tarot.batch import array_exprs, card_tables, facts
from tarot.batch.program import Program
from tarot.batch.run import play_batch
from tarot.batch.values import Cards, Ctx
from tarot.compile.loader import load_ruleset

CARD_VALUES = str(Path(__file__).parent / "data" / "batch" / "card-values.yaml")
RULES = ("v_trick_ranks", "v_chain", "v_fractions", "v_extremes")


def test_every_payment_agrees_with_the_scalar_engine():
    ruleset = load_ruleset(CARD_VALUES)
    _records, _kinds, fired = replayed(ruleset, 5, 60)
    assert all(fired[rule] > 5 for rule in RULES), fired


def _values(program: Program, state, rules: tuple[str, ...]) -> list:
    """Every expression of the rules named, evaluated on every hand of `state` (the
    payments' `payer` and `payee` each seat in turn)."""
    rows = np.arange(state.size)
    found = []
    rules_by_key = {r.key: r for r in [*program.settlement, *program.rules["trick_end"]]}
    for key in rules:
        rule = rules_by_key[key]
        for seat in range(state.players):
            names = {**state.names(rows), "payer": np.full(state.size, seat)}
            names |= {"payee": np.full(state.size, (seat + 1) % state.players)}
            names |= {"player": np.full(state.size, seat), "card": np.full(state.size, seat)}
            names |= {"trick": Cards((state.won[:, seat],))}
            ctx = Ctx(state, rows, names)
            for node in (rule.when, rule.payers, rule.payees, rule.amount):
                if node is not None:
                    found.append(np.asarray(node.fn(ctx)))
    return found


def test_the_short_ways_give_what_the_long_ways_give(monkeypatch):
    """The same values, of the same kind of number, with the short ways and without them;
    and with them, no body is worked out card by card nor a seat's condition seat by seat."""
    ruleset = load_ruleset(CARD_VALUES)
    state = play_batch(ruleset, 3, range(1, 41))
    with monkeypatch.context() as patched:
        patched.setattr(card_tables, "of_card_alone", lambda var, body: False)
        patched.setattr(array_exprs, "of_card_alone", lambda var, body: False)
        patched.setattr(array_exprs.ArrayCompiler, "_seat_element_mask", lambda *args: None)
        long_ways = _values(Program.of(ruleset), state, RULES)

    def refused(*args, **kwargs):
        raise AssertionError("worked out the long way")

    monkeypatch.setattr(array_exprs, "_each_card", refused)
    monkeypatch.setattr(array_exprs, "_over_seats", lambda *args: refused)  # when evaluated
    short_ways = _values(Program.of(load_ruleset(CARD_VALUES)), state, RULES)
    assert len(short_ways) == len(long_ways)
    for ours, theirs in zip(short_ways, long_ways, strict=True):
        assert ours.dtype == theirs.dtype
        assert np.array_equal(ours, theirs)
    assert any(v.dtype.kind == "f" and (v != np.round(v)).any() for v in short_ways)


@pytest.mark.parametrize(
    ("kind", "numbers"),
    [
        *((kind, numbers) for kind in ("sum", "max", "min") for numbers in ("whole", "fractions")),
        *((kind, "conditions") for kind in ("count", "any", "all")),
    ],
)
def test_a_table_by_card_reduces_as_card_by_card(kind, numbers):
    """Counts of each card in each hand (none, once, twice; a hand holding nothing), and
    a value per card: the aggregation from the table alone is the card-by-card one's, value
    for value and of the same kind of number (or None, the caller then going card by card)."""
    draw = np.random.default_rng(11)
    counts = draw.choice([0, 0, 0, 1, 2], size=(50, 78))
    counts[0] = 0
    table = {
        "whole": draw.integers(-5, 6, 78),
        "fractions": draw.integers(-20, 20, 78) / 4,
        "conditions": draw.random(78) < 0.5,
    }[numbers]
    present = np.flatnonzero((counts > 0).any(axis=0)).tolist()
    card_by_card = array_exprs._reduce(
        kind, counts, [(c, np.full(50, table[c])) for c in present], 50
    )
    ours = card_tables.reduce_by_table(kind, counts, table)
    if ours is None:
        assert kind == "sum" and numbers == "fractions"  # added card by card, in order
        return
    assert np.asarray(ours).dtype == np.asarray(card_by_card).dtype
    assert np.array_equal(ours, card_by_card)


def test_nothing_held_anywhere_gives_a_whole_zero():
    counts = np.zeros((4, 78), dtype=np.int64)
    for kind in ("max", "min"):
        found = card_tables.reduce_by_table(kind, counts, np.full(78, 0.5))
        assert found.dtype == np.int64 and not found.any()


def test_the_settlement_keeps_the_facts_it_works_out(monkeypatch):
    """Minchiate's settlement filters the seats by their sides' piles, each seat's and its
    next seat's: outside the settlement each is worked out every time it is called, inside
    once per seat, with the same seats chosen."""
    calls = []
    original = facts.ARRAY_FACTS["side_pile"]

    def counted(ctx, seat):
        calls.append(seat)
        return original(ctx, seat)

    monkeypatch.setitem(facts.ARRAY_FACTS, "side_pile", counted)
    ruleset = load_ruleset("minchiate")
    program = Program.of(ruleset)
    state = play_batch(ruleset, 2, range(1, 9))
    rule = next(r for r in program.settlement if r.key == "card_surplus")
    rows = np.arange(state.size)
    ctx = Ctx(state, rows, state.names(rows))
    calls.clear()
    each_time = [rule.payers.fn(ctx), rule.payees.fn(ctx)]
    assert len(calls) == 2 * 2 * state.players
    calls.clear()
    with program.compiler.remembering():
        kept = [rule.payers.fn(ctx), rule.payees.fn(ctx)]
    assert len(calls) == state.players
    assert all(np.array_equal(a, b) for a, b in zip(kept, each_time, strict=True))
    assert kept[0].any() and kept[1].any()
