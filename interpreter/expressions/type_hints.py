"""What to write instead, when an expression gives one type where another is wanted.

Pipeline: called by compiler.py while it words a type mismatch; the hint is added to the
message. Only the mismatches with one usual meaning get a hint (one seat where a group of
seats is wanted: the group of that one seat); the others keep the plain message.
`LANGUAGE.md` ("When the types do not match") shows the same ways.
"""

from __future__ import annotations

from collections.abc import Iterable

from lark import Token, Tree

from .types import Type

__all__ = ["instead"]


def instead(got: Type, wanted: Iterable[Type], at: Tree | Token | str | None = None) -> str:
    """A hint to add to the message of a mismatch (``"; ..."``), or nothing: `at` is the part
    of the expression that gave `got`, or its text (quoted in the hint where it is short;
    else a letter stands for it)."""
    wanted = tuple(wanted)
    text, operand = _text(at), _text(at, operand=True)
    if got == Type.SEAT and Type.SEATS in wanted:
        seat = operand or "X"
        return f"; for a group of one seat write [s in seats if s == {seat}]" + (
            "" if text else ", X being the seat"
        )
    if got == Type.CARD and Type.CARDS in wanted:
        return (
            f"; for a group of one card write [c in C if c == {operand or 'X'}], C being a group"
            " that holds it (a card set, hand(player)...)"
        )
    if got == Type.NUMBER and Type.BOOL in wanted:
        return f"; to ask whether a number is other than 0, write {operand or 'N'} != 0"
    if got == Type.BOOL and Type.NUMBER in wanted:
        return f"; for 1 when it holds and 0 when not, write (if {text or 'C'} then 1 else 0)"
    if got in (Type.CARDS, Type.SEATS) and Type.NUMBER in wanted:
        return f"; for how many there are, write count({text or 'G'})"
    return ""


def _text(at: Tree | Token | str | None, operand: bool = False) -> str:
    """The text of `at`, written again from its tree, when it is short; else nothing. An
    `operand` that is an operation of its own is put in parentheses."""
    if isinstance(at, str):
        text = at.strip()
        if operand and not text.isidentifier():
            text = f"({text})"
    else:
        try:
            text = "" if at is None else (_operand if operand else _written)(at)
        except (KeyError, ValueError, RecursionError):  # a form not written again here
            return ""
    return text if len(text) <= QUOTED and "\n" not in text else ""


#: The longest part of an expression a hint quotes; a longer one is stood for by a letter.
QUOTED = 40

#: grammar.lark's operators by the name of the tree they make
_BINARY = {
    "or_": "or",
    "and_": "and",
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "member": "in",
    "not_member": "not in",
    "add": "+",
    "sub": "-",
    "mul": "*",
    "div": "/",
    "floordiv": "//",
    "mod": "%",
}
_WORDS = {"true": "true", "false": "false"}


def _written(item: Tree | Token) -> str:
    """An expression's tree written out as text (each operand that is an operation of its
    own in parentheses)."""
    if isinstance(item, Token):
        return str(item)
    kind, parts = str(item.data), item.children
    if kind in ("name", "number", "string"):
        return str(parts[0])
    if kind in _WORDS:
        return _WORDS[kind]
    if kind == "dotted":
        return f"{parts[0]}.{parts[1]}"
    if kind == "call":
        return f"{parts[0]}({', '.join(_written(p) for p in parts[1:] if p is not None)})"
    if kind == "aggregate":
        return f"{parts[0]}({_written(parts[1])}: {_written(parts[2])})"
    if kind == "filter":
        return f"[{_written(parts[0])} if {_written(parts[1])}]"
    if kind == "not_":
        return f"not {_operand(parts[0])}"
    if kind == "neg":
        return f"-{_operand(parts[0])}"
    if kind == "cond":
        return "if {} then {} else {}".format(*(_operand(p) for p in parts))
    return f"{_operand(parts[0])} {_BINARY[kind]} {_operand(parts[1])}"


#: the forms written as an operand without brackets
_SIMPLE = frozenset(("name", "number", "string", "dotted", "call", "aggregate", "filter"))


def _operand(item: Tree | Token) -> str:
    text = _written(item)
    simple = isinstance(item, Token) or str(item.data) in _SIMPLE or str(item.data) in _WORDS
    return text if simple else f"({text})"
