"""Auctions in several rounds, a talon laid out in packets, and doublings: the general
mechanisms `bidding.rounds`, `first`, `hold`, a contract's `open_to`, `only_when_all_passed`
and `join`, `bidding.all_passed`, a talon's `packets`, and the `doubling` section with the
facts `doublings` and `doubling_factor`, on a small game written for these tests
(tests/data/rulesets/auction-packets-doubling.yaml)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState, IllegalAction
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent
from tarot.presentation.explain import explain_page, render
from tarot.presentation.transcript import hand_transcript
from tarot.records.record import game_record
from tarot.records.replay import replay_record
from tests.commands import tarot
from tests.small_games import compiled, edited, problems

GAME = Path(__file__).parent / "data" / "rulesets" / "auction-packets-doubling.yaml"
RULESET = load_ruleset(GAME)
# seat 0 deals: seats 1, 2, 3, 0 get three cards each, then two go to the talon, twice
TALON = ["coins-3", "coins-2", "trump-7", "trump-8"]


def new_hand() -> HandState:
    return HandState(RULESET, 0, list(range(len(RULESET.deck))))


def ids(cards) -> list[str]:
    return [RULESET.deck.cards[c].id for c in cards]


def say(state: HandState, *moves: tuple[int, str]) -> None:
    """Each (seat, choice) in turn: the seat must be the one asked, and the choice legal."""
    for seat, choice in moves:
        assert state.current_player() == seat, (seat, choice, state.legal_actions())
        state.apply_action(choice)


def finish(state: HandState, seed: int = 1) -> HandState:
    agent = RandomAgent(seed)
    while not state.is_terminal():
        state.apply_action(agent.choose(state, state.current_player()))
    return state


def test_the_bidding_goes_round_until_one_is_left_and_a_pass_is_final():
    state = new_hand()
    assert ids(state.deal.talon_dealt) == TALON
    # `first` is the dealer's next but one; a contract open to the dealer's next is not
    # offered to the others, and those offered only once all passed are not offered yet
    assert state.current_player() == 2
    assert state.legal_actions() == ["two", "one", "pass"]
    say(state, (2, "two"), (3, "pass"), (0, "one"))
    # the dealer's next may hold the highest bid at its level, or bid above it
    assert state.current_player() == 1
    assert state.legal_actions() == ["hold:one", "forehand_only", "pass"]
    say(state, (1, "hold:one"))
    assert (state.auction.taker, state.auction.contract) == (1, "one")
    # seat 3 passed and is not asked again; seat 2 and seat 0 have nothing above "one"
    say(state, (2, "pass"))
    assert state.current_player() == 0 and state.legal_actions() == ["pass"]
    say(state, (0, "pass"))
    assert (state.auction.taker, state.auction.contract) == (1, "one")
    assert state.decision.kind == "packet" and state.current_player() == 1
    auction = [d["choice"] for d in state.decisions]
    assert auction == ["two", "pass", "one", "hold:one", "pass", "pass"]


def test_a_refused_packet_is_told_with_what_the_seat_was_asked_to_do():
    state = new_hand()
    say(state, (2, "two"), (3, "pass"), (0, "one"), (1, "hold:one"), (2, "pass"), (0, "pass"))
    assert state.decision.kind == "packet"
    with pytest.raises(IllegalAction, match=r"seat 1 may not take the talon's packet 'packet:9'"):
        state.apply_action("packet:9")


def test_a_hold_is_only_for_the_seats_named_and_never_by_the_highest_bidder():
    state = new_hand()
    say(state, (2, "two"), (3, "pass"), (0, "pass"))
    assert "hold:two" in state.legal_actions()  # seat 1, the dealer's next
    say(state, (1, "pass"))
    assert state.is_terminal() is False and (state.auction.taker, state.auction.contract) == (
        2,
        "two",
    )


def test_when_all_pass_the_contracts_offered_then_and_else_the_forced_one():
    state = new_hand()
    say(state, (2, "pass"), (3, "pass"), (0, "pass"), (1, "pass"))
    # only the dealer is offered the contract kept for when all passed
    assert state.current_player() == 0 and state.legal_actions() == ["last_chance", "pass"]
    say(state, (0, "pass"))
    assert state.auction.taker is None and state.auction.contract == "each_alone"
    assert state.attackers() == () and state.side_of(2) == (2,)
    assert state.evaluate(compiled(RULESET, "taker")) == -1
    finish(state)
    assert state.thrown_in is None and "most_points" in state.fired
    assert "Contract: each alone, with no taker" in hand_transcript(state)


def test_a_contract_offered_once_all_passed_is_taken_by_the_first_who_wants_it():
    state = new_hand()
    say(state, (2, "pass"), (3, "pass"), (0, "pass"), (1, "pass"), (0, "last_chance"))
    assert (state.auction.taker, state.auction.contract) == (0, "last_chance")
    # no packet is taken (choose 0): the whole talon goes to the first defender's tricks
    assert state.decision.kind != "packet"
    assert sorted(ids(state.won[1])) == sorted(TALON)
    assert (1, "talon_rest", state.won[1]) in state.shown


def test_a_seat_the_contract_names_may_join_the_taker():
    state = new_hand()
    say(state, (2, "two"), (3, "pass"), (0, "pass"), (1, "pass"))
    assert state.decision.kind == "join" and state.current_player() == 3
    assert state.legal_actions() == ["join", "stay_out"]
    say(state, (3, "join"))
    assert state.attackers() == (2, 3) and state.defenders() == (0, 1)
    assert state.evaluate(compiled(RULESET, "attackers")) == (2, 3)


def test_staying_out_leaves_the_taker_alone():
    state = new_hand()
    say(state, (2, "two"), (3, "pass"), (0, "pass"), (1, "pass"), (3, "stay_out"))
    assert state.attackers() == (2,)


def test_the_taker_takes_packets_whole_and_the_rest_go_to_the_defence():
    state = new_hand()
    say(state, (2, "two"), (3, "pass"), (0, "pass"), (1, "pass"), (3, "join"))
    # two packets of two, laid out face up: every seat sees them, none guesses them
    assert [ids(p) for p in state.zones.packets] == [TALON[:2], TALON[2:]]
    view = SeatView(state, 0)
    assert [ids(p) for p in view.packets] == [TALON[:2], TALON[2:]]
    assert not set(RULESET.deck.by_id[c] for c in TALON) & view.unseen
    assert state.legal_actions() == ["packet:1", "packet:2"]
    with pytest.raises(IllegalAction):
        state.apply_action("packet:3")
    say(state, (2, "packet:2"))
    assert set(TALON[2:]) <= set(ids(state.hands[2]))
    assert state.discard.left[2] == 2  # as many cards to lay away as were taken
    assert ids(state.won[0]) == TALON[:2]  # the first of the defenders: seat 0
    assert state.zones.packets == [[], []]
    # seat 0 knows where the packet it saw taken lies: in seat 2's hand or discards
    holders = SeatView(state, 0).known_holders
    trump_8 = RULESET.deck.by_id["trump-8"]
    hidden = SeatView(state, 0).hidden
    assert {hidden[i].owner for i in holders[trump_8]} == {2}
    text = hand_transcript(finish(state))
    assert "The talon is laid out in 2 packets: [1] coins-2, coins-3; [2] trump-8, trump-7" in text
    assert "Seat 2 takes packet 2" in text


def test_how_many_packets_and_how_many_taken_depend_on_the_contract():
    state = new_hand()
    say(state, (2, "pass"), (3, "pass"), (0, "pass"), (1, "forehand_only"))
    assert state.legal_actions() == ["packet:1", "packet:2", "packet:3", "packet:4"]
    say(state, (1, "packet:3"))
    assert state.legal_actions() == ["packet:1", "packet:2", "packet:4"]
    say(state, (1, "packet:1"))
    # the two packets left stay face up on the table, out of play
    assert [ids(p) for p in state.zones.packets] == [[], [TALON[1]], [], [TALON[3]]]
    assert state.discard.left[1] == 2 and not any(state.won)


def test_doublings_alternate_between_the_sides_and_reach_the_payments():
    state = new_hand()
    say(state, (2, "two"), (3, "pass"), (0, "pass"), (1, "pass"), (3, "join"))
    say(state, (2, "packet:1"))
    while state.decision.kind == "discard":
        state.apply_action(state.legal_actions()[0])
    # the defenders (seats 1 and 0, in order of play) may double the game first
    assert state.decision.kind == "double" and state.current_player() == 1
    assert state.legal_actions() == ["double:game", "pass:game"]
    say(state, (1, "pass:game"), (0, "double:game"))
    # then the attackers may answer, and the defenders again, up to the last step
    assert state.legal_actions() == ["redouble:game", "pass:game"]
    say(state, (2, "pass:game"), (3, "redouble:game"), (1, "double_again:game"))
    assert state.double.doubled == {"game": 3}
    assert state.evaluate(compiled(RULESET, "doubling_factor('game')")) == 8
    assert state.evaluate(compiled(RULESET, "doublings('game')")) == 3
    # the bonus is not open to doubling under this contract: play begins
    assert state.decision.kind == "play"
    finish(state)
    settled = [p for p in state.payments if p.rule in ("game_won", "game_lost")]
    assert settled and all(p.amount == 8 for p in settled)
    assert "The game: doubled 3 time(s), x8" in hand_transcript(state)


def test_a_target_is_closed_when_its_side_declines():
    state = new_hand()
    say(state, (2, "pass"), (3, "one"), (0, "pass"), (1, "pass"), (3, "packet:2"))
    state.apply_action(state.legal_actions()[0])  # the one card to lay away
    say(state, (1, "pass:game"), (2, "pass:game"), (0, "pass:game"))
    # the bonus, doubled only under this contract, is asked about next
    say(state, (1, "pass:last_king"), (2, "double:last_king"), (3, "pass:last_king"))
    assert state.double.doubled == {"last_king": 1}
    assert state.evaluate(compiled(RULESET, "doubling_factor('game')")) == 1
    assert state.decision.kind == "play"


@pytest.mark.parametrize("seed", range(1, 7))
def test_games_of_random_players_replay(seed: int):
    states = play_game(RULESET, seed, [RandomAgent(seed * 10 + s) for s in range(4)], hands=3)
    record = game_record(RULESET, seed, ["random"] * 4, states)
    replay_record(record, RULESET)
    kinds = {d["kind"] for state in states for d in state.decisions}
    assert {"bid", "packet", "double", "play"} <= kinds


def test_the_heuristic_and_search_players_take_every_new_decision():
    agents = [HeuristicAgent(1), SearchAgent(2, samples=2), HeuristicAgent(3), RandomAgent(4)]
    states = play_game(RULESET, 5, agents, hands=2)
    assert all(state.is_terminal() for state in states)
    record = game_record(RULESET, 5, [agent.name for agent in agents], states)
    replay_record(record, RULESET)


def test_a_forced_contract_must_be_one_of_the_contracts(tmp_path: Path):
    def change(document: dict) -> None:
        document["bidding"]["all_passed"]["contract"] = "nothing"

    message = problems(edited(GAME, tmp_path, change))
    assert "$.bidding.all_passed.contract: unknown contract 'nothing'" in message


def test_packets_must_divide_the_talon_and_be_fewer_than_taken(tmp_path: Path):
    def change(document: dict) -> None:
        packets = document["bidding"]["contracts"][1]["talon"]["packets"]
        packets.update(count=3, choose=4)

    message = problems(edited(GAME, tmp_path, change))
    where = "$.bidding.contracts[1].talon.packets"
    assert f"{where}.count: the talon's 4 cards cannot be laid out in 3 packets" in message
    assert f"{where}.choose: the talon's seat cannot take 4 of 3 packets" in message


def test_a_doubling_cannot_be_named_like_the_word_that_declines_one(tmp_path: Path):
    def change(document: dict) -> None:
        document["doubling"]["steps"][1] = "pass"

    message = problems(edited(GAME, tmp_path, change))
    assert "$.doubling.steps[1]: a doubling cannot be named 'pass'" in message


def test_a_rule_before_the_auction_cannot_see_the_taker(tmp_path: Path):
    def change(document: dict) -> None:
        document["bidding"]["contracts"][2]["open_to"] = "player == taker"

    assert "$.bidding.contracts[2].open_to" in problems(edited(GAME, tmp_path, change))


def test_random_choices_cover_the_stages_of_the_auction():
    # over many deals, random players reach holds, joins, packets and the last doubling
    seen: set[str] = set()
    for seed in range(40):
        state = finish(new_hand_with(seed), seed)
        seen |= {d["choice"] for d in state.decisions}
    assert {"hold:one", "join", "packet:1", "double_again:game"} <= seen


def new_hand_with(seed: int) -> HandState:
    pack = list(range(len(RULESET.deck)))
    random.Random(seed).shuffle(pack)
    return HandState(RULESET, seed % 4, pack)


def test_the_rules_page_and_the_play_command_show_each_mechanism():
    page = tarot("explain", str(GAME)).stdout
    assert "Bids go round and round until all but one have passed" in page
    assert "`next_seat(dealer)` may hold" in page
    said = " ".join(page.split())
    # every player passes: first the contract offered only then, and only if nobody takes it,
    # the contract `all_passed` names
    assert "If every player passes, Offered to the dealer once all passed is offered" in said
    assert (
        "if nobody does, Every player for himself is played, every player for himself"
        " (source: test)." in said
    )
    assert "face up in 4 packet(s); `taker` takes 2 of them whole into his hand" in page
    assert "each doubling multiplies the target by 2" in page
    played = tarot("play", str(GAME), "--seed", "1")
    assert played.returncode == 0, played.stderr
    for words in ("Seat 1 holds one", "takes packet", "Doublings:", "redouble (The game)"):
        assert words in played.stdout


RAISING = load_ruleset(Path(__file__).parent / "data" / "rulesets" / "winner-raises.yaml")


def test_the_seat_left_keeps_or_raises_its_bid_and_may_not_pass():
    state = HandState(RAISING, 0, list(range(len(RAISING.deck))))
    say(state, (2, "two"), (3, "pass"), (0, "pass"), (1, "pass"))
    assert state.current_player() == 2
    assert state.legal_actions() == ["hold:two", "one"]
    say(state, (2, "one"))
    assert (state.auction.taker, state.auction.contract) == (2, "one")
    assert state.decision.kind == "packet"  # asked once only


def test_a_seat_left_with_no_bid_standing_has_its_last_word_at_once():
    state = HandState(RAISING, 0, list(range(len(RAISING.deck))))
    say(state, (2, "pass"), (3, "pass"), (0, "pass"))
    assert state.current_player() == 1 and "pass" in state.legal_actions()
    say(state, (1, "two"))
    assert (state.auction.taker, state.auction.contract) == (1, "two")
    assert state.decision.kind != "bid"


LAST_WORD = Path(__file__).parent / "data" / "rulesets" / "last-word.yaml"


def test_the_last_word_at_once_names_a_contract_where_a_pass_would_throw_the_deal_in():
    # no contract is named for a hand all pass: the dealer, left with no bid standing, must
    # name one open to him (high), and his word ends the auction
    ruleset = load_ruleset(LAST_WORD)
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    say(state, (1, "pass"), (2, "pass"))
    assert state.current_player() == 0 and state.legal_actions() == ["high"]
    say(state, (0, "high"))
    assert (state.auction.taker, state.auction.contract) == (
        0,
        "high",
    ) and state.decision.kind != "bid"
    assert "names a contract open to him" in render(explain_page(ruleset), "text")


def test_the_last_word_at_once_is_a_pass_when_no_contract_is_open():
    ruleset = load_ruleset(LAST_WORD, choices={"dealer_bids": "no"})
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    say(state, (1, "pass"), (2, "pass"))
    assert state.legal_actions() == ["pass"]
    say(state, (0, "pass"))
    assert state.auction.contract is None and state.is_terminal()  # thrown in
