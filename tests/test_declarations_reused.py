"""What an expression reads (tarot.expressions.dependence), and the declarations the engine
works out once for a seat's cards (`Ruleset.reused_declarations`, phases.declare)."""

from __future__ import annotations

from pathlib import Path

import pytest
from small_games import edited

from tarot.compile.contexts import FACTS, OWN_CARDS
from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.engine.game import deal_hand, play_game, play_hand
from tarot.expressions import Environment, Type, compile_expression, dependence
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent

GAME = Path(__file__).parent / "data" / "rulesets" / "show-give-draw.yaml"
OWN = tuple(OWN_CARDS)


def reads(text: str) -> frozenset[str]:
    environment = Environment(
        variables={"player": Type.SEAT, "dealer": Type.SEAT, "seats": Type.SEATS},
        card_sets={"trumps": frozenset({0, 1, 2})},
        facts=FACTS,
        cards=10,
        seats=3,
    )
    return compile_expression(text, environment, None).reads


@pytest.mark.parametrize(
    "text, expected, own",
    [
        ("count(c in hand(player): c in trumps) >= 3", {"player", "hand(player)"}, True),
        ("count(c in discards(player): c in trumps) + 1", {"player", "discards(player)"}, True),
        ("count(c in hand(dealer): c in trumps) >= 3", {"dealer", "hand(dealer)"}, False),
        ("count(c in hand(next_seat(player)): c in trumps) == 0", None, False),
        ("player == dealer", {"player", "dealer"}, False),
        ("count(c in trumps: c in hand(player)) == tricks_played()", None, False),
        ("any(s in seats: count(c in hand(s): c in trumps) > 2)", {"seats", "hand(?)"}, False),
        ("3 > 2", set(), True),
    ],
)
def test_what_an_expression_reads(text: str, expected: set[str] | None, own: bool) -> None:
    found = reads(text)
    if expected is not None:
        assert found == expected
    assert dependence.only_on_own(found, "player", OWN) is own


def test_a_definition_of_a_seat_reads_for_the_seat_it_is_called_with() -> None:
    body = dependence.as_parameter(frozenset({"p", "hand(p)", "dealer"}), "p")
    assert body == {"@", "hand(@)", "dealer"}
    assert dependence.of_call("held", body, "player", True) == {"player", "hand(player)", "dealer"}
    assert dependence.of_call("held", body, None, True) == {"?", "hand(?)", "dealer"}
    assert dependence.of_call("hand", frozenset(), "player", True) == {"hand(player)"}
    assert dependence.of_call("tricks_played", frozenset(), None, False) == {"tricks_played()"}
    assert dependence.remembered(frozenset({"talon()"})) == {"talon()", dependence.REMEMBERED}
    assert dependence.remembered(frozenset()) == frozenset()


def test_a_seat_definition_reading_the_declarers_cards_keeps_a_declaration_reusable() -> None:
    marolles = load_ruleset("marolles-1637")
    third = next(d for d in marolles.declarations if d.id == "who_has_the_third")
    assert third.on_own_cards, "it reads held(player): hand, discards and cards played"
    assert marolles.reused_declarations == {"before_play"}
    slam = next(d for d in load_ruleset("jeu-de-tarot").declarations if d.id == "slam")
    assert not slam.on_own_cards, "it reads the taker"


def test_the_test_game_reuses_its_declarations_unless_one_reads_more_or_is_compulsory(
    tmp_path: Path,
) -> None:
    assert load_ruleset(GAME).reused_declarations == {"before_play"}

    def reads_the_dealer(document: dict) -> None:
        document["declarations"]["table"][0]["levels"][0]["when"] += " and player != dealer"

    changed = load_ruleset(edited(GAME, tmp_path, reads_the_dealer))
    assert not changed.declarations[0].on_own_cards
    assert changed.reused_declarations == frozenset()

    def compulsory(document: dict) -> None:
        document["declarations"]["table"][1]["compulsory"] = True

    changed = load_ruleset(edited(GAME, tmp_path, compulsory))
    assert all(d.on_own_cards for d in changed.declarations)
    assert changed.reused_declarations == frozenset()


def without_reuse(monkeypatch: pytest.MonkeyPatch, ruleset: Ruleset) -> None:
    monkeypatch.setitem(ruleset.__dict__, "reused_declarations", frozenset())


def random_decisions(ruleset: Ruleset) -> list[list[dict]]:
    agents = [RandomAgent(seat) for seat in range(ruleset.players)]
    return [s.decisions for s in play_game(ruleset, seed=4, agents=agents, hands=12)]


@pytest.mark.parametrize("game", [GAME, "marolles-1637"])
def test_reused_declarations_play_the_same_hands(
    monkeypatch: pytest.MonkeyPatch, game: Path | str
) -> None:
    ruleset = load_ruleset(game)
    reused = random_decisions(ruleset)
    without_reuse(monkeypatch, ruleset)
    assert random_decisions(ruleset) == reused


def test_a_search_players_play_outs_reuse_the_declarations_of_the_same_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ruleset = load_ruleset("marolles-1637")

    def played() -> tuple[list[dict], int]:
        state = deal_hand(ruleset, 2, 1)
        agents = [SearchAgent(f"r/{seat}", samples=2) for seat in range(ruleset.players)]
        play_hand(state, agents)
        return state.decisions, len(state.declarations_seen)

    reused, seen = played()
    assert seen > 3, "the play-outs' declarations are kept by the hand they were guessed from"
    with monkeypatch.context() as patch:
        without_reuse(patch, ruleset)
        assert played() == (reused, 0)
