"""The batch back end (`tarot.batch`) on a card the declarer names, handed over by whoever
holds it (`declarations.table[].hands_over.named`, `told`; tests/data/rulesets/named-card.yaml):
the declarer names one King he does not hold (a decision of kind `name`), its holder hands it
over and is given a card back; a King in the talon is named for nothing. Every hand tested
replays through the scalar engine with every payment equal; means agree with the scalar
engine's."""

from __future__ import annotations

from pathlib import Path

import pytest
from batch_checks import loaded, means_agree, replayed
from test_batch_contract_play import legal_counts_agree

from tarot.batch.phases import declare
from tarot.batch.support import supports
from tarot.engine.state import HandState
from tarot.records.replay import ReplayMismatch, apply_decision

NAMED = str(Path(__file__).parent / "data" / "rulesets" / "named-card.yaml")


def test_the_declarer_names_a_king_and_its_holder_hands_it_over():
    ruleset = loaded(NAMED)
    assert supports(ruleset) == []
    records, kinds, _fired = replayed(ruleset, 3, 300)
    assert kinds["name"] > 300 and 0 < kinds["give"] < kinds["name"]
    by_id = ruleset.deck.by_id
    held, in_talon = 0, 0
    for record in records:
        pack = [by_id[c] for c in record["packs"][0]]
        state = HandState(ruleset, record["dealer"], pack, record["number"])
        for i, decision in enumerate(record["decisions"]):
            if decision["kind"] == "name":
                card, seat = by_id[decision["choice"]], decision["seat"]
                assert decision["choice"].endswith("-K")
                assert card not in state.zones.hands[seat]
                holder = state.zones.holder(card, leaving_out=seat)
                apply_decision(state, decision, f"decisions[{i}]")
                assert card in state.zones.hands[seat] or holder is None
                held, in_talon = held + (holder is not None), in_talon + (holder is None)
                continue
            apply_decision(state, decision, f"decisions[{i}]")
    assert held > 200 and in_talon > 20
    legal_counts_agree(ruleset, 3, 150)  # as many cards to name, and to give back


def test_handing_over_every_king_would_not_replay(monkeypatch):
    monkeypatch.setattr(declare, "_named", lambda _state, _rows, _seats, asked: asked)
    with pytest.raises(ReplayMismatch):
        replayed(loaded(NAMED), 3, 300)


@pytest.mark.slow
def test_named_cards_agree_over_many_seeds():
    for seed in range(1, 9):
        replayed(loaded(NAMED), seed, 300)
    means_agree(loaded(NAMED), 21, 3000, {}, rules_at_least=1)
