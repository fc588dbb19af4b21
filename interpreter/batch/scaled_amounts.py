"""Payments held exactly in float64 arrays when they come in thirds, fifths and the like.

Where it sits: between `tarot.batch.exactness` (which numbers a float holds exactly) and the
batch program (`tarot.batch.program`), which compiles each payment rule's amount through
`ArrayCompiler.expression(..., scale=...)`. A payment shared among a side of three seats
(`x / count(defenders)`) is a third of a whole number, which no float64 holds; but the
same payment counted in sixths is whole. So where a ruleset's amounts divide by a number
of seats that may be three or more, or by a whole constant that is not a power of two, the
batch back end counts every payment, each seat's net and what each rule paid in units of
1/`scale` (`BatchState.scale`), `scale` being the least common multiple of every divisor
those divisions may have (`payment_scale`, worked out at load). Each such amount is
compiled as `amount * scale`, the division rewritten so that no quotient is ever formed:
`a / count(S) * scale` is `a * (scale // count(S))`, exact since `count(S)` divides `scale`
(`scaled_tree`). Results are divided back only where they are reported (`unscaled`,
`exact_values`): a float64 quotient of two whole numbers is the float nearest the exact
number, as the scalar engine's measures give it, and the records read the exact number.

A constant a float cannot hold (`40 / 3`, which the checker works out as 40/3) is counted the
same way: its denominator is one of the divisors, and it is compiled as `40/3 * scale`.
Only the divisions and constants the amount adds, subtracts, multiplies, negates or picks
with `if` are rewritten (there the scaled amount is a sum of products); one elsewhere (under
`max`, inside an aggregation, in a comparison) is left as it is, and the array runner refuses
it at load as before (`exactness.counts_seats`, `constant_divisor`, `constant`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from math import lcm

import numpy as np

from tarot.batch.exactness import binary, seats_counted
from tarot.expressions import EvaluationError
from tarot.expressions.numbers import Exact, exact, shown
from tarot.expressions.typed_tree import Type, Typed, constant

Body = Callable[[str], Typed | None]

#: the largest scale the batch back end counts in (lcm(1..16) is 720,720): beyond it the
#: amounts' range in float64 would shrink too much to be worth it
MOST_SCALE = 1 << 20


def divisors(tree: Typed, in_hand: int, body: Body) -> set[int]:
    """Every whole divisor a division of `tree` that `scaled_tree` rewrites may have: each
    count of 1 to the most seats of a group (`count(S)`), or a whole constant whose
    quotients a float may not hold; and the denominator of a constant a float cannot hold
    (`40 / 3`, which the checker works out as 40/3)."""
    found: set[int] = set()
    for node in _rewritten(tree, in_hand, body):
        if node.op == "const":
            found.add(Fraction(node.value).denominator)
        else:
            found |= _divisor_values(node.args[1], in_hand, body) or set()
    return found


def payment_scale(trees: Iterable[Typed], in_hand: int, body: Body) -> int:
    """The least common multiple of every divisor the amounts `trees` may divide by (1:
    none, and the amounts are held as they are); ValueError when it is past MOST_SCALE."""
    scale = lcm(1, *(d for tree in trees for d in divisors(tree, in_hand, body)))
    if scale > MOST_SCALE:
        raise ValueError(
            f"payments divided by numbers whose least common multiple is {scale}, past the "
            f"{MOST_SCALE} the batch back end counts payments in"
        )
    return scale


def scaled_tree(tree: Typed, scale: int, in_hand: int, body: Body) -> Typed:
    """`tree * scale`, with each division `scaled_tree` rewrites (see the module) made a
    product by `scale // divisor`, so that no quotient is formed."""
    if scale == 1:
        return tree
    if not _divides(tree, in_hand, body):
        return _times(tree, constant(Type.NUMBER, scale))
    op, args = tree.op, tree.args
    if op == "const":
        return constant(Type.NUMBER, exact(Fraction(tree.value) * scale))
    if op == "definition":
        inner = body(tree.name)
        assert inner is not None  # `_divides` found a division in it
        return scaled_tree(inner, scale, in_hand, body)
    if op == "div":
        left, right = args
        if right.is_const:
            share: Typed = constant(Type.NUMBER, scale // int(right.value))
        else:
            share = Typed("floordiv", Type.NUMBER, (constant(Type.NUMBER, scale), right),
                          cost=right.cost + 1, reads=right.reads)  # fmt: skip
        return _times(left, share)
    if op in ("add", "sub"):
        parts = tuple(scaled_tree(arg, scale, in_hand, body) for arg in args)
        return _node(tree, parts)
    if op == "neg":
        return _node(tree, (scaled_tree(args[0], scale, in_hand, body),))
    if op == "mul":  # one factor carries the scale: the first that divides
        left, right = args
        if _divides(left, in_hand, body):
            return _node(tree, (scaled_tree(left, scale, in_hand, body), right))
        return _node(tree, (left, scaled_tree(right, scale, in_hand, body)))
    assert op == "cond"  # `_divides` descends no other form
    test, then, other = args
    branches = (scaled_tree(then, scale, in_hand, body), scaled_tree(other, scale, in_hand, body))
    return _node(tree, (test, *branches))


def unscaled(values: np.ndarray, scale: int) -> np.ndarray:
    """Amounts counted in 1/`scale` as the floats nearest them (each exact where a float can
    hold it: a float64 quotient of two whole numbers is correctly rounded)."""
    return values if scale == 1 else values / scale


def exactly_unscaled(values: np.ndarray, scale: int, what: str) -> np.ndarray:
    """`unscaled`, for a value that expressions read (`what` it is): EvaluationError where a
    float cannot hold it exactly (a seat's result of 40/3, say), saying to play the ruleset
    on the scalar engine."""
    if scale == 1:
        return values
    odd = scale // (scale & -scale)  # the float holds n / scale iff n is a multiple of this
    unsure = np.fmod(values, odd) != 0
    if np.any(unsure):
        first = Fraction(float(np.asarray(values)[unsure].flat[0])) / scale
        raise EvaluationError(
            f"{what} of {shown(exact(first))}, which the batch back end's float64 arrays "
            "cannot hold exactly: play this ruleset with --backend scalar"
        )
    return values / scale


def results_compared_only(tree: Typed, fact: str, body: Body) -> bool:
    """Whether every call of `fact` (a seat's result, which a float holds only nearly once
    payments come in thirds) under `tree` is only compared: an argument of a comparison,
    maybe through `max`, `min` or a branch of `if`. A float nearest an exact number keeps its
    order and its equalities with every other such float and every constant (numbers counted
    in 1/scale lie much further apart than a float's last bit), so comparisons of them are
    exact; arithmetic on them is not. Definitions are looked into."""
    return _compared_only(tree, fact, body, False, set())


def _compared_only(tree: Typed, fact: str, body: Body, compared: bool, seen: set) -> bool:
    op, args = tree.op, tree.args
    if op == "call" and tree.name == fact:
        if not compared:
            return False
        compared = False  # its arguments (the seat) are not
    elif op in ("definition", "call"):  # a definition's value is compared where it is
        if (tree.name, compared) not in seen:
            seen.add((tree.name, compared))
            inner = body(tree.name)
            if inner is not None and not _compared_only(inner, fact, body, compared, seen):
                return False
        compared = False  # its arguments (a seat) are not
    elif op in ("lt", "le", "gt", "ge", "eq", "ne"):
        compared = True
    elif op == "cond":
        test, *branches = args
        return _compared_only(test, fact, body, False, seen) and all(
            _compared_only(branch, fact, body, compared, seen) for branch in branches
        )
    elif op == "aggregate" and tree.name in ("max", "min"):
        collection, inner = args
        return _compared_only(collection, fact, body, False, seen) and _compared_only(
            inner, fact, body, compared, seen
        )
    elif not (op == "builtin" and tree.name in ("max", "min")):
        compared = False
    return all(_compared_only(arg, fact, body, compared, seen) for arg in args)


def exact_values(values: np.ndarray, scale: int) -> list[Exact]:
    """Amounts counted in 1/`scale` as exact numbers (ints when whole), as records write
    them: each float is exactly the binary number it holds."""
    return [exact(Fraction(v) / scale) for v in np.asarray(values, dtype=np.float64).tolist()]


def _rewritten(tree: Typed, in_hand: int, body: Body) -> Iterable[Typed]:
    """The divisions and the constants `scaled_tree` rewrites (see the module), definitions
    looked into."""
    op, args = tree.op, tree.args
    if op == "div" and _divisor_values(args[1], in_hand, body) is not None:
        yield tree
    elif op == "const" and isinstance(tree.value, Fraction) and not binary(tree.value):
        yield tree
    elif op in ("add", "sub", "neg", "mul"):
        for arg in args:
            yield from _rewritten(arg, in_hand, body)
    elif op == "cond":
        for arg in args[1:]:
            yield from _rewritten(arg, in_hand, body)
    elif op == "definition":
        inner = body(tree.name)
        if inner is not None:
            yield from _rewritten(inner, in_hand, body)


def _divides(tree: Typed, in_hand: int, body: Body) -> bool:
    return next(iter(_rewritten(tree, in_hand, body)), None) is not None


def _divisor_values(divisor: Typed, in_hand: int, body: Body) -> set[int] | None:
    """The values a divisor rewritten may have: 1 to the most seats of a counted group that
    may hold three or more, a whole constant not a power of two; None for any other divisor
    (left as it is: a float holds its quotients, or the array runner refuses it)."""
    if divisor.is_const:
        value = divisor.value
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            return None
        return None if value & (value - 1) == 0 else {value}
    most = seats_counted(divisor, in_hand, body)
    if most is None or most < 3:
        return None
    return set(range(1, most + 1))


def _times(tree: Typed, factor: Typed) -> Typed:
    return Typed(
        "mul",
        Type.NUMBER,
        (tree, factor),
        cost=tree.cost + factor.cost + 1,
        reads=tree.reads | factor.reads,
    )


def _node(tree: Typed, args: tuple[Typed, ...]) -> Typed:
    """`tree` with these arguments."""
    return Typed(
        tree.op,
        tree.type,
        args,
        tree.name,
        tree.value,
        tree.var,
        cost=sum(arg.cost for arg in args) + 1,
        reads=frozenset().union(*(arg.reads for arg in args)),
    )
