"""The first dealer drawn for (`deal.first_dealer_draw`), on a small game written for these
tests (tests/data/rulesets/first-dealer-draw.yaml: only trumps rank, by number, and the lowest
rank deals, so a card of a suit ranks 0 and ties are common)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import tarot as api
from tarot.batch.support import REFUSED, supports
from tarot.compile.loader import load_ruleset
from tarot.engine.first_dealer import dealer_draw, first_dealer
from tarot.engine.game import deal_hand, dealer_of, play_game, shuffled_pack
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent
from tarot.records.record import game_record
from tarot.records.replay import ReplayMismatch, replay_record
from tests.commands import tarot
from tests.small_games import edited, problems

GAME = Path(__file__).parent / "data" / "rulesets" / "first-dealer-draw.yaml"
RULESET = load_ruleset(GAME)
SEEDS = range(1, 21)


def rank(card: int) -> int:
    """The test game's rank: a trump's number, 0 for a card of a suit."""
    return RULESET.deck.cards[card].trump or 0


@pytest.mark.parametrize("seed", SEEDS)
def test_the_lowest_rank_deals_and_the_seats_tied_draw_again(seed: int):
    draw = dealer_draw(RULESET, seed)
    assert draw is not None
    seats = [0, 1, 2]
    drawn_cards = [card for drawn in draw.rounds for _seat, card in drawn]
    assert len(set(drawn_cards)) == len(drawn_cards)  # no card drawn twice
    for drawn, ranks in zip(draw.rounds, draw.ranks, strict=True):
        assert [seat for seat, _card in drawn] == seats  # the seats tied, in seat order
        assert list(ranks) == [rank(card) for _seat, card in drawn]
        seats = [seat for (seat, _card), r in zip(drawn, ranks, strict=True) if r == min(ranks)]
    assert seats == [draw.dealer]  # one seat left: it deals


def test_the_draw_gives_each_seat_the_first_deal_for_some_seed_and_the_deal_then_passes():
    firsts = {seed: first_dealer(RULESET, seed) for seed in SEEDS}
    assert set(firsts.values()) == {0, 1, 2}
    assert any(len(dealer_draw(RULESET, seed).rounds) > 1 for seed in SEEDS)  # type: ignore[union-attr]
    for seed, first in firsts.items():
        assert [dealer_of(RULESET, n, seed) for n in (1, 2, 3, 4)] == [
            first,
            (first + 1) % 3,
            (first + 2) % 3,
            first,
        ]
        state = deal_hand(RULESET, seed, 2)
        assert state.dealer == (first + 1) % 3
        # the draw's pack is the game's own: the hands are dealt from the packs they were
        assert state.pack == shuffled_pack(len(RULESET.deck), seed, 2)


def test_the_api_deals_hand_one_to_the_seat_drawn():
    game = api.load(str(GAME))
    for seed in (1, 2, 5):
        assert game.new_hand(seed=seed).observation(0).dealer == first_dealer(RULESET, seed)


def test_records_replay_and_a_dealer_against_the_draw_is_refused():
    agents = [HeuristicAgent(1), SearchAgent(2, samples=2), RandomAgent(3)]
    seed = 5
    states = play_game(RULESET, seed, agents, hands=2)
    record = game_record(RULESET, seed, [agent.name for agent in agents], states)
    assert [hand["dealer"] for hand in record["hands"]] == [2, 0]  # seed 5 draws seat 2
    replay_record(record, RULESET)
    wrong = copy.deepcopy(record)
    wrong["hands"][0]["dealer"] = 0
    with pytest.raises(ReplayMismatch) as error:
        replay_record(wrong, RULESET)
    assert "from the draw for the first deal that seed 5 gives" in str(error.value)


def test_wrong_uses_are_placed_and_explained(tmp_path: Path):
    def both(document: dict) -> None:
        document["deal"]["first_dealer"] = 1

    message = problems(edited(GAME, tmp_path, both))
    assert "$.deal.first_dealer_draw: `first_dealer_draw` draws for the first deal" in message

    def with_the_dealer(document: dict) -> None:
        document["deal"]["first_dealer_draw"]["rank"] = "if player == dealer then 1 else 0"

    assert "dealer" in problems(edited(GAME, tmp_path, with_the_dealer))

    def with_a_hand(document: dict) -> None:
        document["deal"]["first_dealer_draw"]["rank"] = "count(hand(player))"

    assert "$.deal.first_dealer_draw.rank" in problems(edited(GAME, tmp_path, with_a_hand))

    def not_a_number(document: dict) -> None:
        document["deal"]["first_dealer_draw"]["rank"] = "card in trumps"

    message = problems(edited(GAME, tmp_path, not_a_number))
    assert "$.deal.first_dealer_draw.rank" in message and "NUMBER" in message


def test_the_batch_back_end_runs_it():
    """Each hand dealt by the seat the draw gives (tests/test_batch_first_dealer.py)."""
    assert "deal.first_dealer_draw" not in REFUSED and supports(RULESET) == []


def test_the_play_command_and_the_rules_page_show_it():
    played = tarot("play", str(GAME), "--seed", "2", "--sources")
    assert played.returncode == 0, played.stderr
    lines = played.stdout.splitlines()
    assert lines[0].startswith("Drawn for the first deal, the lowest rank dealing: seat 0 ")
    assert lines[1].startswith("Drawn again by the seats tied: ")
    assert f"Seat {first_dealer(RULESET, 2)} deals first (deal.first_dealer_draw)" in lines
    assert f"=== Hand 1 of {RULESET.title}: seat {first_dealer(RULESET, 2)} deals ===" in lines
    page = " ".join(tarot("explain", str(GAME)).stdout.split())
    assert "The first dealer is drawn for: each player, from seat 0, draws a card" in page
    assert "players tied for it draw again (source: test)" in page
