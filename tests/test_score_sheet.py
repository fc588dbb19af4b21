"""The score sheet of a finished hand, built from the ruleset's own settlement: for every
built-in game, its rows add up to what was paid; the terms are the parameters, contract values
and definitions the settlement reads (through other definitions too), with their values; the
same sheet in `tarot play`'s transcript, at the terminal's seat and in the browser; the running
totals of a sitting."""

from __future__ import annotations

import io

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand
from tarot.engine.score_sheet import running_lines, score_sheet, sheet_lines
from tarot.engine.state import HandState
from tarot.load import paths
from tarot.players.lineup import parse_agents, seat_agents
from tarot.presentation.human_seat import HumanAgent
from tarot.presentation.transcript import hand_transcript

#: every built-in family's base game (the variants change options, not the settlement's form)
GAMES = sorted({path.parent.name for path in paths.builtin_rulesets().values()})


def _played(name: str, seed: int = 1) -> HandState:
    """A hand of the game played to its end by heuristic players, the first not thrown in."""
    ruleset = load_ruleset(name)
    players = ruleset.players
    for tried in range(seed, seed + 30):
        state = deal_hand(ruleset, tried, 1, [0] * players, None)
        agents = seat_agents(parse_agents("heuristic", players), tried, 1, players)
        while not state.is_terminal():
            seat = state.decision.seat
            state.apply_action(agents[seat].choose(state, seat))
        if state.thrown_in is None:
            return state
    raise AssertionError(f"{name}: thirty deals thrown in")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_sheet_whose_rows_add_up_to_what_was_paid(game: str) -> None:
    state = _played(game)
    sheet = score_sheet(state)
    assert sheet.net == tuple(state.returns())
    paid = [sum(net[s] for _label, net in sheet.paid) for s in range(state.ruleset.players)]
    scored = [state.scores[s] for s in range(state.ruleset.players)]
    assert [p + s for p, s in zip(paid, scored, strict=True)] == pytest.approx(list(sheet.net))
    assert sheet.card_points == tuple(state.card_points())
    names = [f"seat {s}" for s in range(state.ruleset.players)]
    lines = sheet_lines(sheet, names, state.ruleset.unit.plural)
    assert lines[0] == "Score sheet, hand 1:"
    assert lines[-1].split()[:2] == ["net", f"({state.ruleset.unit.plural})"]
    assert "\n".join(lines) in hand_transcript(state)  # the same sheet in `tarot play`


def test_the_terms_are_what_the_settlement_reads_with_their_values() -> None:
    state = _played("french-tarot")
    terms = {term.name: term for term in score_sheet(state).terms}
    ruleset = state.ruleset
    contract = ruleset.bidding.contract(state.auction.contract)
    assert terms["contract"].value.startswith(contract.name)
    assert terms["game"].kind == "parameter" and terms["game"].value == str(ruleset.params["game"])
    multiplier = terms["contract multiplier"]
    assert multiplier.value == str(contract.values["multiplier"])
    # reached through other definitions: the score reads the margin, which reads these
    made = state.side_points(state.auction.taker)
    assert float(terms["points made"].value) == made
    assert terms["target"].description == "The card points the taker needs, by bouts taken."
    margin = float(terms["margin"].value)
    assert margin == made - float(terms["target"].value)
    assert float(terms["score"].value) == abs(state.payments[-1].amount) * (
        1 if state.payments[-1].payee == state.auction.taker else -1
    )


def test_a_game_that_pays_by_rules_shows_each_rule_and_the_parameters_it_reads() -> None:
    state = _played("marolles-1637")
    sheet = score_sheet(state)
    labels = [label for label, _net in sheet.paid]
    assert labels == list(dict.fromkeys(state.ruleset.rule_label(p.rule) for p in state.payments))
    # what its settlement reads; its definitions (read by its declarations) are no terms
    assert {term.name for term in sheet.terms} == {"average", "band"}
    assert state.ruleset.definitions


def test_the_terminal_seat_is_shown_the_sheet_at_the_end_of_the_hand() -> None:
    state = _played("french-tarot")
    output = io.StringIO()
    person = HumanAgent(input=io.StringIO(""), output=output, seat=0)
    person.hand_over(state)
    text = output.getvalue()
    assert "Score sheet, hand 1:" in text and "points made" in text and "Net this hand" in text
    assert "  you " in text or "you" in text.split("Score sheet")[1]


def test_the_running_totals_add_each_hand() -> None:
    lines = running_lines([[2, -1, -1], [-4, 5, -1]], ["you", "seat 1", "seat 2"], "marques")
    assert lines[0] == "The sitting, in marques:"
    assert lines[2].split() == ["1", "+2", "-1", "-1"]
    assert lines[-1].split() == ["total", "-2", "+4", "-2"]
