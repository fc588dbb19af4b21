"""The information-set tree search player (tarot.players.ismcts_agent)."""

from __future__ import annotations

from pathlib import Path

import hands
import pytest
from hands import SEATS, new_hand, play_checking

from tarot.compile.loader import load_ruleset
from tarot.core.actions import Bid, Pass
from tarot.engine.game import deal_hand
from tarot.engine.state import HandState
from tarot.players import ismcts_agent
from tarot.players.ismcts_agent import Edge, IsmctsAgent, Node
from tarot.players.lineup import LineupError, parse_agents
from tarot.players.random_agent import RandomAgent
from tarot.players.sampling import Sampler

MAROLLES = load_ruleset("marolles-1637")
TEST_RULESETS = sorted((Path(__file__).parent / "data" / "rulesets").glob("*.yaml"))
FAMILIES = ["marolles-1637", "french-tarot", "jeu-de-tarot", "early-french"]


def into_play(seed: int, tricks: int) -> HandState:
    """A Marolles hand, with random players, up to the first card of trick `tricks` + 1."""
    return hands.into_play(MAROLLES, seed, tricks)


def test_plays_a_whole_hand_legally_and_reproducibly() -> None:
    def played() -> list[str]:
        state = new_hand(MAROLLES, 2)
        agents = [IsmctsAgent(f"2/{seat}", iterations=6) for seat in range(SEATS)]
        return play_checking(state, agents)

    assert played() == played()


def test_another_seed_plays_otherwise() -> None:
    state = into_play(3, tricks=2)
    seat = state.current_player()
    chosen = {IsmctsAgent(f"s{n}", iterations=2).choose(state, seat) for n in range(12)}
    assert len(chosen) > 1  # two iterations try two cards at random, whichever the seed


@pytest.mark.parametrize("name", FAMILIES + [str(path) for path in TEST_RULESETS])
def test_plays_a_hand_of_every_family_and_mechanism(name: str) -> None:
    """Every decision of the hand taken by ISMCTS players, each choice legal."""
    ruleset = load_ruleset(name)
    state = deal_hand(ruleset, 5, 1)
    agents = [IsmctsAgent(f"5/{seat}", iterations=3) for seat in range(ruleset.players)]
    choices = play_checking(state, agents)
    assert state.is_terminal() and choices


def test_leaves_the_state_alone() -> None:
    state = into_play(4, tricks=10)
    before = ([list(h) for h in state.hands], list(state.decisions), list(state.payments))
    IsmctsAgent("x", iterations=20).choose(state, state.current_player())
    assert ([list(h) for h in state.hands], list(state.decisions), list(state.payments)) == before


def test_guesses_from_the_seats_view_which_lacks_the_hidden_cards(monkeypatch) -> None:
    state = into_play(6, tricks=5)
    seat = state.current_player()
    samplers: list[Sampler] = []

    class Recording(Sampler):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            samplers.append(self)

    monkeypatch.setattr(ismcts_agent, "Sampler", Recording)
    IsmctsAgent("v", iterations=5).choose(state, seat)
    [sampler] = samplers
    view = sampler.view
    hidden = {card for other in range(SEATS) if other != seat for card in state.hands[other]}
    assert view.seat == seat and hidden
    assert set(view.hand) == set(state.hands[seat])
    assert hidden <= view.unseen and not hidden & set(view.hand)


def test_the_same_view_gives_the_same_tree_whatever_the_hidden_cards() -> None:
    """Two states that differ only in the cards the seat cannot see: the same search."""
    state = into_play(7, tricks=3)
    seat = state.current_player()
    others = [other for other in range(SEATS) if other != seat]
    swapped = state.clone()
    a, b = (swapped.zones.hands[other] for other in others)
    n = min(len(a), len(b))
    a[:n], b[:n] = b[:n], a[:n]
    assert swapped.hands != state.hands

    def tree(of: HandState) -> dict:
        agent = IsmctsAgent("same", iterations=30)
        root = agent.search(Sampler(of, seat), seat)
        return {action: (e.visits, e.total) for action, e in root.edges.items()}

    assert tree(state) == tree(swapped)


def test_availability_counts_only_the_iterations_where_an_action_was_legal() -> None:
    state = into_play(8, tricks=4)
    seat = state.current_player()
    agent = IsmctsAgent("a", iterations=40)
    root = agent.search(Sampler(state, seat), seat)
    legal = set(state.legal_moves())
    assert set(root.edges) == legal  # at the root every guess has the seat's own cards
    assert all(edge.available == 40 for edge in root.edges.values())
    assert sum(edge.visits for edge in root.edges.values()) == 40
    deeper = [
        edge
        for first in root.edges.values()
        for child in first.children.values()
        for edge in child.edges.values()
    ]
    assert deeper and all(edge.visits <= edge.available for edge in deeper)


def test_a_pass_is_kept_unless_clearly_beaten() -> None:
    agent = IsmctsAgent("p")
    actions = [Pass(), Bid("small")]

    def root(pass_results: list[float], bid_results: list[float]) -> Node:
        edges = {}
        for action, results in zip(actions, (pass_results, bid_results), strict=True):
            edge = edges[action] = Edge()
            for result in results:
                edge.visits += 1
                edge.total += result
                edge.squares += result * result
        return Node(edges)

    noisy = root([0, 0, 0], [30, -20, 25, -15, 10, -5])  # tried more, mean +4, not clear
    assert agent._pick(actions, noisy) == 0
    clear = root([0, 0, 0], [10, 11, 12, 9, 10, 11])
    assert agent._pick(actions, clear) == 1


def test_a_time_budget_still_takes_one_iteration() -> None:
    state = into_play(9, tricks=6)
    agent = IsmctsAgent("t", seconds=1e-9)
    assert agent.choose(state, state.current_player()) in state.legal_actions()


def test_names_carry_settings_that_differ_from_the_defaults() -> None:
    assert IsmctsAgent("s").name == "ismcts"
    assert IsmctsAgent("s", iterations=50).name == "ismcts(iterations=50)"
    assert IsmctsAgent("s", c=0.3).name == "ismcts(c=0.3)"


@pytest.mark.parametrize(
    "text, message",
    [
        ("ismcts:iterations=0", "iterations must be from 1 to 100,000, not 0"),
        ("ismcts:seconds=0", "seconds must be more than 0 and at most 3600, not 0.0"),
        ("ismcts:c=-1", "c must be from 0 to 100, not -1.0"),
        ("ismcts:c=nan", "c must be from 0 to 100, not nan"),
        ("ismcts:depth=3", "agent 'ismcts' has no setting 'depth'; settings: iterations"),
    ],
)
def test_bad_settings_are_refused(text: str, message: str) -> None:
    with pytest.raises(LineupError, match=message):
        parse_agents(text, 3)


def test_agent_texts_are_canonical() -> None:
    assert parse_agents("ismcts:c=0.7:iterations=50", 3) == ("ismcts:iterations=50",)


@pytest.mark.slow
def test_beats_random_players_on_a_few_marolles_deals() -> None:
    """A sanity check of the search's direction, not of its strength: on the same deals,
    the ISMCTS seat ends above the random seats' mean."""
    ahead = 0.0
    for seed in (1, 2, 3):
        state = new_hand(MAROLLES, seed)
        agents = [IsmctsAgent(f"{seed}", iterations=40), RandomAgent("1"), RandomAgent("2")]
        play_checking(state, agents)
        net = state.returns()
        ahead += net[0] - (net[1] + net[2]) / 2
    assert ahead > 0


def test_level_seats_the_measured_players(capsys) -> None:
    from tarot.cli import main
    from tarot.players.lineup import LEVELS

    assert set(LEVELS) == {"easy", "normal", "strong"}
    for kind in LEVELS.values():
        parse_agents(kind, 3)  # every level names players that exist
    assert main(["play", "marolles-1637", "--seed", "4", "--level", "easy", "--quiet"]) == 0
    by_level = capsys.readouterr().out
    assert (
        main(["play", "marolles-1637", "--seed", "4", "--agents", LEVELS["easy"], "--quiet"]) == 0
    )
    assert capsys.readouterr().out == by_level


def test_level_and_agents_together_are_a_usage_mistake(capsys) -> None:
    from tarot.cli import main

    assert (
        main(["play", "marolles-1637", "--level", "easy", "--agents", "random"]) == 2
    )  # the default
    err = capsys.readouterr().err
    assert "--level and --agents both choose the computer players" in err
    assert "Traceback" not in err
