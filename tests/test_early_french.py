"""Early French Tarot (source 002): twelve cards each and the rest aside, the per-card score
with the scoring cards, the Excuse given back with a card or surrendered by a player who
takes no trick, and a game to 50 with each reading of the tie-break."""

from __future__ import annotations

from functools import cache

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand, game_winners, play_game, play_hand
from tarot.engine.phases import settle
from tarot.engine.state import HandState
from tarot.players.random_agent import RandomAgent


@cache
def early(name: str = "early-french", **choices: str):
    return load_ruleset(name, choices=choices)


@pytest.mark.parametrize(("players", "aside"), [(2, 54), (3, 42), (4, 30), (5, 18), (6, 6)])
def test_twelve_cards_each_and_the_rest_set_aside(players, aside):
    name = "early-french" if players == 4 else f"early-french-{players}"
    ruleset = early(name)
    assert ruleset.players == players
    state = deal_hand(ruleset, 1, 1)
    assert [len(h) for h in state.deal.hands_dealt] == [12] * players
    assert len(state.deal.talon_dealt) == aside
    agents = [RandomAgent(f"ef/{s}") for s in range(players)]
    play_hand(state, agents)
    assert len(state.play.trick_log) == 12
    assert sorted(state.talon) == sorted(state.deal.talon_dealt)  # never played, never counted


def _ids(ruleset, names):
    return [ruleset.deck.by_id[n] for n in names]


def test_per_card_score_with_the_scoring_cards():
    ruleset = early()
    state = HandState(ruleset, 0, list(range(78)))
    fillers = ["wands-2", "wands-3", "wands-4", "wands-5", "wands-6", "wands-7", "wands-8"]
    fillers += ["swords-2", "swords-3", "swords-4", "swords-5"]
    state.won[0] = _ids(ruleset, fillers + ["cups-K", "fool", "trump-21"])  # 14 cards
    state.won[1] = _ids(ruleset, ["coins-Q", "coins-C", "coins-J"])  # 3 cards
    assert state.hand_score(0) == (14 - 12) + 4 + 5 + 4  # 15
    assert state.hand_score(1) == (3 - 12) + 3 + 2 + 1  # -3
    assert state.hand_score(2) == -12


def test_the_excuse_comes_back_for_a_card_or_is_surrendered():
    ruleset = early()
    fool = ruleset.deck.by_id["fool"]
    exchanged = surrendered = 0
    for number in range(1, 120):
        state = deal_hand(ruleset, 7, number)
        holder = next((s for s in range(4) if fool in state.hands[s]), None)
        if holder is None:
            continue
        play_hand(state, [RandomAgent(f"{number}/{s}") for s in range(4)])
        took_tricks = any(winner == holder for *_, winner in state.play.trick_log)
        if took_tricks:
            assert fool in state.won[holder]
            exchanged += any(e["from"] == holder for e in state.play.exchanges)
        else:
            assert fool not in state.won[holder]
            surrendered += 1
    assert exchanged > 5 and surrendered > 0


def _game_end(ruleset, totals_before, won_by_seat):
    """A hand finished by hand on top of these totals, each seat having taken these cards."""
    state = HandState(ruleset, 0, list(range(78)), 3, totals_before)
    state.hands = [[] for _ in range(4)]
    plain = [c for c in range(78) if ruleset.counting.values[c] == 1]  # no scoring card
    for seat, count in enumerate(won_by_seat):
        state.won[seat], plain = plain[:count], plain[count:]
    settle.finish(state)
    return state


def test_a_game_runs_to_50():
    ruleset = early()
    states = play_game(ruleset, 3, [RandomAgent(str(s)) for s in range(4)], hands=None)
    totals = [sum(s.returns()[seat] for s in states) for seat in range(4)]
    assert max(totals) >= 50
    before = [sum(s.returns()[seat] for s in states[:-1]) for seat in range(4)]
    assert max(before) < 50  # it stopped at the first hand that reached 50
    assert game_winners(states[-1]) == tuple(s for s in range(4) if totals[s] == max(totals))


@pytest.mark.parametrize(
    ("reading", "winners"), [("highest", (1,)), ("shared", (0, 1)), ("first_to_claim", (1,))]
)
def test_two_players_over_50_in_one_hand(reading, winners):
    ruleset = early(tie_break=reading)
    # 12 + k cards without a scoring card score k
    state = _game_end(ruleset, [45, 47, 0, 0], [18, 18, 6, 6])
    assert state.scores[:2] == [6, 6]
    assert [state.total(s) for s in (0, 1)] == [51, 53]
    assert game_winners(state) == winners


def test_equal_highest_totals_share():
    ruleset = early()
    state = _game_end(ruleset, [47, 47, 0, 0], [18, 18, 6, 6])
    assert game_winners(state) == (0, 1)


def test_a_claim_ends_the_hand_and_the_game_during_play():
    ruleset = early(tie_break="first_to_claim")
    claimed = 0
    for number in range(1, 40):
        state = deal_hand(ruleset, 2, number, [49, 0, 0, 0])
        play_hand(state, [RandomAgent(f"c/{number}/{s}") for s in range(4)])
        if state.play.claimed:
            claimed += 1
            assert state.play.claimed == (0,) and state.is_terminal()
            assert state.total(0) >= 50
            assert game_winners(state) == (0,)
    assert claimed > 0


@pytest.mark.parametrize(("reading", "fool_to", "handed"), [("kept", 0, 1), ("captured", 3, 0)])
def test_the_fool_in_the_last_trick_by_each_reading(reading, fool_to, handed):
    from sides import played_out

    ruleset = early(fool_last_trick=reading)
    last = [(0, "fool"), (1, "wands-2"), (2, "wands-3"), (3, "wands-4")]
    state = played_out(ruleset, ["cups-2", "cups-K"], [last], None)
    assert state.tricks[-1]["winner"] == 3
    assert ruleset.deck.by_id["fool"] in state.won[fool_to]
    assert len(state.play.exchanges) == handed  # taken back: a card of his tricks goes for it
    assert [e["card"] for e in state.play.exchanges] == ["cups-2"][:handed]


def test_the_direction_of_play_is_an_option():
    from tarot.presentation.transcript import hand_transcript

    for reading, side in (("anticlockwise", "right"), ("clockwise", "left")):
        ruleset = early(direction=reading)
        state = play_hand(deal_hand(ruleset, 1, 1), [RandomAgent(str(s)) for s in range(4)])
        assert f"passes {reading}, so each seat's next sits on its {side}" in hand_transcript(state)
