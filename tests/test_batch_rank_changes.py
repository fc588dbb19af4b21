"""The batch back end (`tarot.batch`) on cards that rank otherwise for one hand
(`play.rank_changes`, tests/data/rulesets/rank-changes.yaml, and two variants: trumps played
as a suit, and a Fool made the highest trump in some hands, which then no longer plays as
the Excuse): the hands of a batch are played in groups whose changes move the same cards,
each with its own tables. Every hand tested replays through the scalar engine with every
payment equal; means agree with the scalar engine's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from batch_checks import loaded, means_agree, replayed
from test_batch_contract_play import legal_counts_agree

from tarot.batch.phases import play
from tarot.batch.phases.deal import deal
from tarot.batch.run import program_of
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.records.replay import ReplayMismatch

CHANGES = str(Path(__file__).parent / "data" / "rulesets" / "rank-changes.yaml")
VARIANTS = {
    "trumps_as_suit": "play:\n  trumps_as_suit: true\n",
    "fool_made_a_trump": """
deck:
  trumps: 5
  fool: true
  card_sets:
    fool_card: {fool: true}
play:
  rank_changes:
    - {cards: "[c in fool_card if c in hand(dealer)]", to: highest_trump, source: test}
    - {cards: "[c in kings if c in hand(next_seat(dealer))]", to: lowest_in_suit, source: test}
    - cards: "[c in trumps if trump_number(c) == 5 and c in hand(dealer)]"
      to: lowest_in_suit
      source: test
""",
}


def _variant(tmp_path: Path, name: str):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: {CHANGES}\ntitle: {name}\n{VARIANTS[name]}", encoding="utf-8")
    return load_ruleset(str(path))


def test_hands_are_grouped_by_the_cards_their_changes_move():
    ruleset = loaded(CHANGES)
    assert supports(ruleset) == []
    program = program_of(ruleset)
    changes = program.plays.own.rank_changes
    assert changes is not None
    state = deal(program, 3, np.arange(1, 301))
    rows = np.arange(state.size)
    groups = list(changes.groups(state, rows))
    assert 4 < len(groups) <= 2 * 16  # the little trump with the dealer or not, the Kings
    assert sorted(np.concatenate([places for _changed, places in groups]).tolist()) == list(rows)
    ace = ruleset.deck.by_id["swords-1"]
    for changed, _places in groups:  # the Ace of swords is the lowest trump in every hand
        tables = changed.tables
        assert tables.is_trump[ace] and tables.suit[ace] == -1
        trumps = np.flatnonzero(tables.is_trump[:-1])
        assert tables.strength[ace] < tables.strength[trumps[trumps != ace]].min()
        assert (tables.strength[: len(ruleset.deck)] >= 1).all()


def test_every_hand_replays_and_a_hand_ranked_by_the_pack_would_not(monkeypatch):
    _records, kinds, fired = replayed(loaded(CHANGES), 3, 300)
    assert kinds["play"] == 300 * 18 and fired["most_points"] == 300
    legal_counts_agree(loaded(CHANGES), 3, 150)
    monkeypatch.setattr(play, "_ranked", lambda trick_play, _state, rows: [(trick_play, rows)])
    with pytest.raises(ReplayMismatch):
        replayed(loaded(CHANGES), 3, 300)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variants_replay(name, tmp_path):
    ruleset = _variant(tmp_path, name)
    assert supports(ruleset) == []
    for seed in (1, 2):
        replayed(ruleset, seed, 200)


@pytest.mark.slow
def test_rank_changes_agree_over_many_seeds(tmp_path):
    for seed in range(1, 9):
        replayed(loaded(CHANGES), seed, 300)
    for name in VARIANTS:
        for seed in range(3, 7):
            replayed(_variant(tmp_path, name), seed, 300)
    means_agree(loaded(CHANGES), 21, 3000, {}, rules_at_least=1)
