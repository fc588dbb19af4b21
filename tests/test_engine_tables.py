"""The engine's shortcuts give what the long way gives: the trick winner by one number per
card (`Pack.trick_keys`) against `trick_standing`, a condition's card guard read by the
discard, and payments that forget remembered definitions only when one reads a total."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.core.rule_index import card_guard, may_hold_for
from tarot.core.vocabulary import TOTAL_MEMO
from tarot.engine.events import AT_SETTLEMENT
from tarot.engine.game import play_game
from tarot.engine.state import HandState
from tarot.engine.tricks import trick_standing, trick_winner
from tarot.load import paths
from tarot.players.random_agent import RandomAgent
from tests.small_games import compiled, edited

FRENCH = Path(paths.builtin_rulesets()["french-tarot"])


@pytest.mark.parametrize("name", ["marolles-1637", "french-tarot", "jeu-de-tarot", "early-french"])
def test_the_trick_winner_by_keys_is_the_winner_by_standing(name: str) -> None:
    ruleset = load_ruleset(paths.builtin_rulesets()[name])
    rng = random.Random(name)
    for pack in (ruleset.deck.cards, ruleset.deck.cards.plain_trumps):
        for _ in range(2000):
            cards = rng.sample(range(len(pack)), rng.randrange(1, 6))
            trick = list(enumerate(cards))
            for excuses in (None, frozenset(rng.sample(range(len(pack)), 3))):
                assert trick_winner(pack, trick, excuses) == trick_standing(pack, trick, excuses)[1]


def test_a_card_guard_names_the_cards_a_condition_may_hold_for() -> None:
    builtin = paths.builtin_rulesets()
    ruleset = load_ruleset(builtin["marolles-1637-discard-forbidden"])
    forbidden = ruleset.discard_forbidden
    assert forbidden is not None
    guard = card_guard(forbidden)
    kings = ruleset.deck.sets["kings"]
    # the Kings may not be laid away: the guard holds them and leaves the small cards out
    assert guard is not None and kings <= guard and len(guard) < len(ruleset.deck)
    small = min(set(range(len(ruleset.deck))) - guard)
    assert not may_hold_for(forbidden, small) and all(may_hold_for(forbidden, k) for k in kings)
    # under the reading where any card may be laid away, the rule holds for none
    allowed = load_ruleset(builtin["marolles-1637"]).discard_forbidden
    assert allowed is not None and card_guard(allowed) == frozenset()
    assert card_guard(lambda scope: True) is None  # a hand-made callable promises nothing


def _finished_hand(path: Path) -> HandState:
    ruleset = load_ruleset(str(path))
    return play_game(ruleset, seed=3, agents=[RandomAgent(s) for s in range(4)])[0]


def test_a_payment_changes_total_but_keeps_definitions_that_read_no_total() -> None:
    state = _finished_hand(FRENCH)
    assert not state.ruleset.definitions_read_payments
    total, dealer = compiled(state.ruleset, "total(dealer)"), state.dealer
    before = state.evaluate(total)
    state.evaluate(state.ruleset.settlement[0].amount)  # works its definitions out
    remembered = {k: v for k, v in state.memo.items() if isinstance(k, str)}
    assert remembered and (TOTAL_MEMO, dealer) in state.memo
    payer = (dealer + 1) % 4
    state._pay("test", payer, dealer, lambda _scope: 5, state._scope({}), AT_SETTLEMENT)
    assert state.evaluate(total) == before + 5  # the total is worked out again
    assert {k: state.memo[k] for k in remembered} == remembered  # definitions are kept


def test_a_payment_forgets_definitions_when_one_reads_a_total(tmp_path: Path) -> None:
    def reads_total(document: dict) -> None:
        document["definitions"]["running"] = {"value": "total(dealer) + 0", "source": "tarot_003"}

    state = _finished_hand(edited(FRENCH, tmp_path, reads_total))
    assert state.ruleset.definitions_read_payments
    state.evaluate(state.ruleset.settlement[0].amount)
    assert state.memo
    state._pay("test", 0, 1, lambda _scope: 5, state._scope({}), AT_SETTLEMENT)
    assert not state.memo
