"""A definition of a seat kept by hand and seat while the definitions it reads are unchanged
(`tarot.batch.kept_definitions`): which bodies are kept, and that a kept value is the one
the body gives, for hands and seats asked in any order and as the cards move between calls.
Minchiate's `shown(s)` reads the seat's cards only through `held(s)` (its hand and the cards
it has played), which do not change during play."""

from __future__ import annotations

import numpy as np

from tarot.batch import array_exprs
from tarot.batch.kept_definitions import Keeper, inputs_of
from tarot.batch.program import Program
from tarot.batch.run import play_batch
from tarot.batch.values import Cards, Ctx
from tarot.compile.loader import load_ruleset
from tarot.expressions import Type
from tarot.expressions.typed_tree import Typed


def _inputs(ruleset, name: str) -> list[str] | None:
    definitions = {d.name: d for d in ruleset.definitions}
    definition = definitions[name]
    found = inputs_of(definition.expression.tree, definition.of_seat, list(definitions))
    return None if found is None else [f"{part.op} {part.name}" for part in found]


def test_a_body_is_kept_when_it_reads_the_hand_through_definitions_alone():
    ruleset = load_ruleset("minchiate")
    assert _inputs(ruleset, "shown") == ["call held"]  # `runs` reads its arguments alone
    assert _inputs(ruleset, "twice") == ["call made", "call kept_shown"]
    assert _inputs(ruleset, "held") is None  # its hand and played cards: game facts
    assert _inputs(ruleset, "honours") is None


def _shown(ruleset) -> array_exprs.Fn:
    """`shown(player)` as array code of a program of its own."""
    compiler = Program.of(ruleset).compiler
    call = Typed("call", Type.CARDS, (Typed("var", Type.SEAT, name="player"),), name="shown")
    return compiler.run(call, {**compiler.names("settlement"), "player": Type.SEAT}).fn


def _counts(state, cards: Cards, rows: np.ndarray) -> np.ndarray:
    """How many times each card is in each hand's collection ([hands, cards]): the value
    whatever terms hold it."""
    layout = state.tables.layout
    return sum(
        layout.to_bools(np.broadcast_to(term, (len(rows), layout.words))).astype(int)
        for term in cards.terms
    )


def test_a_kept_value_is_the_one_the_body_gives(monkeypatch):
    ruleset = load_ruleset("minchiate")
    state = play_batch(ruleset, 1, range(1, 41))
    kept = _shown(ruleset)
    with monkeypatch.context() as patched:
        patched.setattr(array_exprs, "inputs_of", lambda *args: None)
        worked_out = _shown(load_ruleset("minchiate"))
    reads = []
    original = Keeper._read
    monkeypatch.setattr(Keeper, "_read", lambda *args: reads.append(1) or original(*args))
    draws = np.random.default_rng(7)
    for turn in range(12):
        rows = np.sort(draws.choice(state.size, size=draws.integers(1, state.size), replace=False))
        seats = draws.integers(0, state.players, size=len(rows))
        for _again in range(2):
            ctx = Ctx(state, rows, {**state.names(rows), "player": seats})
            ours, theirs = kept(ctx), worked_out(ctx)
            assert isinstance(ours, Cards)
            assert np.array_equal(_counts(state, ours, rows), _counts(state, theirs, rows))
        if turn % 3 == 2:  # the cards move: two seats' played cards change places in some hands
            moved = draws.choice(state.size, size=state.size // 2, replace=False)
            first, second = state.played[moved, 0].copy(), state.played[moved, 1].copy()
            state.played[moved, 0], state.played[moved, 1] = second, first
    assert reads  # kept values were given
    assert state.kept["shown"].known.any()


def test_cards_moved_from_hand_to_played_keep_the_value(monkeypatch):
    """`held(s)` is a seat's hand and its played cards: a card played moves from one to the
    other, and the value kept is given again."""
    ruleset = load_ruleset("minchiate")
    state = play_batch(ruleset, 1, range(1, 21))
    kept = _shown(ruleset)
    rows = np.arange(state.size)
    seats = np.arange(state.size) % state.players
    before = kept(Ctx(state, rows, {**state.names(rows), "player": seats}))
    reads = []
    original = Keeper._read
    monkeypatch.setattr(Keeper, "_read", lambda *args: reads.append(1) or original(*args))
    half = state.played[rows, seats] & np.uint64(0x5555555555555555)  # back in hand
    state.hands[rows, seats] |= half
    state.played[rows, seats] &= ~half
    after = kept(Ctx(state, rows, {**state.names(rows), "player": seats}))
    assert reads
    assert np.array_equal(_counts(state, before, rows), _counts(state, after, rows))
