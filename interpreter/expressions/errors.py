"""Errors of the expression language.

Pipeline: grammar.lark -> parser.py -> compiler.py -> builtins.py.  Every stage
reports problems as one ExpressionError (the first problem found), carrying a
1-based line and column inside the expression text.  A compiled expression that
meets a problem while it runs on a game (a number out of range) raises an
EvaluationError instead.
"""

from __future__ import annotations

from tarot.errors import TarotError


class ExpressionError(TarotError):
    """A syntax, name, arity or type problem in one expression."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message, line, column)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


class EvaluationError(TarotError):
    """A problem met while evaluating a compiled expression on a game (a number out of
    range). The engine adds where the expression stands, the hand and the moment."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.where = ""  # the expression's place in the ruleset: FILE:LINE:COL: $.path
        self.hand: int | None = None
        self.moment = ""  # what the hand was doing, e.g. "trick 3" or "the settlement"

    def __str__(self) -> str:
        text = f"{self.where}: " if self.where else ""
        text += self.message
        context = [f"hand {self.hand}"] if self.hand is not None else []
        context += [self.moment] if self.moment else []
        return text + (f" ({', '.join(context)})" if context else "")
