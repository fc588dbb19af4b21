"""Exact numbers (issue 28): `/` exact in the language, amounts and points as ints or
Fractions, shown as `13 1/3`, written in records as `"40/3"` and replayed exactly, older
records with the float of such a number still replayed, and the batch back end refusing what
float64 cannot hold. On a small game written for these tests
(tests/data/rulesets/exact-thirds.yaml): a pot of four shared in thirds after every hand, a
payment of 40/3, card points in halves paid in thirds, a tie only exact arithmetic sees."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import yaml
from batch_checks import replayed

from tarot.batch.exactness import quotient
from tarot.batch.run import play_summaries
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.engine.game import play_game
from tarot.expressions import EvaluationError, compile_expression
from tarot.expressions.numbers import exact, from_json, shown, to_json
from tarot.expressions.types import Environment, Scope, Type
from tarot.players.random_agent import RandomAgent
from tarot.presentation.transcript import hand_transcript
from tarot.records.record import game_record
from tarot.records.record_json import parse_record, record_text
from tarot.records.replay import ReplayMismatch, replay_record

GAME = Path(__file__).parent / "data" / "rulesets" / "exact-thirds.yaml"
RULESET = load_ruleset(GAME)


def value_of(text: str) -> object:
    return compile_expression(text, Environment(), Type.NUMBER)(Scope(None, {}))


def sitting(seed: int, hands: int = 3) -> list:
    agents = [RandomAgent(seed=seed * 10 + seat) for seat in range(RULESET.players)]
    return play_game(RULESET, seed, agents, hands=hands)


# --- the language -------------------------------------------------------------------------


def test_a_tie_written_two_ways_is_a_tie() -> None:
    assert value_of("4 + 32/3") == Fraction(44, 3)
    assert compile_expression("4 + 32/3 == 8 + 20/3", Environment())(Scope(None, {})) is True
    assert compile_expression("0.1 + 0.2 == 0.3", Environment())(Scope(None, {})) is True


def test_a_division_that_comes_out_even_is_an_int() -> None:
    for text, expected in [("6 / 3", 2), ("1/3 + 2/3", 1), ("2.5 * 2", 5), ("7 / 2 * 2", 7)]:
        value = value_of(text)
        assert value == expected and type(value) is int, text
    assert value_of("7 / 2") == Fraction(7, 2)
    assert (value_of("round(7 / 2)"), value_of("round(-7 / 2)")) == (4, -4)
    rounded = [value_of(f"{how}(40 / 3)") for how in ("floor", "ceil", "round")]
    assert rounded == [13, 14, 13] and value_of("40 // 3") == 13
    assert value_of("(40 / 3) % 1") == Fraction(1, 3)


# --- how numbers are shown and written ------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text", "written"),
    [
        (Fraction(40, 3), "13 1/3", "40/3"),
        (Fraction(-40, 3), "-13 1/3", "-40/3"),
        (Fraction(-2, 3), "-2/3", "-2/3"),
        (Fraction(91, 2), "45.5", 45.5),
        (Fraction(1, 40), "0.025", 0.025),
        (Fraction(12, 4), "3", 3),
        (7, "7", 7),
    ],
)
def test_numbers_shown_and_written(value: Fraction | int, text: str, written: object) -> None:
    assert shown(value) == text
    assert to_json(value) == written and type(to_json(value)) is type(written)
    assert from_json(to_json(value)) == value


def test_what_is_not_a_number_is_not_read_as_one() -> None:
    for bad in ["13 1/3", "1/0", "x/3", True, None, "4.5"]:
        assert from_json(bad) is None, bad
    assert exact(0.1) == Fraction(1, 10)  # the decimal written, not the binary float


# --- the engine -----------------------------------------------------------------------------


def test_a_pot_shared_in_thirds_leaves_nothing() -> None:
    for seed in range(1, 6):
        for state in sitting(seed):
            shared = [move.amount for move in state.transfers if move.rule == "shared"]
            assert shared == [Fraction(-4, 3)] * 3
            assert state.lasting.table["pot"] == 0 and type(state.lasting.table["pot"]) is int


def test_payments_are_exact_and_shown_as_games_show_them() -> None:
    state = sitting(1, hands=1)[0]
    thirds = [p for p in state.payments if p.rule == "thirds"]
    assert [p.amount for p in thirds] == [Fraction(40, 3)]
    assert any(p.rule == "tie" for p in state.payments)  # the tie was seen
    assert sum(state.returns()) == 0  # nothing lost to rounding
    text = hand_transcript(state)
    assert "13 1/3 points  The dealer's left-hand neighbour" in text
    assert "13.33" not in text


def test_a_record_holds_fractions_as_text_and_replays_them_exactly() -> None:
    states = sitting(2)
    text = record_text(game_record(RULESET, 2, ["random"] * 3, states))
    record = parse_record(text.encode())
    amounts = [p["amount"] for h in record["hands"] for p in h["payments"] if p["rule"] == "thirds"]
    assert amounts == ["40/3"] * 3
    assert replay_record(record, RULESET) == []
    record["hands"][0]["payments"][0]["amount"] = "41/3"
    with pytest.raises(ReplayMismatch):
        replay_record(record, RULESET)


def test_an_older_record_with_floats_still_replays() -> None:
    """Records written before numbers were exact hold 13.333333333333334 for 40/3."""
    states = sitting(3)
    record = json.loads(record_text(game_record(RULESET, 3, ["random"] * 3, states)))

    def as_floats(value: object) -> object:
        if isinstance(value, dict):
            return {key: as_floats(item) for key, item in value.items()}
        if isinstance(value, list):
            return [as_floats(item) for item in value]
        number = from_json(value) if isinstance(value, str) and "/" in value else None
        return float(number) if number is not None else value

    older = as_floats(record)
    assert 13.333333333333334 in [p["amount"] for p in older["hands"][0]["payments"]]
    assert replay_record(older, RULESET) == []


# --- the batch back end ---------------------------------------------------------------------


def batch_variant(tmp_path: Path, **changes: object) -> Ruleset:
    """The test game without what the batch back end does not run (lasting state) and with
    `changes` to its top-level sections."""
    document = yaml.safe_load(GAME.read_text())
    del document["lasting"]
    document.update(changes)
    path = tmp_path / "variant.yaml"
    path.write_text(yaml.safe_dump(document))
    return load_ruleset(path)


def test_the_batch_back_end_refuses_numbers_float64_cannot_hold(tmp_path: Path) -> None:
    """A payment of 40/3 runs in batch (counted in thirds: `batch.scaled_amounts`), but
    not two definitions of 14 2/3 compared, nor a card worth 0.1."""
    document = yaml.safe_load(GAME.read_text())
    missing = supports(batch_variant(tmp_path))
    refused = "payment rule tie: the number 14 2/3, which float64 arrays cannot hold exactly"
    assert missing == [refused], missing
    tenth = {**document["counting"], "values": [{"set": "kings", "value": 0.1}]}
    settlement = [rule for rule in document["settlement"] if rule["id"] != "tie"]
    assert supports(batch_variant(tmp_path, settlement=settlement)) == []
    missing = supports(batch_variant(tmp_path, counting=tenth, settlement=settlement))
    assert missing == ["counting: a card worth 0.1, which float64 arrays cannot hold exactly"]


def test_a_batch_payment_in_thirds_replays_exactly(tmp_path: Path) -> None:
    """The game's payments of 40/3 and of a third of the dealer's card points, and its pot
    shared out in thirds, played in batch (each amount counted in 1/scale) and replayed
    through the scalar engine, every payment and net the same exact number."""
    document = yaml.safe_load(GAME.read_text())
    settlement = [rule for rule in document["settlement"] if rule["id"] != "tie"]
    path = tmp_path / "no-tie.yaml"
    path.write_text(yaml.safe_dump({**document, "settlement": settlement}))
    records, _kinds, _fired = replayed(load_ruleset(path), 2, 60)
    amounts = [p["amount"] for r in records for p in r["payments"]]
    assert Fraction(40, 3) in amounts
    assert all(type(a) in (int, Fraction) for a in amounts)


def test_a_batch_division_by_a_fact_is_checked_as_it_runs(tmp_path: Path) -> None:
    """A division by three runs in a payment (counted in thirds) and where it is rounded at
    once; one by a fact the hand works out is checked as it runs."""
    document = yaml.safe_load(GAME.read_text())
    (by_three,) = [rule for rule in document["settlement"] if rule["id"] == "points_in_thirds"]
    assert supports(batch_variant(tmp_path, settlement=[by_three])) == []
    rounded = {**by_three, "amount": "round(points(dealer) / 3)"}
    assert supports(batch_variant(tmp_path, settlement=[rounded])) == []
    by_count = {**by_three, "amount": "points(dealer) / tricks_won(dealer)"}
    ruleset = batch_variant(tmp_path, settlement=[by_count])
    assert supports(ruleset) == []
    with pytest.raises(EvaluationError, match="does not come out even.*--backend scalar"):
        play_summaries(ruleset, 1, list(range(1, 41)))


def test_a_batch_division_that_does_not_come_out_even_stops_with_a_message() -> None:
    a, b = np.array([40.0, 9.0, 3.0]), np.array([3.0, 2.0, 3.0])
    assert quotient(a, b, rounded=True).tolist() == pytest.approx([40 / 3, 4.5, 1.0])
    with pytest.raises(EvaluationError, match="40 / 3 does not come out even"):
        quotient(a, b, rounded=False)
    assert quotient(a[1:], b[1:], rounded=False).tolist() == [4.5, 1.0]


# --- the Python API -------------------------------------------------------------------------


def test_the_api_gives_fractions_and_a_record_ready_for_json() -> None:
    import tarot

    game = tarot.load(str(GAME))
    state = game.new_hand(seed=4)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert Fraction(40, 3) in [payment.amount for payment in state.payments]
    assert sum(state.returns()) == 0
    record = json.loads(json.dumps(state.record()))
    assert "40/3" in [p["amount"] for p in record["hands"][0]["payments"]]
    assert replay_record(record, RULESET) == []
