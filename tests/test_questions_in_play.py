"""A question a player may ask at a moment of play, answered to all (`questions`): before a
given trick, the seats that may ask are asked in turn; the first who asks learns, with every
other seat, who holds the cards asked about, which are then shown as their holders'. Rules
read the answer as `answer('ID')` and the asker as `asker('ID')`. On a small game written for
the test (tests/data/rulesets/questions-in-play.yaml)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.sampling import Sampler
from tarot.players.search_agent import SearchAgent
from tarot.presentation.seat_screen import action_label
from tarot.presentation.transcript import hand_transcript
from tarot.records.record import game_record
from tarot.records.replay import replay_record
from tests.commands import tarot
from tests.small_games import compiled, edited, problems, say

DATA = Path(__file__).parent / "data" / "rulesets"
GAME = DATA / "questions-in-play.yaml"
RULESET = load_ruleset(GAME)
TOP = RULESET.deck.by_id["trump-7"]


def before_the_second_trick(contract: str = "high") -> HandState:
    """Seat 1 takes `contract` and plays the first trick (seat 2 trumps it); seat 0 holds the
    top trump."""
    state = HandState(RULESET, 0, list(range(len(RULESET.deck))))
    say(state, (1, contract), (2, "pass"), (0, "pass"), (1, "swords-K"), (1, "swords-4"))
    say(state, (1, "cups-2"), (2, "trump-2"), (0, "cups-K"))
    assert TOP in state.hands[0]
    return state


def test_the_taker_asks_and_every_seat_learns_who_holds_the_card():
    state = before_the_second_trick()
    # before the second trick's lead (seat 2's), the taker is asked whether he asks
    assert state.decision.kind == "ask" and state.current_player() == 1
    assert state.legal_actions() == ["top_trump:yes", "top_trump:no"]
    labels = [action_label(RULESET, a) for a in state.decision.actions]
    assert labels == ["ask: Who holds the top trump?", "do not ask: Who holds the top trump?"]
    say(state, (1, "top_trump:yes"))
    assert state.decision.kind == "play" and state.current_player() == 2
    assert (0, "answer:top_trump", [TOP]) in state.shown
    assert state.evaluate(compiled(RULESET, "answer('top_trump')")) == (0,)
    assert state.evaluate(compiled(RULESET, "asker('top_trump')")) == 1
    # every seat knows where the card is: the other defender's guesses keep it with seat 0
    view = SeatView(state, 2)
    assert view.known_holders.get(TOP) is not None
    sampler = Sampler(state, 2, view)
    rng = random.Random(1)
    assert all(TOP in sampler.sample(rng).hands[0] for _ in range(20))
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    paid = [(p.payer, p.payee, p.amount) for p in state.payments if p.rule == "question_paid"]
    assert sorted(paid) == [(1, 0, 1), (1, 2, 1)]
    said = hand_transcript(state)
    assert "  Seat 1 asks: Who holds the top trump? Told to all: seat 0 holds trump-7\n" in said
    assert said.index("asks: Who holds") < said.index("Trick  2:")
    assert "answers" not in said  # told once, where it was asked, not among the bids


def test_a_question_not_asked_tells_nothing():
    state = before_the_second_trick()
    say(state, (1, "top_trump:no"))
    assert state.decision.kind == "play"
    assert state.evaluate(compiled(RULESET, "answer('top_trump')")) == ()
    assert state.evaluate(compiled(RULESET, "asker('top_trump')")) == -1
    assert not any(what.startswith("answer:") for _s, what, _c in state.shown)


def test_the_question_is_asked_only_when_its_condition_holds():
    state = before_the_second_trick("low")
    assert state.decision.kind == "play"


def test_once_one_seat_asks_the_others_are_not_asked(tmp_path: Path):
    shutil.copy(DATA / "flow-base.yaml", tmp_path / "flow-base.yaml")

    def change(document: dict) -> None:
        document["questions"][0]["by"] = "seats"

    ruleset = load_ruleset(edited(GAME, tmp_path, change))
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    say(state, (1, "high"), (2, "pass"), (0, "pass"), (1, "swords-K"), (1, "swords-4"))
    say(state, (1, "cups-2"), (2, "trump-2"), (0, "cups-K"))
    # every seat may ask, in order of play from the leader (seat 2)
    say(state, (2, "top_trump:no"), (0, "top_trump:yes"))
    assert state.decision.kind == "play" and state.ask.answers["top_trump"] == (0, 2, (0,))


def test_misused_questions_are_refused_with_their_place(tmp_path: Path):
    shutil.copy(DATA / "flow-base.yaml", tmp_path / "flow-base.yaml")

    def twice(document: dict) -> None:
        document["questions"].append(dict(document["questions"][0]))

    assert "$.questions[1].id: a second question named 'top_trump'" in problems(
        edited(GAME, tmp_path, twice)
    )

    def not_cards(document: dict) -> None:
        document["questions"][0]["cards"] = "taker"

    assert "$.questions[0].cards" in problems(edited(GAME, tmp_path, not_cards))

    def unknown_id(document: dict) -> None:
        document["settlement"][0]["when"] = "asker('top_trumps') == taker"

    message = problems(edited(GAME, tmp_path, unknown_id))
    assert "top_trumps" in message and "top_trump" in message


def test_records_of_each_player_replay():
    for agents in (
        [RandomAgent(1), RandomAgent(2), RandomAgent(3)],
        [HeuristicAgent(1), SearchAgent(2, samples=2), RandomAgent(3)],
    ):
        states = play_game(RULESET, 8, agents, hands=3)
        assert all(state.is_terminal() for state in states)
        record = game_record(RULESET, 8, [a.name for a in agents], states)
        replay_record(record, RULESET)


def test_random_players_ask_the_question():
    asked = 0
    for seed in range(1, 15):
        states = play_game(RULESET, seed, [RandomAgent(seed * 3 + s) for s in range(3)], hands=1)
        asked += any(d["choice"] == "top_trump:yes" for s in states for d in s.decisions)
    assert asked


def test_the_rules_page_says_when_and_who_may_ask():
    page = " ".join(tarot("explain", str(GAME)).stdout.split())
    assert (
        "Before trick 2 is led, each of `taker` in turn from the leader may ask who holds"
        " `top_trump`, if `contract == 'high'`; once one asks, every player is told who holds"
        " them"
    ) in page
