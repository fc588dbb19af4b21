"""The batch back end (`tarot.batch`) on discards made all or none (`discard.all_or_none`,
tests/data/rulesets/discard-all-or-none.yaml): the taker lays his trumps away all of them or
none, judged on the whole discard. Every hand tested replays through the scalar engine with
every payment equal; means agree with the scalar engine's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from batch_checks import loaded, means_agree, replayed
from test_batch_contract_play import legal_counts_agree

from tarot.batch.masks import count
from tarot.batch.phases import discard
from tarot.batch.run import play_batch
from tarot.batch.support import supports
from tarot.records.replay import ReplayMismatch

WHOLE = str(Path(__file__).parent / "data" / "rulesets" / "discard-all-or-none.yaml")


def test_the_trumps_go_all_together_or_not_at_all():
    ruleset = loaded(WHOLE)
    assert supports(ruleset) == []
    state = play_batch(ruleset, 4, range(1, 401))
    took = np.flatnonzero(state.taker >= 0)
    taker = state.taker[took]
    trumps = state.tables.trumps
    held = state.discards[took, taker] | state.played[took, taker]  # after the talon
    laid = count(state.discards[took, taker] & trumps)
    played = count(state.played[took, taker] & trumps)
    ids = ruleset.deck.cards.ids
    kings = state.tables.layout.of(c for c in range(len(ids)) if ids[c].endswith("-K"))
    # a King may not go while another card may: where he held one, the rule may give way
    # (his other cards trumps, more than he has left to lay away)
    free = count(held & kings) == 0
    assert free.sum() > 15
    assert ((laid == 0) | (played == 0))[free].all()  # some laid away: none kept to play
    assert (laid >= 2).sum() > 10  # two or three laid away together
    assert ((laid == 0) & (played > 0)).sum() > 100  # or kept, every one of them
    assert ((laid > 0) & (played > 0) & ~free).any()  # the rule gave way


def test_every_hand_replays_and_a_discard_of_any_card_would_not(monkeypatch):
    _records, kinds, fired = replayed(loaded(WHOLE), 3, 300)
    assert kinds["discard"] > 600 and fired["trumps_laid_away"] > 50
    legal_counts_agree(loaded(WHOLE), 3, 150)  # as many cards to lay away at each discard
    monkeypatch.setattr(discard, "_all_or_none", lambda _rule, _state, _ctx, _hand, c: c)
    with pytest.raises(ReplayMismatch, match="may not discard"):
        replayed(loaded(WHOLE), 3, 300)


@pytest.mark.slow
def test_all_or_none_agrees_over_many_seeds():
    for seed in range(1, 9):
        replayed(loaded(WHOLE), seed, 300)
    means_agree(loaded(WHOLE), 21, 3000, {}, rules_at_least=2)
