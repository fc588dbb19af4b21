"""A clone cannot leak into its state: cloned at every kind of decision of every built-in
ruleset (and of the games written for the tests of the flow and the auction), it shares no
mutable object with the original but those `HandState` declares write-once
(`SHARED_WITH_CLONES`), has every attribute the original has, and playing the clone out to
the end leaves the original as it was.

The kinds of decision each game may ask for are read from its sections (`kinds_asked`); its
hands are played at random, then steered towards the kinds not met yet, until each was
checked. A kind a game's sections name but its hands never ask for under its default options
is listed, with why, in `NEVER_ASKED`."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.core.actions import DecisionKind
from tarot.core.flow import Phase
from tarot.core.ruleset import Ruleset
from tarot.engine.game import deal_hand
from tarot.engine.state import SHARED_WITH_CLONES, HandState
from tarot.load.listing import builtin_listings

#: read by a state and its clones alike, never changed: the compiled ruleset and its tables,
#: the pack dealt, the function that deals a new pack, and the shared memos of declarations,
#: of what each card played rules out (`seat_view.ruled_out_by`) and of the definitions that
#: read the auction's words alone once it is over (each entry the same for every clone:
#: `HandState.remember_after_auction`)
NOT_THE_HANDS = (
    "ruleset",
    "pack",
    "_repack",
    "declarations_seen",
    "ruled_out_seen",
    "auction.kept",
    "play.rules",
    "play.trick_pack",
)
DATA = Path(__file__).parent / "data" / "rulesets"
#: the games written for the tests of the flow, and the one with a seat joining the taker
TEST_GAMES = [
    *sorted(DATA.glob("flow-*.yaml")),
    DATA / "auction-packets-doubling.yaml",
    DATA / "named-card.yaml",  # the one game that names a card
]
BUILT_IN = sorted(builtin_listings())
FAST = ("marolles-1637", "french-tarot-5", "hungarian-tarokk", "slovenian-tarok", "minchiate")
RANDOM_HANDS = 1000  # at most, per game, played at random to meet every kind of decision
STEERED_HANDS = 20  # then at most, steered (before play) towards the kinds not met yet
CHECKS_PER_KIND = 3  # clones checked at each kind of decision, after the first hand's
STEERING_TRIES = 6  # actions tried for one that leads to a kind not met yet
#: kinds of decision a built-in game's sections name that its hands never ask for under its
#: default options, or ask for only on deals too rare for the hands played here, each with
#: why (each kind is still checked in the other games that ask for it)
_FRENCH_REDEAL = "its redeals are an option off by default (`petit_sec`) or made unasked"
_OPENSPIEL = "announcements and kontra are options not played by default"
_THIRD = "the third card is handed over only with `who_has_the_third: third_given_up`"
_NO_CALL = "no King is called with three players (`partner_call.when`)"
_RARE_SHOW = "a handful with trumps to spare, to pick which to show: too rare a deal"
_RARE_REDEAL = "the Magician as one's only trump, with three hands: too rare a deal"
_KONTRA = "kontra is an option not played by default (the German text's `kontra: played`)"
_NO_TAROT = "a hand of fifteen without a tarot: about one deal in 8,000, too rare a deal"
NEVER_ASKED = {
    "french-tarot": {"redeal": _FRENCH_REDEAL, "show": _RARE_SHOW},
    "french-tarot-2": {"redeal": _FRENCH_REDEAL},
    "french-tarot-3": {"redeal": _FRENCH_REDEAL, "show": _RARE_SHOW},
    "french-tarot-5": {"redeal": _FRENCH_REDEAL},
    "french-tarot-round-10": {"redeal": _FRENCH_REDEAL, "show": _RARE_SHOW},
    "jeu-de-tarot": {"show": _RARE_SHOW},
    "jeu-de-tarot-3": {"redeal": _RARE_REDEAL, "show": _RARE_SHOW},
    "jeu-de-tarot-5": {"show": _RARE_SHOW},
    "jeu-de-tarot-abundance-to-winner": {"show": _RARE_SHOW},
    "marolles-1637-wickson": {"give": _THIRD},
    "marolles-1637-wickson-2p": {"give": _THIRD},
    "marolles-1637-wickson-2p-le-mort": {"give": _THIRD},
    "slovenian-tarok-3": {"call": _NO_CALL},
    "slovenian-tarok-3-openspiel": {"call": _NO_CALL, "announce": _OPENSPIEL, "double": _OPENSPIEL},
    "slovenian-tarok-openspiel": {"announce": _OPENSPIEL, "double": _OPENSPIEL},
    "tapp-tarock": {"double": _KONTRA},
    "tapp-tarock-simplified": {"double": _KONTRA},
    "strawman-tarock": {"redeal": _NO_TAROT},
    "strawman-tarock-simplified": {"redeal": _NO_TAROT},
    "cego": {"announce": "the ultimo, only in a Pagat game, five bids up: too rare a hand"},
}
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


def kinds_asked(ruleset: Ruleset) -> set[str]:
    """Every kind of decision the ruleset's hand may ask for, read from its flow and its
    sections (a kind whose section is there but that no condition can ever let through
    would still be listed: the test then fails, and says which)."""
    phases = {step.phase for step in ruleset.flow}
    bidding = ruleset.bidding
    contracts = bidding.contracts if bidding is not None else ()
    uses = [c.talon for c in contracts] if bidding is not None else [ruleset.talon]
    declarations = ruleset.declarations
    kinds = {"play"} if Phase.PLAY in phases else set()
    if Phase.REDEAL in phases and any(r.choice or r.agreed_by for r in ruleset.redeals):
        kinds.add("redeal")
    if Phase.ASK in phases:
        kinds.add("ask")
    if Phase.BID in phases and bidding is not None:
        kinds.add("bid")
        if any(c.join is not None for c in contracts):
            kinds.add("join")
    if Phase.CALL in phases and ruleset.partner_call is not None:
        kinds.add("call")
    if Phase.TALON in phases and any(u and u.packets and u.packets.choose for u in uses):
        kinds.add("packet")
    if Phase.DISCARD in phases and (
        any(ruleset.discard_counts)
        or any(u and (u.to == "hand" or u.takes) for u in uses)
        or any(step.count is not None for step in ruleset.flow)
    ):
        kinds.add("discard")
    if {Phase.DECLARE, Phase.PLAY} & phases and any(not d.compulsory for d in declarations):
        kinds.add("declare")
        if any(level.show_count is not None for d in declarations for level in d.levels):
            kinds.add("show")
        if any(d.hands_over is not None for d in declarations):
            kinds.add("give")
        if any(d.hands_over is not None and d.hands_over.named for d in declarations):
            kinds.add("name")
    if Phase.ANNOUNCE in phases and ruleset.announcements is not None:
        kinds.add("announce")
    doubling = ruleset.doubling
    if Phase.DOUBLE in phases and doubling is not None and not doubling.with_announcements:
        kinds.add("double")  # with announcements, a doubling is said in an announcement
    return kinds


def _check_one(state: HandState, rng: random.Random) -> None:
    """The clone of `state` shares nothing it may change, has every attribute of the state,
    and playing it out to the end leaves the state as it was."""
    clone = state.clone()
    assert state.decision is not None
    where = (state.ruleset.id, state.decision.kind.value)
    assert sorted(_attributes(clone)) == sorted(_attributes(state)), where
    theirs = _mutables(clone)
    shared = sorted(path for key, path in _mutables(state).items() if key in theirs)
    undeclared = [path for path in shared if not _declared_shared(path)]
    assert not undeclared, (*where, undeclared)
    before = _snapshot(state)
    while not clone.is_terminal():
        clone.apply_action(rng.choice(clone.legal_actions()))
    assert _snapshot(state) == before, where


def _kinds_met(state: HandState, rng: random.Random) -> set[str]:
    """The kinds of decision a play-out of a clone of `state` meets (`_leaning` choices)."""
    trial, met = state.clone(), set()
    while trial.decision is not None:
        met.add(trial.decision.kind.value)
        trial.apply_action(_leaning(trial.legal_actions(), rng))
    return met


def _leaning(actions: list[str], rng: random.Random) -> str:
    """A random action, the last one (a pass, where there is one) half the time: random
    bids alone climb to the top of the auction, where few of its contracts lie."""
    return actions[-1] if rng.random() < 0.5 else rng.choice(actions)


def _steered(state: HandState, rng: random.Random, missing: set[str]) -> str:
    """While some kinds of decision are still to be met, an action after which a play-out
    meets one of them, when one of the first few tried does; else a random action."""
    actions = state.legal_actions()
    if missing:
        for action in rng.sample(actions, min(len(actions), STEERING_TRIES)):
            trial = state.clone()
            trial.apply_action(action)
            if missing & _kinds_met(trial, rng):
                return action
        return _leaning(actions, rng)
    return rng.choice(actions)


def _check_clones(path_or_name: str | Path) -> tuple[set[str], set[str]]:
    """Hands played at random, then (for a kind of decision only some choices lead to)
    steered towards the kinds not met yet: a clone checked at every decision of the first
    hand and at the first few of each kind after it, until every kind the ruleset asks for
    was checked. The kinds asked for (but those of `NEVER_ASKED`), and those checked."""
    ruleset = load_ruleset(path_or_name)
    never = NEVER_ASKED.get(ruleset.id, {})
    assert set(never) <= kinds_asked(ruleset), f"{ruleset.id}: NEVER_ASKED names a kind it lacks"
    wanted = kinds_asked(ruleset) - set(never)
    checked: Counter[str] = Counter()
    for seed in range(1, RANDOM_HANDS + STEERED_HANDS + 1):
        state = deal_hand(ruleset, seed, 1)
        rng = random.Random(seed)
        while state.decision is not None:
            kind = state.decision.kind.value
            if seed == 1 or checked[kind] < CHECKS_PER_KIND:
                _check_one(state, rng)
                checked[kind] += 1
            steer = seed > RANDOM_HANDS and kind != "play"  # play leads to no other kind
            missing = wanted - set(checked) if steer else set()
            state.apply_action(_steered(state, rng, missing))
        if wanted <= set(checked):
            break
    return wanted, set(checked)


@pytest.mark.parametrize("name", FAST)
def test_a_clone_shares_nothing_it_may_change(name: str) -> None:
    wanted, checked = _check_clones(name)
    assert wanted <= checked, f"never met: {sorted(wanted - checked)}"


@pytest.mark.parametrize("path", TEST_GAMES, ids=lambda p: p.stem)
def test_a_clone_shares_nothing_in_any_order_of_the_hand(path: Path) -> None:
    wanted, checked = _check_clones(path)
    assert wanted <= checked, f"never met: {sorted(wanted - checked)}"


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in BUILT_IN if n not in FAST])
def test_a_clone_shares_nothing_in_every_built_in_ruleset(name: str) -> None:
    wanted, checked = _check_clones(name)
    assert wanted <= checked, f"never met: {sorted(wanted - checked)}"


def test_every_kind_of_decision_is_asked_by_some_game() -> None:
    """The games checked above between them ask every kind of decision there is."""
    asked = set().union(*(kinds_asked(load_ruleset(n)) for n in BUILT_IN))
    asked |= set().union(*(kinds_asked(load_ruleset(p)) for p in TEST_GAMES))
    assert asked == {kind.value for kind in DecisionKind}
