"""Runs of cards (the fact `runs(C, n)`) and cards of a kind taken from the talon
(`talon.takes`), on a small game written for these tests (tests/data/rulesets/runs-robbing.yaml),
and runs with the Fool ranked as a trump (tests/data/rulesets/partners-trump-order.yaml)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tarot.compile.card_runs import cards_in_runs
from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.engine.state import HandState
from tests.commands import tarot
from tests.small_games import compiled, edited, pack_for, problems, replayed_games, say

DATA = Path(__file__).parent / "data" / "rulesets"
GAME = DATA / "runs-robbing.yaml"
RULESET = load_ruleset(GAME)

HANDS = {
    0: ["trump-1", "trump-2", "trump-3", "trump-5", "cups-1"],
    1: ["swords-3", "swords-4", "swords-Q", "swords-K", "fool"],
    2: ["cups-Q", "trump-9", "trump-10", "trump-11", "trump-12"],
    3: ["cups-3", "cups-2", "trump-7", "swords-1", "swords-2"],
}
TALON = ["cups-K", "cups-4", "trump-4", "trump-6", "trump-8"]


def ids(ruleset: Ruleset, cards: object) -> list[str]:
    assert isinstance(cards, tuple)
    return [ruleset.deck.cards[c].id for c in cards]


def evaluated(state: HandState, text: str) -> list[str]:
    return ids(state.ruleset, state.evaluate(compiled(state.ruleset, text)))


def new_hand() -> HandState:
    return HandState(RULESET, 0, pack_for(RULESET, HANDS, TALON))


def test_runs_of_trumps_follow_their_numbers() -> None:
    state = new_hand()
    dealt = "first_cards(dealer, 5)"
    assert sorted(evaluated(state, f"runs({dealt}, 3)")) == ["trump-1", "trump-2", "trump-3"]
    # the 5 is not in the run, but with the talon's 4 and 6 the run is 1-6, in the order
    # of the group (the hand, then the talon), not the 8
    assert evaluated(state, f"runs([c in {dealt} + talon() if c in trumps], 5)") == [
        "trump-1",
        "trump-2",
        "trump-3",
        "trump-5",
        "trump-4",
        "trump-6",
    ]
    assert evaluated(state, f"runs({dealt}, 4)") == []


def test_runs_in_a_suit_go_from_the_pips_to_the_courts_in_the_suit_order() -> None:
    """Swords rank 1 2 3 4 Q K; cups, with inverted pips, 4 3 2 1 Q K: so the cups 1 and Q
    are next to each other, and the swords 4 and Q."""
    state = new_hand()
    assert sorted(evaluated(state, "runs(first_cards(next_seat(dealer), 5), 3)")) == [
        "swords-3",
        "swords-4",
        "swords-K",
        "swords-Q",
    ]
    seats = ["dealer", "next_seat(next_seat(dealer))", "next_seat(next_seat(next_seat(dealer)))"]
    text = f"runs({' + '.join(f'first_cards({seat}, 5)' for seat in seats)}, 3)"
    assert sorted(evaluated(state, text)) == [
        "cups-1",
        "cups-2",
        "cups-3",
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
    assert sorted(evaluated(state, "runs(first_cards(next_seat(dealer), 5), 0)")) == [
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


def test_the_seat_before_the_dealer_takes_the_trumps_in_a_row_at_the_bottom_shown() -> None:
    state = new_hand()
    taken = [(seat, ids(RULESET, tuple(cards))) for seat, cards in state.talon_phase.shared]
    # from the bottom: 8, 6, 4, then the cups 4 stops the row; then the dealer's King
    assert taken == [(3, ["trump-8", "trump-6", "trump-4"]), (0, ["cups-K"])]
    assert [(seat, what) for seat, what, _cards in state.shown] == [(3, "talon_taken")]
    assert ids(RULESET, tuple(state.zones.talon)) == ["cups-4"]  # left out of play
    # each lays away as many, never a trump while he holds another card
    assert state.current_player() == 3
    assert state.legal_actions() == ["cups-3", "cups-2", "swords-1", "swords-2"]
    say(state, (3, "cups-3"), (3, "cups-2"), (3, "swords-1"), (0, "cups-K"))
    assert ids(RULESET, tuple(state.zones.discards[3])) == ["cups-3", "cups-2", "swords-1"]


def test_a_run_is_shown_by_the_rules_with_the_cards_taken() -> None:
    """The 4, 6 and 8 taken join the 7 in seat 3's hand: 6-7-8 is shown (not the 4)."""
    state = new_hand()
    say(state, (3, "cups-3"), (3, "cups-2"), (3, "swords-1"), (0, "cups-K"))
    assert {seat for seat, declared in state.declare.by_rule} == {0, 1, 2, 3}
    shown = {
        seat: sorted(ids(RULESET, tuple(cards)))
        for seat, what, cards in state.shown
        if what != "talon_taken"
    }
    assert shown[3] == ["trump-6", "trump-7", "trump-8"]
    assert shown[2] == ["trump-10", "trump-11", "trump-12", "trump-9"]
    assert shown[0] == ["trump-1", "trump-2", "trump-3"]
    assert shown[1] == ["swords-3", "swords-4", "swords-K", "swords-Q"]


def test_taking_every_card_of_the_kind_or_only_a_row(tmp_path: Path) -> None:
    def from_the_top(every: bool) -> Callable[[dict], None]:
        def change(document: dict) -> None:
            take = document["talon"]["takes"][0]
            take["from"] = "top"
            if every:
                del take["taking"]

        return change

    row = load_ruleset(edited(GAME, tmp_path, from_the_top(every=False)))
    state = HandState(row, 0, pack_for(row, HANDS, TALON))
    assert [seat for seat, _cards in state.talon_phase.shared] == [0]  # the top card is the cups K
    every = load_ruleset(edited(GAME, tmp_path, from_the_top(every=True)))
    state = HandState(every, 0, pack_for(every, HANDS, TALON))
    assert ids(every, tuple(state.talon_phase.shared[0][1])) == ["trump-4", "trump-6", "trump-8"]


def test_cards_taken_by_kind_and_packets_do_not_go_together(tmp_path: Path) -> None:
    def change(document: dict) -> None:
        document["talon"].update(to="hand", seat="dealer")
        document["talon"]["packets"] = {"count": 5, "choose": 1, "rest": {"to": "out_of_play"}}

    message = problems(edited(GAME, tmp_path, change))
    assert "$.talon.takes: cards are taken by kind from a talon that is not laid out" in message


def test_the_transcript_tells_the_cards_taken() -> None:
    out = tarot("play", str(GAME), "--seed", "3", "--sources").stdout
    assert "Seat 0 takes from the talon: cups-K" in out
    rules = " ".join(tarot("explain", str(GAME)).stdout.split())
    assert (
        "the talon goes out of play, unseen, once `[s in seats if next_seat(s) == dealer]` has"
        " taken the cards of `trumps` lying in a row at its bottom, shown to all, and discarded"
        " as many and then `dealer` has taken every card of `kings`" in rules
    )


def test_the_game_plays_and_replays() -> None:
    for mixed in (False, True):
        states = replayed_games(RULESET, 5, 2, mixed)
        assert len(states) == 2
