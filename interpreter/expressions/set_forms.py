"""Aggregations whose body only asks whether the bound element is in a set, run as set
operations instead of a loop over the elements.

Pipeline: grammar.lark -> parser.py -> compiler.py -> builtins.py; the compiler asks this
module for a faster closure of `count`, `any`, `all` and filters whose body is an
`ElementTest`. Two shapes:

- the set is a constant (`x in SET`, and `and`/`or`/`not` of such over the same `x`):
  `count(x in C: x in K)` is `sum(map(K.__contains__, C))`, `any` is `not K.isdisjoint(C)`,
  `all` is `K.issuperset(C)`, the filter is `tuple(filter(K.__contains__, C))`;
- the set is an expression that does not read `x` (`all(c in SET: c in hand(player))`,
  `[c in side_pile(s) if c in shown(s)]`): it is worked out once, not once per element, and
  only when the collection has elements, as the loop does; the cost model counts it once.

Every result is exactly the loop's: the same type (an int count, a bool, a tuple kept in
order with its repeats), elements counted as often as the collection holds them, the
expression raising where the loop would have raised on its first element.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import filterfalse
from typing import Any

Fn = Callable[[Any], Any]


@dataclass(frozen=True)
class ElementTest:
    """A BOOL that is `var in cards` (`negated`: `var not in cards`), where `cards` is a
    constant set, or else the value of `collection` (an expression not reading `var`)."""

    var: str
    cards: frozenset | None = None
    collection: Fn | None = None
    negated: bool = False

    def inverted(self) -> ElementTest:
        return ElementTest(self.var, self.cards, self.collection, not self.negated)


def both(left: ElementTest | None, right: ElementTest | None) -> ElementTest | None:
    """The test of `left and right`, when both are constant tests of the same element."""
    if left is None or right is None or not _constant_pair(left, right):
        return None
    a, b = left.cards or frozenset(), right.cards or frozenset()
    if not left.negated and not right.negated:
        return ElementTest(left.var, a & b)
    if left.negated and right.negated:
        return ElementTest(left.var, a | b, negated=True)
    inside, outside = (a, b) if not left.negated else (b, a)
    return ElementTest(left.var, inside - outside)


def either(left: ElementTest | None, right: ElementTest | None) -> ElementTest | None:
    """The test of `left or right`, when both are constant tests of the same element."""
    if left is None or right is None or not _constant_pair(left, right):
        return None
    # x in A or x in B  ==  not (x not in A and x not in B)
    return both(left.inverted(), right.inverted()).inverted()  # type: ignore[union-attr]


def _constant_pair(left: ElementTest, right: ElementTest) -> bool:
    return left.var == right.var and left.cards is not None and right.cards is not None


def aggregate(kind: str, collection: Fn, elements: tuple | None, test: ElementTest) -> Fn | None:
    """The closure of `kind(var in collection: test)` ("filter" for `[var in C if test]`)
    as set operations, or None when this shape has none; `elements` is the collection's
    value when it is a constant."""
    if test.cards is not None:
        return _constant_membership(kind, collection, test.cards, test.negated)
    if test.collection is None or kind not in EMPTY:
        return None
    expression = test.collection
    if elements is None:
        return _worked_out_membership(kind, collection, expression, test.negated)
    if not elements:  # the loop never works the expression out
        empty = EMPTY[kind]
        return lambda s: empty
    return _membership(kind, lambda s: elements, lambda s: frozenset(expression(s)), test.negated)


#: what each aggregation that has a set form gives over no elements
EMPTY: dict[str, object] = {"count": 0, "any": False, "all": True, "filter": ()}


def _worked_out_membership(kind: str, collection: Fn, expression: Fn, negated: bool) -> Fn:
    """`kind` over a collection worked out at each call, each element asked whether it is in
    the set `expression` gives: worked out once, after the collection and only when that has
    elements, as the loop does."""
    empty = EMPTY[kind]

    def run(scope: Any) -> Any:
        items = collection(scope)
        if not items:
            return empty
        within = frozenset(expression(scope))
        if kind == "count":
            inside = sum(map(within.__contains__, items))
            return len(items) - inside if negated else inside
        if kind == "any":
            return not within.issuperset(items) if negated else not within.isdisjoint(items)
        if kind == "all":
            return within.isdisjoint(items) if negated else within.issuperset(items)
        return tuple((filterfalse if negated else filter)(within.__contains__, items))

    return run


def _constant_membership(kind: str, items: Fn, cards: frozenset, negated: bool) -> Fn | None:
    """`_membership` with a constant set: its methods bound once, not looked up per call."""
    inside = cards.__contains__
    if kind == "count":
        if negated:
            return lambda s: len(c := items(s)) - sum(map(inside, c))
        return lambda s: sum(map(inside, items(s)))
    if kind == "any":
        if negated:
            return lambda s: not cards.issuperset(items(s))
        disjoint = cards.isdisjoint
        return lambda s: not disjoint(items(s))
    if kind == "all":
        if negated:
            disjoint = cards.isdisjoint
            return lambda s: disjoint(items(s))
        superset = cards.issuperset
        return lambda s: superset(items(s))
    if kind == "filter":
        keep = filterfalse if negated else filter
        return lambda s: tuple(keep(inside, items(s)))
    return None


def _membership(kind: str, items: Fn, within: Fn, negated: bool) -> Fn | None:
    """`kind` over the elements `items` gives (in order, with repeats), each asked whether
    it is in the set `within` gives (`negated`: whether it is not)."""
    if kind == "count":
        if negated:
            return lambda s: len(c := items(s)) - sum(map(within(s).__contains__, c))
        return lambda s: sum(map(within(s).__contains__, items(s)))
    if kind == "any":
        if negated:
            return lambda s: not within(s).issuperset(items(s))
        return lambda s: not within(s).isdisjoint(items(s))
    if kind == "all":
        if negated:
            return lambda s: within(s).isdisjoint(items(s))
        return lambda s: within(s).issuperset(items(s))
    if kind == "filter":
        keep = filterfalse if negated else filter
        return lambda s: tuple(keep(within(s).__contains__, items(s)))
    return None
