"""Property-based fuzzing of record replay: genuine records, made by playing hands of three
rulesets, are changed one way each (a value replaced, removed, repeated, moved, given another
type, a key added; or the text itself cut, spliced or given a stray byte) and replayed. The
replay must either verify the record, which it may only do when the change changed nothing
the record says, or refuse it with a record problem (`RecordError`, a schema problem or a
ruleset that does not load with the record's options); any other exception fails the test.
Each example must finish within a deadline and under a memory limit.

In CI this runs 300 examples of each kind (about 20 s). A longer run, e.g. overnight:

    TAROT_FUZZ_EXAMPLES=20000 python -m pytest tests/test_replay_fuzz.py -q
"""

from __future__ import annotations

import copy
import json
import os
import resource
from contextlib import contextmanager
from datetime import timedelta
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.errors import RulesetError
from tarot.players.lineup import seat_agents
from tarot.records.record import game_record
from tarot.records.record_json import RecordError, parse_record, record_text
from tarot.records.replay import record_problems, record_ruleset, replay_record

# the slow tier (`python -m pytest -m slow`): records changed at random and replayed
pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("TAROT_FUZZ_EXAMPLES", "300"))
DEADLINE = timedelta(seconds=10)  # the promise is 5 s per input; twice that on a loaded machine
MEMORY_BYTES = 3 * 1024**3

# (ruleset, seed, hands): a whole game to a score that ends after hand 2 (None: play the whole
# game), two hands whose second is dealt three times, one hand of a game with a talon
GAMES = [("early-french-3", 3, None), ("jeu-de-tarot-3", 1, 2), ("french-tarot-3", 4, 1)]

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=DEADLINE,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@cache
def genuine(index: int) -> tuple[str, dict]:
    """A record made by playing, as the tool writes it: its text and its value."""
    name, seed, hands = GAMES[index]
    ruleset = _ruleset(name, ())
    seating = lambda number: seat_agents(["heuristic"], seed, number, ruleset.players)  # noqa: E731
    states = play_game(ruleset, seed, seating, hands)
    record = game_record(ruleset, seed, ["heuristic"] * ruleset.players, states)
    text = record_text(record)
    return text, json.loads(text)


@cache
def _ruleset(name: str, options: tuple):
    return load_ruleset(name, dict(options))


def verdict(data: bytes) -> str | None:
    """None when the record verifies; the refusal's message otherwise. Any exception that is
    not a record problem escapes."""
    try:
        record = parse_record(data)
        problems = record_problems(record)
        if problems:
            return problems[0]
        given = record["ruleset"]
        if given["id"] in {name for name, _, _ in GAMES}:  # loaded once, as record_ruleset would
            ruleset = _ruleset(given["id"], tuple(sorted(given["options"].items())))
        else:
            ruleset = record_ruleset(record)
        replay_record(record, ruleset)
    except RecordError as error:
        return str(error)
    except RulesetError as error:  # options the ruleset does not have
        return str(error)
    return None


@contextmanager
def memory_limit():
    """At most MEMORY_BYTES more address space than the test process has already."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        used = int(statm.read().split()[0]) * resource.getpagesize()
    limit = used + MEMORY_BYTES
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def same(a: object, b: object) -> bool:
    """What a record says: a number is a number (2 == 2.0), true is not 1, key order and
    layout do not count."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def check(original: dict, data: bytes) -> None:
    with memory_limit():
        refusal = verdict(data)
    if refusal is None:
        changed = json.loads(data)  # it verified, so it is JSON
        assert same(changed, original), "a changed record was verified"
    else:
        assert isinstance(refusal, str) and refusal


# --- changes to the value --------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["play", "bid", "pass", "fool", "trump-1", "cups-K", "heuristic", "1.0"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)


@st.composite
def places(draw, record: dict) -> tuple:
    """A path to a value of the record, found by walking down from the top, each key or
    item equally likely at each level (so that the cards of a deck do not crowd out the
    rest), stopping at any level."""
    path: tuple = ()
    value: object = record
    while isinstance(value, dict | list) and value and draw(st.integers(0, 5)):
        part = draw(st.sampled_from(list(value) if isinstance(value, dict) else range(len(value))))
        path, value = (*path, part), value[part]
    return path


def at(value: object, path: tuple) -> object:
    for part in path:
        value = value[part]
    return value


def retyped(value: object) -> object:
    """The same value as another JSON type where one comes to mind."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return float(value) if value % 2 else str(value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else str(value)
    if isinstance(value, str):
        return int(value) if value.lstrip("-").isdigit() else [value]
    if isinstance(value, list):
        return {str(i): item for i, item in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return False


def _changes(value: object, parent: object) -> list[str]:
    """The changes that apply to a value, given its parent (None for the record itself)."""
    changes = ["retype"] if parent is None else ["replace", "delete", "retype"]
    if isinstance(parent, list):
        changes += ["repeat", "move"]
    if isinstance(value, list) and len(value) > 1:
        changes.append("swap")
    if isinstance(value, dict):
        changes.append("add key")
    if isinstance(value, int | float) and not isinstance(value, bool):
        changes.append("nudge")
    return changes


@st.composite
def changed_values(draw):
    """(original, changed text): one change somewhere in a genuine record."""
    _, original = genuine(draw(st.integers(0, len(GAMES) - 1)))
    record = copy.deepcopy(original)
    path = draw(places(record))
    parent = at(record, path[:-1]) if path else None
    last = path[-1] if path else None
    value = at(record, path)
    how = draw(st.sampled_from(_changes(value, parent)))
    if how == "replace":
        parent[last] = draw(json_values)
    elif how == "delete":
        del parent[last]
    elif how == "repeat":
        parent.insert(last, copy.deepcopy(value))
    elif how == "move":
        parent.insert(draw(st.integers(0, len(parent) - 1)), parent.pop(last))
    elif how == "swap":
        i, j = draw(st.lists(st.integers(0, len(value) - 1), min_size=2, max_size=2))
        value[i], value[j] = value[j], value[i]
    elif how == "add key":
        value[draw(st.text(max_size=10))] = draw(json_values)
    elif how == "nudge":
        parent[last] = value + draw(st.sampled_from([-1, 1, 0.5]))
    elif parent is None:  # retype the record itself
        record = retyped(value)
    else:
        parent[last] = retyped(value)
    return original, json.dumps(record, indent=draw(st.sampled_from([None, 1]))).encode()


@FUZZ
@given(changed_values())
def test_a_changed_record_is_verified_only_if_nothing_changed(change) -> None:
    original, data = change
    check(original, data)


# --- changes to the text ---------------------------------------------------------------------


@st.composite
def changed_texts(draw):
    """(original, changed bytes): the text cut, spliced, or given stray bytes or tokens."""
    text, original = genuine(draw(st.integers(0, len(GAMES) - 1)))
    data = text.encode("utf-8")
    i = draw(st.integers(0, len(data)))
    j = draw(st.integers(i, min(len(data), i + 200)))
    how = draw(st.sampled_from(["cut", "drop", "insert", "splice"]))
    if how == "cut":
        data = data[:i]
    elif how == "drop":
        data = data[:i] + data[j:]
    elif how == "insert":
        stray = draw(
            st.binary(min_size=1, max_size=8)
            | st.sampled_from([b"NaN", b"-Infinity", b"1e999", b"9" * 5000, b"[" * 3000])
        )
        data = data[:i] + stray + data[i:]
    else:  # a piece of the text repeated elsewhere (a key, a hand, a bracket...)
        k = draw(st.integers(0, len(data)))
        data = data[:k] + data[i:j] + data[k:]
    return original, data


@FUZZ
@given(changed_texts())
def test_a_damaged_text_is_refused_with_a_message(change) -> None:
    original, data = change
    check(original, data)


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_the_genuine_records_verify(index: int) -> None:
    text, _ = genuine(index)
    assert verdict(text.encode()) is None
