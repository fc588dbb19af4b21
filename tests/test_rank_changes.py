"""Cards that rank otherwise for one hand (`play.rank_changes`, and a contract's own): the
pack the tricks play with, moved card by card, on the small game written for it
(tests/data/rulesets/rank-changes.yaml; its hand played card by card is the scenario
tests/scenarios/rank-changes.yaml) and on the contracts game of tests/test_play_rules.py."""

from __future__ import annotations

from pathlib import Path

import tarot
from tarot.batch.support import REFUSED, supports
from tarot.compile.loader import load_ruleset
from tarot.core.cards import TRUMP_SUIT
from tarot.engine.game import play_game
from tarot.engine.rank_changes import changed_pack
from tarot.engine.state import HandState
from tarot.engine.tricks import legal_cards, trick_winner
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent
from tarot.records.record import game_record
from tarot.records.replay import replay_record
from tests.commands import tarot as command
from tests.small_games import edited, problems

DATA = Path(__file__).parent / "data" / "rulesets"
GAME = DATA / "rank-changes.yaml"
CONTRACTS = DATA / "contract-play-rules.yaml"
RULESET = load_ruleset(GAME)
IDS = RULESET.deck.by_id
PACK = RULESET.deck.cards


def ids(*names: str) -> list[int]:
    return [IDS[name] for name in names]


def test_a_card_moved_among_the_trumps_follows_no_suit_and_ranks_there():
    ace, little, six = ids("swords-1", "trump-1", "trump-6")
    pack = changed_pack(PACK, [((ace,), "lowest_trump"), ((little,), "highest_trump")])
    assert ace in pack.trumps and pack.suit[ace] is None
    assert pack.strength[ace] < min(pack.strength[c] for c in PACK.trumps)
    assert pack.strength[little] > pack.strength[six]
    led = [(0, IDS["swords-2"])]
    # the Ace of swords is no sword: a seat holding it and no other sword must trump
    hand = [ace, IDS["cups-1"]]
    assert legal_cards(RULESET.play, pack, hand, led) == [ace]
    assert trick_winner(pack, [*led, (1, ace), (2, IDS["swords-K"])]) == 1
    assert trick_winner(pack, [(0, six), (1, little)]) == 1
    # the deck's own pack is left as it was
    assert ace not in PACK.trumps and PACK.suit[ace] == "swords"


def test_cards_moved_within_their_suits_each_go_to_their_own_suit():
    kings = ids("coins-K", "batons-K")
    pack = changed_pack(PACK, [(kings, "lowest_in_suit")])
    for king, suit in zip(kings, ("coins", "batons"), strict=True):
        assert pack.suit[king] == suit
        others = [pack.strength[c] for c in range(len(PACK)) if PACK.suit[c] == suit and c != king]
        assert pack.strength[king] < min(others)
    led = [(0, IDS["batons-1"])]
    assert trick_winner(pack, [*led, (1, IDS["batons-K"])]) == 0
    assert trick_winner(PACK, [*led, (1, IDS["batons-K"])]) == 1


def test_with_trumps_played_as_a_suit_a_card_moved_to_the_trumps_joins_that_suit():
    plain = PACK.plain_trumps
    king = IDS["cups-K"]
    pack = changed_pack(plain, [((king,), "highest_trump")])
    assert pack.suit[king] == TRUMP_SUIT and not pack.trumps
    assert trick_winner(pack, [(0, IDS["trump-6"]), (1, king)]) == 1


def _contracts_with(tmp_path: Path, contract: int, change: dict) -> HandState:
    def add(document: dict) -> None:
        document["bidding"]["contracts"][contract].setdefault("play", {})["rank_changes"] = [change]

    path = edited(CONTRACTS, tmp_path, add)
    hands = [
        ["swords-2", "swords-3", "cups-K", "trump-1", "trump-2", "trump-3", "trump-4"],
        ["swords-1", "swords-K", "cups-1", "cups-2", "trump-5", "trump-6", "trump-7"],
        ["swords-4", "cups-3", "cups-4", "fool", "trump-8", "trump-9", "trump-10"],
    ]
    state = tarot.load(str(path)).new_hand(deal={"dealer": 0, "hands": hands[1:] + hands[:1]})
    return state.engine


def test_a_contract_moves_cards_for_its_hands_only_and_a_fool_made_a_trump_is_no_excuse(
    tmp_path: Path,
):
    change = {
        "cards": "[c in counters if trump_number(c) == 0 and c not in kings]",
        "to": "highest_trump",
    }
    state = _contracts_with(tmp_path, 0, change)  # the Plain contract
    for action in ("plain", "pass", "pass"):
        state.apply_action(action)
    fool = state.ruleset.deck.by_id["fool"]
    assert fool in state.play.trick_pack.trumps and fool not in state.play.excuses
    assert state.play.ranks_changed == (((fool,), "highest_trump"),)
    other = _contracts_with(tmp_path, 0, change)
    for action in ("colour", "pass", "pass"):  # another contract: its own play rules
        other.apply_action(action)
    assert other.play.trick_pack is other.ruleset.deck.cards.plain_trumps
    assert fool in other.play.excuses and other.play.ranks_changed == ()


def test_wrong_uses_are_placed_and_explained(tmp_path: Path):
    def not_cards(document: dict) -> None:
        document["play"]["rank_changes"][0]["cards"] = "trump_number(card)"

    message = problems(edited(GAME, tmp_path, not_cards))
    assert "$.play.rank_changes[0].cards" in message

    def wrong_place(document: dict) -> None:
        document["play"]["rank_changes"][1]["to"] = "highest"

    message = problems(edited(GAME, tmp_path, wrong_place))
    assert "$.play.rank_changes[1].to" in message and "highest_trump" in message


def test_the_batch_back_end_runs_it():
    """Its hands grouped by the cards moved (tests/test_batch_rank_changes.py)."""
    assert "play.rank_changes" not in REFUSED and supports(RULESET) == []


def test_every_player_plays_it_and_its_records_replay():
    agents = [HeuristicAgent(1), SearchAgent(2, samples=2), RandomAgent(3)]
    states = play_game(RULESET, 7, agents, hands=3)
    assert all(state.is_terminal() for state in states)
    assert any(state.play.trick_pack is not PACK for state in states)
    record = game_record(RULESET, 7, [agent.name for agent in agents], states)
    replay_record(record, RULESET)


def test_the_rules_page_says_it():
    page = " ".join(command("explain", str(GAME)).stdout.split())
    assert (
        "For the hand, the cards of `ace_of_swords` (worked out when play begins) rank as" in page
    )
    assert "below every other card of their suit (or of the trumps)" in page
