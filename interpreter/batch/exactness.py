"""How the batch back end stays exact while it computes in float64 arrays.

Where it sits: between the language's exact numbers (`tarot.expressions.numbers`: ints, and
Fractions when not whole) and the batch back end's arrays. A float64 holds exactly every
whole number below 2^53 and every number of halves, quarters, eighths and so on (a
denominator that is a power of two: "binary"). So the batch back end runs a ruleset's numbers
as floats only where they are such numbers:

- at load (`constant`, `inexact_values`): a number of the ruleset that is not binary (a card
  worth 1/3, a literal `0.1`, an option of 2/3) makes the batch back end refuse the ruleset,
  naming it, so that `--backend auto` plays it on the scalar engine;
- a division is left as it is where its quotient goes straight into `floor`, `ceil`, `round`
  or `//`: the whole number those give of a binary numerator and a whole divisor is the same
  as of the exact quotient. Elsewhere, a division by a constant other than a power of two
  (`x / 3`) makes the batch back end refuse the ruleset at load (`constant_divisor`), and
  while playing (`quotient`) a division by a value whose quotient a float may not hold
  exactly (the divisor is not a power of two and it does not come out even) stops the run
  with an `EvaluationError` naming the hand and saying to play it on the scalar engine;
  a division by a number of seats (`x / count(defenders)`) that may be three or more is
  refused at load (`counts_seats`), since most such quotients do not come out even, except
  in a payment's amount where `tarot.batch.scaled_amounts` counts it in whole fractions of
  a common denominator (so also a payment's division by a whole constant such as 3).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction

import numpy as np

from tarot.core.ruleset import Ruleset
from tarot.expressions import EvaluationError
from tarot.expressions.numbers import shown
from tarot.expressions.typed_tree import Type, Typed

#: the built-ins whose argument may be a quotient a float holds only nearly (see above)
ROUNDING = frozenset({"floor", "ceil", "round"})


def binary(value: object) -> bool:
    """Whether a float64 holds `value` exactly: an int, or a Fraction whose denominator is a
    power of two (bools and text are not numbers here: true)."""
    if isinstance(value, Fraction):
        denominator = value.denominator
        return denominator & (denominator - 1) == 0
    return True


def constant(value: object) -> object:
    """A constant of an expression as the batch back end holds it: a binary Fraction as its
    float; ValueError for one a float cannot hold."""
    if not isinstance(value, Fraction):
        return value
    if not binary(value):
        raise ValueError(f"the number {shown(value)}, which float64 arrays cannot hold exactly")
    return float(value)


def constant_divisor(value: object) -> None:
    """Refuse (ValueError) a constant divisor, not rounded at once, whose quotients float64
    may not hold: one whose numerator is not a power of two (`3`, `5`, `2/3`)."""
    if not isinstance(value, int | Fraction):
        return  # a float: a binary constant (`constant` refused any other)
    top = abs(Fraction(value).numerator)
    if top and top & (top - 1):
        raise ValueError(
            f"a division by {shown(value)} not rounded at once (round, floor, ceil, //), whose "
            "quotient float64 arrays may not hold exactly"
        )


def counts_seats(divisor: Typed, in_hand: int, body: Callable[[str], Typed | None]) -> bool:
    """Whether a divisor is a number of seats (`count` of a group of seats) that may be three
    or more, with `in_hand` seats in play, so that most quotients by it float64 cannot hold
    (`body`: a definition's checked tree, by name)."""
    most = seats_counted(divisor, in_hand, body)
    return most is not None and most >= 3


def seats_counted(divisor: Typed, in_hand: int, body: Callable[[str], Typed | None]) -> int | None:
    """The most seats a divisor may count, where it is a number of seats (`count` of a group
    of seats); None for any other divisor."""
    if divisor.op != "builtin" or divisor.name != "count" or divisor.args[0].type != Type.SEATS:
        return None
    return _most_seats(divisor.args[0], in_hand, body)


def _most_seats(group: Typed, in_hand: int, body: Callable[[str], Typed | None]) -> int:
    """The most seats a group of seats may hold: two for the taker's side (the taker and his
    partner), the branches' most for a choice, the group's for a filter of it, every seat in
    play otherwise."""
    if group.op == "var" and group.name == "attackers":
        return 2
    if group.op == "definition":
        tree = body(group.name)
        return in_hand if tree is None else _most_seats(tree, in_hand, body)
    if group.op == "cond":
        return max(_most_seats(branch, in_hand, body) for branch in group.args[1:])
    if group.op == "filter":
        return _most_seats(group.args[0], in_hand, body)
    return in_hand


def inexact_values(ruleset: Ruleset) -> list[str]:
    """The numbers of the ruleset's tables a float cannot hold exactly, each named: card
    values, a partial group's credit, contract values, the doubling's factor."""
    found = []
    counting = ruleset.counting
    named: Iterable[tuple[str, object]] = [
        *((f"counting: a card worth {shown(v)}", v) for v in set(counting.values)),
        *((f"counting.partial_group_credit: {shown(v)}", v) for v in counting.partial_group_credit),
    ]
    bidding = ruleset.bidding
    for contract in () if bidding is None else bidding.contracts:
        values = contract.values.items()
        named = [*named, *((f"contract {contract.id}: {k} {shown(v)}", v) for k, v in values)]
    if ruleset.doubling is not None:
        named = [
            *named,
            (f"doubling.factor: {shown(ruleset.doubling.factor)}", ruleset.doubling.factor),
        ]
    for what, value in named:
        if not binary(value):
            found.append(f"{what}, which float64 arrays cannot hold exactly")
    return found


def quotient(a: np.ndarray, b: np.ndarray, rounded: bool) -> np.ndarray:
    """`a / b` where `b` is not 0, refused (EvaluationError) where a float may not hold it
    exactly, unless `rounded` (it goes straight into a rounding)."""
    result = np.true_divide(a, b)
    if rounded:
        return result
    mantissa, _ = np.frexp(b)
    unsure = (np.abs(mantissa) != 0.5) & (np.fmod(a, b) != 0)
    if np.any(unsure):
        where = np.argwhere(np.broadcast_to(unsure, np.shape(result)))
        at = tuple(where[0]) if where.size else ()
        top = np.broadcast_to(a, np.shape(result))[at].item()
        bottom = np.broadcast_to(b, np.shape(result))[at].item()
        raise EvaluationError(
            f"{shown(top)} / {shown(bottom)} does not come out even, and the batch back end's "
            "float64 arrays cannot hold the quotient exactly: play this ruleset with "
            "--backend scalar"
        )
    return result
