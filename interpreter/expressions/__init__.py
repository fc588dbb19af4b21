"""The rules expression language: small, typed, not Turing-complete.

Pipeline: grammar.lark (syntax) -> parser.py (lark facade, syntax errors) ->
compiler.py (the checker: types, cost, dependence, constant folding) -> typed_tree.py
(the checked tree, one form for both runners) -> closures.py (the scalar runner: nested
Python closures) or the batch back end's array runner (`tarot.batch.array_exprs`);
builtins.py holds the built-in functions and run-time helpers.  Expressions are
checked once at load time; nothing is evaluated with eval/exec and no tree is walked
at run time.

Division by zero never raises at run time: ``a / 0``, ``a // 0`` and ``a % 0``
all give 0, so a game cannot crash on it (a divisor that is always 0 is refused
when compiling).  A number out of range (past 10^15, infinite, not a number)
raises EvaluationError.  Every expression's cost is bounded when it is compiled.
``max``/``min`` over an empty collection give 0.  See LANGUAGE.md for the
reference for ruleset authors.
"""

from .compiler import compile_expression
from .errors import EvaluationError, ExpressionError
from .types import CompiledExpression, Environment, FactFunction, Scope, Type

__all__ = [
    "CompiledExpression",
    "Environment",
    "EvaluationError",
    "ExpressionError",
    "FactFunction",
    "Scope",
    "Type",
    "compile_expression",
]
