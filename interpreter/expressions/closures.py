"""The scalar runner: a typed tree made into nested closures over a Scope.

Pipeline: grammar.lark -> parser.py -> compiler.py (the checker: types, cost, guards, the
typed tree of `typed_tree.py`) -> this module (the closures the scalar engine calls) ->
builtins.py. The batch back end's runner of the same tree is `tarot.batch.array_exprs`.
Nothing is interpreted at run time: each closure calls its arguments' closures directly, and
common shapes get leaner ones (a comparison with a constant, `x in SET` of a bare variable, a
fact of one variable, an aggregation that is a set operation: `set_forms.py`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from . import builtins as bi
from . import set_forms
from .typed_tree import Typed
from .types import Environment, Scope, Type, Value

Fn = Callable[[Scope], Value]
#: builds the closure of a sub-tree (`element_test` takes one, so that the checker may ask
#: for the shape of an aggregation without making its closures)
Build = Callable[[Typed], Fn]

_ARITH: dict[str, Callable[[Value, Value], Value]] = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "div": bi.div,
    "floordiv": bi.floordiv,
    "mod": bi.mod,
}
_COMPARE: dict[str, Callable[[Value, Value], Value]] = {
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
    "eq": operator.eq,
    "ne": operator.ne,
}


def _less_than(f: Fn, v: object) -> Fn:
    return lambda s: f(s) < v


def _at_most(f: Fn, v: object) -> Fn:
    return lambda s: f(s) <= v


def _greater_than(f: Fn, v: object) -> Fn:
    return lambda s: f(s) > v


def _at_least(f: Fn, v: object) -> Fn:
    return lambda s: f(s) >= v


def _equal_to(f: Fn, v: object) -> Fn:
    return lambda s: f(s) == v


def _other_than(f: Fn, v: object) -> Fn:
    return lambda s: f(s) != v


#: `x OP constant` as one closure, by operator (functions, not nested lambdas: mypyc compiles
#: these, not a lambda that returns a lambda)
_AGAINST_CONSTANT: dict[str, Callable[[Fn, object], Fn]] = {
    "lt": _less_than,
    "le": _at_most,
    "gt": _greater_than,
    "ge": _at_least,
    "eq": _equal_to,
    "ne": _other_than,
}


#: operations that one method runs for several (by name, not class-body aliases, which mypyc
#: does not compile)
_SHARED = dict.fromkeys(_ARITH, "r_arith") | dict.fromkeys(_COMPARE, "r_compare")
_SHARED |= {"bound": "r_var", "not_member": "r_member", "filter": "r_aggregate"}


def closure(tree: Typed, env: Environment) -> Fn:
    """The closure that evaluates `tree` on a Scope; `env` gives the facts' implementations
    and the definitions' closures."""
    return _Runner(env).build(tree)


def element_test(tree: Typed, build: Build) -> set_forms.ElementTest | None:
    """`tree` as a test of whether a bound element is in a set (`set_forms`), or None: `x
    in SET` or `x in EXPRESSION` (one not reading x), and `and`/`or`/`not` of such."""
    op = tree.op
    if op in ("member", "not_member"):
        left, right = tree.args
        if left.op != "bound":
            return None
        negate = op == "not_member"
        if right.is_const:
            return set_forms.ElementTest(left.name, frozenset(right.value), None, negate)
        if not right.mentions(left.name):
            return set_forms.ElementTest(left.name, None, build(right), negate)
        return None
    if op == "and":
        return set_forms.both(element_test(tree.args[0], build), element_test(tree.args[1], build))
    if op == "or":
        return set_forms.either(
            element_test(tree.args[0], build), element_test(tree.args[1], build)
        )
    if op == "not":
        test = element_test(tree.args[0], build)
        return None if test is None else test.inverted()
    return None


def set_form_test(tree: Typed, build: Build) -> set_forms.ElementTest | None:
    """The test an aggregation or filter `tree` runs as set operations (None: a loop)."""
    test = element_test(tree.args[1], build)
    return test if test is not None and test.var == tree.var else None


class _Runner:
    def __init__(self, env: Environment) -> None:
        self.env = env

    def build(self, tree: Typed) -> Fn:
        method: Callable[[Typed], Fn] = getattr(self, _SHARED.get(tree.op) or "r_" + tree.op)
        return method(tree)

    # -- values and names -------------------------------------------------------------
    def r_const(self, tree: Typed) -> Fn:
        value = tree.value
        return lambda scope: value

    def r_var(self, tree: Typed) -> Fn:
        name = tree.name
        return lambda s: s.vars[name]

    def r_definition(self, tree: Typed) -> Fn:
        return self.env.named[tree.name].fn

    def r_contract(self, tree: Typed) -> Fn:
        key = tree.name
        return lambda s: bi.in_range(s.state.contract_value(key))  # type: ignore[attr-defined]

    # -- operators --------------------------------------------------------------------
    def r_arith(self, tree: Typed) -> Fn:
        left, right = tree.args
        lf, rf = self.build(left), self.build(right)
        if tree.op == "add" and tree.type == Type.CARDS:
            return lambda s: tuple(lf(s)) + tuple(rf(s))
        func = _ARITH[tree.op]
        top, checked = bi.MAX_NUMBER, bi.checked
        # an int in range is the fast path; anything else (a Fraction, made whole again if
        # it came out whole, or a number out of range) goes through `checked`
        if right.is_const:
            rv = right.value
            return lambda s: (
                v if type(v := func(lf(s), rv)) is int and -top <= v <= top else checked(v)
            )
        return lambda s: (
            v if type(v := func(lf(s), rf(s))) is int and -top <= v <= top else checked(v)
        )

    def r_neg(self, tree: Typed) -> Fn:
        f = self.build(tree.args[0])
        return lambda s: -f(s)

    def r_compare(self, tree: Typed) -> Fn:
        left, right = tree.args
        lf = self.build(left)
        if right.is_const:
            return _AGAINST_CONSTANT[tree.op](lf, right.value)
        func, rf = _COMPARE[tree.op], self.build(right)
        return lambda s: func(lf(s), rf(s))

    def r_member(self, tree: Typed) -> Fn:
        left, right = tree.args
        negate = tree.op == "not_member"
        if right.is_const and left.op in ("var", "bound") and not negate:
            contains, var = frozenset(right.value).__contains__, left.name
            return lambda s: contains(s.vars[var])  # `card in SET`: one set lookup
        lf = self.build(left)
        if right.is_const:  # named card set or other constant: one frozenset lookup
            contains = frozenset(right.value).__contains__
            return (lambda s: not contains(lf(s))) if negate else (lambda s: contains(lf(s)))
        rf = self.build(right)
        if negate:
            return lambda s: lf(s) not in rf(s)
        return lambda s: lf(s) in rf(s)

    def r_and(self, tree: Typed) -> Fn:
        left, right = tree.args
        lf, rf = self.build(left), self.build(right)
        if left.is_const:  # an option that settles it: the right side, or false
            return rf if left.value else lf
        return lambda s: lf(s) and rf(s)

    def r_or(self, tree: Typed) -> Fn:
        left, right = tree.args
        lf, rf = self.build(left), self.build(right)
        if left.is_const:  # an option that settles it: true, or the right side
            return lf if left.value else rf
        return lambda s: lf(s) or rf(s)

    def r_not(self, tree: Typed) -> Fn:
        f = self.build(tree.args[0])
        return lambda s: not f(s)

    def r_cond(self, tree: Typed) -> Fn:
        tf, af, bf = (self.build(arg) for arg in tree.args)
        return lambda s: af(s) if tf(s) else bf(s)

    # -- calls ------------------------------------------------------------------------
    def r_call(self, tree: Typed) -> Fn:
        impl = self.env.facts[tree.name].impl
        args = tree.args
        fns = [self.build(arg) for arg in args]
        if not fns:
            return lambda s: impl(s.state)
        if len(fns) == 1 and args[0].op in ("var", "bound"):  # hand(player): read in place
            var = args[0].name
            return lambda s: impl(s.state, s.vars[var])
        if len(fns) == 1:
            (f,) = fns
            return lambda s: impl(s.state, f(s))
        if len(fns) == 2:
            f, g = fns
            return lambda s: impl(s.state, f(s), g(s))
        return lambda s: impl(s.state, *[f(s) for f in fns])

    def r_builtin(self, tree: Typed) -> Fn:
        name = tree.name
        fns = [self.build(arg) for arg in tree.args]
        if name == "count":
            f = fns[0]
            return lambda s: len(f(s))
        if name in bi.ONE_NUMBER:
            f, one = fns[0], bi.ONE_NUMBER[name]
            return lambda s: one(f(s))
        if name == "power":
            base, exponent = fns
            return lambda s: bi.power(base(s), exponent(s))
        pick = max if name == "max" else min
        return fns[0] if len(fns) == 1 else lambda s: pick([f(s) for f in fns])

    # -- aggregations -----------------------------------------------------------------
    def r_aggregate(self, tree: Typed) -> Fn:
        collection, body = tree.args
        kind = tree.name if tree.op == "aggregate" else "filter"
        coll = self.build(collection)
        test = set_form_test(tree, self.build)
        if test is not None:
            elements = collection.value if collection.is_const else None
            form = set_forms.aggregate(kind, coll, elements, test)
            if form is not None:
                return form
        return bi.make_aggregate(kind, tree.var, coll, self.build(body))


def evaluate_constant(tree: Typed, env: Environment) -> Value:
    """The value of a tree that reads nothing of the hand (the checker folds it)."""
    return closure(tree, env)(Scope(None, {}))
