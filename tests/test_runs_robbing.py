"""Runs of cards (the fact `runs(C, n)`) on a small game written for these tests
(tests/data/rulesets/runs-robbing.yaml) and on the Fool ranked as a trump
(tests/data/rulesets/partners-trump-order.yaml)."""

from __future__ import annotations

from pathlib import Path

from interpreter.compile.card_runs import cards_in_runs
from interpreter.engine.state import HandState
from interpreter.ruleset import Ruleset
from interpreter.ruleset_loader import load_ruleset
from tests.small_games import compiled, pack_for, replayed_games

DATA = Path(__file__).parent / "data" / "rulesets"
GAME = DATA / "runs-robbing.yaml"
RULESET = load_ruleset(GAME)

HANDS = {
    0: ["trump-1", "trump-2", "trump-3", "trump-5", "cups-1"],
    1: ["swords-3", "swords-4", "swords-Q", "swords-K", "fool"],
    2: ["cups-Q", "trump-9", "trump-10", "trump-11", "trump-12"],
    3: ["cups-K", "cups-2", "trump-7", "swords-1", "swords-2"],
}
TALON = ["cups-3", "cups-4", "trump-4", "trump-6", "trump-8"]


def ids(ruleset: Ruleset, cards: object) -> list[str]:
    assert isinstance(cards, tuple)
    return [ruleset.deck.cards[c].id for c in cards]


def evaluated(state: HandState, text: str) -> list[str]:
    return ids(state.ruleset, state.evaluate(compiled(state.ruleset, text)))


def new_hand() -> HandState:
    return HandState(RULESET, 0, pack_for(RULESET, HANDS, TALON))


def test_runs_of_trumps_follow_their_numbers() -> None:
    state = new_hand()
    seat = "dealer"
    assert sorted(evaluated(state, f"runs(hand({seat}), 3)")) == ["trump-1", "trump-2", "trump-3"]
    # the 5 is not in the run, but with the talon's 4 and 6 the run is 1-6, in the order
    # of the group (the hand, then the talon), not the 8
    assert evaluated(state, f"runs([c in hand({seat}) + talon() if c in trumps], 5)") == [
        "trump-1",
        "trump-2",
        "trump-3",
        "trump-5",
        "trump-4",
        "trump-6",
    ]
    assert evaluated(state, f"runs(hand({seat}), 4)") == []


def test_runs_in_a_suit_go_from_the_pips_to_the_courts_in_the_suit_order() -> None:
    """Swords rank 1 2 3 4 Q K; cups, with inverted pips, 4 3 2 1 Q K: so the cups K and 1
    are next to each other, and the swords 4 and Q."""
    state = new_hand()
    assert sorted(evaluated(state, "runs(hand(next_seat(dealer)), 3)")) == [
        "swords-3",
        "swords-4",
        "swords-K",
        "swords-Q",
    ]
    everyone_but_one = "hand(dealer) + hand(next_seat(next_seat(dealer))) + hand(last)"
    text = f"runs({everyone_but_one}, 3)".replace("last", "next_seat(next_seat(next_seat(dealer)))")
    assert sorted(evaluated(state, text)) == [
        "cups-1",
        "cups-2",
        "cups-K",
        "cups-Q",
        "trump-1",
        "trump-10",
        "trump-11",
        "trump-12",
        "trump-2",
        "trump-3",
        "trump-9",
    ]


def test_a_run_keeps_the_order_and_repeats_of_its_group_and_the_excuse_is_in_none() -> None:
    deck = RULESET.deck
    three = [deck.by_id[f"trump-{n}"] for n in (3, 1, 2)]
    fool = deck.by_id["fool"]
    assert cards_in_runs(deck.run_places, [*three, three[0], fool], 3) == (*three, three[0])
    assert cards_in_runs(deck.run_places, [fool], 1) == ()
    # a length below one counts as one: every card that has a place
    state = new_hand()
    assert sorted(evaluated(state, "runs(hand(next_seat(dealer)), 0)")) == [
        "swords-3",
        "swords-4",
        "swords-K",
        "swords-Q",
    ]


def test_the_fool_ranked_as_a_trump_runs_on_from_the_last_trump() -> None:
    ruleset = load_ruleset(DATA / "partners-trump-order.yaml")
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    assert evaluated(state, "runs([c in trumps if trump_number(c) >= 22], 3)") == [
        "trump-22",
        "trump-23",
        "fool",
    ]
    assert evaluated(state, "runs([c in trumps if trump_number(c) >= 23], 3)") == []


def test_a_run_dealt_is_shown_by_the_rules_and_paid() -> None:
    state = new_hand()
    assert (0, "sequence:held") in state.declared_by_rule
    assert (2, "sequence:held") in state.declared_by_rule  # the 9-12 run
    assert (1, "sequence:held") in state.declared_by_rule  # swords 3-4-Q-K
    assert (3, "sequence:held") not in state.declared_by_rule  # swords 1-2, cups K and 2
    shown = {seat: sorted(ids(RULESET, tuple(cards))) for seat, _what, cards in state.shown}
    assert shown[2] == ["trump-10", "trump-11", "trump-12", "trump-9"]
    assert shown[0] == ["trump-1", "trump-2", "trump-3"]


def test_the_game_plays_and_replays() -> None:
    for mixed in (False, True):
        states = replayed_games(RULESET, 5, 2, mixed)
        assert len(states) == 2
