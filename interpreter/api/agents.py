"""Players for the Python API: `Agent` to subclass, the built-in players by name, seating.

Where it sits: between a user's code and the engine's agent interface
(`tarot.core.agent`, `choose(state, seat)` returning a legal action's text). A user's
agent subclasses `Agent` and overrides `act(observation, legal_actions)`: it is handed only
what its seat may see (`Observation`, from `tarot.engine.seat_view.SeatView`) and the
legal actions, and returns one of them. The built-in players (`RandomAgent`, `HeuristicAgent`,
`SearchAgent`) are seated exactly as the command line seats them (`tarot.players.lineup`,
seeded per game seed, hand and seat), so a hand played here is the hand `tarot play` plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, ClassVar

from tarot.api.cards import Action, actions_of
from tarot.api.view import Observation, cards_of, guessed_hand, observe
from tarot.core.actions import IllegalAction
from tarot.core.agent import Agent as EngineAgent
from tarot.players.lineup import (
    AGENT_KINDS,
    LineupError,
    agent_seed,
    agent_settings,
    canonical_agent,
    parse_agents,
    seat_agents,
)

if TYPE_CHECKING:
    from tarot.engine.state import HandState

#: how a record names a seat played by the user's code (the record format knows the tool's
#: players and a person)
OWN_PLAYER = "human"


class Agent:
    """A player. Subclass it and override `act`; `start_hand` is called before each hand
    with a seed of that hand and seat, and by default seeds `self.random` with it, so a run
    with the same seed plays the same. `name` (the class's name unless set) labels the
    seat in reports."""

    name: str = ""
    _random: Random | None = None

    def start_hand(self, seed: str) -> None:
        """A new hand begins (`seed`: the game seed, the hand number and the seat)."""
        self._random = Random(f"tarot-api-agent/{seed}")

    @property
    def random(self) -> Random:
        """A random number generator seeded for the hand (by `start_hand`)."""
        if self._random is None:  # asked outside a hand: seeded all the same
            self._random = Random("tarot-api-agent")
        return self._random

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action | str:
        """One of `legal_actions` (or its text) for the seat `observation.seat`."""
        raise NotImplementedError(f"{type(self).__name__} must override act(observation, legal)")

    @property
    def label(self) -> str:
        return self.name or type(self).__name__


class BuiltinAgent(Agent):
    """One of the tool's own players, with its settings (as `--agents KIND:key=value`).

    Called from a user's agent (`helper.act(observation, legal)` inside its own `act`), it
    is one player that lasts: the engine's player is made once and keeps its state (its
    random numbers) from decision to decision, and is made again, seeded afresh, when
    `start_hand(seed)` says a new hand begins. A user's agent that forwards its own
    `start_hand` to its helper gets the same choices on the same seed every time."""

    kind: ClassVar[str]

    def __init__(self, **settings: object) -> None:
        text = ":".join([self.kind, *(f"{key}={value}" for key, value in settings.items())])
        self.spec = _canonical(text)
        self._seed = "0"
        self._engine: EngineAgent | None = None

    def start_hand(self, seed: str) -> None:
        self._seed = seed
        self._engine = None  # the next decision seats the player afresh, with this seed

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action | str:
        """The built-in player's choice, asked directly (by an agent of the user's): it
        decides from what the seat sees, the cards it cannot see guessed (`guessed_hand`), and
        keeps its state from one decision to the next. Seated at a table, it decides through
        the engine as `tarot play` lets it."""
        if self._engine is None:
            kind, settings = agent_settings(self.spec)
            self._engine = AGENT_KINDS[kind](self._seed, **settings)
        return self._engine.choose(guessed_hand(observation), observation.seat)

    @property
    def label(self) -> str:
        return self.spec

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec!r})"


class RandomAgent(BuiltinAgent):
    """Chooses uniformly among the legal actions."""

    kind = "random"


class HeuristicAgent(BuiltinAgent):
    """Looks one action ahead with the ruleset's own payments, then plays by card habits."""

    kind = "heuristic"


class SearchAgent(BuiltinAgent):
    """Plays every choice out on sampled deals (settings: samples, seconds, rollout, batch)."""

    kind = "search"


BUILTIN_AGENTS: dict[str, type[BuiltinAgent]] = {
    cls.kind: cls for cls in (RandomAgent, HeuristicAgent, SearchAgent)
}


def builtin_agent(text: str) -> BuiltinAgent:
    """A built-in player from its text as `--agents` takes it: `search:samples=20`."""
    spec = _canonical(text)
    kind = spec.partition(":")[0]
    if kind not in BUILTIN_AGENTS:  # a kind the command line has and the API not yet
        raise LineupError(f"agent {kind!r}: kinds: " + ", ".join(BUILTIN_AGENTS))
    agent = BUILTIN_AGENTS[kind]()
    agent.spec = spec
    return agent


def _canonical(text: str) -> str:
    """The player's text with its settings checked (`AgentError`, said without the command
    line's flag, for an unknown kind or setting or a bad value)."""
    try:
        return canonical_agent(text)
    except LineupError as error:
        raise LineupError(str(error).replace("--agents ", "agent ", 1)) from None


class _Seated:
    """A user's agent behind the engine's agent interface."""

    name = OWN_PLAYER

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def choose(self, state: HandState, seat: int) -> str:
        observation = observe(state, seat)
        decision = state.decision
        assert decision is not None  # an agent is asked only while a decision is open
        legal = actions_of(decision.kind, decision.actions, cards_of(state.ruleset), state.ruleset)
        answer = self.agent.act(observation, legal)
        text = str(answer) if isinstance(answer, (Action, str)) else None
        if (
            text is None
            or text not in decision.choices
            or (isinstance(answer, Action) and answer.kind != decision.kind.value)
        ):
            shown = ", ".join(decision.choices[:30])
            raise IllegalAction(
                f"{self.agent.label} (seat {seat}) chose {answer!r}, not a legal action of "
                f"this {decision.kind.value} decision; legal: {shown}"
            )
        return text


AgentsGiven = str | Agent | Sequence[str | Agent] | None


@dataclass(frozen=True)
class Lineup:
    """The player of every seat."""

    agents: tuple[Agent, ...]

    @staticmethod
    def of(agents: AgentsGiven, players: int) -> Lineup:
        """From `agents`: None (random players), a text as `--agents` takes it
        (`"search,random,random"`), one agent for every seat, or one per seat (agents or
        texts)."""
        if agents is None:
            agents = "random"
        if isinstance(agents, str):
            return Lineup(tuple(builtin_agent(text) for text in _per_seat(agents, players)))
        given = [agents] if isinstance(agents, Agent) else list(agents)
        if len(given) not in (1, players):
            raise LineupError(
                f"agents: give one for every seat or one per seat ({players}), not {len(given)}"
            )
        seated = [item if isinstance(item, Agent) else _one_agent(item) for item in given]
        return Lineup(tuple(seated * players if len(seated) == 1 else seated))

    @property
    def builtin(self) -> tuple[str, ...] | None:
        """The `--agents` texts, when every seat has a built-in player: one for every seat
        when they are all alike (as the command line writes them), else one per seat."""
        specs = [agent.spec for agent in self.agents if isinstance(agent, BuiltinAgent)]
        if len(specs) != len(self.agents):
            return None
        return (specs[0],) if len(set(specs)) == 1 else tuple(specs)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(agent.label for agent in self.agents)

    def seat(self, seed: int, number: int, players: int) -> list[EngineAgent]:
        """The players of hand `number` (the built-in ones seeded as the command line seeds
        them; a user's agent told that a hand starts)."""
        if self.builtin is not None:
            return seat_agents(self.builtin, seed, number, players)
        seated: list[EngineAgent] = []
        for seat, agent in enumerate(self.agents):
            if isinstance(agent, BuiltinAgent):
                seated.append(seat_agents([agent.spec], seed, number, players)[seat])
            else:
                agent.start_hand(agent_seed(seed, number, seat))
                seated.append(_Seated(agent))
        return seated

    def record_names(self, seed: int, number: int) -> list[str]:
        """The name of each seat's player as a game record gives it."""
        return [
            seat_agents([agent.spec], seed, number, len(self.agents))[0].name
            if isinstance(agent, BuiltinAgent)
            else OWN_PLAYER
            for agent in self.agents
        ]


def _per_seat(text: str, players: int) -> tuple[str, ...]:
    try:
        kinds = parse_agents(text, players)
    except LineupError as error:
        raise LineupError(str(error).replace("--agents ", "agents ", 1)) from None
    return kinds * players if len(kinds) == 1 else kinds


def _one_agent(item: object) -> Agent:
    if isinstance(item, str):
        return builtin_agent(item)
    raise LineupError(
        f"agents: {item!r} is neither a tarot.Agent nor a player's name ({', '.join(AGENT_KINDS)})"
    )


__all__ = [
    "Agent",
    "BuiltinAgent",
    "HeuristicAgent",
    "Lineup",
    "RandomAgent",
    "SearchAgent",
    "builtin_agent",
]
