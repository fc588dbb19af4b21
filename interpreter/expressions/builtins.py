"""Built-in functions and run-time helpers of the expression language.

Pipeline: grammar.lark -> parser.py -> compiler.py -> builtins.py (this module).
The compiler type-checks calls against the tables here and wires these small
helpers into its closures.  Division by zero never raises: ``/``, ``//`` and
``%`` by zero give 0.  Every arithmetic result is checked to be a number within
MAX_NUMBER of zero; past it (or infinite, or not a number) evaluation stops with
an EvaluationError instead of carrying a silent ``inf`` or ``nan`` into a game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from .errors import EvaluationError
from .numbers import Exact, ratio, shown, whole

#: a number of the language: an int, or a Fraction when not whole (`numbers.py`)
Number = Exact

#: the largest magnitude of a number in an expression, literal or computed
MAX_NUMBER = 10**15

#: functions with a bound variable: name(x in C: body) -> what the body must be
AGGREGATES: dict[str, str] = {
    "count": "BOOL",
    "any": "BOOL",
    "all": "BOOL",
    "sum": "NUMBER",
    "max": "NUMBER",
    "min": "NUMBER",
}

#: plain built-in calls and a human description of their arguments
PLAIN: dict[str, str] = {
    "count": "count(C) takes one CARDS or SEATS value",
    "max": "max(a, b, ...) takes one or more NUMBER values",
    "min": "min(a, b, ...) takes one or more NUMBER values",
    "abs": "abs(a) takes one NUMBER value",
    "ceil": "ceil(a) takes one NUMBER value",
    "floor": "floor(a) takes one NUMBER value",
    "round": "round(a) takes one NUMBER value",
    "power": "power(a, n) takes two NUMBER values, n a whole number from 0 to 100",
}

BUILTIN_NAMES: frozenset[str] = frozenset(AGGREGATES) | frozenset(PLAIN)


def in_range(value: Number) -> Number:
    """`value` itself when it is a number within MAX_NUMBER of zero; else EvaluationError."""
    if -MAX_NUMBER <= value <= MAX_NUMBER:
        return value
    return out_of_range(value)


def checked(value: Number) -> Number:
    """`value` made whole if it is a Fraction that came out whole (`numbers.whole`), checked
    to be within MAX_NUMBER of zero (else EvaluationError)."""
    return in_range(whole(value))


def out_of_range(value: Number) -> Number:
    raise EvaluationError(f"arithmetic gave {describe(value)}; {RANGE_RULE}")


RANGE_RULE = "numbers in expressions stay between -10^15 and 10^15 (never nan or inf)"


def describe(value: Number | float) -> str:
    """A number in a message, short even when it has a thousand digits."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, Fraction) and abs(value) >= 10**300:
        value = math.floor(value)
    if isinstance(value, int) and abs(value) >= 10**300:  # too large for a float
        return f"10^{int((abs(value).bit_length() - 1) * math.log10(2))} or more"
    return f"{float(value):.3g}" if abs(float(value)) >= 10**6 else shown(value)


def div(a: Number, b: Number) -> Number:
    """`a / b` exactly: an int when it comes out even, else a Fraction."""
    return 0 if b == 0 else in_range(ratio(a, b))


def floordiv(a: Number, b: Number) -> Number:
    return 0 if b == 0 else in_range(a // b)


def mod(a: Number, b: Number) -> Number:
    return 0 if b == 0 else whole(a % b)


_HALF = Fraction(1, 2)


def round_half_up(a: Number) -> int:
    """Nearest whole number, halves away from zero (2.5 -> 3, -2.5 -> -3)."""
    if isinstance(a, int):
        return a
    return math.floor(abs(a) + _HALF) * (1 if a >= 0 else -1)


def magnitude(a: Number) -> Number:
    return -a if a < 0 else a


#: the largest exponent `power(a, n)` takes
MAX_EXPONENT = 100


def exponent_problem(n: Number) -> str | None:
    """What is wrong with `n` as the exponent of `power(a, n)`, or None when it is one."""
    if not isinstance(whole(n), int) or not 0 <= n <= MAX_EXPONENT:
        return f"power(a, n) needs n a whole number from 0 to {MAX_EXPONENT}, got {describe(n)}"
    return None


def power(a: Number, n: Number) -> Number:
    """`a` to the `n`-th power, exactly (`n` whole, 0 to MAX_EXPONENT; `power(0, 0)` is 1)."""
    problem = exponent_problem(n)
    if problem is not None:
        raise EvaluationError(problem)
    return checked(a ** int(n))


#: the built-ins that take exactly one number
ONE_NUMBER: dict[str, Callable[[Number], Number]] = {
    "abs": magnitude,
    "ceil": math.ceil,
    "floor": math.floor,
    "round": round_half_up,
}


def max_or_zero(values: Iterable[Number]) -> Number:
    return max(values, default=0)


def min_or_zero(values: Iterable[Number]) -> Number:
    return min(values, default=0)


#: reducers for aggregates: (list of body results) -> result
_REDUCERS: dict[str, Callable[[list], object]] = {
    "count": lambda rs: sum(1 for r in rs if r),
    "sum": lambda rs: in_range(whole(sum(rs))),
    "max": max_or_zero,
    "min": min_or_zero,
}

_MISSING = object()


def make_aggregate(
    kind: str,
    var: str,
    collection: Callable[[Any], Iterable[int]],
    body: Callable[[Any], object],
) -> Callable[[Any], object]:
    """Closure evaluating kind(var in collection: body), or a filter when kind is
    "filter", binding var in scope.vars for each element and restoring it after."""
    if kind == "any":

        def loop(scope: Any, variables: dict, items: Iterable[int]) -> object:
            for item in items:
                variables[var] = item
                if body(scope):
                    return True
            return False

    elif kind == "all":

        def loop(scope: Any, variables: dict, items: Iterable[int]) -> object:
            for item in items:
                variables[var] = item
                if not body(scope):
                    return False
            return True

    elif kind == "filter":

        def loop(scope: Any, variables: dict, items: Iterable[int]) -> object:
            kept = []
            for item in items:
                variables[var] = item
                if body(scope):
                    kept.append(item)
            return tuple(kept)

    else:
        reduce = _REDUCERS[kind]

        def loop(scope: Any, variables: dict, items: Iterable[int]) -> object:
            results = []
            for item in items:
                variables[var] = item
                results.append(body(scope))
            return reduce(results)

    def run(scope: Any) -> object:
        variables = scope.vars
        saved = variables.get(var, _MISSING)
        try:
            return loop(scope, variables, collection(scope))
        finally:
            if saved is _MISSING:
                variables.pop(var, None)
            else:
                variables[var] = saved

    return run
