"""The checker: parse tree -> typed tree, with types, cost, dependence and card guards.

Pipeline: grammar.lark -> parser.py -> compiler.py (this module) -> typed_tree.py, run by
closures.py (the scalar engine's runner) or by the batch back end's array runner
(`tarot.batch.array_exprs`); builtins.py holds the run-time helpers. Each grammar alias has
one method here. Every method checks the types of its operands, then returns a Node holding
the result type, what the checker knows of it and its typed node. Nodes that use no context
variable, no fact function and no bound variable are folded to constants at compile time
(worked out by the scalar runner). `compile_expression` gives the checked tree with its
closure.

Cost model.  Every node carries an upper bound on the steps (closure calls) one
evaluation takes, and every CARDS or SEATS node a bound on how many elements it
holds (the deck's size, the number of seats, or a constant's length).  An
aggregation costs its collection plus, for each element, its body; a fact costs
what the engine's implementation does (a pile's points look at every card).  The
ruleset's definitions are computed once per game state (the engine remembers
them), so a use costs one step and the definition's own steps are counted once,
however often it is used; a definition of a seat is counted once per seat.  An
expression whose bound, definitions included, exceeds the budget is refused,
positioned at the aggregation that blows it where there is one.

Card guards.  Every BOOL node also carries `needs`: for context variables of type CARD,
the cards each must be among for the node to be true (`card in SET` gives SET for `card`,
`and` intersects, `or` unions, anything else needs nothing), or None when it is never
true.  A guard is a promise that an evaluation with a variable outside its cards gives
false without raising, so the engine may skip it (see `engine/rule_index.py`); `and`
takes its right side's guard only when its left side cannot raise (`may_fail`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from lark import Token, Tree

from tarot.errors import closest_names

from . import builtins as bi
from . import dependence, set_forms
from .closures import closure, evaluate_constant, set_form_test
from .errors import EvaluationError, ExpressionError
from .numbers import exact
from .parser import parse
from .type_hints import instead
from .typed_tree import Typed, constant
from .types import ELEMENT, CompiledExpression, Environment, Type, Value

MAX_COMPREHENSION_DEPTH = 3
MAX_NESTING = 100
#: the most steps one evaluation of an expression may take, definitions included
COST_BUDGET = 100_000
#: the most steps a hand's expressions may take together (`types.StepMeter`)
HAND_BUDGET = 5_000_000

Item = Tree | Token
COLLECTIONS = (Type.CARDS, Type.SEATS)
#: a guard that constrains nothing (see "Card guards" above)
ANY_CARDS: Mapping[str, frozenset[int]] = MappingProxyType({})
Guard = Mapping[str, frozenset[int]] | None


@dataclass(frozen=True, slots=True)
class Node:
    """A checked sub-expression."""

    type: Type
    pure: bool = True  # uses no context variable and no fact function
    free: frozenset[str] = frozenset()  # bound variables it reads
    is_const: bool = False
    value: Value = None
    cost: int = 1  # steps of one evaluation, each remembered definition counted as one
    size: int = 0  # the most elements a CARDS or SEATS value holds
    memo: Mapping[str, int] = field(default_factory=dict)  # remembered definitions: steps
    calls: frozenset[str] = frozenset()  # facts and definitions reached
    reads: frozenset[str] = frozenset()  # what of the hand it depends on (`dependence`)
    needs: Guard = field(default_factory=dict)  # a BOOL's card guard; None: never true
    may_fail: bool = False  # whether an evaluation may raise (arithmetic, facts, definitions)
    tree: Typed | None = None  # the checked node both runners read (`typed_tree`)

    @property
    def foldable(self) -> bool:
        return self.pure and not self.free

    @property
    def total_cost(self) -> int:
        return self.cost + sum(self.memo.values())


def _pos(item: Item | None) -> tuple[int, int]:
    if isinstance(item, Token):
        return item.line or 1, item.column or 1
    if isinstance(item, Tree) and not item.meta.empty:
        return item.meta.line, item.meta.column
    return 1, 1


def _error(message: str, at: Item | None) -> ExpressionError:
    return ExpressionError(message, *_pos(at))


def _const(type_: Type, value: object) -> Node:
    size = len(value) if isinstance(value, tuple) else 0
    needs = None if value is False else ANY_CARDS
    return Node(
        type_, is_const=True, value=value, size=size, needs=needs, tree=constant(type_, value)
    )


def _both_guards(left: Node, right: Node) -> Guard:
    """The guard of `left and right`."""
    if left.needs is None or left.may_fail:
        return left.needs
    if right.needs is None:
        return None
    needs = dict(left.needs)
    for name, cards in right.needs.items():
        needs[name] = needs[name] & cards if name in needs else cards
    return needs


def _either_guard(left: Node, right: Node) -> Guard:
    """The guard of `left or right`."""
    if left.needs is None:
        return right.needs
    if right.needs is None:
        return left.needs
    return {name: left.needs[name] | right.needs[name] for name in left.needs.keys() & right.needs}


def _merged(parts: Iterable[Node]) -> tuple[dict[str, int], frozenset[str], frozenset[str]]:
    memo: dict[str, int] = {}
    calls: frozenset[str] = frozenset()
    reads: frozenset[str] = frozenset()
    for part in parts:
        memo.update(part.memo)
        calls |= part.calls
        reads |= part.reads
    return memo, calls, reads


def _check_number(value: object, at: Item) -> None:
    if isinstance(value, int | float | Fraction) and not isinstance(value, bool):
        if not -bi.MAX_NUMBER <= value <= bi.MAX_NUMBER:
            raise _error(f"the number {bi.describe(value)} is out of range: {bi.RANGE_RULE}", at)


def _unknown(kind: str, name: str, candidates: Iterable[str], label: str, at: Item) -> None:
    names = sorted(set(candidates))
    message = f"unknown {kind} '{name}'"
    close = closest_names(name, names)
    message += f"; did you mean '{close[0]}'?" if close else "."
    message += f" {label}: {', '.join(names)}" if names else f" No {label.lower()} are defined."
    raise _error(message, at)


def _value_type(value: object) -> Type | None:
    if isinstance(value, bool):
        return Type.BOOL
    if isinstance(value, int | float | Fraction):
        return Type.NUMBER
    if isinstance(value, str):
        return Type.STRING
    return None


def _plural(n: int) -> str:
    return "argument" if n == 1 else "arguments"


_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%"}
_SYMBOLS |= {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}


def _no_closure(tree: Typed) -> Callable[[object], Value]:
    """What the checker hands `set_form_test` in place of the runner: it asks only whether
    an aggregation is a set operation, and makes no closure."""
    return _never_run


def _never_run(scope: object) -> Value:
    raise AssertionError("the checker runs no closure of a set form")  # pragma: no cover


#: node kinds that one method compiles for several operators (by name, not class-body aliases,
#: which mypyc does not compile)
_SHARED_HANDLERS = dict.fromkeys(("add", "sub", "mul", "div", "floordiv", "mod"), "arith")
_SHARED_HANDLERS |= dict.fromkeys(("lt", "le", "gt", "ge"), "order")
_SHARED_HANDLERS |= dict.fromkeys(("eq", "ne"), "equal")
_SHARED_HANDLERS |= dict.fromkeys(("member", "not_member"), "membership")


class _Compiler:
    def __init__(self, env: Environment) -> None:
        self.env = env
        self.budget = env.budget or COST_BUDGET
        self.bound: dict[str, Type] = {}
        self.comprehensions = 0
        self.depth = 0
        self.options_read: set[str] = set()  # option.NAME read, directly or via definitions

    # -- plumbing ---------------------------------------------------------
    def compile(self, tree: Tree) -> Node:
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise _error(f"expression is nested too deeply (over {MAX_NESTING} levels)", tree)
            kind = str(tree.data)
            return getattr(self, _SHARED_HANDLERS.get(kind) or "c_" + kind)(tree, *tree.children)
        finally:
            self.depth -= 1

    def combine(
        self,
        type_: Type,
        at: Item,
        *parts: Node,
        drop: str = "",
        cost: int | None = None,
        size: int = 0,
        needs: Guard = ANY_CARDS,
        may_fail: bool = False,
        op: str,
        name: str = "",
        var: str = "",
    ) -> Node:
        """The node of `op` over `parts` (its arguments, in order), folded to a constant when
        it reads nothing of the hand."""
        free = frozenset().union(*(p.free for p in parts)) - {drop}
        steps = 1 + sum(p.cost for p in parts) if cost is None else cost
        memo, calls, reads = _merged(parts)
        pure = all(p.pure for p in parts)
        fails = may_fail or any(p.may_fail for p in parts)
        args = tuple(_tree(p) for p in parts)
        tree = Typed(op, type_, args, name=name, var=var, cost=steps, reads=reads)
        node = Node(
            type_,
            pure,
            free,
            cost=steps,
            size=size,
            memo=memo,
            calls=calls,
            reads=reads,
            needs=needs,
            may_fail=fails,
            tree=tree,
        )
        if not node.foldable:
            return node
        try:
            return _const(type_, evaluate_constant(tree, self.env))
        except EvaluationError as exc:
            raise _error(f"cannot compute this constant: {exc.message}", at) from None
        except (ArithmeticError, ValueError) as exc:
            raise _error(f"cannot compute this constant: {exc}", at) from None

    def collection_size(self, type_: Type) -> int:
        """The most elements a CARDS or SEATS value of the game can hold."""
        return {Type.CARDS: self.env.cards, Type.SEATS: self.env.seats}.get(type_, 0)

    def need(self, node: Node, types: tuple[Type, ...], what: str, at: Item) -> None:
        if node.type not in types:
            raise _error(f"{what}, got {node.type}{instead(node.type, types, at)}", at)

    def both(self, op: str, need: str, left: Tree, right: Tree) -> tuple[Node, Node]:
        """Compile two operands that must both be of type `need`."""
        lnode, rnode = self.compile(left), self.compile(right)
        if lnode.type.value != need:
            hint = instead(lnode.type, (Type(need),), left)
            raise _error(
                f"'{op}' needs {need} on both sides, got {lnode.type} on the left{hint}", left
            )
        if rnode.type.value != need:
            hint = instead(rnode.type, (Type(need),), right)
            raise _error(
                f"'{op}' needs {need} on both sides, got {rnode.type} on the right{hint}", right
            )
        return lnode, rnode

    # -- literals and names ----------------------------------------------
    def c_number(self, tree: Tree, tok: Token) -> Node:
        value = exact(Fraction(str(tok))) if "." in tok else int(tok)  # 2.5 is 5/2 exactly
        _check_number(value, tok)
        return _const(Type.NUMBER, value)

    def c_string(self, tree: Tree, tok: Token) -> Node:
        return _const(Type.STRING, str(tok)[1:-1])

    def c_true(self, tree: Tree) -> Node:
        return _const(Type.BOOL, True)

    def c_false(self, tree: Tree) -> Node:
        return _const(Type.BOOL, False)

    def c_name(self, tree: Tree, tok: Token) -> Node:
        name, env = str(tok), self.env
        if name in self.bound:
            type_ = self.bound[name]
            return Node(type_, free=frozenset({name}), tree=Typed("bound", type_, name=name))
        if name in env.variables:
            type_ = env.variables[name]
            size = self.collection_size(type_)
            return Node(
                type_,
                pure=False,
                size=size,
                reads=frozenset({name}),
                tree=Typed("var", type_, name=name, reads=frozenset({name})),
            )
        if name in env.card_sets:
            return _const(Type.CARDS, tuple(sorted(env.card_sets[name])))
        if name in env.named:
            definition = env.named[name]
            self.options_read |= definition.options
            return Node(
                definition.type,
                pure=False,
                size=self.collection_size(definition.type),
                memo={**definition.memo, name: definition.own_cost},
                calls=definition.calls | {name},
                reads=(reads := dependence.remembered(definition.reads)),
                may_fail=True,
                tree=Typed("definition", definition.type, name=name, reads=reads),
            )
        if name in ("option", "param"):
            raise _error(f"'{name}' needs a name after it, like {name}.NAME", tok)
        if name in env.facts or name in bi.BUILTIN_NAMES:
            raise _error(f"'{name}' is a function; call it as {name}(...)", tok)
        known = [*self.bound, *env.variables, *env.card_sets, *env.named]
        _unknown("name", name, known, "Available here", tok)
        raise AssertionError  # pragma: no cover

    def c_dotted(self, tree: Tree, head: Token, attr: Token) -> Node:
        if str(head) == "contract" and self.env.contract_values:
            key = str(attr)
            if key not in self.env.contract_values:
                _unknown("contract value", key, self.env.contract_values, "Contract values", attr)
            return Node(
                Type.NUMBER,
                False,
                may_fail=True,
                reads=dependence.CONTRACT,
                tree=Typed("contract", Type.NUMBER, name=key, reads=dependence.CONTRACT),
            )
        table = {"option": self.env.options, "param": self.env.params}.get(str(head))
        if table is None:
            dotted = (
                "option.NAME, param.NAME and contract.NAME"
                if self.env.contract_values
                else "option.NAME and param.NAME"
            )
            raise _error(f"'{head}.{attr}' is not allowed: only {dotted} use a dot", head)
        if str(attr) not in table:
            label = "Options" if head == "option" else "Parameters"
            _unknown(str(head), str(attr), table, label, attr)
        if head == "option":
            self.options_read.add(str(attr))
        value = table[str(attr)]
        _check_number(value, attr)
        if isinstance(value, float):  # as written in the YAML: 0.1 is 1/10
            value = exact(value)
        type_ = _value_type(value)
        if type_ is None:
            raise _error(f"{head} '{attr}' has a value of unsupported kind", attr)
        return _const(type_, value)

    # -- operators ----------------------------------------------------------
    def arith(self, tree: Tree, left: Tree, right: Tree) -> Node:
        op = str(tree.data)
        symbol = _SYMBOLS[op]
        lnode, rnode = self.compile(left), self.compile(right)
        if symbol == "+" and lnode.type == rnode.type == Type.CARDS:
            size = lnode.size + rnode.size
            return self.combine(
                Type.CARDS,
                tree,
                lnode,
                rnode,
                cost=1 + lnode.cost + rnode.cost + size,
                size=size,
                op="add",
            )
        need = "NUMBER on both sides" + (" (or CARDS on both sides)" if symbol == "+" else "")
        if lnode.type != Type.NUMBER:
            hint = instead(lnode.type, (Type.NUMBER,), left)
            raise _error(f"'{symbol}' needs {need}, got {lnode.type} on the left{hint}", left)
        if rnode.type != Type.NUMBER:
            hint = instead(rnode.type, (Type.NUMBER,), right)
            raise _error(f"'{symbol}' needs {need}, got {rnode.type} on the right{hint}", right)
        if rnode.is_const and rnode.value == 0 and symbol in ("/", "//", "%"):
            raise _error(
                f"dividing by zero: the right side of '{symbol}' is always 0 (a division by"
                " zero gives 0; write 0 if that is meant)",
                right,
            )
        cost = 3 + lnode.cost + rnode.cost  # the closure, the operation, the range check
        return self.combine(Type.NUMBER, tree, lnode, rnode, cost=cost, may_fail=True, op=op)

    def c_neg(self, tree: Tree, operand: Tree) -> Node:
        node = self.compile(operand)
        if node.type != Type.NUMBER:
            raise _error(f"unary '-' needs a NUMBER, got {node.type}", operand)
        return self.combine(Type.NUMBER, tree, node, op="neg")

    def order(self, tree: Tree, left: Tree, right: Tree) -> Node:
        op = str(tree.data)
        lnode, rnode = self.both(_SYMBOLS[op], "NUMBER", left, right)
        return self.combine(Type.BOOL, tree, lnode, rnode, op=op)

    def equal(self, tree: Tree, left: Tree, right: Tree) -> Node:
        op = str(tree.data)
        symbol = _SYMBOLS[op]
        lnode, rnode = self.compile(left), self.compile(right)
        if lnode.type in COLLECTIONS:
            raise _error(
                f"'{symbol}' cannot compare {lnode.type} values; use count() or 'in'", left
            )
        if lnode.type != rnode.type:
            raise _error(
                f"'{symbol}' needs the same type on both sides, "
                f"got {lnode.type} on the left and {rnode.type} on the right",
                right,
            )
        return self.combine(Type.BOOL, tree, lnode, rnode, op=op)

    def membership(self, tree: Tree, left: Tree, right: Tree) -> Node:
        negate = tree.data == "not_member"
        symbol = "not in" if negate else "in"
        lnode, rnode = self.compile(left), self.compile(right)
        self.need(rnode, COLLECTIONS, f"'{symbol}' needs CARDS or SEATS on the right", right)
        element = ELEMENT[rnode.type]
        if lnode.type != element:
            raise _error(
                f"'{symbol}' on {rnode.type} needs a {element} on the left, got {lnode.type}", left
            )
        cost = 1 + lnode.cost + rnode.cost + (0 if rnode.is_const else rnode.size)
        needs = ANY_CARDS
        name = str(left.children[0]) if isinstance(left, Tree) and left.data == "name" else ""
        if rnode.is_const and not negate and lnode.type == Type.CARD and self.is_context(name):
            needs = {name: frozenset(rnode.value)}
        return self.combine(
            Type.BOOL, tree, lnode, rnode, cost=cost, needs=needs, op=str(tree.data)
        )

    def is_context(self, name: str) -> bool:
        """Whether `name` is a context variable (not one bound by an aggregation)."""
        return name not in self.bound and name in self.env.variables

    def c_and_(self, tree: Tree, left: Tree, right: Tree) -> Node:
        lnode, rnode = self.both("and", "BOOL", left, right)
        needs = _both_guards(lnode, rnode)
        return self.combine(Type.BOOL, tree, lnode, rnode, needs=needs, op="and")

    def c_or_(self, tree: Tree, left: Tree, right: Tree) -> Node:
        lnode, rnode = self.both("or", "BOOL", left, right)
        needs = _either_guard(lnode, rnode)
        return self.combine(Type.BOOL, tree, lnode, rnode, needs=needs, op="or")

    def c_not_(self, tree: Tree, operand: Tree) -> Node:
        node = self.compile(operand)
        self.need(node, (Type.BOOL,), "'not' needs a BOOL", operand)
        return self.combine(Type.BOOL, tree, node, op="not")

    def c_cond(self, tree: Tree, test: Tree, then: Tree, other: Tree) -> Node:
        tnode = self.compile(test)
        self.need(tnode, (Type.BOOL,), "'if' needs a BOOL condition", test)
        anode, bnode = self.compile(then), self.compile(other)
        if anode.type != bnode.type:
            hint = ""  # one element where the other branch is a group: its group of one
            if ELEMENT.get(bnode.type) == anode.type:
                hint = instead(anode.type, (bnode.type,), then)
            elif ELEMENT.get(anode.type) == bnode.type:
                hint = instead(bnode.type, (anode.type,), other)
            raise _error(
                "'if' branches must have the same type, "
                f"got {anode.type} after 'then' and {bnode.type} after 'else'{hint}",
                other,
            )
        if tnode.is_const:
            return anode if tnode.value else bnode
        return self.combine(
            anode.type,
            tree,
            tnode,
            anode,
            bnode,
            cost=1 + tnode.cost + max(anode.cost, bnode.cost),
            size=max(anode.size, bnode.size),
            op="cond",
        )

    # -- calls ----------------------------------------------------------------
    def c_call(self, tree: Tree, name_tok: Token, *arg_trees: Tree | None) -> Node:
        name = str(name_tok)
        trees = [t for t in arg_trees if t is not None]
        if name in bi.BUILTIN_NAMES:
            return self.builtin(tree, name_tok, trees)
        fact = self.env.facts.get(name)
        if fact is None:
            self.not_a_function(name_tok)
        assert fact is not None
        self.options_read |= fact.options
        if len(trees) != len(fact.params):
            n = len(fact.params)
            wanted = (
                f"{n} {_plural(n)} ({', '.join(map(str, fact.params))})" if n else "no arguments"
            )
            raise _error(f"{name}() takes {wanted}, got {len(trees)}", name_tok)
        args = [self.compile(t) for t in trees]
        for i, (node, want, at) in enumerate(zip(args, fact.params, trees, strict=True), 1):
            if node.type != want:
                hint = instead(node.type, (want,), at)
                raise _error(f"argument {i} of {name}() must be {want}, got {node.type}{hint}", at)
        # never folded: a fact depends on the game state
        memo, calls, read = _merged(args)
        # the argument's name only for a context variable (a bound one ranges over values)
        single = _tree(args[0]) if len(args) == 1 else None
        bare = single.name if single is not None and single.op in ("var", "bound") else ""
        argument = bare if bare and args[0].reads == {bare} else None
        cost = 1 + fact.cost + sum(a.cost for a in args)
        reads = read | dependence.of_call(name, fact.reads, argument, bool(args))
        arguments = tuple(_tree(a) for a in args)
        return Node(
            fact.returns,
            pure=False,
            free=frozenset().union(*(a.free for a in args)),
            cost=cost,
            size=self.collection_size(fact.returns),
            memo={**memo, **fact.memo},
            calls=calls | fact.calls | {name},
            reads=reads,
            may_fail=True,
            tree=Typed("call", fact.returns, arguments, name=name, cost=cost, reads=reads),
        )

    def not_a_function(self, name_tok: Token) -> None:
        name, env = str(name_tok), self.env
        if name in self.bound or name in env.variables or name in env.card_sets:
            raise _error(f"'{name}' is not a function", name_tok)
        _unknown("function", name, [*bi.BUILTIN_NAMES, *env.facts], "Functions", name_tok)

    def builtin(self, tree: Tree, name_tok: Token, trees: list[Tree]) -> Node:
        name = str(name_tok)
        if name not in bi.PLAIN:
            raise _error(f"{name}() needs a bound variable, like {name}(x in C: ...)", name_tok)
        args = [self.compile(t) for t in trees]
        if name == "count":
            if len(args) != 1 or args[0].type not in COLLECTIONS:
                got = args[0].type if len(args) == 1 else f"{len(args)} {_plural(len(args))}"
                hint = instead(args[0].type, COLLECTIONS, trees[0]) if len(args) == 1 else ""
                raise _error(f"{bi.PLAIN[name]}, got {got}{hint}", trees[0] if args else name_tok)
            return self.combine(Type.NUMBER, tree, *args, op="builtin", name=name)
        arity = 1 if name in bi.ONE_NUMBER else 2 if name == "power" else None
        if not args or (arity is not None and len(args) != arity):
            raise _error(f"{bi.PLAIN[name]}, got {len(args)}", name_tok)
        for node, at in zip(args, trees, strict=True):
            self.need(node, (Type.NUMBER,), bi.PLAIN[name], at)
        if name == "power" and args[1].is_const:  # an exponent known now is checked now
            problem = bi.exponent_problem(args[1].value)
            if problem is not None:
                raise _error(problem, trees[1])
        return self.combine(Type.NUMBER, tree, *args, op="builtin", name=name)

    # -- comprehensions -------------------------------------------------------
    def bind(self, what: str, binder: Tree, body: Tree, body_type: Type) -> tuple[str, Node, Node]:
        """Compile `x in C` and the body with x bound to C's element type."""
        if not (
            isinstance(binder, Tree)
            and binder.data == "member"
            and isinstance(binder.children[0], Tree)
            and binder.children[0].data == "name"
        ):
            raise _error(f"{what} needs 'NAME in COLLECTION' before the condition", binder)
        var_tok, coll_tree = binder.children[0].children[0], binder.children[1]
        var, env = str(var_tok), self.env
        if self.comprehensions >= MAX_COMPREHENSION_DEPTH:
            raise _error(f"comprehensions nest more than {MAX_COMPREHENSION_DEPTH} deep", binder)
        if var in self.bound or var in env.variables or var in env.card_sets:
            raise _error(f"'{var}' is already defined here; pick another name for it", var_tok)
        coll = self.compile(coll_tree)
        self.need(coll, COLLECTIONS, f"{what} ranges over CARDS or SEATS", coll_tree)
        self.bound[var] = ELEMENT[coll.type]
        self.comprehensions += 1
        try:
            node = self.compile(body)
        finally:
            del self.bound[var]
            self.comprehensions -= 1
        if node.type != body_type:
            hint = instead(node.type, (body_type,), body)
            raise _error(f"the body of {what} must be {body_type}, got {node.type}{hint}", body)
        return var, coll, node

    def c_aggregate(self, tree: Tree, name_tok: Token, binder: Tree, body: Tree) -> Node:
        kind = str(name_tok)
        if kind not in bi.AGGREGATES:
            if kind in self.env.facts or kind in bi.BUILTIN_NAMES:
                raise _error(
                    f"{kind}() does not take a bound variable; only "
                    f"{', '.join(sorted(bi.AGGREGATES))} do",
                    name_tok,
                )
            self.not_a_function(name_tok)
        var, coll, node = self.bind(f"{kind}()", binder, body, Type[bi.AGGREGATES[kind]])
        result = Type.BOOL if kind in ("any", "all") else Type.NUMBER
        shape = Typed("aggregate", result, (_tree(coll), _tree(node)), name=kind, var=var)
        cost = self.within_budget(f"{kind}()", coll, node, name_tok, _set_once(kind, shape))
        fails = kind == "sum"  # a sum may leave the range of numbers
        return self.combine(
            result,
            tree,
            coll,
            node,
            drop=var,
            cost=cost,
            may_fail=fails,
            op="aggregate",
            name=kind,
            var=var,
        )

    def c_filter(self, tree: Tree, binder: Tree, condition: Tree) -> Node:
        var, coll, node = self.bind("a filter [x in C if ...]", binder, condition, Type.BOOL)
        shape = Typed("filter", coll.type, (_tree(coll), _tree(node)), var=var)
        cost = self.within_budget("the filter", coll, node, tree, _set_once("filter", shape))
        return self.combine(
            coll.type,
            tree,
            coll,
            node,
            drop=var,
            cost=cost,
            size=coll.size,
            op="filter",
            var=var,
        )

    def within_budget(
        self, what: str, coll: Node, body: Node, at: Item, set_once: bool = False
    ) -> int:
        """The steps of an aggregation over `coll` with `body`, refused past the budget
        (`set_once`: the body is a set worked out once, then one lookup per element)."""
        if set_once:
            cost = 1 + coll.cost + body.cost + coll.size * 2
        else:
            cost = 1 + coll.cost + coll.size * (body.cost + 1)
        total = cost + sum(_merged((coll, body))[0].values())
        if total > self.budget:
            kind = "cards" if coll.type == Type.CARDS else "seats"
            raise _error(
                f"{what} looks at up to {coll.size} {kind} and works {body.cost} steps on"
                f" each: about {total:,} steps per evaluation, over the limit of"
                f" {self.budget:,} (nest fewer aggregations, or aggregate over a smaller set)",
                at,
            )
        return cost


def _set_once(kind: str, shape: Typed) -> bool:
    """Whether an aggregation runs as a set form whose set is an expression, worked out once
    for the whole aggregation rather than once per element (`closures.set_form_test`)."""
    test = set_form_test(shape, _no_closure)
    return test is not None and test.collection is not None and kind in set_forms.EMPTY


def compile_expression(
    text: str, env: Environment, expected: Type | None = None
) -> CompiledExpression:
    """Parse, type-check and compile one expression.

    Raises ExpressionError (the first problem found) on a syntax error, an
    unknown name, a wrong number of arguments, a type error, or a result whose
    type is not `expected`.  Numbers and booleans (as YAML may hand them over)
    are accepted and read as their literal text.
    """
    if isinstance(text, bool):
        text = "true" if text else "false"
    elif isinstance(text, int | float):
        text = repr(text)
    elif not isinstance(text, str):
        raise ExpressionError(f"an expression must be text, got {type(text).__name__}")
    compiler = _Compiler(env)
    try:
        try:
            node = compiler.compile(parse(text))
        except ExpressionError:  # compiled again from a tree that knows where each part is
            compiler = _Compiler(env)
            node = compiler.compile(parse(text, positions=True))
    except RecursionError:
        raise ExpressionError("expression is nested too deeply") from None
    if expected is not None and node.type != expected:
        hint = instead(node.type, (expected,), text)
        raise ExpressionError(f"expected a {expected} expression, got {node.type}{hint}")
    if node.total_cost > compiler.budget:
        raise ExpressionError(_over_budget(node, compiler.budget))
    tree = _tree(node)
    return CompiledExpression(
        text,
        node.type,
        closure(tree, env),
        node.pure,
        options=frozenset(compiler.options_read),
        cost=node.total_cost,
        own_cost=node.cost,
        memo=node.memo,
        calls=node.calls,
        reads=node.reads,
        needs=node.needs,
        tree=tree,
    )


def _tree(node: Node) -> Typed:
    assert node.tree is not None, "every checked node has its typed node"
    return node.tree


def _over_budget(node: Node, budget: int) -> str:
    """The refusal of an expression past the budget, with what each part counts: its
    costliest aggregations and calls, and every definition it uses."""
    message = f"this expression could take about {node.total_cost:,} steps per evaluation"
    message += f", over the limit of {budget:,}"
    tree = _tree(node)
    parts = sorted(
        (part for part in tree.walk() if part is not tree and part.op in _ITEMIZED),
        key=lambda part: -part.cost,
    )
    named = [f"{_part_name(part)} about {part.cost:,}" for part in parts[:4]]
    if named:
        message += f"; its costliest parts: {', '.join(named)}"
    if node.memo:
        uses = sorted(node.memo, key=lambda name: -node.memo[name])
        message += "; the definitions it uses: " + ", ".join(
            f"{name} {node.memo[name]:,}" for name in uses
        )
    return message + "; make the costliest of them simpler"


#: the parts of an expression an over-budget message names with their cost
_ITEMIZED = frozenset({"aggregate", "filter", "call", "builtin", "cond"})


def _part_name(part: Typed) -> str:
    if part.op == "aggregate":
        return f"{part.name}({part.var} in ...)"
    if part.op == "filter":
        return f"[{part.var} in ... if ...]"
    if part.op == "cond":
        return "if ... then ... else ..."
    return f"{part.name}()"
