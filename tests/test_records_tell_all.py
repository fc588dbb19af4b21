"""Records that tell all (issue 28): the sides the play rules give, every declaration with its
worth (those made by the rules and those worth nothing too), the counts of discards told to
all; a record written before they were told still replays, saying what it did not check; and
the transcript's card points by side where seats pool their tricks."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.engine.game import play_game
from tarot.engine.state import HandState
from tarot.players.lineup import seat_agents
from tarot.presentation.transcript import hand_transcript
from tarot.records.record import game_record
from tarot.records.record_json import record_text
from tarot.records.replay import ReplayMismatch, record_problems, replay_record

RULESETS = Path(__file__).parent / "data" / "rulesets"


def _played(ruleset: Ruleset, seed: int, hands: int) -> tuple[list[HandState], dict]:
    def seating(number: int) -> list:
        return seat_agents(["random"], seed, number, ruleset.players)

    states = play_game(ruleset, seed, seating, hands)
    names = [agent.name for agent in seating(1)]
    record = json.loads(record_text(game_record(ruleset, seed, names, states)))
    assert record_problems(record) == []
    return states, record


def test_the_sides_the_play_rules_give_are_recorded() -> None:
    """Minchiate's partners sit opposite (`play.sides`), without an auction: the record's
    `sides` was null; it names them now, with no taker."""
    ruleset = load_ruleset("minchiate")
    _states, record = _played(ruleset, 3, 2)
    for hand in record["hands"]:
        sides = hand["sides"]
        assert sides["taker"] is None and sides["attackers"] == []
        assert sides["play_sides"] == [[0, 2], [1, 3]]
    assert replay_record(record, ruleset) == []


def test_a_compulsory_declaration_worth_nothing_is_recorded(tmp_path: Path) -> None:
    """A declaration made by the rules and worth nothing leaves no payment and no decision:
    only `declarations` tells it, with its level, its worth 0 and `by_rules`."""
    text = (RULESETS / "announcements.yaml").read_text(encoding="utf-8")
    text = text.replace('>= 4", value: 1}', '>= 4", value: 0}')
    assert '>= 4", value: 0}' in text
    path = tmp_path / "worth-nothing.yaml"
    path.write_text(text, encoding="utf-8")
    ruleset = load_ruleset(path)
    _states, record = _played(ruleset, 1, 6)
    made = [d for hand in record["hands"] for d in hand["declarations"]]
    nothing = [d for d in made if d["level"] == "four"]
    assert nothing, "no hand of these seeds made the declaration worth nothing"
    assert all(d["value"] == 0 and d["by_rules"] for d in nothing)
    assert all(d["declaration"] == "many_trumps" for d in made)
    paid = {p["rule"] for hand in record["hands"] for p in hand["payments"]}
    assert "many_trumps:four" not in paid
    assert replay_record(record, ruleset) == []
    tampered = copy.deepcopy(record)
    hand = next(h for h in tampered["hands"] if h["declarations"])
    hand["declarations"][0]["value"] = 5
    with pytest.raises(ReplayMismatch, match=r"declarations\[0\]\.value: recorded 5, replayed"):
        replay_record(tampered, ruleset)


def test_chosen_declarations_are_recorded_with_their_worth() -> None:
    """A declaration a seat chose is in `declarations` with the worth of its level."""
    ruleset = load_ruleset("marolles-1637")
    states, record = _played(ruleset, 2, 3)
    for state, hand in zip(states, record["hands"], strict=True):
        chosen = [
            (d["seat"], d["choice"])
            for d in hand["decisions"]
            if d["kind"] == "declare" and not d["choice"].endswith(":none")
        ]
        made = [(d["seat"], f"{d['declaration']}:{d['level']}") for d in hand["declarations"]]
        assert sorted(made) == sorted(chosen)
        for d in hand["declarations"]:
            assert d["value"] == state.declare.values[d["seat"]][d["declaration"]]
            assert d["by_rules"] is False
    assert any(hand["declarations"] for hand in record["hands"])


def test_the_counts_told_to_all_are_recorded() -> None:
    """Hungarian Tarokk tells how many tarokks each player laid away: the record says it."""
    ruleset = load_ruleset("hungarian-tarokk")
    states, record = _played(ruleset, 3, 4)
    told = [hand["told"] for hand in record["hands"]]
    assert told == [list(state.discard.told) or None for state in states]
    assert any(counts and len(counts) == ruleset.players for counts in told)
    assert replay_record(record, ruleset) == []


def _as_older(record: dict) -> dict:
    """The record as the tool wrote it before records told all."""
    older = copy.deepcopy(record)
    for hand in older["hands"]:
        hand.pop("declarations", None)
        hand.pop("told", None)
        sides = hand["sides"]
        if sides is not None and sides.pop("play_sides", None) is not None:
            hand["sides"] = None if sides["taker"] is None else sides
    return older


@pytest.mark.parametrize("name", ["minchiate", "hungarian-tarokk"])
def test_an_older_record_replays_and_says_what_it_did_not_check(name: str) -> None:
    ruleset = load_ruleset(name)
    _states, record = _played(ruleset, 3, 2)
    notes = replay_record(_as_older(record), ruleset)
    assert notes and all("the record was written before records told" in n for n in notes)
    said = " ".join(notes)
    assert ("the sides the play rules give" in said) == (name == "minchiate")
    assert ("the counts of discards told to all" in said) == (name == "hungarian-tarokk")
    assert "every declaration with its worth" in said
    wrong = _as_older(record)
    wrong["hands"][0]["sides"] = {"taker": 0}  # not an older form: refused as before
    with pytest.raises(ReplayMismatch):
        replay_record(wrong, ruleset)


def test_the_transcript_gives_card_points_by_side_where_seats_pool() -> None:
    """Minchiate's partners pool their tricks: the transcript gives each side's points as the
    rules count them, beside each seat's; an every-man game has no such line."""
    states, _record = _played(load_ruleset("minchiate"), 4, 1)
    state = states[0]
    text = hand_transcript(state)
    line = next(line for line in text.splitlines() if line.startswith("Card points by side: "))
    assert line == (
        f"Card points by side: seats 0+2 {state.side_points(0)}, seats 1+3 {state.side_points(1)}"
    )
    marolles, _ = _played(load_ruleset("marolles-1637"), 4, 1)
    assert "Card points by side" not in hand_transcript(marolles[0])
