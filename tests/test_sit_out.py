"""Seats that sit a hand out (`players.sit_out`), on a small game written for these tests
(tests/data/rulesets/sit-out.yaml: four at the table, three play each hand, the dealer sitting
out, or with the option `who=opposite` the seat opposite him)."""

from __future__ import annotations

import copy
from fractions import Fraction
from pathlib import Path

import pytest

import tarot as api
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand, play_game
from tarot.expressions import EvaluationError
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.ismcts_agent import IsmctsAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent
from tarot.presentation.transcript import hand_transcript as state_transcript
from tarot.records.record import game_record
from tarot.records.replay import ReplayMismatch, replay_record
from tests.commands import tarot
from tests.small_games import edited, problems

GAME = Path(__file__).parent / "data" / "rulesets" / "sit-out.yaml"
RULESET = load_ruleset(GAME)
OPPOSITE = load_ruleset(GAME, {"who": "opposite"})


def _random(ruleset, seed: int) -> list[RandomAgent]:
    return [RandomAgent(seed * 10 + s) for s in range(ruleset.players)]


@pytest.mark.parametrize("seed", range(1, 6))
def test_the_dealer_sits_out_dealt_nothing_asked_nothing_paid_nothing(seed: int):
    states = play_game(RULESET, seed, _random(RULESET, seed), hands=8)
    assert [s.dealer for s in states] == [0, 1, 2, 3] * 2  # the deal goes round all four
    for state in states:
        out = state.dealer
        assert state.seating.out == (out,)
        assert state.deal.hands_dealt[out] == [] and state.zones.hands[out] == []
        assert sorted(len(h) for h in state.deal.hands_dealt) == [0, 6, 6, 6]
        assert all(decision["seat"] != out for decision in state.decisions)
        assert all(out not in (p.payer, p.payee) for p in state.payments)
        assert state.returns()[out] == 0
        assert all(out not in [c["seat"] for c in trick["cards"]] for trick in state.tricks)
        if state.auction.taker is not None:
            assert out not in state.defenders() and len(state.defenders()) == 2
            assert state.side_of(out) == (out,)


def test_the_seat_opposite_the_dealer_sits_out_and_next_seat_skips_it():
    state = deal_hand(OPPOSITE, 1, 1)
    assert state.dealer == 0 and state.seating.out == (2,)
    assert state.seat_order == [1, 3, 0]  # from the dealer's next in play; he deals himself
    assert state.seating.next_seats == (1, 3, 3, 0)  # seat 1's next in play is seat 3
    assert state.deal.hands_dealt[2] == [] and len(state.deal.hands_dealt[0]) == 6
    assert state.decision is not None and state.decision.seat == 1


def test_the_names_of_the_hand_see_only_the_seats_in_play(tmp_path: Path):
    """Settlement rules reading `players`, `seats`, `opponents` and `next_seat`: with seat 0
    dealing and sitting out, they see the three in play; a rule naming the dealer pays him
    nothing."""

    def counting(document: dict) -> None:
        document["settlement"] = [
            {
                "id": "each",
                "name": "Every seat in play pays each of its opponents 1",
                "from": "seats",
                "to": "seats",
                "amount": "if players == 3 and count(seats) == 3 and payee in opponents(payer)"
                " and count(opponents(payer)) == 2 then 1 else 100",
                "source": "test",
            },
            {
                "id": "next",
                "name": "The dealer's second next pays his next 10",
                "from": "next_seat(next_seat(dealer))",
                "to": "next_seat(dealer)",
                "amount": "10",
                "source": "test",
            },
            {
                "id": "dealer",
                "name": "The dealer pays the dealer's next",
                "from": "dealer",
                "to": "next_seat(dealer)",
                "amount": "50",
                "source": "test",
            },
        ]

    ruleset = load_ruleset(edited(GAME, tmp_path, counting))
    (state,) = play_game(ruleset, 4, _random(ruleset, 4), hands=1)
    paid = sorted((p.payer, p.payee, p.amount) for p in state.payments)
    each = [(a, b, 1) for a in (1, 2, 3) for b in (1, 2, 3) if a != b]
    assert paid == sorted([*each, (2, 1, 10)])
    assert state.fired.get("dealer", 0) == 0


def test_heuristic_search_and_ismcts_players_cope():
    for agents in (
        [HeuristicAgent(s) for s in range(4)],
        [SearchAgent(s, samples=2) for s in range(4)],
        [IsmctsAgent(s, iterations=20) for s in range(4)],
    ):
        states = play_game(RULESET, 3, agents, hands=3)
        assert all(s.is_terminal() for s in states)
        assert all(s.zones.hands[s.dealer] == [] for s in states)


def test_records_say_who_sat_out_and_replay_checks_it():
    agents = [HeuristicAgent(1), SearchAgent(2, samples=2), RandomAgent(3), RandomAgent(4)]
    states = play_game(RULESET, 6, agents, hands=3)
    record = game_record(RULESET, 6, [agent.name for agent in agents], states)
    assert [hand["sat_out"] for hand in record["hands"]] == [[0], [1], [2]]
    replay_record(record, RULESET)
    wrong = copy.deepcopy(record)
    wrong["hands"][1]["sat_out"] = [3]
    with pytest.raises(ReplayMismatch) as error:
        replay_record(wrong, RULESET)
    assert "$.hands[1].sat_out" in str(error.value)
    missing = copy.deepcopy(record)
    del missing["hands"][0]["sat_out"]
    with pytest.raises(ReplayMismatch) as error:
        replay_record(missing, RULESET)
    assert "seats sitting a hand out" in str(error.value)


def test_a_chosen_deal_gives_the_seat_sitting_out_no_cards():
    game = api.load(str(GAME))
    dealt = game.new_hand(seed=2, hand=2)
    deal = dealt.deal
    assert deal["dealer"] == 1 and deal["hands"][1] == []
    again = game.new_hand(deal=deal)
    assert again.sitting_out == (1,)
    assert [len(cards) for cards in again.deal["hands"]] == [6, 0, 6, 6]
    seen = again.observation(1)
    assert seen.sitting_out == (1,) and seen.hand == () and seen.kind is None


def test_wrong_uses_are_placed_and_explained(tmp_path: Path):
    def as_many(document: dict) -> None:
        document["players"]["sit_out"]["in_hand"] = 4

    assert "$.players.sit_out.in_hand: 4 play each hand of 4 at the table" in problems(
        edited(GAME, tmp_path, as_many)
    )

    def dealer_packet(document: dict) -> None:
        document["deal"]["packets"] = [
            {"rounds": 2, "dealer": 2, "others": 4, "talon": 0, "talon_after": 3}
        ]

    assert "with `players.sit_out` the dealer may sit the hand out" in problems(
        edited(GAME, tmp_path, dealer_packet)
    )

    def with_a_hand(document: dict) -> None:
        document["players"]["sit_out"]["seats"] = "[s in seats if count(hand(s)) == 0]"

    assert "$.players.sit_out.seats" in problems(edited(GAME, tmp_path, with_a_hand))

    def not_seats(document: dict) -> None:
        document["players"]["sit_out"]["seats"] = "players"

    message = problems(edited(GAME, tmp_path, not_seats))
    assert "$.players.sit_out.seats" in message and "expected a seat or seats" in message

    def two(document: dict) -> None:
        document["players"]["sit_out"]["seats"] = "[s in seats if s != next_seat(dealer)]"

    ruleset = load_ruleset(edited(GAME, tmp_path, two))
    with pytest.raises(EvaluationError) as error:
        deal_hand(ruleset, 1, 1)
    assert "`players.sit_out.seats` gives 3 seat(s) [0, 2, 3] with seat 0 dealing" in str(
        error.value
    )


def test_the_batch_back_end_runs_it_and_a_defender_s_share():
    """(The batch back end's hands of this game are checked in tests/test_batch_sit_out.py,
    a defender's share in tests/test_batch_thirds.py.)"""
    assert supports(RULESET) == [] and supports(OPPOSITE) == []
    assert supports(load_ruleset(GAME, {"share": "as_defender"})) == []


def test_the_play_command_and_the_rules_page_show_it():
    played = tarot("play", str(GAME), "--seed", "2", "--hands", "2")
    assert played.returncode == 0, played.stderr
    lines = played.stdout.splitlines()
    assert "  Seat 0 (dealer) sits this hand out (players.sit_out)" in lines
    assert "  Seat 1 (dealer) sits this hand out (players.sit_out)" in lines
    assert not any(line.startswith("  Seat 0 (dealer) [") for line in lines)
    points = next(line for line in lines if line.startswith("Card points: "))
    assert "seat 0" not in points and points.count("seat ") == 3
    page = " ".join(tarot("explain", str(GAME)).stdout.split())
    assert "3 of them play each hand; the others sit it out" in page


@pytest.mark.parametrize(("name", "in_hand"), [("droggn-4", 3), ("hungarian-tarokk-5", 4)])
def test_the_built_in_variants_played_by_one_more_seat_than_play(name: str, in_hand: int):
    """Droggn for four (DR-1) and Hungarian Tarokk for five (HT-1), the dealer sitting out:
    each hand's dealer is dealt nothing and comes out even; the others hold as many cards
    each; the records replay."""
    ruleset = load_ruleset(name)
    assert ruleset.players == in_hand + 1 and ruleset.in_hand == in_hand
    states = play_game(ruleset, 2, _random(ruleset, 2), hands=ruleset.players + 1)
    assert [s.dealer for s in states] == [*range(ruleset.players), 0]
    for state in states:
        sizes = [len(h) for s, h in enumerate(state.deal.hands_dealt) if s != state.dealer]
        assert state.deal.hands_dealt[state.dealer] == [] and len(set(sizes)) == 1
        assert state.returns()[state.dealer] == 0
    record = game_record(ruleset, 2, ["random"] * ruleset.players, states)
    replay_record(record, ruleset)


def test_as_a_defender_the_seat_sitting_out_pays_what_each_defender_pays():
    ruleset = load_ruleset(GAME, {"share": "as_defender"})
    assert ruleset.sit_out is not None and ruleset.sit_out.as_defender
    states = play_game(ruleset, 5, _random(ruleset, 5), hands=8)
    played = [s for s in states if s.auction.taker is not None and s.thrown_in is None]
    assert played
    for state in played:
        net, out = state.returns(), state.dealer
        defenders = state.defenders()
        assert net[out] != 0 and all(net[d] == net[out] for d in defenders)
        assert sum(net) == 0
    record = game_record(ruleset, 5, ["random"] * 4, states)
    replay_record(record, ruleset)


def test_as_a_defender_it_takes_the_defenders_average_share_of_each_rule(tmp_path: Path):
    """A rule paying one defender only (the taker's next in play, 5) gives the seat sitting
    out half of it, exactly: 5/2."""

    def one_defender(document: dict) -> None:
        document["options"]["share"]["default"] = "as_defender"
        document["settlement"] = [
            {
                "id": "next",
                "name": "The taker pays his next in play 5",
                "from": "taker",
                "to": "next_seat(taker)",
                "amount": "5",
                "source": "test",
            }
        ]

    ruleset = load_ruleset(edited(GAME, tmp_path, one_defender))
    (state,) = play_game(ruleset, 3, _random(ruleset, 3), hands=1)
    taker = state.auction.taker
    assert taker is not None
    shares = [p for p in state.payments if p.payee == state.dealer]
    assert [(p.payer, p.amount) for p in shares] == [(taker, Fraction(5, 2))]
    line = f"pay: seat {taker} -> seat {state.dealer}  2.5 points  The taker pays his next"
    assert any(line in text for text in state_transcript(state).splitlines())
