"""Helpers shared by the tests of the small games written for them (tests/data/rulesets/):
moves said seat by seat, expressions compiled where the settlement stands, a game edited into
a temporary file and the problems its loading reports, and replayed games of each player."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tarot.compile.contexts import FACTS
from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.core.vocabulary import variables_for
from tarot.engine.game import play_game
from tarot.engine.state import HandState
from tarot.errors import RulesetError
from tarot.expressions import CompiledExpression, Environment, compile_expression
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent
from tarot.records.record import game_record
from tarot.records.replay import replay_record


def pack_for(ruleset: Ruleset, hands: dict[int, list[str]], talon: list[str]) -> list[int]:
    """The pack that deals seat `s` the cards `hands[s]` (by id) and the talon `talon` when
    seat 0 deals, in the ruleset's own packets; every card must be placed."""
    where = HandState(ruleset, 0, list(range(len(ruleset.deck))))  # card index = position
    places = [*(where.deal.hands_dealt[s] for s in range(ruleset.players)), where.deal.talon_dealt]
    wanted = [*(hands[s] for s in range(ruleset.players)), talon]
    pack = dict.fromkeys(range(len(ruleset.deck)), -1)
    for positions, cards in zip(places, wanted, strict=True):
        assert len(positions) == len(cards), cards
        for position, card in zip(sorted(positions), cards, strict=True):
            pack[position] = ruleset.deck.by_id[card]
    assert sorted(pack.values()) == list(range(len(ruleset.deck)))
    return list(pack.values())


def say(state: HandState, *moves: tuple[int, str]) -> None:
    """Each (seat, choice) in turn: the seat must be the one asked, and the choice legal."""
    for seat, choice in moves:
        assert state.current_player() == seat, (seat, choice, state.legal_actions())
        state.apply_action(choice)


def compiled(ruleset: Ruleset, expression: str) -> CompiledExpression:
    """An expression compiled where the settlement stands in a game with an auction whose
    contracts give `base`."""
    environment = Environment(
        variables=variables_for("settlement", False, True),
        card_sets=ruleset.deck.sets,
        facts=FACTS,
        contract_values=frozenset({"base"}),
        cards=len(ruleset.deck),
        seats=ruleset.players,
    )
    return compile_expression(expression, environment, None)


def edited(game: Path, tmp_path: Path, change: Callable[[dict], None]) -> Path:
    """The game's document changed by `change`, written to a file of its own."""
    document = yaml.safe_load(game.read_text(encoding="utf-8"))
    change(document)
    path = tmp_path / "edited.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return path


def problems(path: Path) -> str:
    """Everything loading the file reports (it must fail)."""
    with pytest.raises(RulesetError) as error:
        load_ruleset(path)
    return str(error.value)


def replayed_games(ruleset: Ruleset, seed: int, hands: int, mixed: bool) -> list[HandState]:
    """A game of random players (or, `mixed`, heuristic, search and random ones), checked to
    replay from its record."""
    agents = (
        [HeuristicAgent(1), SearchAgent(2, samples=2), HeuristicAgent(3), RandomAgent(4)]
        if mixed
        else [RandomAgent(seed * 10 + s) for s in range(ruleset.players)]
    )
    states = play_game(ruleset, seed, agents, hands=hands)
    assert all(state.is_terminal() for state in states)
    record = game_record(ruleset, seed, [agent.name for agent in agents], states)
    replay_record(record, ruleset)
    return states
