"""A card the declarer names for whoever holds it to hand over
(`declarations.table[].hands_over.named`, with `told`), on the small game written for it
(tests/data/rulesets/named-card.yaml; the hands played decision by decision are the
scenarios of tests/scenarios/named-card.yaml): what each seat sees, the players, records."""

from __future__ import annotations

from pathlib import Path

import tarot
from tarot.batch.support import REFUSED, supports
from tarot.compile.loader import load_ruleset
from tarot.core.actions import DecisionKind
from tarot.engine.game import play_game
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent
from tarot.records.record import game_record
from tarot.records.replay import replay_record
from tests.commands import tarot as tarot_command
from tests.small_games import edited, problems

GAME = Path(__file__).parent / "data" / "rulesets" / "named-card.yaml"
RULESET = load_ruleset(GAME)
DEAL = {
    "dealer": 0,
    "hands": [
        ["swords-K", "trump-1", "trump-2", "cups-1", "coins-1"],
        ["cups-K", "trump-3", "swords-1", "swords-2", "batons-2"],
        ["trump-5", "trump-6", "cups-2", "coins-2", "batons-1"],
    ],
    "talon": ["batons-K", "trump-4", "coins-K"],
}


def quietly_bought() -> tarot.State:
    state = tarot.load(str(GAME)).new_hand(deal=DEAL)
    for action in ("buy:none", "buy_quietly:one", "swords-K", "swords-1"):
        state.apply(action)
    return state


def test_the_card_named_is_heard_by_all_but_who_held_it_is_not_when_not_told():
    state = quietly_bought()
    for seat in (0, 1, 2):
        seen = state.observation(seat)
        assert not seen.shown  # nothing shown to all
    # every seat hears the King named; only the declarer knows what he gave back
    engine = state.engine
    decisions = [(d["seat"], d["kind"], d["choice"]) for d in engine.decisions]
    assert (1, DecisionKind.NAME.value, "swords-K") in decisions
    assert engine.declare.handed_unseen == [(1, 0, "buy_quietly", RULESET.deck.by_id["swords-K"])]
    assert "swords-K" in [str(c) for c in state.observation(1).hand]
    assert "swords-1" in [str(c) for c in state.observation(0).hand]


def test_a_declarer_who_lacks_none_of_the_cards_names_nothing(tmp_path: Path):
    def every_king_held(document: dict) -> None:
        document["declarations"]["table"][0]["hands_over"]["cards"] = (
            "[c in kings if c in hand(player)]"
        )

    state = tarot.load(str(edited(GAME, tmp_path, every_king_held))).new_hand(deal=DEAL)
    state.apply("buy:one")
    assert state.decision_kind == "declare"  # straight to the next declaration


def test_wrong_uses_are_placed_and_explained(tmp_path: Path):
    def not_a_flag(document: dict) -> None:
        document["declarations"]["table"][1]["hands_over"]["told"] = "nobody"

    message = problems(edited(GAME, tmp_path, not_a_flag))
    assert "$.declarations.table[1].hands_over.told" in message


def test_the_batch_back_end_runs_it():
    """Its random declarer names the card (tests/test_batch_named_card.py)."""
    assert "declarations.table[].hands_over.named" not in REFUSED and supports(RULESET) == []


def test_every_player_plays_it_and_its_records_replay():
    agents = [HeuristicAgent(1), SearchAgent(2, samples=2), RandomAgent(3)]
    states = play_game(RULESET, 3, agents, hands=4)
    assert all(state.is_terminal() for state in states)
    assert any(state.declare.named for state in states)  # some seat named a card
    record = game_record(RULESET, 3, [agent.name for agent in agents], states)
    replay_record(record, RULESET)
    random = [RandomAgent(seat) for seat in range(3)]
    states = play_game(RULESET, 11, random, hands=6)
    record = game_record(RULESET, 11, [agent.name for agent in random], states)
    replay_record(record, RULESET)


def test_the_rules_page_says_it():
    page = " ".join(tarot_command("explain", str(GAME)).stdout.split())
    assert "The declarer names one card of `kings` he does not hold, aloud" in page
    assert "only the two know who held it" in page
