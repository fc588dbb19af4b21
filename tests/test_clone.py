"""A clone cannot leak into its state: cloned at every kind of decision of every built-in
ruleset (and of the games written for the flow's tests), it shares no mutable object with
the original but those `HandState` declares write-once (`SHARED_WITH_CLONES`), and playing
the clone out to the end leaves the original as it was."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand
from tarot.engine.state import SHARED_WITH_CLONES, HandState
from tarot.load.listing import builtin_listings

#: read by a state and its clones alike, never changed: the compiled ruleset and its tables,
#: the pack dealt, the function that deals a new pack, and the shared memo of declarations
NOT_THE_HANDS = (
    "ruleset",
    "pack",
    "_repack",
    "declarations_seen",
    "play.rules",
    "play.trick_pack",
)
FLOW_GAMES = sorted((Path(__file__).parent / "data" / "rulesets").glob("flow-*.yaml"))
BUILT_IN = sorted(builtin_listings())
FAST = ("marolles-1637", "french-tarot-5", "hungarian-tarokk", "slovenian-tarok", "minchiate")
_IMMUTABLE = (int, float, complex, str, bytes, bool, type(None), frozenset, range)


def _mutables(state: HandState) -> dict[int, str]:
    """Every mutable object reachable from the state, by id, with the path it was met at
    (list entries written `name[]`)."""
    found: dict[int, str] = {}
    seen: set[int] = set()

    def walk(value: object, path: str) -> None:
        if isinstance(value, _IMMUTABLE) or id(value) in seen or callable(value):
            return
        seen.add(id(value))
        frozen = getattr(getattr(value, "__dataclass_params__", None), "frozen", False)
        if not isinstance(value, tuple) and not frozen:
            found[id(value)] = path
        if isinstance(value, dict):
            for item in value.values():
                walk(item, path + "[]")
        elif isinstance(value, list | tuple | set):
            for item in value:
                walk(item, path if isinstance(value, tuple) else path + "[]")
        else:
            for name, item in _attributes(value).items():
                inner = f"{path}.{name}" if path else name
                if inner not in NOT_THE_HANDS:
                    walk(item, inner)

    walk(state, "")
    return found


def _declared_shared(path: str) -> bool:
    """Whether a path lies under what the state declares its clones share."""
    for name in SHARED_WITH_CLONES:
        if path == name or path.startswith(name + ".") or path.startswith(name + "["):
            return True
    return False


def _plain(value: object, path: str = "", depth: int = 0) -> object:
    """A value as plain data (lists, dicts, numbers, text), for comparing a state before and
    after: objects by their attributes, functions left out."""
    if isinstance(value, _IMMUTABLE):
        return value
    if callable(value) or depth > 12:
        return "<callable>"
    if isinstance(value, Mapping):
        return {repr(k): _plain(v, path + "[]", depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        items = [_plain(v, path + "[]", depth + 1) for v in value]
        return sorted(items, key=repr) if isinstance(value, set) else items
    plain = {}
    for name, item in _attributes(value).items():
        inner = f"{path}.{name}" if path else name
        if inner not in NOT_THE_HANDS:
            plain[name] = _plain(item, inner, depth + 1)
    return plain


def _attributes(value: object) -> dict[str, object]:
    """An object's attributes by name, whether it keeps them in a `__dict__` or in slots."""
    return getattr(value, "__dict__", None) or {
        name: getattr(value, name) for name in getattr(value, "__slots__", ())
    }


def _snapshot(state: HandState) -> object:
    return _plain(state)


def _check_clones(path_or_name: str | Path, seeds: range) -> set[str]:
    ruleset = load_ruleset(path_or_name)
    kinds = set()
    for seed in seeds:
        state = deal_hand(ruleset, seed, 1)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert state.decision is not None
            kinds.add(state.decision.kind.value)
            clone = state.clone()
            theirs = _mutables(clone)
            shared = sorted(path for key, path in _mutables(state).items() if key in theirs)
            undeclared = [path for path in shared if not _declared_shared(path)]
            assert not undeclared, (ruleset.id, state.decision.kind, undeclared)
            before = _snapshot(state)
            while not clone.is_terminal():  # played out: the original must not move
                clone.apply_action(rng.choice(clone.legal_actions()))
            assert _snapshot(state) == before, (ruleset.id, state.decision.kind)
            state.apply_action(rng.choice(state.legal_actions()))
    return kinds


@pytest.mark.parametrize("name", FAST)
def test_a_clone_shares_nothing_it_may_change(name: str) -> None:
    assert len(_check_clones(name, range(1, 3))) >= 2


@pytest.mark.parametrize("path", FLOW_GAMES, ids=lambda p: p.stem)
def test_a_clone_shares_nothing_in_any_order_of_the_hand(path: Path) -> None:
    _check_clones(path, range(1, 6))


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in BUILT_IN if n not in FAST])
def test_a_clone_shares_nothing_in_every_built_in_ruleset(name: str) -> None:
    _check_clones(name, range(1, 3))
