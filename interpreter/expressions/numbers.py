"""Exact numbers: how the language makes, shows and writes down a number.

Where it sits: beside `builtins.py`, under everything that computes an amount, a point or a
score (the engine, the batch back end's agreement checks, records, what people read). A
number is an `int` or, when it is not whole, a `fractions.Fraction`; never a float. A
Fraction whose denominator is 1 is made an `int` again (`exact`), so the games that never
divide unevenly compute, record and print only ints, as they did before numbers were exact.

Shown (`shown`): a whole number as it is; a number with a finite decimal as that decimal
(`45.5`, `0.25`: how games that count half points write them); any other as a whole part
and a fraction (`13 1/3`, `-2/3`). Written to JSON (`to_json`): an int as an int, a number
with a short finite decimal as that JSON number (`45.5`), any other as the string `"p/q"` in
lowest terms (`"40/3"`); `from_json` reads either back exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction

Exact = int | Fraction

#: how a number that JSON cannot hold as a decimal is written in a record: "p/q"
FRACTION_TEXT = re.compile(r"-?[0-9]{1,20}/[0-9]{1,20}")
#: the same, as the records' schema says it (`schemas/game-record.schema.json`)
FRACTION_PATTERN = "^-?[0-9]{1,20}/[0-9]{1,20}$"


def exact(value: int | float | Fraction) -> Exact:
    """`value` as an exact number: an int when whole, else a Fraction. A float is read as the
    decimal it prints as (`0.1` is 1/10, as the author wrote it in YAML), never its binary
    approximation."""
    if type(value) is int:
        return value
    if isinstance(value, float):
        value = Fraction(repr(value))
    elif isinstance(value, bool):
        return int(value)
    if value.denominator == 1:
        return int(value.numerator)
    return value


def ratio(a: Exact, b: Exact) -> Exact:
    """`a / b` exactly (b not 0): an int when it comes out even."""
    if type(a) is int and type(b) is int:
        whole, rest = divmod(a, b)
        if not rest:
            return whole
    quotient = Fraction(a) / b
    return int(quotient.numerator) if quotient.denominator == 1 else quotient


def whole(value: Exact) -> Exact:
    """`value` with a denominator of 1 made an int (a sum of Fractions may come out whole)."""
    if type(value) is int or value.denominator != 1:
        return value
    return int(value.numerator)


def _decimal(value: Fraction) -> str | None:
    """The finite decimal of `value`, or None when its denominator has a factor other than 2
    and 5."""
    denominator, twos, fives = value.denominator, 0, 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator != 1:
        return None
    places = max(twos, fives)
    digits = str(abs(value.numerator) * 10**places // value.denominator).rjust(places + 1, "0")
    text = f"{digits[:-places]}.{digits[-places:]}".rstrip("0").rstrip(".")
    return f"-{text}" if value < 0 else text


def shown(value: int | float | Fraction) -> str:
    """A number as people read it: `3`, `45.5`, `13 1/3`, `-2/3`."""
    if type(value) is int:
        return str(value)
    number = exact(value)
    if type(number) is int:
        return str(number)
    assert isinstance(number, Fraction)
    decimal = _decimal(number)
    if decimal is not None:
        return decimal
    sign = "-" if number < 0 else ""
    units, rest = divmod(abs(number.numerator), number.denominator)
    part = f"{rest}/{number.denominator}"
    return f"{sign}{units} {part}" if units else f"{sign}{part}"


def signed(value: int | float | Fraction) -> str:
    """`shown` with its sign always written: `+3`, `+0`, `-13 1/3` (as Python's `{:+}`)."""
    text = shown(value)
    return text if text.startswith("-") else "+" + text


def to_json(value: int | float | Fraction) -> int | float | str:
    """`value` as a record writes it: an int, a JSON number whose decimal is exactly the
    value (`45.5`), or the string `"p/q"` (`"40/3"`)."""
    if type(value) is int:
        return value
    number = exact(value)
    if type(number) is int:
        return number
    assert isinstance(number, Fraction)
    approximation = float(number)
    if _decimal(number) is not None and Fraction(repr(approximation)) == number:
        return approximation
    return f"{number.numerator}/{number.denominator}"


def from_json(value: object) -> Exact | None:
    """The exact number a record holds (`to_json`'s inverse), or None when `value` is not one:
    an int, a finite JSON number read as its decimal, or a `"p/q"` string with q > 0."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float | Fraction):
        return exact(value)
    if isinstance(value, str) and FRACTION_TEXT.fullmatch(value):
        numerator, denominator = (int(part) for part in value.split("/"))
        return None if denominator == 0 else exact(Fraction(numerator, denominator))
    return None


def approximate(value: int | float | Fraction) -> int | float:
    """`value` for statistics (`tarot.measure`: means, intervals): an int as it is, a Fraction as
    the nearest float. Equal exact numbers give equal floats, so ties stay ties."""
    return value if type(value) is int else float(value)


def measured(values: Iterable[int | float | Fraction]) -> tuple[int | float, ...]:
    """`approximate` of each value."""
    return tuple(approximate(value) for value in values)


def jsonable(value: object) -> object:
    """A copy of `value` (lists, tuples, dicts, numbers, text) with every Fraction made
    `to_json`'s form (tuples become lists, as JSON writes them)."""
    if isinstance(value, Fraction):
        return to_json(value)
    if isinstance(value, dict):
        return {key: jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    return value
