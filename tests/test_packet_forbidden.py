"""A talon packet the taker may not take while another may be taken
(`talon.packets.forbidden`), on the small game written for it
(tests/data/rulesets/packet-forbidden.yaml): the packets it forbids are not offered, a
refused one is told and leaves the hand unharmed, the rule gives way when it forbids every
packet left, it is worked out again for each packet taken, and games replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.core.actions import IllegalAction
from tarot.engine.game import play_game
from tarot.engine.state import HandState
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent
from tarot.records.record import game_record
from tarot.records.replay import replay_record
from tests.small_games import edited, pack_for, problems, replayed_games, say

GAME = Path(__file__).parent / "data" / "rulesets" / "packet-forbidden.yaml"
RULESET = load_ruleset(GAME)

HANDS = {
    0: ["swords-1", "swords-2", "cups-1", "cups-2"],
    1: ["coins-1", "coins-2", "batons-1", "batons-2"],
    2: ["trump-1", "trump-2", "coins-K", "batons-K"],
}


def hand(
    talon: list[str], contract: str, without: str, third: list[str] | None = None
) -> HandState:
    """Seat 1 bids `contract`, the others pass; it answers `without` to "without Kings?".
    `third`: seat 2's cards, if not the usual ones."""
    hands = {s: list(cards) for s, cards in HANDS.items()}
    hands[2] = third or hands[2]
    state = HandState(RULESET, 0, pack_for(RULESET, hands, talon))
    say(state, (1, contract), (2, "pass"), (0, "pass"), (1, f"without_kings:{without}"))
    return state


def test_a_packet_the_rule_forbids_is_not_offered():
    state = hand(["swords-K", "trump-3", "cups-K", "trump-4"], "one", "yes")
    packets = [[RULESET.deck.cards.ids[c] for c in p] for p in state.zones.packets]
    offered = {packets[int(a.split(":")[1]) - 1][0] for a in state.legal_actions()}
    assert offered == {"trump-3", "trump-4"}


def test_without_the_declaration_every_packet_is_offered():
    state = hand(["swords-K", "trump-3", "cups-K", "trump-4"], "one", "no")
    assert len(state.legal_actions()) == 4


def test_a_forbidden_packet_is_refused_and_the_hand_is_unharmed():
    state = hand(["swords-K", "trump-3", "cups-K", "trump-4"], "one", "yes")
    ids = RULESET.deck.cards.ids
    king = next(i + 1 for i, p in enumerate(state.zones.packets) if ids[p[0]].endswith("-K"))
    before = state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply_action(f"packet:{king}")
    assert state.legal_actions() == before and state.current_player() == 1


def test_the_rule_gives_way_when_every_packet_left_is_forbidden():
    """Two packets to take, two without a King: the first two taken, the Kings are all that
    is left, and both are offered."""
    state = hand(["swords-K", "trump-3", "cups-K", "trump-4"], "two", "yes")
    state.apply_action(state.legal_actions()[0])
    assert len(state.legal_actions()) == 1  # the other packet without a King
    state.apply_action(state.legal_actions()[0])
    assert not any(a.startswith("packet") for a in state.legal_actions())  # two taken
    kings = ["swords-K", "cups-K", "coins-K", "batons-K"]
    every_king = hand(kings, "one", "yes", third=["trump-1", "trump-2", "trump-3", "trump-4"])
    assert len(every_king.legal_actions()) == 4  # each holds a King: all are offered


@pytest.mark.parametrize("seed", [1, 2])
def test_games_of_random_players_replay(seed: int):
    replayed_games(RULESET, seed, hands=3, mixed=False)


def test_the_heuristic_and_search_players_take_the_packets_offered():
    agents = [HeuristicAgent(1), SearchAgent(2, samples=2), RandomAgent(3)]
    states = play_game(RULESET, 5, agents, hands=3)
    record = game_record(RULESET, 5, [agent.name for agent in agents], states)
    replay_record(record, RULESET)
    assert any(d["kind"] == "packet" for state in states for d in state.decisions)


def test_packet_cards_is_seen_only_where_a_packet_is_offered(tmp_path):
    def change(document: dict) -> None:
        document["discard"]["never"] = "card in kings and card in packet_cards"

    found = problems(edited(GAME, tmp_path, change))
    assert "$.discard.never" in found and "packet_cards" in found
