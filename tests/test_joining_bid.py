"""Bids that attach to the standing bid, an extension of a contract's `join`: with `join_at:
bidding` the seats of `join` may join the standing bid at its rank in the bidding
(`join:CONTRACT`), and a higher bid makes those joins fall; with `join_needed` the bid counts
only if a seat joins it. On a small game written for the test
(tests/data/rulesets/joining-bid.yaml: seat 0 deals, seats 1, 2 and 0 bid in turn)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tarot.compile.loader import load_ruleset
from tarot.core.actions import JoinBid
from tarot.engine.game import play_game
from tarot.engine.state import HandState
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent
from tarot.presentation.seat_screen import action_label
from tarot.presentation.transcript import hand_transcript
from tarot.records.record import game_record
from tarot.records.replay import replay_record
from tests.commands import tarot
from tests.small_games import edited, problems, say

DATA = Path(__file__).parent / "data" / "rulesets"
GAME = DATA / "joining-bid.yaml"
RULESET = load_ruleset(GAME)


def new_hand(ruleset=RULESET) -> HandState:
    return HandState(ruleset, 0, list(range(len(ruleset.deck))))


def finish(state: HandState) -> None:
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])


def variant(tmp_path: Path, change) -> Path:
    shutil.copy(DATA / "flow-base.yaml", tmp_path / "flow-base.yaml")
    return edited(GAME, tmp_path, change)


def test_a_seat_joins_the_standing_bid_at_its_rank():
    state = new_hand()
    say(state, (1, "low"))
    # the next seat may bid higher, join the low bid, or pass
    assert state.legal_actions() == ["high", "join:low", "pass"]
    assert action_label(RULESET, JoinBid("low")) == "join the bid Low, with a partner who joins it"
    say(state, (2, "join:low"))
    # the seat that joined speaks no more; the last seat may still join, bid or pass
    assert state.legal_actions() == ["high", "join:low", "pass"]
    say(state, (0, "pass"))
    assert state.auction.taker == 1 and state.auction.contract == "low"
    assert state.auction.joined == [2] and state.attackers() == (1, 2)
    assert all(d["kind"] != "join" for d in state.decisions)  # nobody is asked afterwards
    finish(state)
    said = hand_transcript(state)
    assert "  Seat 2 joins the bid low\n" in said and "  Joined the taker: seat 2" in said


def test_a_higher_bid_makes_the_joins_fall():
    state = new_hand()
    say(state, (1, "low"), (2, "join:low"), (0, "high"))
    assert state.auction.taker == 0 and state.auction.contract == "high"
    assert state.auction.joined == [] and state.attackers() == (0,)


def test_a_bid_nobody_joins_does_not_stand():
    state = new_hand()
    say(state, (1, "low"), (2, "pass"), (0, "pass"))
    # as when every seat passes: this ruleset names nothing to play, so the deal is thrown in
    assert state.auction.voided == "low" and state.auction.taker is None
    assert state.thrown_in == "all_passed" and state.is_terminal()
    assert "Nobody joined the bid low, which counts only if a seat joins it" in (
        hand_transcript(state)
    )


def test_a_bid_needing_a_partner_may_be_joined_once_the_auction_is_won(tmp_path: Path):
    def after(document: dict) -> None:
        del document["bidding"]["contracts"][0]["join_at"]

    ruleset = load_ruleset(variant(tmp_path, after))
    state = new_hand(ruleset)
    say(state, (1, "low"))
    assert state.legal_actions() == ["high", "pass"]  # no joining in the bidding
    say(state, (2, "pass"), (0, "pass"))
    say(state, (2, "stay_out"), (0, "stay_out"))  # asked in turn once it is won
    assert state.auction.voided == "low" and state.thrown_in == "all_passed"
    state = new_hand(ruleset)
    say(state, (1, "low"), (2, "pass"), (0, "pass"), (2, "stay_out"), (0, "join"))
    assert state.auction.taker == 1 and state.auction.joined == [0]


def test_misused_joining_is_refused_with_its_place(tmp_path: Path):
    def no_join(document: dict) -> None:
        del document["bidding"]["contracts"][0]["join"]

    message = problems(variant(tmp_path, no_join))
    assert "$.bidding.contracts[0].join_at: `join_at` needs `join`" in message
    assert "$.bidding.contracts[0].join_needed: `join_needed` needs `join`" in message

    def offered_late(document: dict) -> None:
        document["bidding"]["contracts"][0]["only_when_all_passed"] = True

    message = problems(variant(tmp_path, offered_late))
    assert "$.bidding.contracts[0].join_needed: a contract offered only once every" in message

    def unknown(document: dict) -> None:
        document["bidding"]["contracts"][0]["join_at"] = "later"

    assert "$.bidding.contracts[0].join_at" in problems(variant(tmp_path, unknown))


def test_games_of_each_player_replay():
    seen: set[str] = set()
    for agents in (
        [RandomAgent(1), RandomAgent(2), RandomAgent(3)],
        [HeuristicAgent(1), SearchAgent(2, samples=2), RandomAgent(3)],
    ):
        for seed in (1, 3):
            states = play_game(RULESET, seed, agents, hands=3)
            record = game_record(RULESET, seed, [a.name for a in agents], states)
            replay_record(record, RULESET)
            seen |= {d["choice"] for state in states for d in state.decisions}
    assert "join:low" in seen


def test_the_rules_page_says_who_may_join_and_that_the_bid_needs_it():
    page = " ".join(tarot("explain", str(GAME)).stdout.split())
    assert "While it is the standing bid, each of `[s in seats if s != taker]` may on his turn" in (
        page
    )
    assert "The bid counts only if a player joins it" in page
