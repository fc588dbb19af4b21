"""Seats that sit a hand out (`players.sit_out`) in the batch back end (`tarot.batch.seating`):
each lane keeps the table's seats, those sitting out masked out of the deal, every round, the
names meaning "the seats in play" and the payments; on the small game written for the
mechanism (tests/data/rulesets/sit-out.yaml: the dealer sits out, or with `who=opposite` the
seat opposite him) and on the built-ins that use it (Droggn for four, Hungarian Tarokk for
five); each hand replayed through the scalar engine with every decision legal and every
payment equal, and the search player's play-outs taken up from a scalar hand."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from batch_checks import loaded, means_agree, play_outs_replayed, replayed
from test_batch_playouts import _trials

from tarot.batch.run import play_batch
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.core.actions import DecisionKind
from tarot.engine.game import deal_hand
from tarot.players.random_agent import RandomAgent
from tests.commands import tarot

GAME = Path(__file__).parent / "data" / "rulesets" / "sit-out.yaml"
BUILT_INS = ("droggn-4", "hungarian-tarokk-5")


@pytest.mark.parametrize("who", ["dealer", "opposite"])
def test_the_seat_sitting_out_is_dealt_nothing_and_plays_nothing(who):
    ruleset = load_ruleset(GAME, {"who": who})
    assert supports(ruleset) == []
    records, kinds, _fired = replayed(ruleset, 3, 200)
    assert kinds["play"] > 2000 and kinds["bid"] > 300
    for record in records:
        dealer = record["dealer"]
        out = dealer if who == "dealer" else (dealer + 2) % 4
        assert all(d["seat"] != out for d in record["decisions"])
        assert all(out not in (p["from"], p["to"]) for p in record["payments"])
        assert record["net"][out] == 0
    # every seat sits out in turn as the deal goes round
    assert {r["dealer"] for r in records} == {0, 1, 2, 3}


def test_the_batch_deals_the_seats_in_play_as_the_scalar_engine_does():
    ruleset = load_ruleset(GAME, {"who": "opposite"})
    state = play_batch(ruleset, 5, np.arange(1, 9))
    for row, number in enumerate(range(1, 9)):
        scalar = deal_hand(ruleset, 5, number)
        dealt = [len(scalar.zones.played[s]) + len(scalar.zones.hands[s]) for s in range(4)]
        out = scalar.seating.out
        assert len(out) == 1 and dealt[out[0]] == 0
        assert not state.in_play(np.array([row]))[0, out[0]]
        assert int(state.in_play(np.array([row])).sum()) == 3


@pytest.mark.parametrize("name", BUILT_INS)
def test_the_built_ins_run_in_batch_and_replay(name):
    ruleset = loaded(name)
    assert supports(ruleset) == []
    records, kinds, fired = replayed(ruleset, 4, 120)
    assert kinds["play"] > 1000 and kinds["bid"] > 100
    assert len(fired) >= 2
    for record in records:
        assert record["net"][record["dealer"]] == 0  # the dealer sits out, paying nothing


def test_means_agree_with_the_scalar_engine():
    means_agree(loaded(str(GAME)), 6, 400, {}, rules_at_least=2)


def _moment(name: str, number: int, trick: int, options: dict | None = None):
    """A hand of `name` (with `options`) played by random players to a card decision of
    trick `trick` with a choice of cards."""
    state = deal_hand(loaded(name) if options is None else load_ruleset(name, options), 5, number)
    player = RandomAgent(number)
    while (decision := state.decision) is not None:
        if decision.kind is DecisionKind.PLAY and state.play.trick_number >= trick:
            if len(decision.actions) > 1:
                return state
        state.apply_action(player.choose(state, decision.seat))
    raise AssertionError(f"hand {number} of {name} ended before trick {trick}")


@pytest.mark.parametrize("name", [*BUILT_INS, str(GAME)])
def test_the_search_player_s_play_outs_run_in_batch(name):
    for number in (1, 2):
        trials, streams = _trials(_moment(name, number, 3), 3, number)
        batch = play_outs_replayed(trials, streams)
        out = ~batch.in_play(np.arange(batch.size))
        assert (batch.net[out] == 0).all()


@pytest.mark.slow
@pytest.mark.parametrize("name", [*BUILT_INS, str(GAME)])
def test_sit_out_replays_over_many_seeds(name):
    ruleset = loaded(name)
    for seed in range(1, 7):
        replayed(ruleset, seed, 300)


def test_who_sits_out_is_counted_in_the_decisions():
    """The seat sitting out is never asked: each seat's share of the decisions over many
    hands leaves it out exactly when it sits out."""
    records, _kinds, _fired = replayed(loaded(str(GAME)), 8, 80)
    asked = Counter((r["dealer"], d["seat"]) for r in records for d in r["decisions"])
    assert all(asked[(dealer, dealer)] == 0 for dealer in range(4))


LASTING = """
game:
  source: test
  ends_when: "hand_number() >= 8 or pot() >= 12"
  winners: "[s in seats if total(s) == max(t in seats: total(t))]"
  max_hands: 12
lasting:
  description: A pot the seats in play ante into, taken by the last trick's winner.
  counters:
    marked:
      per: seat
      start: 0
      description: Marks of the seats that defended.
      source: test
  accounts:
    pot:
      start: 0
      description: What the seats paid in and nobody has taken yet.
      source: test
  changes:
    - id: mark_the_defenders
      name: Each defender in play is marked
      counter: marked
      seats: defenders
      add: 1
      source: test
  transfers:
    - id: ante
      name: Each seat in play antes into the pot
      account: pot
      at: deal
      pay_in: seats
      amount: 1
      source: test
    - id: pot_taken
      name: The last trick's winner takes the pot when it is high
      account: pot
      pay_out: last_trick_winner()
      when: "pot() >= 6"
      amount: pot()
      source: test
"""


def test_sittings_with_a_seat_sitting_out_replay_hand_by_hand(tmp_path):
    """A sitting of the game with lasting state: the seats in play ante, the seat sitting
    out takes no part; each sitting replayed hand by hand through the scalar engine."""
    from tarot.engine.game import sitting_seed
    from tarot.records.batch_agreement import replay_sitting, sitting_records

    variant = tmp_path / "sit-out-lasting.yaml"
    variant.write_text(GAME.read_text(encoding="utf-8") + LASTING, encoding="utf-8")
    ruleset = load_ruleset(variant)
    assert supports(ruleset) == []
    seeds = [sitting_seed(4, number) for number in range(1, 31)]
    antes = 0
    for number, records in enumerate(sitting_records(ruleset, seeds)):
        replay_sitting(ruleset, records, f"sitting {number + 1}")
        for record in records:
            moves = record["lasting"]["transfers"]
            ante = [m for m in moves if m["rule"] == "ante"]
            assert len(ante) == 3 and all(m["from"] != record["dealer"] for m in ante)
            antes += len(ante)
    assert antes > 100


def test_seats_that_fail_to_sit_out_are_named_and_left_to_the_scalar_engine(tmp_path):
    """An expression giving the wrong number of seats stops the scalar engine's hand; the
    batch back end works out every dealer's seating first, and names it."""
    variant = tmp_path / "wrong.yaml"
    text = GAME.read_text(encoding="utf-8").replace(
        "    seats: \"if option.who == 'opposite' then next_seat(next_seat(dealer)) else dealer\"",
        '    seats: "[s in seats if s != next_seat(dealer)]"',
    )
    assert "next_seat(dealer)]" in text
    variant.write_text(text, encoding="utf-8")
    (problem,) = supports(load_ruleset(variant))
    assert problem.startswith("players.sit_out.seats: ") and "3 seat(s)" in problem


@pytest.mark.slow
@pytest.mark.parametrize("name", BUILT_INS)
def test_simulate_plays_the_built_ins_in_batch_by_default(name):
    ran = tarot("simulate", name, "--hands", "300", "--jobs", "1")
    assert ran.returncode == 0, ran.stderr
    assert f"{name}: 300 hands, seed 1, random players, 1 job(s), batch back end" in ran.stdout
    assert "playing on the scalar engine" not in ran.stderr
