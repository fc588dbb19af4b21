"""Replaying a game record: deal the recorded pack again, apply every recorded decision
(refusing an illegal one), and compare what happens with what the record says.

`replay_record` returns None when the record checks out, or a message naming the first
difference. A record that is not even of the right shape is reported by the schema check.
"""

from __future__ import annotations

from collections.abc import Mapping

import jsonschema

from interpreter.engine.state import HandState, IllegalAction
from interpreter.errors import json_path
from interpreter.loading.ruleset_loader import load_schema
from interpreter.record import hand_record
from interpreter.ruleset import Ruleset


class ReplayMismatch(Exception):
    """The record and the replayed game part ways; the message says where."""


def record_problems(record: object) -> list[str]:
    """Schema problems of a record, each as 'json.path: message'."""
    validator = jsonschema.Draft202012Validator(load_schema("game-record"))
    errors = sorted(validator.iter_errors(record), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{json_path(list(e.absolute_path))}: {e.message}" for e in errors]


def replay_record(record: Mapping, ruleset: Ruleset) -> None:
    """Raise ReplayMismatch at the first difference between the record and a fresh replay."""
    recorded_hash = record["ruleset"]["hash"]
    if recorded_hash != ruleset.content_hash:
        raise ReplayMismatch(
            f"$.ruleset.hash: the record was made with ruleset content {recorded_hash}, "
            f"but {ruleset.id} is now {ruleset.content_hash}"
        )
    totals = [0] * ruleset.players
    for index, hand in enumerate(record["hands"]):
        replayed = _replay_hand(hand, ruleset, f"$.hands[{index}]", totals)
        totals = [t + n for t, n in zip(totals, replayed["net"], strict=True)]
    if list(record["totals"]) != totals:
        raise ReplayMismatch(f"$.totals: recorded {record['totals']}, replayed {totals}")


def _replay_hand(hand: Mapping, ruleset: Ruleset, where: str, totals_before: list) -> dict:
    by_id = ruleset.deck.by_id
    unknown = [card for card in hand["pack"] if card not in by_id]
    if unknown or sorted(hand["pack"]) != sorted(by_id):
        raise ReplayMismatch(
            f"{where}.pack: not the ruleset's pack"
            + (f" (unknown cards: {', '.join(unknown[:5])})" if unknown else "")
        )
    if not 0 <= hand["dealer"] < ruleset.players:
        raise ReplayMismatch(
            f"{where}.dealer: seat {hand['dealer']} does not exist with {ruleset.players} players"
        )
    packs = [deal["pack"] for deal in hand.get("abandoned_deals", [])] + [hand["pack"]]
    for k, pack in enumerate(packs[:-1]):
        if sorted(pack) != sorted(by_id):
            raise ReplayMismatch(f"{where}.abandoned_deals[{k}].pack: not the ruleset's pack")

    def repack(redeal: int) -> list[int]:
        if redeal >= len(packs):
            raise ReplayMismatch(f"{where}.abandoned_deals: the replay deals more often")
        return [by_id[c] for c in packs[redeal]]

    state = HandState(
        ruleset, hand["dealer"], repack(0), hand["number"], totals_before, repack=repack
    )
    decisions = [d for deal in hand.get("abandoned_deals", []) for d in deal["decisions"]]
    for i, decision in enumerate(decisions + list(hand["decisions"])):
        at = f"{where}.decisions[{i}]"
        if state.is_terminal():
            raise ReplayMismatch(f"{at}: the hand was already over")
        seat, kind = state.current_player(), state.decision.kind
        if decision["seat"] != seat or decision["kind"] != kind:
            raise ReplayMismatch(
                f"{at}: recorded seat {decision['seat']} to {decision['kind']}, "
                f"but seat {seat} is to {kind}"
            )
        try:
            state.apply_action(decision["choice"])
        except IllegalAction as error:
            raise ReplayMismatch(f"{at}: illegal: {error}") from None
    if not state.is_terminal():
        raise ReplayMismatch(f"{where}.decisions: the record stops before the hand is over")
    replayed = hand_record(state)
    for key in (
        "dealer",
        "abandoned_deals",
        "deck",
        "cut_card",
        "hands_dealt",
        "piles_dealt",
        "talon",
        "thrown_in",
        "sides",
        "shown",
        "excuse_exchanges",
        "claimed",
        "tricks",
        "payments",
        "card_points",
        "net",
    ):
        _compare(hand.get(key), replayed[key], f"{where}.{key}")
    return replayed


def _compare(recorded: object, replayed: object, where: str) -> None:
    if recorded == replayed:
        return
    if isinstance(recorded, list) and isinstance(replayed, list):
        for i, (a, b) in enumerate(zip(recorded, replayed, strict=False)):
            _compare(a, b, f"{where}[{i}]")
        raise ReplayMismatch(f"{where}: recorded {len(recorded)} entries, replayed {len(replayed)}")
    raise ReplayMismatch(f"{where}: recorded {recorded!r}, replayed {replayed!r}")
