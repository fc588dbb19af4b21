"""Check stage: the ids an expression writes as text for a fact (`declared(seat, 'ID')`,
`announced_by('ID')`, `doubling_factor('ID')`, `thrown_in('ID')`...) name something the
ruleset defines.

Where it sits: called by the compile stage (:mod:`~tarot.compile.ruleset_compiler`) for each
expression it compiled, with the ids the document defines (`known_ids`); a text that names
nothing would make the fact false or 0 in every hand, silently. Only ids written as text are
looked at: an id worked out by the expression is left to the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from lark import Token, Tree

from tarot.errors import closest_names
from tarot.expressions.errors import ExpressionError
from tarot.expressions.parser import parse

__all__ = ["ID_ARGUMENTS", "IdKind", "known_ids", "rule_of", "unknown_ids"]


@dataclass(frozen=True)
class IdKind:
    """What a fact's text argument names: `what` it is called in a message, and where the
    ruleset defines such ids."""

    what: str
    defined_in: str


DECLARATION = IdKind("declaration", "`declarations.table`")
DECLARED = IdKind(
    "declaration, question or redeal",
    "`declarations.table`, an `ask` step of the `flow` or a `redeal` rule (playing on)",
)
BONUS = IdKind("announcement", "`announcements.table`")
TARGET = IdKind("doubling target", "`doubling.targets`")
QUESTION = IdKind("question asked during play", "`questions`")
THROWN_IN = IdKind("reason to throw a deal in", "a `redeal` rule, or 'all_passed' with an auction")

#: fact -> (the place of its id among its arguments, from 0; what the id names)
ID_ARGUMENTS: dict[str, tuple[int, IdKind]] = {
    "declared": (1, DECLARED),
    "declared_value": (1, DECLARATION),
    "announced": (1, BONUS),
    "announced_by": (0, BONUS),
    "doublings": (0, TARGET),
    "doubling_factor": (0, TARGET),
    "thrown_in": (0, THROWN_IN),
    "answer": (0, QUESTION),
    "asker": (0, QUESTION),
}

SHOWN = 8  # ids listed in a message at most
ALL_PASSED = "all_passed"  # what thrown_in() calls a deal thrown in because every seat passed


def known_ids(
    data: Mapping, removed: Iterable[tuple[tuple, str]] = ()
) -> dict[IdKind, frozenset[str]]:
    """The ids of each kind that the document (its readings in place) defines, or that a
    ruleset extending another removed (`removed`: the list's path and the id; the base's
    rules that read such an id find it false or 0, as the variant means)."""
    gone: dict[tuple, set[str]] = {}
    for path, item_id in removed:
        gone.setdefault(tuple(path), set()).add(item_id)

    def ids(entries: object) -> set[str]:
        if not isinstance(entries, list):
            return set()
        return {e["id"] for e in entries if isinstance(e, Mapping) and isinstance(e.get("id"), str)}

    def table(section: str, key: str) -> set[str]:
        spec = data.get(section)
        found = ids(spec.get(key)) if isinstance(spec, Mapping) else set()
        return found | gone.get((section, key), set())

    declarations = table("declarations", "table")
    redeals = ids(data.get("redeal")) | gone.get(("redeal",), set())
    flow = data.get("flow")
    asks = (
        [step.get("ask") for step in flow if isinstance(step, Mapping)]
        if isinstance(flow, list)
        else []
    )
    questions = ids(asks)
    thrown = redeals | ({ALL_PASSED} if "bidding" in data else set())
    return {
        DECLARATION: frozenset(declarations),
        DECLARED: frozenset(declarations | questions | redeals),
        BONUS: frozenset(table("announcements", "table")),
        TARGET: frozenset(table("doubling", "targets")),
        THROWN_IN: frozenset(thrown),
        QUESTION: frozenset(ids(data.get("questions")) | gone.get(("questions",), set())),
    }


def unknown_ids(
    text: str, known: Mapping[IdKind, frozenset[str]], rule: str | None = None
) -> list[ExpressionError]:
    """A problem for each id written as text in `text` that names nothing of its kind, at
    its place in the expression, naming the `rule` the expression belongs to (an
    expression that does not parse is left to the compiler, which reports it)."""
    if not any(f"{fact}(" in text for fact in ID_ARGUMENTS):
        return []
    try:
        tree = parse(text)  # the tree remembered for this text; places only when needed
        if all(_word(token) in known[ID_ARGUMENTS[fact][1]] for fact, token in _written_ids(tree)):
            return []
        tree = parse(text, positions=True)
    except ExpressionError:
        return []
    problems = []
    for fact, token in _written_ids(tree):
        _place, kind = ID_ARGUMENTS[fact]
        word, names = _word(token), known[kind]
        if word in names:
            continue
        close = closest_names(word, names)
        hint = f"did you mean {close[0]!r}? " if close else ""
        shown = sorted(names)
        defined = ", ".join(repr(n) for n in shown[:SHOWN]) or "none"
        if len(shown) > SHOWN:
            defined += f" and {len(shown) - SHOWN} more"
        message = (
            ("" if rule is None else f"in {rule!r}, ")
            + f"{fact}() names no {kind.what} {word!r}: {hint}its ids are those of"
            f" {kind.defined_in} (here: {defined})"
        )
        problems.append(ExpressionError(message, token.line or 1, token.column or 1))
    return problems


def _word(token: Token) -> str:
    """The text a string token writes, without its quotes."""
    return str(token)[1:-1]


def _written_ids(tree: Tree) -> Iterator[tuple[str, Token]]:
    """(fact, the string token) for each call of a fact of `ID_ARGUMENTS` whose id argument
    is written as text."""
    for call in tree.find_data("call"):
        name, *args = call.children
        if not isinstance(name, Token) or str(name) not in ID_ARGUMENTS:
            continue
        place, _kind = ID_ARGUMENTS[str(name)]
        if place < len(args):
            arg = args[place]
            if isinstance(arg, Tree) and arg.data == "string":
                (token,) = arg.children
                if isinstance(token, Token):
                    yield str(name), token


def rule_of(data: Mapping, parts: tuple) -> str | None:
    """The id (or definition name) of the rule an expression at `parts` belongs to: the
    innermost item along the path that has an id."""
    found, node = None, data
    for i, part in enumerate(parts):
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, Mapping) and isinstance(node.get("id"), str):
            found = node["id"]
        elif parts[:1] == ("definitions",) and i == 1:
            found = str(part)
    return found
