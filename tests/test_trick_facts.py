"""The language's facts about finished tricks and the game (`winning_card(n)`,
`hand_number()`, `first_cards(seat, n)`), the `level` a declaration's `shows` sees, and the
direction of play as an option read by the transcript, on a small game written for the test:
three players, twelve cards (two suits of four, three trumps and the Fool), four each."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand, play_game, play_hand
from tarot.engine.state import HandState
from tarot.players.random_agent import RandomAgent
from tarot.presentation.transcript import hand_transcript

SMALL_GAME = """\
title: Trick facts, a small game for the tests
sources:
  test: {citation: "Written for the tests."}
players: {count: 3, direction: {option: direction}, source: test}
options:
  direction:
    description: Which way play passes.
    default: clockwise
    readings:
      clockwise: {description: To the left., source: test, value: clockwise}
      anticlockwise: {description: To the right., source: test, value: anticlockwise}
deck:
  source: test
  suits: [{name: a, pips: natural}, {name: b, pips: natural}]
  courts: []
  pips: 4
  trumps: 3
  fool: true
  card_sets:
    trumps: {trumps: all}
    fool: {fool: true}
deal:
  source: test
  first_dealer: 0
  next_dealer: next
  packets: [{rounds: 4, each: 1}]
redeal:
  - id: fool_second
    when: >-
      any(c in first_cards(player, 2): c in fool)
      and not any(c in first_cards(player, 1): c in fool)
    source: test
declarations:
  source: test
  maximal: false
  table:
    - id: run
      name: A run of low trumps
      source: test
      shows: >-
        [c in hand(player) if c in trumps
        and trump_number(c) <= (if level == 'two' then 2 else 1)]
      levels:
        - {id: one, when: "any(c in hand(player): trump_number(c) == 1)", value: 1}
        - id: two
          when: "count(c in hand(player): trump_number(c) <= 2 and c in trumps) == 2"
          value: 2
play: {source: test, excuse: {in_last_trick: kept}}
counting:
  source: test
  method: sum
  values: [{set: trumps, value: 1}]
settlement:
  - id: last_won_by_trump
    name: The last trick won with a trump
    from: "opponents(last_trick_winner())"
    to: "last_trick_winner()"
    when: "any(c in winning_card(tricks_played()): c in trumps)"
    amount: "10 * hand_number() + count(winning_card(tricks_played() + 1))"
    source: test
"""


@pytest.fixture(scope="module")
def small_game(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("facts") / "trick-facts.yaml"
    path.write_text(SMALL_GAME, encoding="utf-8")
    return path


def test_winning_card_and_hand_number(small_game):
    ruleset = load_ruleset(small_game)
    trumps = ruleset.deck.sets["trumps"]
    paid = unpaid = 0
    for number in range(1, 40):
        state = deal_hand(ruleset, 4, number)
        play_hand(state, [RandomAgent(f"facts/{number}/{s}") for s in range(3)])
        if state.thrown_in is not None:
            continue
        last = state.tricks[-1]
        card = next(c["card"] for c in last["cards"] if c["seat"] == last["winner"])
        payments = [p for p in state.payments if p.rule == "last_won_by_trump"]
        if ruleset.deck.by_id[card] in trumps:
            paid += 1
            # 10 a hand number; a trick past the last has no winning card
            assert {(p.payee, p.amount) for p in payments} == {(last["winner"], 10 * number)}
            assert len(payments) == 2
        else:
            unpaid += 1
            assert payments == []
    assert paid > 3 and unpaid > 3


@pytest.mark.parametrize(("position", "thrown"), [(0, False), (3, True), (6, False)])
def test_first_cards_are_the_first_dealt_to_the_seat(small_game, position, thrown):
    ruleset = load_ruleset(small_game)
    fool = ruleset.deck.by_id["fool"]
    pack = [c for c in range(12) if c != fool]
    pack.insert(position, fool)  # dealt one at a time from seat 1: its 1st, 2nd, 3rd card
    state = HandState(ruleset, 0, pack)
    assert fool in state.deal.hands_dealt[1]
    assert (state.thrown_in == "fool_second") is thrown


@pytest.mark.parametrize(
    ("level", "shown"), [("one", ["trump-1"]), ("two", ["trump-1", "trump-2"])]
)
def test_what_a_declaration_shows_may_depend_on_the_level(small_game, level, shown):
    ruleset = load_ruleset(small_game)
    by_id = ruleset.deck.by_id
    # seat 1 is dealt the 1st, 4th, 7th and 10th cards
    wanted = {0: "trump-1", 3: "trump-2", 6: "a-1", 9: "a-2"}
    rest = iter(c for c in range(12) if ruleset.deck.cards[c].id not in wanted.values())
    pack = [by_id[wanted[i]] if i in wanted else next(rest) for i in range(12)]
    state = HandState(ruleset, 0, pack)
    while state.decision.seat != 1:
        state.apply_action(state.legal_actions()[-1])
    assert state.legal_actions() == ["run:one", "run:two", "run:none"]
    state.apply_action(f"run:{level}")
    cards = ruleset.deck.cards
    assert [sorted(cards[c].id for c in cs) for _s, _w, cs in state.shown] == [shown]


@pytest.mark.parametrize(("reading", "side"), [("clockwise", "left"), ("anticlockwise", "right")])
def test_the_direction_of_play_is_read_by_the_transcript(small_game, reading, side):
    ruleset = load_ruleset(small_game, choices={"direction": reading})
    assert ruleset.direction == reading
    states = play_game(ruleset, 2, [RandomAgent(str(s)) for s in range(3)], hands=1)
    text = hand_transcript(states[0])
    assert f"Deal (play passes {reading}, so each seat's next sits on its {side}):" in text
