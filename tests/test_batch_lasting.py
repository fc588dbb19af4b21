"""The batch back end (`tarot.batch`) on state that lasts from hand to hand (`lasting`):
counters, accounts paid into after the deal, after a trick, at the settlement and when the
sitting ends (tests/data/rulesets/lasting-state.yaml, trick-transfers.yaml), and the game
totals read within a sitting (lasting-totals.yaml). A ruleset with a game end plays whole
sittings, each lane of a batch one sitting (`batch.sittings`): every sitting tested replays
hand by hand through the scalar engine, each hand from the totals and lasting values the
hand before left, every payment, transfer and value equal, and ends where the scalar
engine's game ends; the sittings' measures agree with the scalar engine's in distribution;
the search player's play-outs carry the lasting values of the hand they start from."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from batch_checks import play_outs_replayed, replayed
from test_batch_playouts import _trials

from tarot.batch.sittings import sitting_summaries
from tarot.batch.support import supports
from tarot.cli import main
from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand, play_game, sitting_seed
from tarot.measure.hand_summary import play_sitting_summarized
from tarot.players.lineup import seat_agents
from tarot.players.random_agent import RandomAgent
from tarot.records.batch_agreement import (
    BatchDisagreement,
    check_sample,
    replay_sitting,
    sitting_records,
)

DATA = Path(__file__).parent / "data" / "rulesets"
LASTING = str(DATA / "lasting-state.yaml")
TOTALS = str(DATA / "lasting-totals.yaml")
TRICKS = str(DATA / "trick-transfers.yaml")


@cache
def loaded(target: str):
    return load_ruleset(target)


def sittings_replayed(target: str, seed: int, sittings: int) -> tuple[Counter, Counter]:
    """Sittings 1..`sittings` of the batch back end, each replayed hand by hand through the
    scalar engine; their lengths and the rules fired, counted."""
    ruleset = loaded(target)
    assert supports(ruleset) == []
    lengths: Counter = Counter()
    fired: Counter = Counter()
    seeds = [sitting_seed(seed, number) for number in range(1, sittings + 1)]
    for number, records in enumerate(sitting_records(ruleset, seeds)):
        for record in records:
            record["fired"] = dict(sorted(record["fired"].items()))
            fired.update(record["fired"])
        replay_sitting(ruleset, records, f"sitting {number + 1}")
        lengths[len(records)] += 1
    return lengths, fired


def test_sittings_replay_hand_by_hand_through_the_scalar_engine():
    lengths, fired = sittings_replayed(LASTING, 3, 40)
    # ended by the pot (fewer hands) and by the number of hands (six)
    assert lengths[6] and sum(n for k, n in lengths.items() if k < 6)
    assert {"ante", "pot_taken", "losers_pay", "markers_left"} <= set(fired)


def test_game_totals_are_read_within_a_sitting():
    lengths, fired = sittings_replayed(TOTALS, 4, 40)
    assert fired["head_pays"] > 40 and lengths[2]  # some ended by a total of twenty


def test_transfers_at_each_trick_in_hands_alone():
    _records, _kinds, fired = replayed(loaded(TRICKS), 3, 120)
    assert fired["trick_lost"] and fired["pot_won"]


def test_a_sitting_plays_the_same_alone_or_in_any_batch():
    ruleset = loaded(LASTING)
    seeds = [sitting_seed(5, number) for number in range(1, 30)]
    alone = sitting_records(ruleset, seeds[6:7])[0]
    among = sitting_records(ruleset, seeds)[6]
    assert alone == among and alone[0]["number"] == 1


def test_a_batch_sitting_is_shown_and_recorded_from_its_seed(capsys, tmp_path):
    """A batch report names each sitting by its game's seed; `tarot play` shows that game
    as the run played it, and its record verifies (its packs dealt again from the seed)."""
    run = ["diff", LASTING, TOTALS, "--hands", "50", "--jobs", "1", "--backend", "batch"]
    assert main(run) == 0
    report = capsys.readouterr().out.split("Hands that differ most")[1]
    command = next(line.split() for line in report.splitlines() if "tarot play" in line)
    assert command[-2:] == ["--backend", "batch"] and command[2] == LASTING
    seed = int(command[command.index("--seed") + 1])
    number = int(report.split("hand ")[1].split(":")[0])  # the sitting the line is about
    played = sitting_summaries(loaded(LASTING), 1, [number])[0]
    record = tmp_path / "sitting.json"
    args = ["play", LASTING, "--seed", str(seed), "--backend", "batch", "--record", str(record)]
    assert main(args) == 0
    shown = capsys.readouterr().out
    assert f"after {len(played.deals)} hand(s)" in shown
    assert main(["replay", str(record), "--ruleset", LASTING]) == 0, capsys.readouterr()


def test_a_disagreement_stops_a_run_at_its_sitting():
    ruleset = loaded(LASTING)
    played = sitting_summaries(ruleset, 8, range(1, 6))
    check_sample(ruleset, 8, played, 1)  # sitting 1: it agrees
    wrong = [dataclasses.replace(s, net=(99, 0, 0)) if s.number == 1 else s for s in played]
    with pytest.raises(BatchDisagreement, match=r"sitting 1 of lasting-state \(seed 8\).*net"):
        check_sample(ruleset, 8, wrong, 1)


def test_simulate_reports_sittings_from_the_batch_back_end(capsys):
    common = ["simulate", LASTING, "--hands", "300", "--jobs", "1"]
    assert main([*common, "--backend", "scalar"]) == 0
    scalar = capsys.readouterr().out
    assert main([*common, "--backend", "batch"]) == 0
    batch = capsys.readouterr().out
    assert "300 sittings" in batch and "batch back end" in batch
    shape = [line.split("  ")[:1] for line in batch.splitlines()[1:]]
    assert shape == [line.split("  ")[:1] for line in scalar.splitlines()[1:]]


def _means(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    return mean, sum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values)


def sittings_agree(target: str, seed: int, sittings: int) -> None:
    """Means over sittings of the batch back end and of the scalar engine agree within 4.5
    standard errors: each seat's result, the hands, decisions and choices, each rule."""
    ruleset = loaded(target)
    batch = sitting_summaries(ruleset, seed, range(1, sittings + 1))
    scalar = [
        play_sitting_summarized(
            ruleset,
            seed,
            n,
            lambda hand, n=n: seat_agents(
                ("random",), sitting_seed(seed, n), hand, ruleset.players
            ),
        )
        for n in range(1, sittings + 1)
    ]
    measures = {f"seat {s}": (lambda h, s=s: h.net[s]) for s in range(ruleset.players)}
    measures["hands"] = lambda h: len(h.deals)
    measures["decisions"] = lambda h: h.decisions
    measures["lead changes"] = lambda h: h.lead_changes
    for key in {key for h in scalar for key in h.fired}:
        measures[key] = lambda h, key=key: h.fired.get(key, 0)
    for name, measure in measures.items():
        a, var_a = _means([measure(h) for h in batch])
        b, var_b = _means([measure(h) for h in scalar])
        assert abs(a - b) <= 4.5 * math.sqrt(var_a + var_b) + 1e-9, (name, a, b)


def test_sittings_agree_with_the_scalar_engine_in_distribution():
    sittings_agree(TOTALS, 9, 300)


def test_search_play_outs_carry_the_lasting_values():
    ruleset = loaded(TOTALS)
    before = play_game(ruleset, 6, [RandomAgent(s) for s in range(3)], hands=2)
    totals = [sum(h.returns()[s] for h in before) for s in range(3)]
    state = deal_hand(ruleset, 6, 3, totals, before[-1].lasting)
    player = RandomAgent(3)
    while state.play.trick_number < 2 or len(state.decision.actions) < 2:  # type: ignore[union-attr]
        state.apply_action(player.choose(state, state.decision.seat))  # type: ignore[union-attr]
    assert any(state.lasting.seats["marked"]) or state.lasting.table["pot"]
    trials, streams = _trials(state, 3, 2)
    play_outs_replayed(trials, streams)


@pytest.mark.slow
def test_sittings_agree_over_many_seeds():
    for seed in range(1, 9):
        sittings_replayed(LASTING, seed, 150)
        sittings_replayed(TOTALS, seed, 150)
    replayed(loaded(TRICKS), 21, 600)
    sittings_agree(LASTING, 21, 2000)
