"""Cards moved or shown by a declaration, and a talon drawn from after each trick: the general
mechanisms `show_count`, a level's own `shows`, `hands_over`, `talon.to: stock` and the fact
`played(seat)`, on a small game written for these tests (tests/data/rulesets/)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from batch_checks import replayed

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.engine.state import HandState, IllegalAction
from tarot.players.lineup import seat_agents
from tarot.players.random_agent import RandomAgent
from tarot.records.record import game_record
from tarot.records.replay import replay_record

GAME = Path(__file__).parent / "data" / "rulesets" / "show-give-draw.yaml"


def game(**choices: str):
    return load_ruleset(GAME, choices=choices)


def deal(ruleset, seat1: list[str], seat0: list[str], talon: list[str]) -> HandState:
    """Seat 0 deals: the first five cards of the pack go to seat 1, the next five to seat 0,
    the last seven to the talon, in that order."""
    by_id = ruleset.deck.by_id
    assert len(seat1) == len(seat0) == 5 and len(talon) == 7
    return HandState(ruleset, 0, [by_id[c] for c in seat1 + seat0 + talon])


def ids(ruleset, cards) -> list[str]:
    return [ruleset.deck.cards[c].id for c in cards]


PLAIN_TALON = ["swords-1", "swords-2", "swords-3", "cups-1", "cups-2", "cups-3", "cups-4"]


def test_the_declarer_picks_the_cards_he_shows():
    # seat 1 holds four trumps and declares three: he shows the three he picks, one by one
    ruleset = game()
    state = deal(
        ruleset,
        ["trump-1", "trump-2", "trump-3", "trump-4", "swords-4"],
        ["swords-K", "cups-K", "fool", "trump-5", "trump-6"],
        PLAIN_TALON,
    )
    assert state.current_player() == 1 and state.legal_actions() == ["trumps:three", "trumps:none"]
    state.apply_action("trumps:three")
    picks = []
    for _ in range(3):
        assert state.decision.kind == "show" and state.current_player() == 1
        choices = state.legal_actions()
        assert sorted(choices) == sorted({"trump-1", "trump-2", "trump-3", "trump-4"} - set(picks))
        with pytest.raises(IllegalAction):
            state.apply_action("swords-4")
        picks.append(choices[-1])
        state.apply_action(choices[-1])
    assert state.decision.kind != "show"
    assert [(s, what, ids(ruleset, cards)) for s, what, cards in state.shown] == [
        (1, "trumps", picks)
    ]
    assert [p.amount for p in state.payments if p.rule == "trumps:three"] == [1]


def test_all_the_cards_are_shown_when_the_count_covers_them():
    ruleset = game()
    state = deal(
        ruleset,
        ["trump-1", "trump-2", "trump-3", "swords-4", "swords-3"],
        ["swords-K", "cups-K", "fool", "trump-5", "trump-6"],
        ["swords-1", "swords-2", "trump-4", "cups-1", "cups-2", "cups-3", "cups-4"],
    )
    state.apply_action("trumps:three")
    assert state.decision.kind != "show"
    assert [ids(ruleset, cards) for _s, _w, cards in state.shown] == [
        ["trump-1", "trump-2", "trump-3"]
    ]


def test_a_level_shows_its_own_cards():
    # seat 0 holds trumps 4, 5, 6 and 1: "three" shows 4-6 only, "two" 5 and 6 only
    ruleset = game()
    for level, shown in (("three", ["trump-4", "trump-5", "trump-6"]), ("two", None)):
        state = deal(
            ruleset,
            ["swords-4", "swords-3", "swords-2", "cups-4", "cups-3"],
            ["trump-4", "trump-5", "trump-6", "trump-1", "cups-K"],
            ["swords-1", "swords-K", "trump-2", "trump-3", "cups-1", "cups-2", "fool"],
        )
        while state.current_player() != 0 or not state.legal_actions()[0].startswith("top"):
            state.apply_action(state.legal_actions()[-1])
        if level == "two":  # declarations are maximal: only "three" is offered
            assert state.legal_actions() == ["top:three", "top:none"]
            continue
        state.apply_action("top:three")
        assert [ids(ruleset, c) for s, w, c in state.shown if w == "top"] == [shown]


def test_a_free_choice_of_level_shows_that_level_only():
    ruleset = game()
    state = deal(
        ruleset,
        ["swords-4", "swords-3", "swords-2", "cups-4", "cups-3"],
        ["trump-5", "trump-6", "trump-1", "trump-2", "cups-K"],
        ["swords-1", "swords-K", "trump-4", "trump-3", "cups-1", "cups-2", "fool"],
    )
    while state.phase == "declare":
        choices = state.legal_actions()
        state.apply_action(choices[0] if choices[0] == "top:two" else choices[-1])
    assert [ids(ruleset, c) for s, w, c in state.shown if w == "top"] == [["trump-5", "trump-6"]]


def test_a_card_is_handed_over_for_one_given_back():
    # seat 1 holds the King of cups; seat 0 must hand him the King of swords and receives,
    # in exchange, a plain card of seat 1's choosing
    ruleset = game()
    state = deal(
        ruleset,
        ["cups-K", "swords-2", "cups-3", "trump-1", "fool"],
        ["swords-K", "swords-4", "cups-4", "trump-5", "trump-6"],
        PLAIN_TALON,
    )
    assert state.legal_actions() == ["kings:one", "kings:none"]
    state.apply_action("kings:one")
    assert "swords-K" in ids(ruleset, state.hands[1])
    assert "swords-K" not in ids(ruleset, state.hands[0])
    assert state.decision.kind == "give" and state.current_player() == 1
    assert sorted(state.legal_actions()) == ["cups-3", "swords-2"]  # plain cards only
    state.apply_action("cups-3")
    assert sorted(ids(ruleset, state.hands[0])) == sorted(
        ["cups-3", "swords-4", "cups-4", "trump-5", "trump-6"]
    )
    assert [len(h) for h in state.hands] == [5, 5]
    assert (1, "kings:handed_over", [ruleset.deck.by_id["swords-K"]]) in state.shown
    assert state.payments == []  # the level is worth nothing


def test_nothing_is_handed_over_when_nobody_else_holds_the_card():
    ruleset = game()
    state = deal(
        ruleset,
        ["cups-K", "swords-2", "cups-3", "trump-1", "fool"],
        ["swords-4", "swords-3", "cups-4", "trump-5", "trump-6"],
        ["swords-K", "swords-1", "cups-1", "cups-2", "trump-2", "trump-3", "trump-4"],
    )
    before = [sorted(h) for h in state.hands]
    state.apply_action("kings:one")
    assert state.decision.kind == "declare" and state.current_player() == 0
    assert [sorted(h) for h in state.hands] == before


@pytest.mark.parametrize(("talon_use", "tricks"), [("stock", 5 + 3), ("out_of_play", 5)])
def test_the_stock_is_drawn_from_after_each_trick(talon_use, tricks):
    # 5 cards each and a stock of 7: after each trick the winner, then the other, draws the
    # top card while there is one for each; the seventh card stays out of play
    ruleset = game(talon_use=talon_use)
    state = deal(
        ruleset,
        ["swords-4", "swords-3", "swords-2", "cups-4", "cups-3"],
        ["trump-4", "trump-5", "trump-6", "trump-1", "cups-K"],
        ["swords-1", "swords-K", "trump-2", "trump-3", "cups-1", "cups-2", "fool"],
    )
    while state.phase == "declare":
        state.apply_action(state.legal_actions()[-1])
    assert state.play.total_tricks == tricks
    by_id = ruleset.deck.by_id
    while not state.is_terminal():
        before = [list(h) for h in state.hands]
        stock = list(state.talon)
        number = state.play.trick_number
        for _ in range(2):
            state.apply_action(state.legal_actions()[0])
        if state.is_terminal():
            break
        winner = state.tricks[-1]["winner"]
        played = {by_id[c["card"]] for c in state.tricks[-1]["cards"]}
        for seat in (0, 1):
            kept = [c for c in before[seat] if c not in played]
            drawn = [c for c in state.hands[seat] if c not in kept]
            if talon_use == "stock" and number <= 3:
                assert drawn == [stock[0] if seat == winner else stock[1]]
            else:
                assert drawn == []
    assert len(state.tricks) == tricks
    assert len(state.talon) == (1 if talon_use == "stock" else 7)
    assert state.tricks[-1]["number"] == state.play.total_tricks


def test_played_cards_are_known_per_seat_and_records_replay():
    # played(seat) lists the seat's cards in the order played; hands with show and give
    # decisions replay from their records
    ruleset = game()
    agents = [RandomAgent(seat) for seat in range(2)]
    states = play_game(ruleset, 0, agents, hands=12)
    for state in states:
        for seat in (0, 1):
            mine = [c["card"] for t in state.tricks for c in t["cards"] if c["seat"] == seat]
            assert ids(ruleset, state.played[seat]) == mine
        assert sum(state.returns()) == 0
    kinds = {d["kind"] for s in states for d in s.decisions}
    assert {"show", "give"} <= kinds
    record = game_record(ruleset, 0, [a.name for a in agents], states)
    replay_record(record, ruleset)


def _shuffled(ruleset, seed: int) -> list[int]:
    pack = list(range(len(ruleset.deck)))
    random.Random(seed).shuffle(pack)
    return pack


TWO = Path(__file__).parent / "data" / "rulesets" / "two-handed-over.yaml"
TWO_BY_RULE = TWO.with_name("two-handed-over-compulsory.yaml")


def test_two_cards_handed_over_are_never_given_back():
    # seat 1 holds no King and asks for both; he has one plain card: he gives it for the first
    # King, then any card of his own for the second, never a King he was just handed
    ruleset = load_ruleset(TWO)
    state = deal(
        ruleset,
        ["swords-2", "trump-1", "trump-2", "trump-3", "fool"],
        ["swords-K", "cups-K", "swords-4", "cups-4", "trump-6"],
        PLAIN_TALON,
    )
    state.apply_action("no_king:one")
    assert {"swords-K", "cups-K"} <= set(ids(ruleset, state.hands[1]))
    assert state.decision.kind == "give" and state.legal_actions() == ["swords-2"]
    state.apply_action("swords-2")
    assert state.decision.kind == "give" and state.current_player() == 1
    assert sorted(state.legal_actions()) == ["fool", "trump-1", "trump-2", "trump-3"]
    state.apply_action("trump-3")
    assert sorted(ids(ruleset, state.hands[1])) == sorted(
        ["cups-K", "swords-K", "trump-1", "trump-2", "fool"]
    )
    assert sorted(ids(ruleset, state.hands[0])) == sorted(
        ["swords-2", "trump-3", "swords-4", "cups-4", "trump-6"]
    )


@pytest.mark.parametrize("kind", ["random", "heuristic", "search"])
@pytest.mark.parametrize("path", [TWO, TWO_BY_RULE], ids=["chosen", "compulsory"])
def test_every_player_plays_hands_with_two_cards_handed_over(kind, path):
    # each kind of player, with the declaration chosen or made by the rules: every hand plays
    # out with every card played once, and the records replay
    ruleset = load_ruleset(path)
    hands = 4 if kind == "search" else 12
    agents = seat_agents((kind,), 3, 1, 2)
    states = play_game(ruleset, 3, agents, hands=hands)
    twice = 0
    for state in states:
        handed = [c for _seat, w, cards in state.shown if w.endswith("handed_over") for c in cards]
        twice += len(handed) == 2
        played = [c["card"] for t in state.tricks for c in t["cards"]]
        assert len(played) == len(set(played)) == 10  # every card once, five from each seat
        assert not set(played) & set(ids(ruleset, state.talon))
    assert twice
    replay_record(game_record(ruleset, 3, [a.name for a in agents], states), ruleset)


def test_the_batch_back_end_gives_back_as_the_engine_does():
    _records, kinds, _fired = replayed(load_ruleset(TWO), 5, 40)
    assert kinds["give"] > 0
