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
    of the expression that gave `got` (its text is quoted where it is one name or number,
    or a short expression given whole as text; else a letter stands for it)."""
    wanted = tuple(wanted)
    text = _text(at)
    if got == Type.SEAT and Type.SEATS in wanted:
        seat = text or "X"
        return f"; for a group of one seat write [s in seats if s == {seat}]" + (
            "" if text else ", X being the seat"
        )
    if got == Type.CARD and Type.CARDS in wanted:
        return (
            f"; for a group of one card write [c in C if c == {text or 'X'}], C being a group"
            " that holds it (a card set, hand(player)...)"
        )
    if got == Type.NUMBER and Type.BOOL in wanted:
        return f"; to ask whether a number is other than 0, write {text or 'N'} != 0"
    if got == Type.BOOL and Type.NUMBER in wanted:
        return f"; for 1 when it holds and 0 when not, write (if {text or 'C'} then 1 else 0)"
    if got in (Type.CARDS, Type.SEATS) and Type.NUMBER in wanted:
        return f"; for how many there are, write count({text or 'G'})"
    return ""


def _text(at: Tree | Token | str | None) -> str:
    """The text of `at` when it is one name or a short expression given as text."""
    if isinstance(at, Token) and at.type in ("NAME", "NUMBER"):
        return str(at)
    if isinstance(at, Tree) and at.data in ("name", "number") and len(at.children) == 1:
        return _text(at.children[0])
    if isinstance(at, str) and len(at) <= 40 and "\n" not in at:
        return at.strip()
    return ""
