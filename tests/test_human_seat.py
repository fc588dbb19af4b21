"""A person's seat: `tarot.presentation.human_seat`, `tarot.presentation.seat_screen` and
`tarot play --human SEAT`, driven by scripted input.

The screen must show only what the seat may see, number the legal choices, refuse a wrong
answer without touching the state, and leave cleanly (exit 130, finished hands kept) at the
end of input.
"""

from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from commands import ROOT, tarot

from tarot.compile.loader import load_ruleset
from tarot.core.actions import (
    PASS,
    Bid,
    DecisionKind,
    Declare,
    Double,
    Hold,
    NoDeclaration,
    TakePacket,
)
from tarot.engine.game import deal_hand, play_game
from tarot.engine.seat_view import SeatView
from tarot.engine.state import Decision, HandState
from tarot.players.random_agent import RandomAgent
from tarot.presentation.human_seat import HumanAgent, LeftTable
from tarot.presentation.seat_screen import (
    action_label,
    choice_label,
    decision_lines,
    hand_lines,
    numbered_choices,
    resolve,
    short_name,
    sorted_hand,
)
from tarot.presentation.transcript import hand_transcript

SEED = 3


def scripted(answers: str = "1\n" * 400) -> tuple[HumanAgent, io.StringIO]:
    output = io.StringIO()
    return HumanAgent(input=io.StringIO(answers), output=output), output


def lineup(human: HumanAgent, seat: int, players: int = 3) -> list:
    return [human if s == seat else RandomAgent(f"{SEED}/{s}") for s in range(players)]


def advance_to(state: HandState, seat: int, wanted) -> HandState:
    """Play random moves until `seat` faces a decision for which `wanted(state)` holds."""
    agents = [RandomAgent(f"{SEED}/{s}") for s in range(state.ruleset.players)]
    while not state.is_terminal():
        if state.current_player() == seat and wanted(state):
            return state
        mover = state.current_player()
        state.apply_action(agents[mover].choose(state, mover))
    raise AssertionError("no such decision in this hand")


def must_follow(state: HandState) -> bool:
    """A card decision with a suit card led, where some cards of the hand may not be played."""
    deck = state.ruleset.deck
    return (
        state.decision.kind == "play"
        and bool(state.trick)
        and not deck.cards[state.trick[0][1]].is_trump
        and not deck.cards[state.trick[0][1]].fool
        and 1 < len(state.decision.choices) < len(state.hands[state.decision.seat])
    )


# --- the renderer ---------------------------------------------------------------------------


def test_a_hand_is_sorted_as_players_hold_it(marolles) -> None:
    deck = marolles.deck
    order = [deck.cards[c] for c in sorted_hand(deck, reversed(range(len(deck))))]
    suits = [c for c in order if c.suit is not None]
    trumps = [c for c in order if c.is_trump]
    assert order == suits + trumps + [c for c in order if c.fool]
    assert order[-1].fool
    assert [c.suit for c in suits] == sorted((c.suit for c in suits), key=deck.suits.index)
    for suit in deck.suits:
        strengths = [c.strength for c in suits if c.suit == suit]
        assert strengths == sorted(strengths, reverse=True), suit
    assert [c.trump for c in trumps] == list(range(1, len(trumps) + 1))


def test_the_hand_rows_follow_the_sorted_order_and_number_the_legal_cards(marolles) -> None:
    state = advance_to(deal_hand(marolles, SEED, 1), 1, must_follow)
    numbered = numbered_choices(SeatView(state, 1))
    lines = hand_lines(SeatView(state, 1), numbered)
    rows = [line.split()[0] for line in lines[1:] if line.split()]
    suits_held = {marolles.deck.cards[c].suit for c in state.hands[1]} - {None}
    assert rows[: len(suits_held)] == [s for s in marolles.deck.suits if s in suits_held]
    marks = re.findall(r"\[(\d+)\]", "\n".join(lines))
    assert [int(m) for m in marks] == list(range(1, len(numbered) + 1))
    assert len(numbered) < len(state.hands[1]), "cards that may not be played are shown too"
    deck = marolles.deck
    expected = []
    for index in sorted_hand(deck, state.hands[1]):
        mark = (
            f"[{numbered.index(deck.cards[index].id) + 1}]"
            if deck.cards[index].id in numbered
            else ""
        )
        expected += (mark + short_name(deck.cards[index])).split()
    # each row is "  TITLE  cards..."; a row without a title starts with spaces
    rows = [line[2:].split(None, 1)[1] if line[2] != " " else line for line in lines[1:]]
    assert " ".join(rows).split() == expected


def test_choices_that_are_not_cards_read_as_words(marolles) -> None:
    declaration = marolles.declarations[0]
    level = declaration.levels[0].id
    assert choice_label(marolles, "cups-K") == "King of cups"
    assert choice_label(marolles, f"{declaration.id}:{level}", {level: 2}) == (
        f"declare {declaration.name} ({level.replace('_', ' ')}), worth 2 marques"
    )
    assert choice_label(marolles, f"{declaration.id}:none") == f"do not declare {declaration.name}"
    assert choice_label(marolles, "no_bid") == "no bid"
    # the typed action says the same as its text; the decision's kind reads a text
    by_id = marolles.deck.by_id
    assert action_label(marolles, by_id["cups-K"]) == "King of cups"
    assert action_label(marolles, Declare(declaration.id, level), {level: 2}) == (
        choice_label(marolles, f"{declaration.id}:{level}", {level: 2})
    )
    assert action_label(marolles, NoDeclaration(declaration.id)) == (
        f"do not declare {declaration.name}"
    )
    assert choice_label(marolles, f"{declaration.id}:none", kind="declare") == (
        f"do not declare {declaration.name}"
    )


def test_holds_packets_announcements_and_doublings_read_by_their_names() -> None:
    ruleset = load_ruleset(ROOT / "tests" / "data" / "rulesets" / "auction-packets-doubling.yaml")
    assert ruleset.bidding is not None and ruleset.doubling is not None
    contract = ruleset.bidding.contracts[0]
    target = ruleset.doubling.targets[0]
    step = ruleset.doubling.steps[0]
    assert action_label(ruleset, Hold(contract.id)) == f"hold {contract.name}"
    assert action_label(ruleset, TakePacket(2)) == "take packet 2"
    assert action_label(ruleset, Double(target.id, None)) == f"do not double {target.name}"
    assert action_label(ruleset, Double(target.id, step)) == (
        f"{step.replace('_', ' ')}: {target.name}"
    )
    assert (
        choice_label(ruleset, f"{step}:{target.id}") == f"{step.replace('_', ' ')}: {target.name}"
    )
    assert choice_label(ruleset, f"hold:{contract.id}") == f"hold {contract.name}"


def test_a_decision_of_a_new_kind_is_a_numbered_list(marolles) -> None:
    state = deal_hand(marolles, SEED, 1).clone()
    seat = state.current_player()
    choices = ["pass", "small_game", "cups-K"]
    actions = [PASS, Bid("small_game"), marolles.deck.by_id["cups-K"]]
    state.decision = Decision(seat, DecisionKind.BID, actions, choices)
    text = "\n".join(decision_lines(SeatView(state, seat)))
    assert "Choose (bid):" in text
    assert "[1] pass" in text and "[2] small game" in text and "[3] King of cups" in text
    assert resolve(SeatView(state, seat), "2") == ("small_game", "")
    assert resolve(SeatView(state, seat), "small game") == ("small_game", "")
    assert resolve(SeatView(state, seat), "4")[0] is None


# --- the agent ------------------------------------------------------------------------------


def test_a_whole_hand_answering_1_chooses_the_first_numbered_choice(marolles) -> None:
    human, output = scripted()
    seat = 1
    chosen = []

    class Watching:
        name = "watch"

        def choose(self, state, s):
            first = numbered_choices(SeatView(state, s))[0]
            engine_first = state.legal_actions()[0]
            choice = human.choose(state, s)
            chosen.append((first, choice, engine_first))
            return choice

    agents = lineup(Watching(), seat)  # type: ignore[arg-type]
    (state,) = play_game(marolles, SEED, agents, 1, on_hand=human.hand_over)
    assert state.is_terminal()
    mine = [d["choice"] for d in state.decisions if d["seat"] == seat]
    assert [choice for _first, choice, _engine in chosen] == mine
    assert all(first == choice for first, choice, _engine in chosen)
    assert any(first != engine for first, _choice, engine in chosen), "numbered as sorted"
    text = output.getvalue()
    assert f"=== Hand 1 of {marolles.title}: seat 0 deals; you are seat 1 ===" in text
    assert len(re.findall(r"^You play ", text, re.M)) == len(
        [d for d in state.decisions if d["seat"] == seat and d["kind"] == "play"]
    )
    assert "=== Hand 1 over ===" in text
    names = ["you" if s == seat else f"seat {s}" for s in range(3)]
    net = ", ".join(
        f"{names[s]} {n:+}" if n else f"{names[s]} 0" for s, n in enumerate(state.returns())
    )
    assert f"Net this hand (marques): {net}" in text
    for payment in state.payments:
        assert marolles.rule_label(payment.rule) in text


def test_a_wrong_answer_is_refused_and_asked_again(marolles) -> None:
    state = advance_to(deal_hand(marolles, SEED, 1), 1, must_follow)
    deck = marolles.deck
    illegal = next(
        deck.cards[c] for c in state.hands[1] if deck.cards[c].id not in state.legal_actions()
    )
    elsewhere = next(c for c in deck.cards if c.index not in state.hands[1])
    before = (list(state.decisions), [list(h) for h in state.hands], list(state.payments))
    answers = ["99", "nonsense", illegal.id, elsewhere.label(), "1"]
    human, output = scripted("".join(a + "\n" for a in answers))
    choice = human.choose(state, 1)
    assert choice == numbered_choices(SeatView(state, 1))[0]
    assert (state.decisions, state.hands, state.payments) == before
    text = output.getvalue()
    refusals = re.findall(r"^Not accepted: (.*)$", text, re.M)
    assert len(refusals) == 4, text
    assert refusals[0].startswith("there is no choice [99]")
    assert "not one of the choices" in refusals[1]
    lead = deck.cards[state.trick[0][1]]
    assert refusals[
        2
    ] == f"you may not play {illegal.label()} now: you must follow {lead.suit}." or (
        refusals[2].startswith(f"you may not play {illegal.label()} now")
    )
    assert refusals[3] == f"{elsewhere.label()} is not in your hand."
    assert re.findall(r"^> (.*)$", text, re.M) == answers, "each answer is echoed after a prompt"


def test_a_card_can_be_named_by_its_id_or_its_name(marolles) -> None:
    state = advance_to(deal_hand(marolles, SEED, 1), 1, must_follow)
    last = numbered_choices(SeatView(state, 1))[-1]
    label = marolles.deck.cards[marolles.deck.by_id[last]].label()
    assert resolve(SeatView(state, 1), last.upper()) == (last, "")
    assert resolve(SeatView(state, 1), label.lower()) == (last, "")


def test_help_and_hand_redisplay_do_not_choose(marolles) -> None:
    state = advance_to(deal_hand(marolles, SEED, 1), 1, must_follow)
    human, output = scripted("?\nh\n2\n")
    assert human.choose(state, 1) == numbered_choices(SeatView(state, 1))[1]
    text = output.getvalue()
    assert "h or hand: show the table and your hand again" in text
    assert text.count("--- Hand 1, trick") == 2


def test_end_of_input_and_quit_leave_the_table(marolles) -> None:
    state = advance_to(deal_hand(marolles, SEED, 1), 1, must_follow)
    for answers in ("", "nonsense\n", "quit\n"):
        human, _output = scripted(answers)
        with pytest.raises(LeftTable):
            human.choose(state, 1)


def _forbidden(state: HandState, me: int) -> dict[str, str]:
    """Labels and ids of the cards other seats hold or discarded and have not shown."""
    deck = state.ruleset.deck
    public = {card for _seat, _d, cards in state.shown for card in cards}
    public.add(state.deal.cut_card)
    hidden = {}
    for seat in range(state.ruleset.players):
        if seat != me:
            for card in state.hands[seat] + state.discards[seat]:
                if card not in public:
                    hidden[deck.cards[card].label()] = deck.cards[card].id
    return hidden


def _leaks(text: str, hidden: dict[str, str]) -> list[str]:
    return [
        name
        for pair in hidden.items()
        for name in pair
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w])", text)
    ]


@pytest.mark.parametrize("seed, seat", [(SEED, 0), (SEED, 2), (6, 1), (8, 2)])
def test_the_screen_never_shows_another_seats_cards(marolles, seed: int, seat: int) -> None:
    human, output = scripted()
    checked = []

    class Checking:
        name = "check"

        def choose(self, state, s):
            hidden = _forbidden(state, s)
            start = len(output.getvalue())
            choice = human.choose(state, s)
            leaks = _leaks(output.getvalue()[start:], hidden)
            assert not leaks, (state.decision, leaks)
            checked.append(len(hidden))
            return choice

    agents = [Checking() if s == seat else RandomAgent(f"{seed}/{s}") for s in range(3)]
    (state,) = play_game(marolles, seed, agents, 1)  # type: ignore[arg-type]
    assert len(checked) >= 10 and max(checked) > 20
    # the check is not blind: the omniscient transcript would fail it
    first_hidden = _forbidden(deal_hand(marolles, seed, 1), seat)
    assert _leaks(hand_transcript(state), first_hidden)


# --- the command ----------------------------------------------------------------------------


def test_play_with_a_human_seat_shows_that_seat_and_not_the_transcript() -> None:
    result = tarot("play", "marolles-1637", "--seed", "5", "--human", "1", stdin="1\n" * 200)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Deal:" not in out and not re.search(r"^  Seat \d( \(dealer\))? \[\d+\]:", out, re.M)
    assert "you are seat 1" in out
    assert re.search(r"^Your hand, each suit high to low \(21 cards", out, re.M)
    assert re.search(r"^Trick 20: .*; (you|seat \d) wins?\.$", out, re.M)
    assert "=== Hand 1 over ===" in out
    assert re.search(r"^Totals after 1 hand\(s\), in marques: ", out, re.M)


@pytest.mark.parametrize("seat", ["3", "-1"])
def test_a_seat_the_game_does_not_have_is_refused(seat: str) -> None:
    result = tarot("play", "marolles-1637", "--human", seat)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"--human {seat}: no such seat" in result.stderr
    assert "0 to 2" in result.stderr


@pytest.mark.slow
def test_end_of_input_exits_130_and_keeps_the_finished_hands(tmp_path: Path) -> None:
    one = tarot("play", "marolles-1637", "--seed", "5", "--human", "0", stdin="1\n" * 200)
    assert one.returncode == 0, one.stderr
    answers = len(re.findall(r"^> ", one.stdout, re.M))
    record = tmp_path / "game.json"
    stdin = "1\n" * (answers + 1 + 3)  # hand 1, Enter for the next hand, three answers more
    args = ("--seed", "5", "--human", "0", "--hands", "2", "--record", str(record))
    result = tarot("play", "marolles-1637", *args, stdin=stdin)
    assert result.returncode == 130, (result.stdout[-500:], result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    assert "end of input: stopped during hand 2" in result.stderr
    assert "=== Hand 1 over ===" in result.stdout
    assert "=== Hand 2 of" in result.stdout
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert [hand["number"] for hand in saved["hands"]] == [1]
    assert saved["seats"][0] == {"seat": 0, "agent": "human"}
    replay = tarot("replay", str(record))
    assert replay.returncode == 0, replay.stderr


@pytest.mark.slow
def test_end_of_input_before_any_hand_finishes_writes_no_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = tarot("play", "marolles-1637", "--human", "0", "--record", str(record), stdin="")
    assert result.returncode == 130
    assert "Traceback" not in result.stderr
    assert "no record written" in result.stderr
    assert not record.exists()


@pytest.mark.slow
def test_quiet_with_a_human_seat_keeps_the_questions_and_drops_the_results() -> None:
    result = tarot(
        "play", "marolles-1637", "--human", "2", "--quiet", "--record", "-", stdin="1\n" * 200
    )
    assert result.returncode == 0, result.stderr
    saved = json.loads(result.stdout)
    assert saved["seats"][2]["agent"] == "human"
    assert "Your hand" in result.stderr, "with --record - the screen goes to standard error"
    assert "Hand 1 over" not in result.stderr


@pytest.mark.slow
def test_ctrl_c_at_a_question_exits_130_without_a_traceback() -> None:
    command = [sys.executable, "-m", "tarot", "play", "marolles-1637", "--human", "0"]
    with subprocess.Popen(
        command,
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None
        screen = ""
        while not screen.endswith("? for help.\n"):
            line = process.stdout.readline()
            assert line, "the game ended before asking anything"
            screen += line
        time.sleep(0.2)  # let it reach the read of the answer
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted: stopped during hand 1" in err
