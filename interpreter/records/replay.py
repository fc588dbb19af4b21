"""Replaying a game record: recompute everything the record says and refuse it at the first
thing that does not verify.

A record is untrusted input (`tarot.records.record_json` reads it strictly). Its shape is
checked against the schema, with integers that are integers (`1.0` is not a seat). Its
ruleset is a built-in one named by `$.ruleset.id`, or a file the user names (`--ruleset`),
never a path taken from the record; it must have the content hash, the id and every option's
reading the record gives. Then, in the order of the record: the seat list (one seat per
player, in order, each a player this tool has); for every hand its number (1, 2, 3...), its
dealer (the ruleset's rotation), every pack, the abandoned deals' and the played deal's (the
seed and the hand number give each one; a hand that asserts a chosen `deal` has its dealer and
its one pack checked against that deal instead), every decision (in turn and legal), and everything
that follows from them (cards dealt, tricks, payments, net result); then the totals and the
game's winners (those at the hand after which the game ended; a record that goes on past that
hand is refused). `ReplayMismatch`
names the first difference as a JSON path, with what was recorded and what the replay found.

A record written before records told everything (the sides the play rules give, every
declaration, the counts of discards told to all) replays: what it does not say is not checked,
and `replay_record` returns a note saying so (`OLDER_RECORDS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from tarot.compile.loader import load_ruleset, load_schema
from tarot.core.ruleset import Ruleset
from tarot.engine.chosen_deal import DealError, chosen_deal
from tarot.engine.game import dealer_of, shuffled_pack
from tarot.engine.lasting import LastingValues
from tarot.engine.state import HandState, IllegalAction
from tarot.errors import json_path
from tarot.expressions.numbers import from_json, jsonable
from tarot.load import paths
from tarot.players.lineup import AGENT_KINDS, LineupError, agent_settings
from tarot.records.record import first_game_winners, hand_record, record_id
from tarot.records.record_json import RecordError, shortened

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

HUMAN = "human"

# what a hand record says beyond its number, dealer, packs and decisions, in the record's order
_RESULTS = (
    "sat_out",  # in the records of rulesets where seats sit a hand out only
    "deck",
    "cut_card",
    "hands_dealt",
    "piles_dealt",
    "talon",
    "thrown_in",
    "declarations",  # in the records of rulesets with declarations only
    "sides",
    "shown",
    "told",  # in the records of rulesets that tell counts of discards only
    "excuse_exchanges",
    "claimed",
    "tricks",
    "payments",
    "card_points",
    "net",
    "lasting",  # in the records of rulesets with lasting state only
)
#: the keys only some rulesets' records have, and what the ruleset has that gives them
_ONLY_IN_SOME = {
    "sat_out": "seats sitting a hand out (`players.sit_out`)",
    "declarations": "declarations",
    "told": "counts of discards told to all (`discard.told`)",
    "lasting": "lasting state",
}
#: what records have told since a later version of the format 1, in words: a record written
#: before leaves it out (the sides the play rules give: null, or no `play_sides`)
OLDER_RECORDS = {
    "declarations": "every declaration with its worth",
    "told": "the counts of discards told to all",
    "play_sides": "the sides the play rules give",
}


class ReplayMismatch(RecordError):
    """The record and the replayed game part ways; `where` is the JSON path."""


def _is_integer(_checker: object, value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _validator() -> Validator:
    import jsonschema  # only when a record is validated: a tenth of a second to import

    record_validator = jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
    )
    schema = load_schema("game-record")
    return record_validator(_inlined(schema, schema))


def _inlined(node: object, root: dict) -> object:
    """The schema with every local `$ref` replaced by what it points to (the record schema
    has no recursive reference): the same verdicts, checked about 1.7 times faster, since
    jsonschema resolves a reference at every value of a large record."""
    if isinstance(node, list):
        return [_inlined(item, root) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: object = root
        for part in ref[2:].split("/"):
            target = target[part]  # type: ignore[index]
        siblings = {key: value for key, value in node.items() if key != "$ref"}
        return {**_inlined(target, root), **siblings}  # type: ignore[dict-item]
    return {key: _inlined(value, root) for key, value in node.items() if key != "$defs"}


def record_problems(record: object) -> list[str]:
    """Schema problems of a record, each as 'json.path: message' (an integer must be written
    as one: 2.0 is not a seat)."""
    validator = _validator()
    errors = sorted(validator.iter_errors(record), key=lambda e: list(map(str, e.absolute_path)))
    return [shortened(f"{json_path(list(e.absolute_path))}: {e.message}") for e in errors]


def record_ruleset(record: Mapping, ruleset_file: str | None = None) -> Ruleset:
    """The ruleset to replay a (schema-checked) record with: the built-in ruleset its id
    names, or `ruleset_file` when given. Raises RulesetError if that ruleset does not load,
    RecordError if the record names no built-in ruleset."""
    options = record["ruleset"]["options"]
    if ruleset_file is not None:
        return load_ruleset(ruleset_file, options)
    name = record["ruleset"]["id"]
    builtin = paths.find_named(name)
    if builtin is None:
        raise RecordError(
            "$.ruleset.id",
            f"no built-in ruleset is named {name!r}; to replay a record of a ruleset file, "
            "give the file with --ruleset FILE",
        )
    return load_ruleset(builtin, options)


def replay_record(record: Mapping, ruleset: Ruleset) -> list[str]:
    """Raise ReplayMismatch at the first thing the record says that a replay does not; return
    a note for each thing an older record does not say and so was not checked (none for a
    record of this version)."""
    _check_ruleset(record["ruleset"], ruleset)
    _check_seats(record["seats"], ruleset)
    hands = record["hands"]
    totals: list[float] = [0] * ruleset.players
    unsaid: dict[str, list[int]] = {}  # what older hands leave out -> the hands' numbers
    lasting: LastingValues | None = None  # what the hand before left (the start values first)
    winners: list[int] = []  # as first_game_winners gives them, without keeping every hand
    for index, hand in enumerate(hands):
        where = f"$.hands[{index}]"
        _check_number(hand["number"], index, len(hands), where)
        state, older = _replay_hand(
            hand, ruleset, record["seed"], where, totals, lasting, record.get("backend", "scalar")
        )
        for key in older:
            unsaid.setdefault(key, []).append(hand["number"])
        totals = [t + n for t, n in zip(totals, state.returns(), strict=True)]
        lasting = state.lasting
        winners = winners or first_game_winners([state])
        if winners and index + 1 < len(hands):
            _past_the_end(state, winners, len(hands) - index - 1, f"$.hands[{index + 1}]")
    compare(record["totals"], totals, "$.totals")
    compare(record["game_winners"], winners, "$.game_winners")
    return [
        f"hand(s) {', '.join(map(str, numbers))}: the record was written before records told "
        f"{OLDER_RECORDS[key]}; not checked"
        for key, numbers in unsaid.items()
    ]


def _left_out(hand: Mapping, replayed: Mapping) -> list[str]:
    """What a hand's record, written before records told all, leaves out of what the replay
    tells (`OLDER_RECORDS`)."""
    left = [key for key in ("declarations", "told") if key in replayed and key not in hand]
    if _older_sides(hand["sides"], replayed["sides"]):
        left.append("play_sides")
    return left


def _older_sides(recorded: object, replayed: object) -> bool:
    """Whether the recorded sides are the replayed ones as a record written before the play
    rules' sides were told gives them: without `play_sides`, or null without a taker."""
    if not isinstance(replayed, dict) or "play_sides" not in replayed:
        return False
    if isinstance(recorded, dict) and "play_sides" in recorded:
        return False
    older = {key: value for key, value in replayed.items() if key != "play_sides"}
    return recorded == (None if older["taker"] is None else older)


def _past_the_end(state: HandState, winners: list[int], more: int, where: str) -> None:
    """Refuse the hands of a record after the end of its game: the game's rules (or a
    claim) ended it with the hand before, and a record holds one game."""
    seats = ", ".join(f"seat {s}" for s in winners)
    raise ReplayMismatch(
        where,
        f"the game is over after hand {state.number} ({seats} won: the rules of"
        f" {state.ruleset.id} end it there), but the record goes on with {more} more hand(s);"
        " a record holds one game, and a hand after its end would start from a sitting"
        " already closed",
    )


def _check_ruleset(recorded: Mapping, ruleset: Ruleset) -> None:
    if recorded["hash"] != ruleset.content_hash:
        raise ReplayMismatch(
            "$.ruleset.hash",
            f"the record was made with ruleset content {recorded['hash']}, "
            f"but the ruleset replayed, {ruleset.id}, has {ruleset.content_hash}",
        )
    compare(recorded["options"], ruleset.options, "$.ruleset.options")
    if recorded["id"] != record_id(ruleset):
        raise ReplayMismatch(
            "$.ruleset.id",
            f"recorded {recorded['id']!r}, but the ruleset replayed is {record_id(ruleset)!r}",
        )


def _check_seats(seats: Sequence[Mapping], ruleset: Ruleset) -> None:
    if len(seats) != ruleset.players:
        raise ReplayMismatch(
            "$.seats",
            f"recorded {len(seats)} seat(s), but {ruleset.id} is played by {ruleset.players}",
        )
    for index, seat in enumerate(seats):
        if seat["seat"] != index:
            raise ReplayMismatch(
                f"$.seats[{index}].seat", f"recorded {_shown(seat['seat'])}, expected {index}"
            )
        if not _known_player(seat["agent"]):
            raise ReplayMismatch(
                f"$.seats[{index}].agent",
                f"recorded {_shown(seat['agent'])}, not a player this tool "
                f"has ({', '.join(AGENT_KINDS)}, a kind with its settings as in "
                f"search(samples=2), or {HUMAN})",
            )


def _known_player(name: str) -> bool:
    """A player's name as the tool writes it: `human`, a kind, or `kind(key=value, ...)`."""
    if name == HUMAN:
        return True
    kind, bracket, settings = name.partition("(")
    if bracket and not settings.endswith(")"):
        return False
    pairs = [pair.strip() for pair in settings[:-1].split(",")] if bracket else []
    try:
        kind, chosen = agent_settings(":".join([kind, *pairs]))
    except LineupError:
        return False
    return AGENT_KINDS[kind](seed=0, **chosen).name == name


def _check_number(number: int, index: int, count: int, where: str) -> None:
    if count == 1 or number == index + 1:  # a hand played on its own keeps its number
        return
    raise ReplayMismatch(
        f"{where}.number",
        f"recorded {_shown(number)}, expected {index + 1} "
        "(hands are numbered 1, 2, 3... in order, none missing or repeated)",
    )


def _replay_hand(
    hand: Mapping,
    ruleset: Ruleset,
    seed: int,
    where: str,
    totals_before: list,
    lasting: LastingValues | None,
    backend: str = "scalar",
) -> tuple[HandState, list[str]]:
    """The hand replayed and checked, and what its record, written before records told all,
    leaves out (`OLDER_RECORDS`) and so was not checked."""
    if "deal" in hand:
        state = _chosen_hand(hand, ruleset, where, totals_before, lasting)
    else:
        state = _seeded_hand(hand, ruleset, seed, where, totals_before, lasting, backend)
    decisions = [
        (f"{where}.abandoned_deals[{k}].decisions[{i}]", decision)
        for k, deal in enumerate(hand["abandoned_deals"])
        for i, decision in enumerate(deal["decisions"])
    ] + [(f"{where}.decisions[{i}]", decision) for i, decision in enumerate(hand["decisions"])]
    for at, decision in decisions:
        apply_decision(state, decision, at)
    if not state.is_terminal():
        raise ReplayMismatch(f"{where}.decisions", "the record stops before the hand is over")
    replayed = hand_record(state)
    if "deal" in hand:
        compare(hand["deal"], replayed["deal"], f"{where}.deal")
    compare(hand["abandoned_deals"], replayed["abandoned_deals"], f"{where}.abandoned_deals")
    older = _left_out(hand, replayed)
    for key in _RESULTS:
        if key == "sides" and "play_sides" in older:
            continue  # written before the play rules' sides were told: not checked
        if key in hand and key in replayed:
            compare(hand[key], replayed[key], f"{where}.{key}")
        elif key in older:
            continue  # written before records told it: not checked
        elif key in hand or key in replayed:  # a key of some rulesets' records only
            has = _ONLY_IN_SOME[key]
            raise ReplayMismatch(
                f"{where}.{key}",
                f"missing from the record: the ruleset has {has}"
                if key in replayed
                else f"not in the replay: the ruleset has no {has}",
            )
    return state, older


def _seeded_hand(
    hand: Mapping,
    ruleset: Ruleset,
    seed: int,
    where: str,
    totals_before: list,
    lasting: LastingValues | None,
    backend: str = "scalar",
) -> HandState:
    """The hand dealt as the seed deals it (on `backend`): the dealer by the rotation, every
    pack (the abandoned deals' and the played deal's) checked against the seed's."""
    number, size = hand["number"], len(ruleset.deck)
    on = "" if backend == "scalar" else f" on the {backend} back end"
    dealer = dealer_of(ruleset, number, seed)
    if hand["dealer"] != dealer:
        raise ReplayMismatch(
            f"{where}.dealer",
            f"recorded seat {_shown(hand['dealer'])}, but the ruleset's rotation gives "
            f"seat {dealer} the deal of hand {number}"
            + (
                f" (from the draw for the first deal that seed {seed} gives)"
                if ruleset.first_dealer_draw is not None
                else ""
            ),
        )
    abandoned = hand["abandoned_deals"]
    cards = ruleset.deck.cards
    for redeal, recorded in enumerate([deal["pack"] for deal in abandoned] + [hand["pack"]]):
        at = (
            f"{where}.abandoned_deals[{redeal}].pack"
            if redeal < len(abandoned)
            else f"{where}.pack"
        )
        dealt = [cards[c].id for c in _dealt(backend, size, seed, number, redeal)]
        compare(recorded, dealt, at, f" (what seed {seed} deals in hand {number}{on})")

    def repack(redeal: int) -> list[int]:
        if redeal > len(abandoned):
            raise ReplayMismatch(
                f"{where}.abandoned_deals",
                f"recorded {len(abandoned)} deal(s) thrown in, but the "
                f"replay throws in deal {redeal}",
            )
        return _dealt(backend, size, seed, number, redeal)

    return HandState(
        ruleset, dealer, repack(0), number, totals_before, repack=repack, lasting=lasting
    )


def _chosen_hand(
    hand: Mapping,
    ruleset: Ruleset,
    where: str,
    totals_before: list,
    lasting: LastingValues | None,
) -> HandState:
    """The hand dealt from the chosen deal its record asserts: the deal checked against the
    ruleset, the dealer and the pack against the deal (a chosen deal is not dealt again)."""
    deal = hand["deal"]
    try:
        chosen = chosen_deal(ruleset, deal, deal["dealer"])
    except DealError as error:
        raise ReplayMismatch(f"{where}.deal", f"not a deal of {ruleset.id}: {error}") from None
    compare(hand["dealer"], chosen.dealer, f"{where}.dealer", " (the dealer of the deal)")
    if hand["abandoned_deals"]:
        raise ReplayMismatch(
            f"{where}.abandoned_deals", "a chosen deal thrown in is not dealt again"
        )
    cards = ruleset.deck.cards
    dealt = [cards[c].id for c in chosen.pack]
    compare(hand["pack"], dealt, f"{where}.pack", f" (the pack that deals {where}.deal)")
    return HandState(
        ruleset,
        chosen.dealer,
        chosen.pack,
        hand["number"],
        totals_before,
        lasting=lasting,
        chosen=True,
    )


def _dealt(backend: str, size: int, seed: int, number: int, redeal: int) -> list[int]:
    """The pack of deal `redeal` of hand `number` as `backend` deals it."""
    if backend == "batch":
        import numpy as np

        from tarot.batch import keyed_random

        numbers = np.array([number], dtype=np.int64)
        return [int(c) for c in keyed_random.permutations(seed, numbers, size, redeal)[0]]
    return shuffled_pack(size, seed, number, redeal)


def apply_decision(state: HandState, decision: Mapping, at: str) -> None:
    """Take one recorded decision (seat, kind and choice) or raise ReplayMismatch at `at`."""
    if state.is_terminal():
        raise ReplayMismatch(at, "the hand was already over")
    open_decision = state.decision
    assert open_decision is not None  # a hand not over waits on a decision
    seat, kind = open_decision.seat, open_decision.kind
    if decision["seat"] != seat or decision["kind"] != kind:
        raise ReplayMismatch(
            at,
            f"recorded seat {decision['seat']} to {_shown(decision['kind'])}, "
            f"but seat {seat} is to {kind.value!r}",
        )
    try:
        state.apply_action(decision["choice"])
    except IllegalAction as error:
        raise ReplayMismatch(at, f"illegal: {error}") from None


def compare(recorded: object, replayed: object, where: str, why: str = "") -> None:
    """Refuse at the first place where the two differ (integers and reals of the same value
    are the same number; true is not 1)."""
    if _same(recorded, replayed):
        return
    if isinstance(recorded, list) and isinstance(replayed, list):
        for i, (a, b) in enumerate(zip(recorded, replayed, strict=False)):
            compare(a, b, f"{where}[{i}]", why)
        raise ReplayMismatch(where, f"recorded {len(recorded)} entries, replayed {len(replayed)}")
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in list(recorded) + [k for k in replayed if k not in recorded]:
            if key not in recorded or key not in replayed:
                missing = "missing from the record" if key in replayed else "not in the replay"
                raise ReplayMismatch(_under(where, key), missing)
            compare(recorded[key], replayed[key], _under(where, key), why)
    raise ReplayMismatch(where, f"recorded {_shown(recorded)}, replayed {_shown(replayed)}{why}")


def _under(where: str, key: str) -> str:
    return where + json_path([key])[1:]


def _same(a: object, b: object) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, Fraction) or isinstance(b, Fraction):
        return _same_number(a, b)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and a == b


def _same_number(a: object, b: object) -> bool:
    """Whether a number the record holds (`numbers.to_json`'s form: an int, a decimal, a
    "p/q") is the exact number the replay made; or, in a record written before numbers were
    exact, the float nearest to it (`13.333333333333334` for 40/3)."""
    exact_a, exact_b = from_json(a), from_json(b)
    if exact_a is None or exact_b is None:
        return False
    return exact_a == exact_b or any(
        isinstance(x, float) and x == float(y) for x, y in ((a, exact_b), (b, exact_a))
    )


def _shown(value: object) -> str:
    """A value in a message: repr (quotes and escapes text), cut short if long."""
    return shortened(repr(jsonable(value)), 200)  # 40/3 as a record writes it: '40/3'
