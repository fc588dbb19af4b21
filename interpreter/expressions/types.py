"""Types and data classes shared by the expression language.

Pipeline: grammar.lark -> parser.py -> compiler.py (type checking uses Type) ->
builtins.py.  This module holds the value types, the load-time Environment a
ruleset offers to an expression, the run-time Scope, and the compiled result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from .errors import EvaluationError

if TYPE_CHECKING:
    from .typed_tree import Typed


class Type(Enum):
    """Static type of an expression.  Cards and seats are ints at run time;
    CARDS and SEATS are sequences of ints; NUMBER is an int, or a Fraction when not whole
    (`numbers.py`)."""

    NUMBER = "NUMBER"
    BOOL = "BOOL"
    STRING = "STRING"
    CARD = "CARD"
    SEAT = "SEAT"
    CARDS = "CARDS"
    SEATS = "SEATS"

    def __str__(self) -> str:
        return self.value


#: A value at run time: an int, Fraction, bool, str or tuple of ints.  Which one is known from the
#: expression's Type, checked by the compiler, not by Python's type checker.
Value = Any

#: element type of each collection type
ELEMENT: dict[Type, Type] = {Type.CARDS: Type.CARD, Type.SEATS: Type.SEAT}


@dataclass(frozen=True)
class FactFunction:
    """A game-fact function, called at run time as impl(state, *arguments).

    `cost` is an upper bound on the steps one call takes (see compiler.py's cost model);
    `memo` lists what the call may compute once per game state and then remember (a
    definition of a seat: its name -> the steps of all its first evaluations together);
    `calls` names the facts and definitions it reaches, directly or not; `reads` says what
    of the hand a ruleset's own definition depends on, its seat written `@`
    (`dependence`)."""

    params: tuple[Type, ...]
    returns: Type
    impl: Callable[..., Value]
    options: frozenset[str] = frozenset()  # options it reads (a ruleset's own definition)
    cost: int = 1
    memo: Mapping[str, int] = field(default_factory=dict)
    calls: frozenset[str] = frozenset()
    reads: frozenset[str] = frozenset()


@dataclass
class Environment:
    """Everything an expression may refer to at one place in a ruleset."""

    variables: Mapping[str, Type] = field(default_factory=dict)
    card_sets: Mapping[str, frozenset[int]] = field(default_factory=dict)
    options: Mapping[str, object] = field(default_factory=dict)
    params: Mapping[str, object] = field(default_factory=dict)
    facts: Mapping[str, FactFunction] = field(default_factory=dict)
    #: the ruleset's named definitions usable here, already compiled
    named: Mapping[str, CompiledExpression] = field(default_factory=dict)
    #: the numbers every contract of an auction defines, usable as contract.NAME
    contract_values: frozenset[str] = frozenset()
    #: the most cards and seats a CARDS or SEATS value can hold (for the cost estimate)
    cards: int = 78
    seats: int = 6
    #: the most steps one evaluation may take, definitions it uses included
    budget: int = 0  # 0: the compiler's COST_BUDGET


class StepMeter:
    """The steps a hand's expressions have taken, against the hand's budget: each evaluation
    of a compiled expression charges what the checker bounds it to (`own_cost`; a
    definition charges its own when it is worked out, not when it is read back), and the
    evaluation that takes the hand past `limit` stops it with an EvaluationError."""

    __slots__ = ("limit", "steps")

    def __init__(self, limit: int, steps: int = 0) -> None:
        self.limit = limit
        self.steps = steps

    def charge(self, steps: int) -> None:
        self.steps += steps
        if self.steps > self.limit:
            raise EvaluationError(
                f"the ruleset's expressions took more than {self.limit:,} steps in this hand"
                f" (this one up to {steps:,} each time it is worked out): make it, or how often"
                " it is worked out, smaller"
            )

    def copy(self) -> StepMeter:
        return StepMeter(self.limit, self.steps)


class Scope:
    """What a compiled expression receives at run time (`meter`: the hand's steps, counted
    when given)."""

    __slots__ = ("meter", "state", "vars")

    def __init__(
        self, state: object, vars: dict[str, object], meter: StepMeter | None = None
    ) -> None:
        self.state = state
        self.vars = vars
        self.meter = meter


@dataclass(frozen=True)
class CompiledExpression:
    """A type-checked expression compiled to a closure over a Scope.

    is_constant is True when the expression uses no context variable and no
    fact function, so it may be evaluated at load time with Scope(None, {}).
    options names the options it reads, itself or through the definitions it uses.
    cost is an upper bound on the steps of one evaluation, definitions it uses
    included; own_cost leaves out what `memo` lists (definitions computed once per
    game state: name -> steps); calls names the facts and definitions it reaches.
    where says where the expression stands (for run-time errors). needs is a BOOL's card
    guard (compiler.py, "Card guards"): context variable -> the cards it must be among for
    the expression to be true; None when it is never true.
    """

    source: str
    type: Type
    fn: Callable[[Scope], Value]
    is_constant: bool = False
    options: frozenset[str] = frozenset()
    cost: int = 1
    own_cost: int = 1
    memo: Mapping[str, int] = field(default_factory=dict)
    calls: frozenset[str] = frozenset()
    reads: frozenset[str] = frozenset()  # what of the hand it depends on (`dependence`)
    where: str = ""
    needs: Mapping[str, frozenset[int]] | None = field(default_factory=dict)
    tree: Typed | None = None  # the checked tree the batch back end runs (`typed_tree`)

    def __call__(self, scope: Scope) -> Value:
        try:
            meter = scope.meter
            if meter is not None:
                meter.charge(self.own_cost)
            return self.fn(scope)
        except EvaluationError as error:
            if not error.where:
                error.where = self.where
            raise
