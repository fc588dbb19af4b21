"""The expression language run as array code: one value per hand, many hands at once.

Where it sits: the batch back end's runner of the typed tree
(`tarot.expressions.typed_tree`) that the scalar compiler made when it checked each
expression of the ruleset: it never parses an expression nor works out a type again. It
makes closures over a `Ctx` (the hands evaluated and their variables) that give arrays (see
`tarot.batch.values`). Numbers behave as in the scalar engine: ints stay ints, `/` gives a
float where a float holds the exact quotient (`tarot.batch.exactness`: else the ruleset is
refused, or the run stops), a division by zero gives 0, a number past 10^15 stops the run with an
EvaluationError; `X + Y` of cards keeps repeats. What it cannot run it refuses with
`Unsupported` and the reason, and the caller names the rule.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from itertools import zip_longest

import numpy as np

from tarot.batch import exactness, facts, scaled_amounts
from tarot.batch.card_tables import CardTable, of_card_alone, reduce_by_table
from tarot.batch.kept_definitions import Keeper, inputs_of
from tarot.batch.lasting_values import lasting_facts
from tarot.batch.masks import count
from tarot.batch.tables import DeckTables
from tarot.batch.values import (
    Cards,
    Ctx,
    Unsupported,
    Value,
    checked,
    per_row,
    plain,
    seat_mask,
)
from tarot.core.ruleset import Ruleset
from tarot.core.vocabulary import TAKER, variables_for
from tarot.expressions import EvaluationError, Type
from tarot.expressions.builtins import MAX_EXPONENT, MAX_NUMBER, RANGE_RULE, exponent_problem
from tarot.expressions.typed_tree import Typed

Fn = Callable[[Ctx], Value]

#: the fact that reads what payments change: a seat's result so far
RESULTS = "total"
#: the names every evaluation of a hand has (the taker's once the auction has one)
HAND_NAMES = frozenset({"dealer", *TAKER})


@dataclass(frozen=True)
class Node:
    type: Type
    fn: Fn
    const: bool = False
    value: Value = None


def _const(type_: Type, value: Value) -> Node:
    return Node(type_, lambda _ctx: value, True, value)


def _safe(b: Value) -> Value:
    return np.where(np.asarray(b) == 0, 1, b)


def _div(a: Value, b: Value, rounded: bool = False) -> Value:
    """`a / b`, 0 where b is 0; `rounded`: the quotient goes straight into a rounding."""
    return np.where(np.asarray(b) == 0, 0, exactness.quotient(a, _safe(b), rounded))


def _floordiv(a: Value, b: Value) -> Value:
    return np.where(np.asarray(b) == 0, 0, np.floor_divide(a, _safe(b)))


def _mod(a: Value, b: Value) -> Value:
    return np.where(np.asarray(b) == 0, 0, np.remainder(a, _safe(b)))


_ARITH: dict[str, Callable[[Value, Value], Value]] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": _div,
    "floordiv": _floordiv,
    "mod": _mod,
}
_COMPARE: dict[str, Callable[[Value, Value], Value]] = {
    "eq": np.equal,
    "ne": np.not_equal,
    "lt": np.less,
    "le": np.less_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
}


def _round(a: Value) -> Value:
    """Halves away from zero, as the scalar engine's `round_half_up`."""
    return (np.floor(np.abs(a) + 0.5) * np.where(np.asarray(a) >= 0, 1, -1)).astype(np.int64)


def _power(a: Value, n: Value) -> Value:
    """`a` to the `n`-th power, as the scalar engine's `power`: `n` whole, 0 to 100; a result
    past 10^15 stops the run."""
    exponent = np.asarray(n)
    bad = (exponent != np.floor(exponent)) | (exponent < 0) | (exponent > MAX_EXPONENT)
    if bad.any():
        raise EvaluationError(exponent_problem(Fraction(float(exponent[bad].flat[0]))) or "")
    base = np.asarray(a)
    floats = np.power(base.astype(np.float64), exponent)
    if (np.abs(floats) > MAX_NUMBER).any():
        raise EvaluationError(f"power(a, n) gave more than 10^15; {RANGE_RULE}")
    if np.issubdtype(base.dtype, np.integer):
        return np.power(base, exponent.astype(np.int64))
    return floats


_ONE_NUMBER: dict[str, Callable[[Value], Value]] = {
    "abs": np.abs,
    "ceil": lambda a: np.ceil(a).astype(np.int64),
    "floor": lambda a: np.floor(a).astype(np.int64),
    "round": _round,
}


def typed_tree(compiled: object) -> Typed | None:
    """The checked tree of what the ruleset compiled (None for a literal)."""
    tree = getattr(compiled, "tree", None)
    return tree if isinstance(tree, Typed) else None


class ArrayCompiler:
    """Runs the typed trees of one ruleset's expressions as array code; `expression` takes
    a compiled scalar expression (or a literal) and the event it stands at."""

    def __init__(self, ruleset: Ruleset, tables: DeckTables) -> None:
        self.ruleset = ruleset
        self.tables = tables
        self.players = ruleset.players
        sit_out = ruleset.sit_out
        self.in_hand = ruleset.players if sit_out is None else sit_out.in_hand  # seats in play
        #: the division being compiled straight under a rounding (`exactness.quotient`)
        self._rounded: Typed | None = None
        self.definitions = {d.name: d for d in ruleset.definitions}
        self.bidding = ruleset.bidding is not None
        self.counters = lasting_facts(ruleset)  # a fact named after each lasting counter
        self.constants: dict[str, Node] = {}  # names fixed for one compilation (a level's id)
        self.variables: Mapping[str, Type] = {}
        self._definitions: dict[str, Node] = {}
        self._keepers: dict[str, Keeper | None] = {}  # by definition of a seat
        #: the definitions worked out in the evaluation under way (None between evaluations):
        #: an expression is pure, so a definition of the same hands and seat gives one value
        self._memo: dict[tuple, Value] | None = None
        #: the facts worked out are kept with the definitions (inside `remembering`)
        self._keeps_facts = False
        #: payments are counted in 1/scale (`tarot.batch.scaled_amounts`), set by the program
        #: before it compiles any expression: a seat's result is then held only nearly
        self.scale = 1

    # --- entry points -------------------------------------------------------------------

    def names(self, event: str, amount: bool = False) -> dict[str, Type]:
        """The context names of `event`, as the scalar compiler gives them."""
        return variables_for(event, amount, self.bidding)

    def expression(
        self,
        compiled: object,
        event: str,
        amount: bool = False,
        constants: dict[str, str] | None = None,
        scale: int = 1,
    ) -> Node:
        """The array form of what the ruleset compiled at `event` (a literal stays one);
        `constants` fixes names the scalar engine reads as variables (a level's id); `scale`:
        a payment's amount counted in 1/scale (`tarot.batch.scaled_amounts`)."""
        tree = typed_tree(compiled)
        if tree is None:
            value = getattr(compiled, "value", None)
            if isinstance(value, bool):
                return _const(Type.BOOL, value)
            if isinstance(value, int | float):
                return _const(Type.NUMBER, value * scale)
            raise Unsupported("an expression the batch back end cannot read")
        tree = scaled_amounts.scaled_tree(tree, scale, self.in_hand, self.body)
        fixed = {name: _const(Type.STRING, text) for name, text in (constants or {}).items()}
        saved = self.constants
        self.constants = fixed
        try:
            node = self.run(tree, self.names(event, amount))
        finally:
            self.constants = saved
        if node.const:
            return node
        where = getattr(compiled, "where", "")
        fn = node.fn if not where else _located(node.fn, where)
        return Node(node.type, self._evaluation(fn))

    def _evaluation(self, fn: Fn) -> Fn:
        """`fn` as one evaluation: the definitions it works out are kept until it ends (an
        evaluation inside another shares the other's, the hands being unchanged)."""

        def evaluate(ctx: Ctx) -> Value:
            if self._memo is not None:
                return fn(ctx)
            self._memo = {}
            try:
                return fn(ctx)
            finally:
                self._memo = None

        return evaluate

    @contextmanager
    def remembering(self) -> Iterator[None]:
        """The definitions worked out by the evaluations made inside kept for all of them,
        where no definition reads a seat's result (`total()`, the one fact that payments
        change): for the settlement, once every card lies where it ends. The facts called
        with arguments are kept too, except `total()` and the lasting counters."""
        if self._memo is not None or self._reads_results:
            yield
            return
        self._memo = {}
        self._keeps_facts = True
        try:
            yield
        finally:
            self._memo = None
            self._keeps_facts = False

    @property
    def remembers(self) -> bool:
        """Whether the definitions worked out are kept from one evaluation to the next
        (inside `remembering`)."""
        return self._memo is not None

    @functools.cached_property
    def _reads_results(self) -> bool:
        trees = (typed_tree(d.expression) for d in self.definitions.values())
        return any(
            node.op == "call" and node.name == RESULTS
            for tree in trees
            if tree is not None
            for node in tree.walk()
        )

    def _remembered(self, key: tuple, ctx: Ctx, work_out: Callable[[], Value]) -> Value:
        """A definition's value for the hands of `ctx`, worked out once per evaluation."""
        memo = self._memo
        if memo is None:
            return work_out()
        key = (*key, id(ctx.state), ctx.rows.tobytes())
        if key not in memo:
            memo[key] = work_out()
        return memo[key]

    def card_mask(self, compiled: object, event: str, var: str = "card") -> Fn:
        """A condition on the event's `var` as the mask of the cards for which it holds."""
        tree = typed_tree(compiled)
        if tree is None:
            every = bool(getattr(compiled, "value", False))
            mask = self.tables.layout.all if every else self.tables.layout.of(())
            return lambda ctx: mask
        self._results_compared_only(tree)
        saved = self.variables
        self.variables = self.names(event)
        try:
            found = self._element_mask(var, tree)
            if found is None:
                found = self._mask_by_cards(var, tree)
            return found
        finally:
            self.variables = saved

    def run(self, tree: Typed, variables: Mapping[str, Type], whole: bool = True) -> Node:
        """`tree` as array code, its context variables being `variables`; `whole`: a whole
        expression, not a definition's body compiled for one."""
        if whole:
            self._results_compared_only(tree)
        saved = self.variables
        self.variables = variables
        try:
            return self.compile(tree)
        finally:
            self.variables = saved

    def compile(self, tree: Typed) -> Node:
        method = getattr(self, "c_" + tree.op, None)
        if method is None:
            raise Unsupported(f"the form {tree.op!r}")
        node: Node = method(tree, *tree.args)
        return node

    # --- constants and names --------------------------------------------------------------

    def c_const(self, tree: Typed) -> Node:
        value = tree.value
        if tree.type == Type.CARDS:
            return _const(Type.CARDS, self._cards(value))
        if tree.type == Type.SEATS:
            mask = np.zeros(self.players, dtype=np.bool_)
            mask[list(value)] = True
            return _const(Type.SEATS, mask)
        try:
            return _const(tree.type, exactness.constant(value))
        except ValueError as error:
            raise Unsupported(str(error)) from None

    def _cards(self, cards: Sequence[int]) -> Cards:
        """A constant collection of cards, its repeats (of `X + Y`) as further terms."""
        left = list(cards)
        terms = []
        while left:
            once = sorted(set(left))
            terms.append(self.tables.layout.of(once))
            for card in once:
                left.remove(card)
        return Cards(tuple(terms) or (self.tables.layout.of(()),))

    def c_bound(self, tree: Typed) -> Node:
        name = tree.name
        return Node(tree.type, lambda ctx: ctx.vars[name])

    def c_var(self, tree: Typed) -> Node:
        name = tree.name
        if name in self.constants:
            return self.constants[name]
        if name == "seats" and self.in_hand < self.players:  # the seats in play
            return Node(Type.SEATS, lambda ctx: ctx.state.in_play(ctx.rows))
        if name == "seats":
            return _const(Type.SEATS, np.ones(self.players, dtype=np.bool_))
        if name == "players":
            return _const(Type.NUMBER, self.in_hand)
        if name == "contract":  # kept as its rank: read only as `contract == 'ID'`
            raise Unsupported("the contract's name read other than as contract == 'ID'")
        if name not in self.variables:
            raise Unsupported(f"the name {name!r}")
        return Node(tree.type, lambda ctx: ctx.vars[name])

    def c_definition(self, tree: Typed) -> Node:
        name = tree.name
        node = self._definition(name)
        if node.const:
            return node
        return Node(
            node.type, lambda ctx: self._remembered((name,), ctx, lambda: node.fn(_base(ctx)))
        )

    def _definition(self, name: str, seat: str | None = None) -> Node:
        """A definition's body as array code, once per ruleset (`seat`: its seat's name)."""
        if name not in self._definitions:
            body = typed_tree(self.definitions[name].expression)
            if body is None:
                raise Unsupported(f"the definition {name!r}")
            variables = self.names("settlement")
            if seat is not None:
                variables = {**variables, seat: Type.SEAT}
            saved = self.constants
            self.constants = {}
            try:
                self._definitions[name] = self.run(body, variables, whole=False)
            finally:
                self.constants = saved
        return self._definitions[name]

    def _keeper(self, name: str, seat: str) -> Keeper | None:
        """The definition of a seat `name` kept by hand and seat, where its body reads the
        hand through other definitions alone (`kept_definitions`)."""
        if name not in self._keepers:
            body = typed_tree(self.definitions[name].expression)
            parts = None if body is None else inputs_of(body, seat, list(self.definitions))
            keeper = None
            if body is not None and parts is not None:
                variables = {**self.names("settlement"), seat: Type.SEAT}
                saved = self.constants
                self.constants = {}
                try:
                    compiled = [(part.type, self.run(part, variables).fn) for part in parts]
                finally:
                    self.constants = saved
                keeper = Keeper(name, seat, body.type, compiled)
            self._keepers[name] = keeper
        return self._keepers[name]

    def c_contract(self, tree: Typed) -> Node:
        """`contract.NAME`: the value of the contract each hand is played at (0 without one)."""
        name = tree.name
        bidding = self.ruleset.bidding
        contracts = () if bidding is None else bidding.contracts
        values = [contract.values.get(name, 0) for contract in contracts]
        whole = all(float(v).is_integer() and not isinstance(v, float) for v in values)
        table = np.array([*values, 0], dtype=np.int64 if whole else np.float64)  # [-1]: none

        def value(ctx: Ctx) -> Value:
            return table[ctx.state.contract[ctx.rows]]

        return Node(Type.NUMBER, value)

    def _contract_is(self, contract: str, equal: bool) -> Node:
        """`contract == 'ID'` (or `!=`): whether each hand is played at that contract."""
        bidding = self.ruleset.bidding
        ids = [] if bidding is None else [c.id for c in bidding.contracts]
        rank = ids.index(contract) if contract in ids else -2  # -2: no hand's contract

        def played_at(ctx: Ctx) -> Value:
            same = ctx.state.contract[ctx.rows] == rank
            return same if equal else ~same

        return Node(Type.BOOL, played_at)

    # --- operators ------------------------------------------------------------------------

    def combine(self, type_: Type, fn: Fn, *parts: Node) -> Node:
        """A node, worked out now when every part is a constant."""
        if all(part.const for part in parts):
            value = fn(None)  # type: ignore[arg-type]  # a constant reads no context
            return _const(type_, value if isinstance(value, Cards) else plain(value))
        return Node(type_, fn)

    def _results_compared_only(self, tree: Typed) -> None:
        """Unsupported where a seat's result (`total()`), held as the nearest float once
        payments are counted in 1/scale, is used for more than comparing it."""
        if self.scale != 1 and not scaled_amounts.results_compared_only(tree, RESULTS, self.body):
            raise Unsupported(
                f"{RESULTS}() used other than in comparisons, where payments come in fractions "
                f"(of 1/{self.scale}) that float64 arrays hold only nearly"
            )

    def body(self, name: str) -> Typed | None:
        """A definition's checked tree (None: not one the compiler knows)."""
        definition = self.definitions.get(name)
        return None if definition is None else typed_tree(definition.expression)

    def arith(self, tree: Typed, left: Typed, right: Typed) -> Node:
        rounded = self._rounded is tree  # a quotient that goes straight into a rounding
        self._rounded = left if tree.op == "floordiv" else None
        a, b = self.compile(left), self.compile(right)
        af, bf = a.fn, b.fn
        if tree.type == Type.CARDS:
            return self.combine(Type.CARDS, lambda ctx: Cards(af(ctx).terms + bf(ctx).terms), a, b)
        op = _ARITH[tree.op]
        if tree.op == "div" and rounded:
            return self.combine(
                Type.NUMBER, lambda ctx: checked(_div(af(ctx), bf(ctx), True), ctx), a, b
            )
        if (
            tree.op == "div"
            and not b.const
            and exactness.counts_seats(right, self.in_hand, self.body)
        ):
            raise Unsupported(
                "a division by a number of seats that may be three or more, not rounded at once"
                " (round, floor, ceil, //), whose quotient float64 arrays may not hold exactly"
            )
        if tree.op == "div" and b.const and not isinstance(b.value, bool):
            try:
                exactness.constant_divisor(b.value)
            except ValueError as error:
                raise Unsupported(str(error)) from None
        if tree.op != "mod":
            return self.combine(Type.NUMBER, lambda ctx: checked(op(af(ctx), bf(ctx)), ctx), a, b)
        return self.combine(Type.NUMBER, lambda ctx: op(af(ctx), bf(ctx)), a, b)

    c_add = c_sub = c_mul = c_div = c_floordiv = c_mod = arith

    def c_neg(self, _tree: Typed, operand: Typed) -> Node:
        node = self.compile(operand)
        f = node.fn
        return self.combine(Type.NUMBER, lambda ctx: np.negative(f(ctx)), node)

    def compare(self, tree: Typed, left: Typed, right: Typed) -> Node:
        if tree.op in ("eq", "ne") and left.op == "var" and left.name == "contract":
            if right.is_const:
                return self._contract_is(str(right.value), tree.op == "eq")
        a, b = self.compile(left), self.compile(right)
        op, af, bf = _COMPARE[tree.op], a.fn, b.fn
        if Type.STRING in (a.type, b.type) and not (a.const and b.const):
            if tree.op not in ("eq", "ne"):
                raise Unsupported("a text ordered at run time")
            # texts worked out at run time are arrays of str (dtype object)
            return self.combine(
                Type.BOOL,
                lambda ctx: op(np.asarray(af(ctx), dtype=object), bf(ctx)).astype(np.bool_),
                a,
                b,
            )
        if a.type == Type.STRING:
            same = a.value == b.value
            return _const(Type.BOOL, same if tree.op == "eq" else not same)
        return self.combine(Type.BOOL, lambda ctx: op(af(ctx), bf(ctx)), a, b)

    c_eq = c_ne = c_lt = c_le = c_gt = c_ge = compare

    def membership(self, tree: Typed, left: Typed, right: Typed) -> Node:
        a, b = self.compile(left), self.compile(right)
        af, bf = a.fn, b.fn
        negate = tree.op == "not_member"
        layout, players = self.tables.layout, self.players

        if b.type == Type.CARDS and b.const:  # a named set: a table by card
            table = np.append(layout.to_bools(b.value.union()), False)  # [-1]: no card

            def inside(ctx: Ctx) -> Value:
                return table[per_row(af(ctx), ctx.size)]

        elif b.type == Type.CARDS:

            def inside(ctx: Ctx) -> Value:
                cards = per_row(af(ctx), ctx.size)
                return layout.contains(bf(ctx).union(), cards)

        else:

            def inside(ctx: Ctx) -> Value:
                seats = per_row(af(ctx), ctx.size)
                mask = seat_mask(bf(ctx), ctx.size, players)
                return mask[np.arange(ctx.size), np.maximum(seats, 0)] & (seats >= 0)

        return Node(Type.BOOL, (lambda ctx: ~inside(ctx)) if negate else inside)

    c_member = c_not_member = membership

    def c_and(self, _tree: Typed, left: Typed, right: Typed) -> Node:
        a, b = self.compile(left), self.compile(right)
        if a.const:
            return b if a.value else a
        af, bf = a.fn, b.fn

        def both(ctx: Ctx) -> Value:
            held = af(ctx)
            if not np.any(held):  # false in every hand: the right side is not worked out
                return held
            return np.logical_and(held, bf(ctx))

        return self.combine(Type.BOOL, both, a, b)

    def c_or(self, _tree: Typed, left: Typed, right: Typed) -> Node:
        a, b = self.compile(left), self.compile(right)
        if a.const:
            return a if a.value else b
        af, bf = a.fn, b.fn

        def either(ctx: Ctx) -> Value:
            held = af(ctx)
            if np.all(held):  # true in every hand: the right side is not worked out
                return held
            return np.logical_or(held, bf(ctx))

        return self.combine(Type.BOOL, either, a, b)

    def c_not(self, _tree: Typed, operand: Typed) -> Node:
        node = self.compile(operand)
        f = node.fn
        return self.combine(Type.BOOL, lambda ctx: np.logical_not(f(ctx)), node)

    def c_cond(self, _tree: Typed, test: Typed, then: Typed, other: Typed) -> Node:
        t, a, b = self.compile(test), self.compile(then), self.compile(other)
        if t.const:
            return a if t.value else b
        tf, af, bf = t.fn, a.fn, b.fn
        if a.type == Type.CARDS:

            def pick_cards(ctx: Ctx, held: Value) -> Value:
                chosen = per_row(held, ctx.size)[:, None]
                zero = np.zeros(self.tables.layout.words, dtype=np.uint64)
                pairs = zip_longest(af(ctx).terms, bf(ctx).terms, fillvalue=zero)
                return Cards(tuple(np.where(chosen, x, y) for x, y in pairs))

            return Node(a.type, _one_way(tf, af, bf, pick_cards))
        if a.type == Type.SEATS:
            players = self.players

            def seats(f: Fn) -> Fn:
                return lambda ctx: seat_mask(f(ctx), ctx.size, players)

            def pick_seats(ctx: Ctx, held: Value) -> Value:
                chosen = per_row(held, ctx.size)[:, None]
                return np.where(chosen, seats(af)(ctx), seats(bf)(ctx))

            return Node(a.type, _one_way(tf, seats(af), seats(bf), pick_seats))

        def pick(ctx: Ctx, held: Value) -> Value:
            return np.where(held, af(ctx), bf(ctx))

        def numbers(f: Fn) -> Fn:
            return lambda ctx: per_row(f(ctx), ctx.size)

        return Node(a.type, _one_way(tf, numbers(af), numbers(bf), pick))

    # --- calls ----------------------------------------------------------------------------

    def c_builtin(self, tree: Typed, *arguments: Typed) -> Node:
        name = tree.name
        self._rounded = arguments[0] if name in exactness.ROUNDING else None
        args = [self.compile(t) for t in arguments]
        self._rounded = None
        fns = [a.fn for a in args]
        if name == "count":
            (f,) = fns
            if args[0].type == Type.CARDS:
                return self.combine(Type.NUMBER, lambda ctx: f(ctx).count(), *args)
            if args[0].const:  # seats known before any hand: counted once
                return _const(Type.NUMBER, int(seat_mask(args[0].value, 1, self.players).sum()))
            return self.combine(
                Type.NUMBER,
                lambda ctx: seat_mask(f(ctx), ctx.size, self.players).sum(axis=1),
                *args,
            )
        if name in ("max", "min"):
            pick = np.maximum if name == "max" else np.minimum

            def extreme(ctx: Ctx) -> Value:
                values = [f(ctx) for f in fns]
                result = values[0]
                for value in values[1:]:
                    result = pick(result, value)
                return result

            return self.combine(Type.NUMBER, extreme, *args)
        if name == "power":
            return self.combine(Type.NUMBER, lambda ctx: _power(fns[0](ctx), fns[1](ctx)), *args)
        one, (f,) = _ONE_NUMBER[name], fns
        return self.combine(Type.NUMBER, lambda ctx: one(f(ctx)), *args)

    def c_call(self, tree: Typed, *arguments: Typed) -> Node:
        name = tree.name
        args = [self.compile(t) for t in arguments]
        fns = [a.fn for a in args]
        definition = self.definitions.get(name)
        if definition is not None and definition.of_seat is not None:
            body = self._definition(name, definition.of_seat)
            (f,) = fns
            seat_name = definition.of_seat
            keeper = self._keeper(name, seat_name)

            def work_out(ctx: Ctx, seat: np.ndarray) -> Value:
                scope = _base(ctx).with_vars(**{seat_name: seat})
                if keeper is None:
                    return body.fn(scope)
                return keeper.value(scope, seat, body.fn)

            def of_seat(ctx: Ctx) -> Value:
                seat = per_row(f(ctx), ctx.size)
                return self._remembered((name, seat.tobytes()), ctx, lambda: work_out(ctx, seat))

            return Node(body.type, of_seat)
        impl = self.counters.get(name) or facts.fact(name)
        if any(a.type == Type.STRING for a in args):
            if not all(a.const for a in args if a.type == Type.STRING):
                raise Unsupported(f"{name}() with a text worked out at run time")
        if name == RESULTS or name in self.counters or not args:
            return Node(tree.type, lambda ctx: impl(ctx, *[f(ctx) for f in fns]))

        def called(ctx: Ctx) -> Value:
            values = [f(ctx) for f in fns]
            key = _arguments_key(values, ctx.size) if self._keeps_facts else None
            if key is None:
                return impl(ctx, *values)
            return self._remembered(("fact", name, *key), ctx, lambda: impl(ctx, *values))

        return Node(tree.type, called)

    # --- aggregations ---------------------------------------------------------------------

    def c_aggregate(self, tree: Typed, collection_tree: Typed, body: Typed) -> Node:
        kind, var = tree.name, tree.var
        collection = self.compile(collection_tree)
        result = tree.type
        if collection.type == Type.CARDS:
            mask = self._element_mask(var, body) if kind in ("count", "any", "all") else None
            if mask is not None:
                return Node(result, _over_mask(kind, collection.fn, mask))
            node = self.compile(body)
            table = None
            if of_card_alone(var, body) and not node.const:
                table = CardTable(var, node.fn, self.tables.layout.cards)
            return Node(result, _over_cards(kind, var, collection.fn, node.fn, self.tables, table))
        if kind in ("count", "any", "all"):
            chosen = self._seat_element_mask(var, body)
            if chosen is not None:
                return Node(result, _over_seat_mask(kind, collection.fn, chosen, self.players))
        node = self.compile(body)
        return Node(result, _over_seats(kind, var, collection.fn, node.fn, self.players))

    def c_filter(self, tree: Typed, collection_tree: Typed, condition: Typed) -> Node:
        var = tree.var
        collection = self.compile(collection_tree)
        cf = collection.fn
        if collection.type == Type.CARDS:
            mask = self._element_mask(var, condition)
            if mask is None:
                mask = self._mask_by_cards(var, condition)
            m = mask
            return Node(Type.CARDS, lambda ctx: cf(ctx).filtered(m(ctx)))
        players = self.players
        chosen = self._seat_element_mask(var, condition)
        if chosen is not None:
            picks = chosen
            return Node(Type.SEATS, lambda ctx: seat_mask(cf(ctx), ctx.size, players) & picks(ctx))
        node = self.compile(condition)
        bf = node.fn

        def kept(ctx: Ctx) -> Value:
            members = seat_mask(cf(ctx), ctx.size, players)
            columns = [
                members[:, s] & per_row(bf(ctx.with_vars(**{var: s})), ctx.size)
                for s in range(players)
            ]
            return np.stack(columns, axis=1)

        return Node(Type.SEATS, kept)

    def _element_mask(self, var: str, body: Typed) -> Fn | None:
        """`body` as the mask of the cards for which it holds, when it asks of `var` only
        whether it is in collections that do not depend on it (and/or/not of those)."""
        everything = self.tables.layout.all
        if not body.mentions(var):
            node = self.compile(body)
            f = node.fn
            return lambda ctx: np.where(
                per_row(f(ctx), ctx.size)[:, None], everything, np.uint64(0)
            )
        if body.op in ("member", "not_member"):
            left, right = body.args
            if left.op in ("var", "bound") and left.name == var and not right.mentions(var):
                node = self.compile(right)
                if node.type != Type.CARDS:
                    return None
                f = node.fn
                if body.op == "member":
                    return lambda ctx: f(ctx).union()
                return lambda ctx: everything & ~f(ctx).union()
            return None
        return _combined(
            var, body, self._element_mask, np.bitwise_and, np.bitwise_or, lambda m: everything & ~m
        )

    def _mask_by_cards(self, var: str, condition: Typed) -> Fn:
        """`condition` on the card `var` as the mask of the cards for which it holds, worked
        out card by card (once for the deck when it depends on its card alone)."""
        node = self.compile(condition)
        if of_card_alone(var, condition) and not node.const:
            table, layout = CardTable(var, node.fn, self.tables.layout.cards), self.tables.layout
            by_card = _mask_by_cards(var, node.fn, self.tables)

            def mask(ctx: Ctx) -> Value:
                held = table.of(ctx)
                return by_card(ctx) if held is None else layout.from_bools(held.astype(np.bool_))

            return mask
        return _mask_by_cards(var, node.fn, self.tables)

    def _seat_element_mask(self, var: str, body: Typed) -> Fn | None:
        """`body` as [hands, seats], whether it holds for each seat `var`, when it asks of `var`
        only whether it is in (or is) seats that do not depend on it (and/or/not of those):
        what it asks of is then worked out once, not once per seat."""
        players = self.players
        if not body.mentions(var):
            node = self.compile(body)
            f = node.fn
            return lambda ctx: np.broadcast_to(
                per_row(f(ctx), ctx.size).astype(np.bool_)[:, None], (ctx.size, players)
            )
        if body.op in ("member", "not_member", "eq", "ne"):
            left, right = body.args
            if left.op not in ("var", "bound") or left.name != var or right.mentions(var):
                return None
            node = self.compile(right)
            if node.type != (Type.SEATS if body.op.endswith("member") else Type.SEAT):
                return None
            f = node.fn
            if body.op in ("member", "eq"):
                return lambda ctx: seat_mask(f(ctx), ctx.size, players)
            return lambda ctx: ~seat_mask(f(ctx), ctx.size, players)
        return _combined(
            var, body, self._seat_element_mask, np.logical_and, np.logical_or, np.logical_not
        )


def _combined(
    var: str,
    body: Typed,
    part: Callable[[str, Typed], Fn | None],
    both: Callable[[Value, Value], Value],
    either: Callable[[Value, Value], Value],
    invert: Callable[[Value], Value],
) -> Fn | None:
    """`body`, an and, or or not of parts that `part` makes masks of, as their mask combined
    by `both`, `either` or `invert` (None: another form, or a part it cannot make)."""
    if body.op in ("and", "or"):
        a, b = part(var, body.args[0]), part(var, body.args[1])
        if a is None or b is None:
            return None
        op = both if body.op == "and" else either
        return lambda ctx: op(a(ctx), b(ctx))
    if body.op == "not":
        inner = part(var, body.args[0])
        if inner is None:
            return None
        return lambda ctx: invert(inner(ctx))
    return None


def _arguments_key(values: Sequence[Value], size: int) -> tuple | None:
    """A fact's arguments as part of a key of what is remembered, a number the same whether
    given once or per hand (None: cards, not kept)."""
    key: list[object] = []
    for value in values:
        if isinstance(value, str):
            key.append(value)
            continue
        if not isinstance(value, np.ndarray | int | float | np.generic):
            return None
        array = np.asarray(value)
        array = np.ascontiguousarray(per_row(array, size) if array.ndim == 0 else array)
        key.append((array.dtype.str, array.shape, array.tobytes()))
    return tuple(key)


def _located(fn: Fn, where: str) -> Fn:
    """`fn`, its errors told with the place of the expression in the ruleset."""

    def evaluate(ctx: Ctx) -> Value:
        try:
            return fn(ctx)
        except EvaluationError as error:
            if not error.where:
                error.where = where
            raise

    return evaluate


def _one_way(test: Fn, first: Fn, second: Fn, both: Callable[[Ctx, Value], Value]) -> Fn:
    """An `if`: where its test is the same in every hand, the one branch it takes (`first`
    or `second`), as the scalar engine works out one; else `both` worked out and picked
    from hand by hand. (The search player's play-outs, all from one hand, often agree.)"""

    def chosen(ctx: Ctx) -> Value:
        held = test(ctx)
        if np.all(held):
            return first(ctx)
        if not np.any(held):
            return second(ctx)
        return both(ctx, held)

    return chosen


def _base(ctx: Ctx) -> Ctx:
    """The evaluation as a definition sees it: the hand's common names only."""
    return Ctx(ctx.state, ctx.rows, {k: v for k, v in ctx.vars.items() if k in HAND_NAMES})


def _over_mask(kind: str, collection: Fn, mask: Fn) -> Fn:
    def aggregate(ctx: Ctx) -> Value:
        terms = collection(ctx).terms
        m = mask(ctx)
        if kind == "count":
            return sum(count(term & m) for term in terms)
        if kind == "any":
            return np.logical_or.reduce([count(term & m) > 0 for term in terms])
        return np.logical_and.reduce([count(term & ~m) == 0 for term in terms])  # all

    return aggregate


def _card_counts(ctx: Ctx, cards: Cards, tables: DeckTables) -> np.ndarray:
    """How many times each card is in each hand's collection: [hands, cards]."""
    layout = tables.layout
    total = np.zeros((ctx.size, layout.cards), dtype=np.int64)
    for term in cards.terms:
        total += layout.to_bools(np.broadcast_to(term, (ctx.size, layout.words)))
    return total


def _each_card(var: str, body: Fn, ctx: Ctx, present: np.ndarray) -> list[tuple[int, Value]]:
    """The body's value for each card that is in some hand's collection."""
    cards = np.flatnonzero(present.any(axis=0))
    return [(int(c), per_row(body(ctx.with_vars(**{var: int(c)})), ctx.size)) for c in cards]


def _over_cards(
    kind: str, var: str, collection: Fn, body: Fn, tables: DeckTables, by_card: CardTable | None
) -> Fn:
    """kind(var in collection: body); `by_card`: the body's values by card, when it depends
    on its card alone (`card_tables`)."""

    def aggregate(ctx: Ctx) -> Value:
        counts = _card_counts(ctx, collection(ctx), tables)
        table = None if by_card is None else by_card.of(ctx)
        if table is None:
            return _reduce(kind, counts, _each_card(var, body, ctx, counts > 0), ctx.size)
        found = reduce_by_table(kind, counts, table)
        if found is not None:
            return found
        cards = np.flatnonzero((counts > 0).any(axis=0)).tolist()
        return _reduce(kind, counts, [(c, per_row(table[c], ctx.size)) for c in cards], ctx.size)

    return aggregate


def _over_seats(kind: str, var: str, collection: Fn, body: Fn, players: int) -> Fn:
    def aggregate(ctx: Ctx) -> Value:
        members = seat_mask(collection(ctx), ctx.size, players).astype(np.int64)
        values = [
            (s, per_row(body(ctx.with_vars(**{var: np.full(ctx.size, s)})), ctx.size))
            for s in range(players)
        ]
        return _reduce(kind, members, values, ctx.size)

    return aggregate


def _over_seat_mask(kind: str, collection: Fn, chosen: Fn, players: int) -> Fn:
    """count, any or all of the seats of `collection` by `chosen`'s [hands, seats]."""

    def aggregate(ctx: Ctx) -> Value:
        members = seat_mask(collection(ctx), ctx.size, players)
        picked = chosen(ctx)
        if kind == "count":
            return (members & picked).sum(axis=1)
        if kind == "any":
            return (members & picked).any(axis=1)
        return ~(members & ~picked).any(axis=1)  # all

    return aggregate


def _reduce(kind: str, counts: np.ndarray, values: Sequence[tuple[int, Value]], size: int) -> Value:
    """kind(x in C: body) from each element's count in C and the body's value for it."""
    if kind in ("count", "any", "all"):
        held = np.zeros(size, dtype=np.int64)
        failed = np.zeros(size, dtype=np.bool_)
        for element, value in values:
            n = counts[:, element]
            held += n * value
            failed |= (n > 0) & ~value.astype(np.bool_)
        if kind == "count":
            return held
        return held > 0 if kind == "any" else ~failed
    if kind == "sum":
        total: Value = np.zeros(size, dtype=np.int64)
        for element, value in values:
            total = total + counts[:, element] * value
        return checked(total)
    best: Value = None
    seen = np.zeros(size, dtype=np.bool_)
    pick = np.maximum if kind == "max" else np.minimum
    for element, value in values:
        there = counts[:, element] > 0
        candidate = value if best is None else np.where(seen, pick(best, value), value)
        best = candidate if best is None else np.where(there, candidate, best)
        seen |= there
    if best is None:
        return np.zeros(size, dtype=np.int64)
    return np.where(seen, best, 0)


def _mask_by_cards(var: str, body: Fn, tables: DeckTables) -> Fn:
    layout = tables.layout

    def mask(ctx: Ctx) -> Value:
        held = np.zeros((ctx.size, layout.cards), dtype=np.bool_)
        for card in range(layout.cards):
            held[:, card] = per_row(body(ctx.with_vars(**{var: card})), ctx.size)
        return layout.from_bools(held)

    return mask


__all__ = ["ArrayCompiler", "Node", "Unsupported", "typed_tree"]
