"""Aggregations whose body only asks whether the bound element is in a set, run as set
operations instead of a loop over the elements.

Pipeline: grammar.lark -> parser.py -> compiler.py -> builtins.py; the compiler asks this
module for a faster closure of `count`, `any`, `all` and filters whose body is an
`ElementTest`. Two shapes:

- the set is a constant (`x in tarots`, and `and`/`or`/`not` of such over the same `x`):
  `count(x in C: x in K)` is `sum(map(K.__contains__, C))`, `any` is `not K.isdisjoint(C)`,
  `all` is `K.issuperset(C)`, the filter is `tuple(filter(K.__contains__, C))`;
- the set is an expression that does not read `x` (`all(c in kings: c in hand(player))`):
  it is worked out once, not once per element, and only when the collection has elements,
  as the loop does.

Every result is exactly the loop's: the same type (an int count, a bool, a tuple kept in
order with its repeats), elements counted as often as the collection holds them, the
expression raising where the loop would have raised on its first element.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import filterfalse

Fn = Callable[[object], object]


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
    if not _constant_pair(left, right):
        return None
    a, b = left.cards, right.cards  # type: ignore[union-attr]
    if not left.negated and not right.negated:  # type: ignore[union-attr]
        return ElementTest(left.var, a & b)  # type: ignore[operator, union-attr]
    if left.negated and right.negated:  # type: ignore[union-attr]
        return ElementTest(left.var, a | b, negated=True)  # type: ignore[operator, union-attr]
    inside, outside = (a, b) if not left.negated else (b, a)  # type: ignore[union-attr]
    return ElementTest(left.var, inside - outside)  # type: ignore[operator, union-attr]


def either(left: ElementTest | None, right: ElementTest | None) -> ElementTest | None:
    """The test of `left or right`, when both are constant tests of the same element."""
    if not _constant_pair(left, right):
        return None
    # x in A or x in B  ==  not (x not in A and x not in B)
    return both(left.inverted(), right.inverted()).inverted()  # type: ignore[union-attr]


def _constant_pair(left: ElementTest | None, right: ElementTest | None) -> bool:
    return (
        left is not None
        and right is not None
        and left.var == right.var
        and left.cards is not None
        and right.cards is not None
    )


def aggregate(kind: str, collection: Fn, elements: tuple | None, test: ElementTest) -> Fn | None:
    """The closure of `kind(var in collection: test)` ("filter" for `[var in C if test]`)
    as set operations, or None when this shape has none; `elements` is the collection's
    value when it is a constant."""
    if test.cards is not None:
        return _over_constant_set(kind, collection, test.cards, test.negated)
    if elements is not None and test.collection is not None:
        return _constant_over_expression(kind, elements, test.collection, test.negated)
    return None


def _constant_over_expression(kind: str, elements: tuple, expression: Fn, negated: bool):
    if not elements:  # the loop never works the expression out
        empty: object = {"count": 0, "any": False, "all": True, "filter": ()}.get(kind)
        return None if empty is None else lambda s: empty
    distinct = frozenset(elements)
    if kind == "count":
        if negated:
            return lambda s: (
                len(elements) - sum(map(frozenset(expression(s)).__contains__, elements))
            )  # type: ignore[arg-type]
        return lambda s: sum(map(frozenset(expression(s)).__contains__, elements))  # type: ignore[arg-type]
    if kind == "any":
        if negated:
            return lambda s: not distinct.issubset(expression(s))  # type: ignore[arg-type]
        return lambda s: not distinct.isdisjoint(expression(s))  # type: ignore[arg-type]
    if kind == "all":
        if negated:
            return lambda s: distinct.isdisjoint(expression(s))  # type: ignore[arg-type]
        return lambda s: distinct.issubset(expression(s))  # type: ignore[arg-type]
    if kind == "filter":
        keep = filterfalse if negated else filter
        return lambda s: tuple(keep(frozenset(expression(s)).__contains__, elements))  # type: ignore[arg-type]
    return None


def _over_constant_set(kind: str, collection: Fn, cards: frozenset, negated: bool) -> Fn | None:
    inside = cards.__contains__
    if kind == "count":
        if negated:
            return lambda s: len(c := collection(s)) - sum(map(inside, c))  # type: ignore[arg-type]
        return lambda s: sum(map(inside, collection(s)))  # type: ignore[arg-type]
    if kind == "any":
        if negated:
            return lambda s: not cards.issuperset(collection(s))  # type: ignore[arg-type]
        return lambda s: not cards.isdisjoint(collection(s))  # type: ignore[arg-type]
    if kind == "all":
        if negated:
            return lambda s: cards.isdisjoint(collection(s))  # type: ignore[arg-type]
        return lambda s: cards.issuperset(collection(s))  # type: ignore[arg-type]
    if kind == "filter":
        keep = filterfalse if negated else filter
        return lambda s: tuple(keep(inside, collection(s)))  # type: ignore[arg-type]
    return None
