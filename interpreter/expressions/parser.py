"""Parser facade: text -> lark parse tree.

Pipeline: grammar.lark -> parser.py (this module) -> compiler.py -> builtins.py; used by the
compile stage of loading (`interpreter/compile/ruleset_compiler.py`).
Loads the LALR grammar once and turns every lark exception into an
ExpressionError with a position and a short "expected ..." message, so no lark
exception leaves this package.

Two things are remembered so that loading is quick:

- the parser, once per process; lark's analysis of the grammar is kept between
  processes in the user's private cache folder as sealed JSON (`expressions.grammar_cache`;
  never lark's own cache, a pickle), else the grammar is analysed afresh;
- the tree of every expression text parsed, for the life of the process (rulesets of one
  family share most of their expressions), and between processes in the same folder
  (`expressions.tree_store`). Trees are shared: the compiler only reads them.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache

from lark import Lark, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from tarot.expressions import tree_store
from tarot.expressions.grammar_cache import grammar_parser

from .errors import ExpressionError

MAX_LENGTH = 2000
#: the words that are never names (grammar.lark's NAME leaves out the same ones)
KEYWORDS = frozenset({"and", "or", "not", "in", "if", "then", "else", "true", "false"})

_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})
_FRIENDLY = {"NAME": "a name", "NUMBER": "a number", "STRING": "a string", "$END": "end of text"}


#: Expression texts up to this long have their trees remembered (most are under 200).
REMEMBERED_TEXT = 500


@cache
def _lark(positions: bool = True) -> Lark:
    """The parser; with `positions`, every tree node knows where it stands in the text
    (what an error message points at), which costs about a third more a parse."""
    return grammar_parser(positions)


def _describe(terminal: str) -> str:
    if terminal in _FRIENDLY:
        return _FRIENDLY[terminal]
    try:
        pattern = _lark().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    return f"'{pattern.value}'" if isinstance(pattern, PatternStr) else terminal


def _expected(names: Iterable[str] | None) -> str:
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


def parse(text: str, positions: bool = False) -> Tree:
    """Parse one expression, raising ExpressionError on any syntax problem (with its line
    and column either way). The tree's nodes know their place in the text only with
    `positions`: the compiler asks for that only to word an error it found in a tree
    without. The tree may be shared with other callers that parsed the same text: it must
    not be changed."""
    if len(text) <= REMEMBERED_TEXT:
        return _parse_remembered(text, positions)
    return _parse(text, positions)


@lru_cache(maxsize=4096)
def _parse_remembered(text: str, positions: bool) -> Tree:
    if positions:
        return _parse(text, positions)
    tree = tree_store.STORE.recall(text)  # parsed by an earlier process
    if tree is None:
        tree = _parse(text, positions)
        tree_store.STORE.keep(text, tree)
    return tree


def _parse(text: str, positions: bool) -> Tree:
    if len(text) > MAX_LENGTH:
        raise ExpressionError(
            f"expression is too long ({len(text)} characters; the limit is {MAX_LENGTH})"
        )
    if not text.strip():
        raise ExpressionError("empty expression")
    try:
        return _lark(positions).parse(text)
    except UnexpectedCharacters as err:
        pos = -1 if err.pos_in_stream is None else err.pos_in_stream
        char = text[pos] if 0 <= pos < len(text) else "?"
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
