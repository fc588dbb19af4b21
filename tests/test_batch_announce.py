"""Announcements and doublings in the batch back end (`tarot.batch.phases.announce`,
`tarot.batch.phases.double`): bonuses announced one at a time, once each or round and round
until all pass, open to some seats only and to one seat of a side, the cards an announcer
keeps for the last trick; targets doubled by the two sides in turn, a bonus doubled once
announced; cards shown to all; and the facts that read what was announced, the card called
and the doublings; each hand replayed through the scalar engine with every decision legal
and every payment equal."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from batch_checks import loaded, replayed

from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset

DATA = Path(__file__).parent / "data" / "batch"
ROUNDS = str(DATA / "announcements.yaml")
ONCE = str(DATA / "announcements-once.yaml")
DOUBLING = str(DATA / "doubling.yaml")
SHOW = str(DATA / "show.yaml")


def _said(records: list[dict]) -> Counter:
    return Counter(d["choice"] for r in records for d in r["decisions"] if d["kind"] == "announce")


def test_announcements_round_and_round_replay_through_the_scalar_engine():
    ruleset = loaded(ROUNDS)
    assert supports(ruleset) == []
    records, _kinds, fired = replayed(ruleset, 3, 120)
    said = _said(records)
    assert all(said[f"announce:{b}"] > 10 for b in ("slam", "petit_last", "five_tricks"))
    assert said["pass"] > 100
    # the Petit kept back by its announcer falls in the last trick; five tricks are paid
    assert fired["a_petit_last"] > 5 and fired["a_five_tricks"] > 50


def test_announcements_once_each_replay_through_the_scalar_engine():
    ruleset = loaded(ONCE)
    assert supports(ruleset) == []
    records, _kinds, fired = replayed(ruleset, 4, 120)
    said = _said(records)
    assert said["announce:king_last"] > 30 and said["announce:defence"] > 30
    # once each: a hand holds at most one word per seat and bonus, and one pass per seat
    for record in records:
        words = [(d["seat"], d["choice"]) for d in record["decisions"] if d["kind"] == "announce"]
        assert len(words) == len(set(words))
    assert fired["a_king_last"] > 20


def test_doublings_replay_through_the_scalar_engine():
    ruleset = loaded(DOUBLING)
    assert supports(ruleset) == []
    records, _kinds, fired = replayed(ruleset, 3, 120)
    said = Counter(
        d["choice"].split(":")[0] for r in records for d in r["decisions"] if d["kind"] == "double"
    )
    assert said["pass"] > 100 and all(said[step] > 10 for step in ("contre", "surcontre"))
    assert said["recontre"] > 10  # the last step closes its target
    targets = Counter(
        d["choice"].split(":")[1] for r in records for d in r["decisions"] if d["kind"] == "double"
    )
    assert all(targets[t] > 20 for t in ("game", "five_tricks", "kings"))
    assert fired["d_game"] > 80 and fired["d_five_tricks"] > 20


def test_doublings_in_the_round_of_announcements_replay_through_the_scalar_engine(tmp_path):
    """With `doubling.with_announcements`, each seat on its turn may also double what is
    open to its side; there is no doubling step."""
    variant = tmp_path / "variant.yaml"
    text = Path(DOUBLING).read_text(encoding="utf-8")
    variant.write_text(text.replace("  factor: 2\n", "  factor: 2\n  with_announcements: true\n"))
    ruleset = load_ruleset(str(variant))
    assert supports(ruleset) == [] and "double" not in [step.word for step in ruleset.flow]
    records, _kinds, fired = replayed(ruleset, 5, 120)
    words = [d["choice"] for r in records for d in r["decisions"] if d["kind"] == "announce"]
    assert sum(w.startswith("contre:") for w in words) > 20
    assert sum(w.startswith("surcontre:") for w in words) > 5
    assert fired["d_game"] > 60


@pytest.mark.slow
@pytest.mark.parametrize("path", [ROUNDS, ONCE, DOUBLING])
def test_announcements_replay_over_many_seeds(path):
    ruleset = loaded(path)
    for seed in range(1, 7):
        replayed(ruleset, seed, 300)
