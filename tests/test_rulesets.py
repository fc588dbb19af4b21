"""Every built-in ruleset loads, plays seeded random hands within the invariants, and every
one-option Marolles variant differs from the base in exactly the one option it names."""

from __future__ import annotations

import pytest
import yaml
from tiers import one_fast

from tarot.compile.loader import load_ruleset
from tarot.engine.game import game_winners, play_game
from tarot.load import paths
from tarot.players.random_agent import RandomAgent
from tarot.records.record import game_record
from tarot.records.replay import record_problems, replay_record

BUILTIN = paths.builtin_rulesets()


@pytest.mark.parametrize("name", one_fast(sorted(BUILTIN)))
def test_builtin_ruleset_plays_zero_sum_hands_that_replay(name: str) -> None:
    ruleset = load_ruleset(name)
    agents = [RandomAgent(f"{name}/{seat}") for seat in range(ruleset.players)]
    states = play_game(ruleset, seed=11, agents=agents, hands=15)
    for state in states:
        assert state.is_terminal()
        net = [0] * ruleset.players
        for payment in state.payments:
            net[payment.payer] -= payment.amount
            net[payment.payee] += payment.amount
        assert sum(net) == 0  # payments are zero-sum; scored points need not be
        if state.thrown_in is None:
            everything = [c for seat in range(ruleset.players) for c in state.pile(seat)]
            everything += [c for hand in state.hands for c in hand]  # play ended by rule
        else:
            everything = [c for hand in state.hands for c in hand]
        # a talon nobody took is out of play; one scored for a seat once play is over
        # (`talon.scored_by`) lies in that seat's pile as well as on the table
        in_piles = set(everything)
        everything += [c for c in state.talon if c not in in_piles]
        assert sorted(everything) == list(range(len(ruleset.deck)))
    # a record holds one game: the hands up to its end, where the ruleset's game ends sooner
    ended = [n for n, state in enumerate(states, 1) if game_winners(state)]
    game = states[: ended[0]] if ended else states
    record = game_record(ruleset, 11, [a.name for a in agents], game)
    assert record_problems(record) == []
    replay_record(record, ruleset)


# Other games of the Marolles family, not one-option readings of the base: they change the
# pack, the deal and more (tested in test_marolles_family.py).
FAMILY_GAMES = {"marolles-1637-78-cards", "marolles-1637-wickson", "marolles-1637-wickson-2p"}

VARIANTS = sorted(
    n
    for n, p in BUILTIN.items()
    if p.parent.name == "marolles-1637" and n != p.parent.name and n not in FAMILY_GAMES
)


@pytest.mark.parametrize("name", VARIANTS)
def test_variant_changes_exactly_one_option(name: str) -> None:
    text = yaml.safe_load(BUILTIN[name].read_text(encoding="utf-8"))
    # a reading of the base, or of one of the family's other games
    assert text["extends"] in {"marolles-1637"} | FAMILY_GAMES
    base, variant = load_ruleset(text["extends"]), load_ruleset(name)
    changed = {k for k in base.options if base.options[k] != variant.options[k]}
    assert len(changed) == 1, changed
    (option,) = changed
    assert set(text["options"]) == {option}
    assert variant.content_hash != base.content_hash


def test_at_least_ten_variants() -> None:
    assert len(VARIANTS) >= 10
