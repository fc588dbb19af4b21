"""Errors of the expression language.

Pipeline: grammar.lark -> parser.py -> compiler.py -> builtins.py.  Every stage
reports problems as one ExpressionError (the first problem found), carrying a
1-based line and column inside the expression text.
"""

from __future__ import annotations


class ExpressionError(Exception):
    """A syntax, name, arity or type problem in one expression."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message, line, column)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"
