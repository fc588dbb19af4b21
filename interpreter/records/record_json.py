"""Game records as strict JSON: reading a record from a stranger, and writing one.

A record is untrusted input. Reading turns every way its bytes can be wrong into a
`RecordError` with a place (line and column, or a JSON path) instead of a traceback: a file
that cannot be read or is too large, bytes that are not UTF-8, text that is not JSON, the
tokens `NaN` and `Infinity` (not JSON), numbers too long or too large to hold, nesting deeper
than any record, a key given twice in one object. `tarot.records.replay` then checks the shape
and replays what is left. Writing refuses a value that strict JSON cannot hold (nan, inf)
rather than producing a file the reader would refuse.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

from tarot.errors import TarotError, json_path
from tarot.expressions.numbers import jsonable

MAX_BYTES = 64 * 1024**2  # about 3,000 hands of a 78-card game as the tool writes them
MAX_DEPTH = 16  # a record's deepest value (a card of a pile of a seat of a hand) is 6 deep
MAX_MESSAGE = 1000  # characters of a message, which may quote what a record holds

# a JSON string literal, or one of the characters and tokens looked for outside strings
_STRING_OR = r'"[^"\\]*(?:\\.[^"\\]*)*"|'
_STRING = re.compile(_STRING_OR[:-1])
_INNERMOST = re.compile(r"\[[^\[\]{}]*\]|\{[^\[\]{}]*\}")
_OPENING = re.compile(r"[\[{]")
_TOO_DEEP = f"not a record: nested more than {MAX_DEPTH} deep"


class RecordError(TarotError):
    """A record that cannot be read or does not verify. `where` is `LINE:COL` (a place in
    the text), a JSON path such as `$.hands[1].number`, or empty (the file as a whole)."""

    def __init__(self, where: str, message: str) -> None:
        self.where = shortened(where)
        self.message = shortened(message)
        super().__init__(f"{self.where}: {self.message}" if where else self.message)

    def located(self, source: str) -> str:
        """The message as the user sees it, after the file's name."""
        if not self.where:
            return f"{source}: {self.message}"
        if self.where[0].isdigit():
            return f"{source}:{self.where}: {self.message}"
        return f"{source}: {self.where}: {self.message}"


def shortened(text: str, limit: int = MAX_MESSAGE) -> str:
    """Text cut short: what a record holds may be long, and a message must not be."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def read_record_bytes(file: str) -> bytes:
    """The bytes of a record file, or of standard input for `-`."""
    if file == "-":
        return sys.stdin.buffer.read(MAX_BYTES + 1)
    try:
        with Path(file).open("rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise RecordError("", f"cannot read: {error.strerror or error}") from None
    return data


def parse_record(data: bytes) -> object:
    """The JSON value of a record's bytes, strictly: RecordError on anything that is not
    plain, finite, UTF-8 JSON without repeated keys."""
    if len(data) > MAX_BYTES:
        raise RecordError("", f"larger than {MAX_BYTES // 1024**2} MiB: not a record")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start].decode("utf-8")
        raise RecordError(
            _place(before, len(before)),
            f"not UTF-8: the byte 0x{data[error.start]:02x} cannot be here",
        ) from None
    if not text.strip():
        raise RecordError("", "empty: not a record")
    if _nested_too_deep(text):
        raise RecordError(_place(text, _too_deep(text)), _TOO_DEEP)
    repeated: list[_Repeated] = []

    def object_of(pairs: list[tuple[str, object]]) -> dict:
        value = dict(pairs)
        if len(value) != len(pairs):
            value = _Repeated(pairs)
            repeated.append(value)
        return value

    try:
        value = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
            object_pairs_hook=object_of,
        )
    except json.JSONDecodeError as error:
        raise RecordError(f"{error.lineno}:{error.colno}", f"not JSON: {error.msg}") from None
    except _TokenError as error:
        raise RecordError(_place(text, _token_at(text, error.token)), error.message) from None
    except ValueError:  # an integer longer than Python converts
        raise _long_integer(text) from None
    except RecursionError:  # brackets opened and never closed
        raise RecordError(_place(text, _too_deep(text)), _TOO_DEEP) from None
    if repeated:
        _refuse_repeated_keys(value)
    return value


def record_text(record: object) -> str:
    """The record as strict JSON text (indented by one space), or RecordError naming the
    first value JSON cannot hold."""
    bad = _first_not_finite(record, ())
    if bad is not None:
        path, value = bad
        raise RecordError(path, f"{value!r} is not a finite number: the record cannot be written")
    # an amount that is not whole: a JSON number when its decimal is exact, else "p/q"
    return json.dumps(jsonable(record), indent=1, allow_nan=False)


# --- numbers and tokens ----------------------------------------------------------------------


class _TokenError(ValueError):
    def __init__(self, token: str, message: str) -> None:
        self.token = token
        self.message = message
        super().__init__(message)


def _refuse_constant(token: str) -> object:
    raise _TokenError(token, f"not JSON: {token} is not a number JSON has")


def _long_integer(text: str) -> RecordError:
    """The refusal of the first integer longer than Python converts."""
    limit = sys.get_int_max_str_digits()
    for match in re.finditer(_STRING_OR + rf"-?\d{{{limit + 1},}}", text):
        if not match.group().startswith('"'):
            digits = len(match.group().lstrip("-"))
            return RecordError(
                _place(text, match.start()),
                f"an integer of {digits} digits: a record's numbers have at most {limit}",
            )
    return RecordError("", f"an integer of more than {limit} digits")


def _finite_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        shown = token if len(token) <= 20 else f"{token[:20]}..."
        raise _TokenError(token, f"the number {shown} is too large to hold")
    return value


def _first_not_finite(value: object, path: tuple) -> tuple[str, float] | None:
    stack = [(value, path)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return json_path(path), value
        if isinstance(value, dict):
            stack += reversed([(v, (*path, str(k))) for k, v in value.items()])
        elif isinstance(value, list | tuple):
            stack += reversed([(v, (*path, i)) for i, v in enumerate(value)])
    return None


# --- repeated keys ---------------------------------------------------------------------------


class _Repeated(dict):
    """A JSON object that was given a key twice: it remembers the first such key."""

    def __init__(self, pairs: list[tuple[str, object]]) -> None:
        super().__init__(pairs)
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                break
            seen.add(key)
        self.repeated = key  # made only for pairs that give a key twice


def _refuse_repeated_keys(value: object) -> None:
    """Refuse the first object, in the order of the text, that has a key twice."""
    stack: list[tuple[object, tuple]] = [(value, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, _Repeated):
            raise RecordError(json_path(path), f"the key {value.repeated!r} is given twice")
        if isinstance(value, dict):
            stack += reversed([(v, (*path, k)) for k, v in value.items()])
        elif isinstance(value, list):
            stack += reversed([(v, (*path, i)) for i, v in enumerate(value)])


# --- places in the text ----------------------------------------------------------------------


def _nested_too_deep(text: str) -> bool:
    """Whether brackets nest deeper than MAX_DEPTH outside strings. Fast on a large record:
    the strings are emptied, then each pass of a regular expression removes the innermost
    level."""
    skeleton = _STRING.sub('""', text)
    for _ in range(MAX_DEPTH):
        skeleton, removed = _INNERMOST.subn("0", skeleton)
        if not removed:
            return False
    return _OPENING.search(skeleton) is not None


def _too_deep(text: str) -> int:
    """The offset of the first bracket nested deeper than MAX_DEPTH (0 if none is)."""
    depth = 0
    for match in re.finditer(_STRING_OR + r"[\[\]{}]", text):
        bracket = match.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return match.start()
        elif bracket in "]}":
            depth -= 1
    return 0


def _token_at(text: str, token: str) -> int:
    """The offset of the first occurrence of a number or constant token outside strings."""
    pattern = _STRING_OR + r"(?<![\w.+-])" + re.escape(token) + r"(?![\w.+-])"
    for match in re.finditer(pattern, text):
        if not match.group().startswith('"'):
            return match.start()
    return 0


def _place(text: str, offset: int) -> str:
    """`LINE:COL` (from 1) of a character offset."""
    line = text.count("\n", 0, offset) + 1
    column = offset - text.rfind("\n", 0, offset)
    return f"{line}:{column}"
