"""Parser facade: text -> lark parse tree.

Pipeline: grammar.lark -> parser.py (this module) -> compiler.py -> builtins.py.
Loads the LALR grammar once and turns every lark exception into an
ExpressionError with a position and a short "expected ..." message, so no lark
exception leaves this package.
"""

from __future__ import annotations

from functools import cache

from lark import Lark, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from .errors import ExpressionError

MAX_LENGTH = 2000
#: the words that are never names (grammar.lark's NAME leaves out the same ones)
KEYWORDS = frozenset({"and", "or", "not", "in", "if", "then", "else", "true", "false"})

_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})
_FRIENDLY = {"NAME": "a name", "NUMBER": "a number", "STRING": "a string", "$END": "end of text"}


@cache
def _lark() -> Lark:
    return Lark.open("grammar.lark", rel_to=__file__, parser="lalr", propagate_positions=True)


def _describe(terminal: str) -> str:
    if terminal in _FRIENDLY:
        return _FRIENDLY[terminal]
    try:
        pattern = _lark().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    return f"'{pattern.value}'" if isinstance(pattern, PatternStr) else terminal


def _expected(names: object) -> str:
    described = sorted({_describe(n) for n in (names or ())})
    if not described:
        return ""
    if len(described) > 8:
        described = described[:8] + ["..."]
    return "; expected " + (
        described[0] if len(described) == 1 else "one of " + ", ".join(described)
    )


def _end_position(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1


def parse(text: str) -> Tree:
    """Parse one expression, raising ExpressionError on any syntax problem."""
    if len(text) > MAX_LENGTH:
        raise ExpressionError(
            f"expression is too long ({len(text)} characters; the limit is {MAX_LENGTH})"
        )
    if not text.strip():
        raise ExpressionError("empty expression")
    try:
        return _lark().parse(text)
    except UnexpectedCharacters as err:
        char = text[err.pos_in_stream] if 0 <= err.pos_in_stream < len(text) else "?"
        message = f"unexpected character {char!r}"
        raise ExpressionError(message, err.line, err.column) from None
    except UnexpectedToken as err:
        line, column = err.line, err.column
        if err.token.type == "$END" or not isinstance(line, int) or line < 1:
            line, column = _end_position(text)
            found = "end of expression"
        else:
            found = repr(str(err.token))
        message = f"unexpected {found}{_expected(err.expected)}"
        if str(err.token) in _COMPARISONS:
            message = f"unexpected {found}: comparisons cannot be chained; join them with 'and'"
        raise ExpressionError(message, line, column) from None
    except UnexpectedInput as err:
        line, column = getattr(err, "line", 1), getattr(err, "column", 1)
        if not isinstance(line, int) or line < 1:
            line, column = _end_position(text)
        raise ExpressionError("syntax error", line, column) from None
    except LarkError as err:  # pragma: no cover - defensive
        raise ExpressionError(f"syntax error: {err}") from None
