"""Property-based fuzzing of the expression compiler (hypothesis), against a real ruleset.

Random texts made of the grammar's tokens and the ruleset's names, and random well-typed
trees built from the grammar's productions, are compiled where a payment's amount stands at
the end of a trick (every name of the language is available there). Each must compile or
raise ExpressionError with a position; a compiled one must stay within the cost budget and,
evaluated on a hand in the middle of play, give a value of its type (a number within the
range, never nan or inf) or raise EvaluationError, each example within hypothesis's deadline.

CI runs a few hundred examples per test (a few seconds). A longer run:

    TAROT_FUZZ_EXAMPLES=20000 python -m pytest tests/test_expression_fuzz.py -q
"""

from __future__ import annotations

import os
import random
from datetime import timedelta
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarot.compile.loader import load_ruleset, run_stages
from tarot.engine.state import HandState
from tarot.expressions import (
    EvaluationError,
    ExpressionError,
    Type,
    compile_expression,
    set_forms,
)
from tarot.expressions.builtins import MAX_NUMBER
from tarot.expressions.compiler import COST_BUDGET
from tarot.load import paths
from tarot.load.inheritance import resolve

# the slow tier (`python -m pytest -m slow`): expressions generated at random
pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("TAROT_FUZZ_EXAMPLES", "300"))
RULESET = "french-tarot"
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=2),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def _environment():
    path = paths.find_builtin(RULESET)
    _draft, compiler = run_stages(path, resolve(path, paths.find_builtin, paths.list_builtins), {})
    compiler.compile()
    return compiler.environment("trick_end", amount=True)


def _state() -> HandState:
    """A hand of the ruleset after the auction and a few tricks."""
    ruleset = load_ruleset(RULESET)
    rng = random.Random(5)
    pack = list(range(len(ruleset.deck)))
    rng.shuffle(pack)
    state = HandState(ruleset, 0, pack)
    while state.auction.taker is None or state.play.trick_number < 4:
        choices = state.legal_actions()
        bids = [c for c in choices if c != "pass"]
        state.apply_action(
            bids[0] if state.decision.kind == "bid" and bids else rng.choice(choices)
        )
    return state


ENV = _environment()
STATE = _state()
MOMENT = {
    "player": 1,
    "card": 3,
    "trick": (3, 40),
    "trick_number": 4,
    "last_trick": False,
    "leader": 0,
    "winner": 2,
    "keeper": 2,
    "payer": 1,
    "payee": 2,
}

# --- random texts of tokens ----------------------------------------------------

_PUNCTUATION = "( ) [ ] , : . + - * / // % == != < <= > >= ' \"".split()
_KEYWORDS = "if then else and or not in true false".split()
_NAMES = sorted(
    {*ENV.variables, *ENV.card_sets, *ENV.facts, *ENV.named, "option", "param", "contract"}
    | {"count", "sum", "any", "all", "max", "min", "abs", "ceil", "floor", "round", "x", "y"}
)
_NUMBERS = ["0", "1", "2.5", "1000000000000000", "99999999999999999999", "0.0000001"]
TOKENS = st.lists(
    st.sampled_from(_PUNCTUATION + _KEYWORDS + _NAMES + _NUMBERS), min_size=1, max_size=30
).map(" ".join)

# --- random well-typed trees ---------------------------------------------------


def _names_of(type_: Type) -> list[str]:
    found = [n for n, t in ENV.variables.items() if t is type_]
    found += [n for n, d in ENV.named.items() if d.type is type_]
    return found + (sorted(ENV.card_sets) if type_ is Type.CARDS else [])


def _numbers() -> list[str]:
    params = [f"param.{n}" for n, v in ENV.params.items() if isinstance(v, int | Fraction)]
    return params + [f"contract.{n}" for n in sorted(ENV.contract_values)]


def _calls(type_: Type) -> list[tuple[str, tuple[Type, ...]]]:
    return [(n, f.params) for n, f in ENV.facts.items() if f.returns is type_]


COLLECTION = {Type.CARDS: Type.CARD, Type.SEATS: Type.SEAT}


@st.composite
def tree(draw: st.DrawFn, type_: Type, depth: int = 4, bound: tuple = ()) -> str:
    """A random expression of `type_`; `bound` holds (name, type) of the variables in scope."""
    leaves = [n for n, t in bound if t is type_] + _names_of(type_)
    if type_ is Type.NUMBER:
        leaves += [*_NUMBERS[:4], *_numbers()]
    elif type_ is Type.BOOL:
        leaves += ["true", "false"]
    elif type_ is Type.STRING:
        leaves += ["'petit'", "'garde'"]
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        if leaves:
            return draw(st.sampled_from(leaves))
    sub = depth - 1

    def of(t: Type) -> str:
        return draw(tree(t, sub, bound))

    def aggregate(kind: str, body: Type) -> str:
        collection = draw(st.sampled_from([Type.CARDS, Type.SEATS]))
        var = f"v{len(bound)}"
        inner = draw(tree(body, sub, (*bound, (var, COLLECTION[collection]))))
        return f"{kind}({var} in {of(collection)}: {inner})"

    options: list = []
    for name, params in _calls(type_):
        options.append(lambda n=name, p=params: f"{n}({', '.join(of(t) for t in p)})")
    if type_ is Type.NUMBER:
        options += [
            lambda: (
                f"({of(Type.NUMBER)} {draw(st.sampled_from(['+', '-', '*', '/', '//', '%']))}"
                f" {of(Type.NUMBER)})"
            ),
            lambda: f"-{of(Type.NUMBER)}",
            lambda: f"{draw(st.sampled_from(['abs', 'ceil', 'floor', 'round']))}({of(type_)})",
            lambda: f"max({of(Type.NUMBER)}, {of(Type.NUMBER)})",
            lambda: f"count({of(draw(st.sampled_from([Type.CARDS, Type.SEATS])))})",
            lambda: aggregate(draw(st.sampled_from(["sum", "max", "min"])), Type.NUMBER),
            lambda: aggregate("count", Type.BOOL),
        ]
    elif type_ is Type.BOOL:
        options += [
            lambda: (
                f"({of(Type.NUMBER)} {draw(st.sampled_from(['==', '<', '>=']))} {of(Type.NUMBER)})"
            ),
            lambda: f"({of(Type.CARD)} in {of(Type.CARDS)})",
            lambda: f"({of(Type.SEAT)} not in {of(Type.SEATS)})",
            lambda: f"({of(Type.BOOL)} {draw(st.sampled_from(['and', 'or']))} {of(Type.BOOL)})",
            lambda: f"not {of(Type.BOOL)}",
            lambda: aggregate(draw(st.sampled_from(["any", "all"])), Type.BOOL),
        ]
    elif type_ in COLLECTION:

        def keep() -> str:
            var = f"v{len(bound)}"
            condition = draw(tree(Type.BOOL, sub, (*bound, (var, COLLECTION[type_]))))
            return f"[{var} in {of(type_)} if {condition}]"

        options.append(keep)
        if type_ is Type.CARDS:
            options.append(lambda: f"({of(Type.CARDS)} + {of(Type.CARDS)})")
    options.append(lambda: f"(if {of(Type.BOOL)} then {of(type_)} else {of(type_)})")
    return draw(st.sampled_from(options))()


# --- the properties --------------------------------------------------------------


def _check(text: str) -> None:
    try:
        compiled = compile_expression(text, ENV)
    except ExpressionError as error:
        assert error.line >= 1 and error.column >= 1 and error.message
        return
    assert compiled.cost <= COST_BUDGET
    try:
        value = STATE.evaluate(compiled, dict(MOMENT))
    except EvaluationError as error:
        assert "numbers in expressions stay between" in str(error)
        return
    if compiled.type is Type.NUMBER:
        # numbers are exact: an int, or a Fraction where a division does not come out even
        assert isinstance(value, int | Fraction) and not isinstance(value, bool)
        assert abs(value) <= MAX_NUMBER
    elif compiled.type is Type.BOOL:
        assert isinstance(value, bool)
    elif compiled.type in COLLECTION:
        assert all(isinstance(item, int) for item in value)


@FUZZ
@given(TOKENS)
def test_token_soup_compiles_or_is_refused_and_runs_or_stops_cleanly(text: str) -> None:
    _check(text)


@FUZZ
@given(st.sampled_from(list(Type)).flatmap(lambda t: tree(t)))
def test_random_trees_compile_or_are_refused_and_run_or_stop_cleanly(text: str) -> None:
    _check(text)


def test_the_sample_state_is_a_hand_in_play() -> None:
    """The properties above evaluate on a real hand: after the auction, cards in hand."""
    compiled = compile_expression("count(v0 in trumps: v0 in hand(player))", ENV)
    assert STATE.phase == "play" and STATE.auction.taker is not None
    assert STATE.evaluate(compiled, dict(MOMENT)) == len(
        [c for c in STATE.hands[1] if c in ENV.card_sets["trumps"]]
    )


def _check_guard(text: str) -> None:
    """A card the condition's guard leaves out makes it false without raising."""
    try:
        compiled = compile_expression(text, ENV, Type.BOOL)
    except ExpressionError:
        return
    needs = compiled.needs
    deck = range(len(STATE.ruleset.deck))
    left_out = deck if needs is None else [c for c in deck if c not in needs.get("card", deck)]
    for card in left_out:
        assert STATE.evaluate(compiled, {**MOMENT, "card": card}) is False, (text, card)


@FUZZ
@given(tree(Type.BOOL))
def test_a_card_guard_leaves_out_only_cards_that_make_the_condition_false(text: str) -> None:
    _check_guard(text)


def test_guards_of_the_shapes_payment_rules_use() -> None:
    sets = ENV.card_sets
    trumps, bouts = sets["trumps"], sets["bouts"]

    def needs(text: str):
        return compile_expression(text, ENV, Type.BOOL).needs

    assert needs("card in trumps") == {"card": trumps}
    assert needs("card in trumps and winner == player") == {"card": trumps}
    assert needs("last_trick and card in trumps and card in bouts") == {"card": trumps & bouts}
    assert needs("card in trumps or card in bouts") == {"card": trumps | bouts}
    assert needs("card in trumps or last_trick") == {}
    assert needs("card not in trumps") == {}
    assert needs("not (card in trumps)") == {}
    assert needs("false and card in trumps") is None
    assert needs("false or card in trumps") == {"card": trumps}
    # the right side of `and` is only reached when the left side did not raise
    assert needs("points(player) > 3 and card in trumps") == {}
    assert needs("(card in trumps) and (points(player) > 3)") == {"card": trumps}
    # a bound variable is not the event's card
    assert needs("any(c in hand(player): c in trumps)") == {}
    _check_guard("points(player) * 1000000000000 > 0 and card in trumps")


def _value_or_error(text: str) -> object:
    try:
        return STATE.evaluate(compile_expression(text, ENV), dict(MOMENT))
    except (ExpressionError, EvaluationError) as error:
        return type(error), str(error)


def _same_as_the_loop(text: str) -> None:
    fast = _value_or_error(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(set_forms, "aggregate", lambda *_args: None)
        slow = _value_or_error(text)
    assert (type(fast), fast) == (type(slow), slow), text


@FUZZ
@given(st.sampled_from(list(Type)).flatmap(lambda t: tree(t)))
def test_set_forms_give_exactly_what_the_loop_gives(text: str) -> None:
    _same_as_the_loop(text)


_SET_ATOMS = ["v in kings", "v not in trumps", "v in bouts", "v in hand(player)", "v not in trick"]
_SET_COLLECTIONS = [
    "hand(player)",
    "trumps",
    "kings + bouts + kings",  # a constant with repeats
    "hand(player) + hand(2) + hand(player)",  # repeats at run time
    "[c in kings if c in trumps]",  # empty
    "tricks(3)",
]


@st.composite
def _membership(draw: st.DrawFn, depth: int = 2) -> str:
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from(_SET_ATOMS))
    form = draw(st.sampled_from(["({} and {})", "({} or {})", "not ({})"]))
    parts = [draw(_membership(depth - 1)) for _ in range(form.count("{}"))]
    return form.format(*parts)


@FUZZ
@given(
    st.sampled_from(["count", "any", "all", "filter"]),
    st.sampled_from(_SET_COLLECTIONS),
    _membership(),
)
def test_set_forms_of_membership_bodies_match_the_loop(kind: str, collection: str, body: str):
    if kind == "filter":
        text = f"[v in {collection} if {body}]"
    else:
        text = f"{kind}(v in {collection}: {body})"
    _same_as_the_loop(text)
