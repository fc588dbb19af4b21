"""Talons given to trick winners or shared among all seats, trick-winner exceptions,
compulsory contracts and a hold that sees the highest bidder: the general mechanisms
`talon.to: trick_winners`, `talon.shares`, `play.winner_exceptions`, `bidding.compulsory`
(with the fact `thrown_in`), and `bidding.hold`'s `highest_bidder` (with `bid_position`), on a
small game written for these tests (tests/data/rulesets/talon-tricks.yaml)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState
from tarot.players.random_agent import RandomAgent
from tests.commands import tarot
from tests.small_games import compiled, edited, pack_for, problems, replayed_games, say

GAME = Path(__file__).parent / "data" / "rulesets" / "talon-tricks.yaml"
RULESET = load_ruleset(GAME)
BY_ID = RULESET.deck.by_id
IDS = RULESET.deck.cards.ids

# every seat holds a trump, so that no deal is thrown in
HANDS = {
    0: ["cups-1", "coins-K", "coins-4", "trump-4", "trump-5", "trump-6"],
    1: ["swords-K", "swords-4", "swords-3", "coins-1", "batons-K", "trump-7"],
    2: ["swords-2", "swords-1", "cups-K", "batons-3", "batons-2", "trump-8"],
    3: ["cups-4", "cups-3", "cups-2", "trump-1", "trump-2", "trump-3"],
}
TALON = ["coins-3", "coins-2", "batons-4", "batons-1"]


def new_hand(hands=HANDS, talon=TALON, repack=None) -> HandState:
    return HandState(RULESET, 0, pack_for(RULESET, hands, talon), repack=repack)


def names(cards) -> list[str]:
    return sorted(IDS[c] for c in cards)


def test_the_bid_position_counts_the_seats_that_bid():
    # the hand itself (who may hold) is tests/scenarios/talon-tricks.yaml
    state = new_hand()
    say(state, (1, "shared"), (2, "alone"), (3, "pass"), (0, "pass"), (1, "hold:alone"))
    say(state, (2, "pass"))
    assert state.evaluate(compiled(RULESET, "bid_position(dealer)")) == 4


def test_the_talon_is_shared_out_the_taker_first_then_one_card_each():
    state = new_hand()
    say(state, (1, "shared"), (2, "pass"), (3, "pass"), (0, "pass"))
    assert state.talon_phase.shared == [
        (1, [BY_ID["coins-3"], BY_ID["coins-2"]]),
        (2, [BY_ID["batons-4"]]),
        (3, [BY_ID["batons-1"]]),
    ]
    assert state.discard.left == {1: 2, 2: 1, 3: 1, 0: 0}
    # each lays away as many as he took, in order of play
    say(state, (1, "coins-3"), (1, "coins-2"), (2, "batons-4"), (3, "batons-1"))
    assert state.decision.kind == "play"
    assert all(len(hand) == 6 for hand in state.hands)
    # another seat sees how many cards each took, not which
    view = SeatView(state, 0)
    assert view.hand_sizes == (6, 6, 6, 6)
    assert BY_ID["batons-4"] in view.unseen


def test_every_player_alone_the_talon_goes_to_the_first_trick_winners():
    state = new_hand()
    say(state, (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))
    assert state.auction.contract == "each_alone" and state.auction.taker is None
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    for number, _leader, _trick, winner in state.play.trick_log[:4]:
        talon_card = state.deal.talon_dealt[number - 1]
        assert talon_card in state.won[winner]
        assert (winner, "trick_winners", [talon_card]) in state.shown
    assert state.talon == []
    assert sum(len(pile) for pile in state.won) == 28


def test_a_deal_thrown_in_makes_the_next_deal_a_compulsory_contract():
    no_trump = {**HANDS}
    no_trump[2] = ["swords-2", "swords-1", "cups-K", "batons-3", "batons-2", "coins-3"]
    talon = ["trump-8", "coins-2", "batons-4", "batons-1"]
    state = new_hand(no_trump, talon, repack=lambda _k: pack_for(RULESET, HANDS, TALON))
    assert [deal["thrown_in"] for deal in state.abandoned] == ["no_trumps"]
    # no auction: every player for himself, and play begins
    assert (
        state.auction.compulsory
        and state.auction.contract == "each_alone"
        and state.auction.taker is None
    )
    assert state.decision.kind == "play" and not state.decisions
    assert state.evaluate(compiled(RULESET, "thrown_in('no_trumps')")) == 1
    # a deal that stands is bid as usual
    assert new_hand().decision.kind == "bid"


def test_the_facts_of_the_lowest_trump_and_the_two_highest():
    # the hand itself (who takes the trick, who is paid) is tests/scenarios/talon-tricks.yaml
    state = new_hand()
    say(state, (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (1, "trump-7"), (2, "trump-8"))
    assert state.evaluate(compiled(RULESET, "position_in_trick(top_two)")) == 1
    assert state.evaluate(compiled(RULESET, "position_in_trick(little)")) == 0
    say(state, (3, "trump-1"), (0, "trump-4"))
    assert state.evaluate(compiled(RULESET, "taken_by(top_two)")) == 3


@pytest.mark.parametrize("seed", range(1, 5))
def test_games_of_random_players_replay(seed: int):
    states = replayed_games(RULESET, seed, hands=3, mixed=False)
    for state in states:  # the exception holds in every trick that holds its cards
        for _number, _leader, trick, winner in state.play.trick_log:
            cards = {card: seat for seat, card in trick}
            if {BY_ID["trump-7"], BY_ID["trump-8"], BY_ID["trump-1"]} <= set(cards):
                assert winner == cards[BY_ID["trump-1"]]


def test_the_heuristic_and_search_players_take_every_new_decision():
    replayed_games(RULESET, 4, hands=3, mixed=True)


def test_random_deals_reach_every_mechanism():
    seen = set()
    for seed in range(40):
        pack = list(range(len(RULESET.deck)))
        random.Random(seed).shuffle(pack)
        again = random.Random(-seed).sample(pack, len(pack))
        state = HandState(RULESET, 0, pack, repack=lambda _k, again=again: again)
        agent = RandomAgent(seed)
        while not state.is_terminal():
            state.apply_action(agent.choose(state, state.current_player()))
        seen.add(state.auction.contract)
        seen |= {"compulsory"} if state.auction.compulsory else set()
        seen |= {"shared out"} if state.talon_phase.shared else set()
    assert {"each_alone", "shared", "alone", "compulsory", "shared out"} <= seen


def test_wrong_uses_are_placed_and_explained(tmp_path: Path):
    def change(document: dict) -> None:
        document["bidding"]["compulsory"][0]["contract"] = "klop"
        document["bidding"]["contracts"][1]["talon"]["to"] = "pile"
        document["play"]["winner_exceptions"][0]["wins"] = "leader"
        document["bidding"]["hold"] = "highest_bid"

    message = problems(edited(GAME, tmp_path, change))
    assert "$.bidding.compulsory[0].contract: unknown contract 'klop'" in message
    assert "$.bidding.contracts[1].talon.shares: a talon is shared out only into hands" in message
    assert "$.play.winner_exceptions[0].wins" in message
    assert "$.bidding.hold: expected a seat or seats, got STRING" in message


def test_the_play_command_and_the_rules_page_show_each_mechanism():
    played = tarot("play", str(GAME), "--seed", "1", "--sources")
    assert played.returncode == 0, played.stderr
    for words in (
        "The contract is compulsory: there is no auction",
        "from the talon to seat 3: swords-K",
        "The lowest trump takes the two highest",
    ):
        assert words in played.stdout
    page = " ".join(tarot("explain", str(GAME)).stdout.split())
    assert "1 card at a time, face up, to each trick's winner" in page
    assert "the rest 1 card at a time to each other player in turn" in page
    assert "without an auction" in page


def test_a_talon_shown_and_shared_is_seen_going_to_each_seat(tmp_path: Path):
    def change(document: dict) -> None:
        document["bidding"]["contracts"][1]["talon"]["shown"] = True

    ruleset = load_ruleset(edited(GAME, tmp_path, change))
    state = HandState(ruleset, 0, pack_for(ruleset, HANDS, TALON))
    say(state, (1, "shared"), (2, "pass"), (3, "pass"), (0, "pass"))
    assert (2, "talon", [BY_ID["batons-4"]]) in state.shown
    # seat 0 knows where the card it saw go to seat 2 lies: in seat 2's hand or discards
    view = SeatView(state, 0)
    places = {view.hidden[i].owner for i in view.known_holders[BY_ID["batons-4"]]}
    assert places == {2}
