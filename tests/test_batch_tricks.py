"""Who wins a trick in the batch back end. Trumps in an order of their own
(`deck.trump_order`): the Fool as the highest trump and groups of equal trumps, where the
first or the last played wins, rank as in the scalar engine, trick by trick, in whole hands
replayed through the scalar engine and in the search player's batched play-outs
(`test_batch_playouts.py`). Exceptions to who wins a trick (`play.winner_exceptions`), the
place of a card in the trick (`position_in_trick`) and the log of tricks (`trick_of`,
`taken_by`, `played_by`), in whole hands replayed through the scalar engine."""

from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from batch_checks import loaded, replayed

from tarot.batch.phases.play import Excuses, winners
from tarot.batch.support import supports
from tarot.batch.tables import DeckTables
from tarot.engine.tricks import trick_winner

TRUMP_ORDER = str(Path(__file__).parent / "data" / "batch" / "trump-order.yaml")
EXCEPTIONS = str(Path(__file__).parent / "data" / "batch" / "winner-exceptions.yaml")
TRICK_LOG = str(Path(__file__).parent / "data" / "batch" / "trick-log.yaml")


def test_every_two_trumps_fall_as_in_the_scalar_engine():
    """Each ordered pair of trumps (the Fool ranked as one included), after a plain card led
    and before one, wins for the same seat as the scalar engine's `trick_winner`: the
    stronger, and of two equal ones the first or last played as their group says."""
    ruleset = loaded(TRUMP_ORDER)
    cards, tables = ruleset.deck.cards, DeckTables.of(ruleset)
    assert cards.beats_equal and cards[-1].fool and cards[-1].trump == 22  # what is tested
    excuses = Excuses(SimpleNamespace(tables=tables, excuses=None), per_hand=False)
    plain = next(c.index for c in cards if c.suit is not None)
    pairs = list(itertools.permutations(sorted(cards.trumps), 2))
    tricks = [(plain, a, b) for a, b in pairs] + [(a, b, plain) for a, b in pairs]
    trick = np.array(tricks, dtype=np.int64)
    seats = np.tile(np.arange(3), (len(trick), 1))
    ours = winners(excuses, trick, seats)
    theirs = [trick_winner(cards, list(enumerate(t))) for t in tricks]
    assert ours.tolist() == theirs
    ties = [i for i, (a, b) in enumerate(pairs) if cards[a].strength == cards[b].strength]
    assert {int(ours[i]) for i in ties} == {1, 2}  # both ways of breaking a tie are met


def test_every_payment_agrees_with_the_scalar_engine():
    ruleset = loaded(TRUMP_ORDER)
    assert supports(ruleset) == []
    records, kinds, fired = replayed(ruleset, 11, 60)
    assert fired["t_won_by_equal"] > 20 and kinds["play"] == 60 * 60


@pytest.mark.slow
@pytest.mark.parametrize("path", [TRUMP_ORDER, EXCEPTIONS, TRICK_LOG])
def test_every_payment_agrees_over_many_seeds(path):
    ruleset = loaded(path)
    for seed in range(1, 9):
        replayed(ruleset, seed, 400)


def test_tricks_won_by_exception_replay_through_the_scalar_engine():
    """Each exception gives some tricks to another seat than the trick rules would (seen in
    who leads the next trick), and each hand replays through the scalar engine."""
    ruleset = loaded(EXCEPTIONS)
    assert supports(ruleset) == []
    records, _kinds, fired = replayed(ruleset, 4, 80)
    assert fired["w_first_trump"] == 80
    cards, by_id = ruleset.deck.cards, ruleset.deck.by_id
    by_rules = by_exception = 0
    for record in records:
        plays = [
            (d["seat"], by_id[d["choice"]]) for d in record["decisions"] if d["kind"] == "play"
        ]
        tricks = [plays[i : i + 3] for i in range(0, len(plays), 3)]
        for trick, after in zip(tricks, tricks[1:], strict=False):
            usual = trick_winner(cards, trick)
            by_rules += after[0][0] == usual
            by_exception += after[0][0] != usual
    assert by_exception > 20 and by_rules > 1000


def test_the_log_of_tricks_replays_through_the_scalar_engine():
    """Payments read where cards fell, who played and who took them, as a card is played
    (the trick being played included), as a trick ends and at the settlement."""
    ruleset = loaded(TRICK_LOG)
    assert supports(ruleset) == []
    _records, _kinds, fired = replayed(ruleset, 4, 100)
    assert fired["l_card"] > 80 and fired["l_trick_end"] > 60 and fired["l_settlement"] > 40
