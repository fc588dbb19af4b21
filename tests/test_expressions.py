"""Tests for tarot.expressions: YAML conformance cases plus property tests."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

# Let `pytest tests/...` work from a plain checkout (no install, no conftest).
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import pytest  # noqa: E402
import yaml  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tarot.expressions import (  # noqa: E402
    CompiledExpression,
    Environment,
    EvaluationError,
    ExpressionError,
    FactFunction,
    Scope,
    Type,
    compile_expression,
)

CASES = yaml.safe_load((Path(__file__).parent / "data" / "expressions.yaml").read_text())

STATE = {
    "hands": {0: (0, 1, 5), 1: (2, 7), 2: ()},
    "points": {0: 10, 1: 3, 2: 7},
    "trick": 4,
}

ENV = Environment(
    variables={
        "player": Type.SEAT,
        "dealer": Type.SEAT,
        "winner": Type.SEAT,
        "card": Type.CARD,
        "last_trick": Type.BOOL,
        "seats": Type.SEATS,
    },
    card_sets={"tarots": frozenset({0, 1, 2}), "kings": frozenset({0, 1})},
    options={"ultimo_failure": 6, "fool_may_lead": True, "two_winners": "each_by_excess"},
    params={"average": 25},
    facts={
        "hand": FactFunction((Type.SEAT,), Type.CARDS, lambda state, s: state["hands"][s]),
        "points": FactFunction((Type.SEAT,), Type.NUMBER, lambda state, s: state["points"][s]),
        "trick_number": FactFunction((), Type.NUMBER, lambda state: state["trick"]),
    },
)


def _case_id(case: dict) -> str:
    return case["expression"][:60] or "<empty>"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_conformance(case: dict) -> None:
    text = case["expression"]
    if "error" in case:
        with pytest.raises(ExpressionError) as info:
            compile_expression(text, ENV)
        assert case["error"] in info.value.message, str(info.value)
        if "at" in case:
            assert [info.value.line, info.value.column] == case["at"], str(info.value)
        return
    compiled = compile_expression(text, ENV)
    scope = Scope(STATE, dict(case.get("given") or {}))
    if "runtime_error" in case:
        with pytest.raises(EvaluationError) as raised:
            compiled(scope)
        assert case["runtime_error"] in str(raised.value)
        return
    value = compiled(scope)
    if compiled.type in (Type.CARDS, Type.SEATS):
        value = list(value)
    assert value == case["result"]
    assert type(value) is type(case["result"]) or compiled.type in (Type.NUMBER,)
    if "type" in case:
        assert compiled.type is Type[case["type"]]
    if "constant" in case:
        assert compiled.is_constant is case["constant"]


def test_public_api() -> None:
    compiled = compile_expression("card in tarots", ENV, expected=Type.BOOL)
    assert isinstance(compiled, CompiledExpression)
    assert compiled.source == "card in tarots"
    assert compiled.fn(Scope(None, {"card": 1})) is True
    assert str(ExpressionError("boom", 2, 5)) == "2:5: boom"


def test_expected_type_mismatch() -> None:
    with pytest.raises(ExpressionError, match="expected a BOOL expression, got NUMBER"):
        compile_expression("1 + 1", ENV, expected=Type.BOOL)


def test_constant_needs_no_state() -> None:
    compiled = compile_expression("option.ultimo_failure + param.average", ENV)
    assert compiled.is_constant
    assert compiled(Scope(None, {})) == 31


def test_bound_variable_is_restored() -> None:
    compiled = compile_expression("count(x in tarots: x in hand(player))", ENV)
    variables: dict[str, object] = {"player": 0}
    assert compiled(Scope(STATE, variables)) == 2
    assert variables == {"player": 0}


def test_too_long() -> None:
    with pytest.raises(ExpressionError, match="too long"):
        compile_expression("1 + " * 600 + "1", ENV)


def test_deep_nesting_is_an_expression_error() -> None:
    # redundant parentheses add no depth
    assert compile_expression("(" * 400 + "1" + ")" * 400, ENV)(Scope(None, {})) == 1
    with pytest.raises(ExpressionError, match="nested too deeply"):
        compile_expression("-" * 1500 + "player", ENV)


def test_yaml_scalars_are_accepted() -> None:
    assert compile_expression(3, ENV)(Scope(None, {})) == 3  # type: ignore[arg-type]
    assert compile_expression(True, ENV).type is Type.BOOL  # type: ignore[arg-type]


# --- property tests -----------------------------------------------------------

_OPS = ["+", "-", "*", "/", "//", "%"]


def _apply(op: str, a: Fraction | int, b: Fraction | int) -> Fraction | int:
    if op in ("/", "//", "%") and b == 0:
        return 0  # never compared: a constant divisor of 0 is refused
    return {
        "+": lambda: a + b,
        "-": lambda: a - b,
        "*": lambda: a * b,
        "/": lambda: Fraction(a) / b,  # exact, as the language's `/`
        "//": lambda: a // b,
        "%": lambda: a % b,
    }[op]()


@st.composite
def arithmetic(draw: st.DrawFn, depth: int = 4) -> tuple[str, Fraction | int]:
    """A random arithmetic expression over integer literals and its exact value."""
    if depth == 0 or draw(st.booleans()):
        n = draw(st.integers(min_value=0, max_value=50))
        return str(n), n
    if draw(st.integers(0, 5)) == 0:
        text, value = draw(arithmetic(depth - 1))
        return f"-({text})", -value
    op = draw(st.sampled_from(_OPS))
    ltext, lvalue = draw(arithmetic(depth - 1))
    rtext, rvalue = draw(arithmetic(depth - 1))
    return f"({ltext}) {op} ({rtext})", _apply(op, lvalue, rvalue)


@settings(max_examples=300, deadline=None)
@given(arithmetic())
def test_arithmetic_agrees_with_python(case: tuple[str, Fraction | int]) -> None:
    """Folded at compile time to the exact value (an int when whole, else a Fraction), within
    the range of numbers, or refused: by a divisor that is always 0 or a result past 10^15."""
    text, expected = case
    try:
        compiled = compile_expression(text, ENV, expected=Type.NUMBER)
    except ExpressionError as error:
        assert "dividing by zero" in error.message or "10^15" in error.message, error.message
        return
    assert compiled.is_constant
    value = compiled(Scope(None, {}))
    assert value == expected
    assert type(value) is int or (isinstance(value, Fraction) and value.denominator != 1)
    assert abs(expected) <= 10**15


_ALPHABET = st.sampled_from(list("()[]+-*/%<>=!:,.'\" \nabcinotfrdsex0123456789_"))
_WORDS = st.sampled_from(
    [
        "if",
        "then",
        "else",
        "and",
        "or",
        "not",
        "in",
        "count",
        "x",
        "tarots",
        "hand",
        "player",
        "option.",
        "param.",
        "true",
        "1",
        "(",
        ")",
        ":",
        "[",
        "]",
        ",",
        "==",
        "+",
        "//",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=60),
        st.text(_ALPHABET, max_size=60),
        st.lists(_WORDS, max_size=15).map(" ".join),
    )
)
def test_garbage_only_raises_expression_error(text: str) -> None:
    try:
        compiled = compile_expression(text, ENV)
    except ExpressionError as err:
        assert err.line >= 1 and err.column >= 1
        assert err.message
    else:
        assert isinstance(compiled, CompiledExpression)
