"""One table of `tarot serve`: a person at one seat, computer players at the others, a game
of hands dealt one after the other.

Where it sits: between the web app (`tarot.web.app`, which turns requests into calls
here) and the engine (`tarot.engine.game.deal_hand`, `HandState.apply_action`), with the
computer players seated as `tarot play` seats them (`tarot.agents.lineup`). A table
keeps the actions of every hand as texts; that list, with how the table was set up, is all it
needs to be rebuilt (`TableSetup`, written by `tarot.web.tables` after every action).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from tarot.agents.base import Agent
from tarot.agents.lineup import parse_agents, seat_agents
from tarot.engine.actions import IllegalAction
from tarot.engine.game import deal_hand, game_winners
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState
from tarot.record import game_record
from tarot.ruleset import Ruleset
from tarot.table_news import Seen, news_lines
from tarot.table_view import capital, refusal

PERSON = "human"  # how a game record names the person's seat


class Refused(Exception):
    """A request the table refuses, with the HTTP status that says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class TableSetup:
    """How a table was set up, and every action taken at it: what rebuilds it."""

    ruleset: str  # a built-in name, or the path of the uploaded file
    options: dict[str, str]
    seat: int
    agents: str  # the computer players, as `tarot play --agents` takes them
    seed: int
    hands: list[list[str]] = field(default_factory=list)  # per hand, its actions in order
    # the seed deals every hand: the page is told it only when the person chose it or has
    # taken the record (which holds it)
    seed_known: bool = True

    def as_json(self) -> dict:
        return {
            "format": "tarot-web-table/1",
            "ruleset": self.ruleset,
            "options": self.options,
            "seat": self.seat,
            "agents": self.agents,
            "seed": self.seed,
            "hands": self.hands,
            "seed_known": self.seed_known,
        }

    @staticmethod
    def of_json(data: dict) -> TableSetup:
        return TableSetup(
            str(data["ruleset"]),
            {str(k): str(v) for k, v in data["options"].items()},
            int(data["seat"]),
            str(data["agents"]),
            int(data["seed"]),
            [[str(action) for action in hand] for hand in data["hands"]],
            bool(data.get("seed_known", True)),  # tables kept before the field showed it
        )


class Table:
    """A game at one table. Every public method is called under `lock`."""

    def __init__(self, table_id: str, ruleset: Ruleset, setup: TableSetup) -> None:
        if not 0 <= setup.seat < ruleset.players:
            raise Refused(
                400, f"seat {setup.seat}: {ruleset.id} has seats 0 to {ruleset.players - 1}"
            )
        self.id = table_id
        self.ruleset = ruleset
        self.setup = setup
        self.kinds = parse_agents(setup.agents, ruleset.players)
        self.lock = threading.Lock()
        self.finished: list[HandState] = []
        self.log: list[str] = []  # what the person was told of the hand in play, in order
        self.viewed = 0  # how much of `log` the last view handed out
        self._seen = Seen()
        played = setup.hands or [[]]
        setup.hands = []
        for actions in played:
            self._deal()
            for action in actions:
                self._apply(action)
        self._computers_move()

    @property
    def seat(self) -> int:
        return self.setup.seat

    @property
    def state(self) -> HandState:
        return self._state

    @property
    def totals_before(self) -> list[float]:
        """The game totals before the hand in play."""
        totals = [0.0] * self.ruleset.players
        for hand in self.finished:
            if hand is self._state:
                break
            totals = [t + r for t, r in zip(totals, hand.returns(), strict=True)]
        return totals

    def winners(self) -> tuple[int, ...]:
        """Who has won the game, once it is over; () while it goes on."""
        return game_winners(self.finished[-1]) if self.finished else ()

    def may_deal(self) -> bool:
        """Whether another hand may be dealt: this one is over and the game goes on."""
        if not self._state.is_terminal() or self.winners():
            return False
        game = self.ruleset.game
        return game is None or self._state.number < game.max_hands

    def act(self, seat: int, action: str) -> None:
        """The person's action at `seat`, then the computer players' until it is the
        person's turn again or the hand is over."""
        if seat != self.seat:
            raise Refused(
                403, f"you sit at seat {self.seat}; seat {seat} is played by the computer"
            )
        decision = self._state.decision
        if decision is None:
            raise Refused(409, f"hand {self._state.number} is over: deal the next hand")
        if decision.seat != self.seat:
            raise Refused(409, f"it is seat {decision.seat}'s turn, not yours")
        try:
            self._apply(action)
        except IllegalAction:
            why = refusal(SeatView(self._state, seat), action)  # as the terminal words it
            raise Refused(422, capital(why) + ".") from None
        self._computers_move()

    def deal_next(self) -> None:
        if not self._state.is_terminal():
            raise Refused(409, f"hand {self._state.number} is not over yet")
        if not self.may_deal():
            raise Refused(409, "the game is over: no more hands are dealt")
        self._deal()
        self._computers_move()

    def agent_names(self) -> list[str]:
        names = [agent.name for agent in self._agents]
        names[self.seat] = PERSON
        return names

    def record(self) -> dict:
        """The game record of the finished hands (as `tarot play --record` writes it)."""
        return game_record(self.ruleset, self.setup.seed, self.agent_names(), self.finished)

    def news(self) -> list[str]:
        """Catch the log up with the hand (what the seat has not been told yet)."""
        self.log += news_lines(SeatView(self._state, self.seat), self._seen)
        return self.log

    def _deal(self) -> None:
        number = len(self.setup.hands) + 1
        previous = self.finished[-1] if self.finished else None
        lasting = previous.lasting if previous is not None else None
        self._state = deal_hand(self.ruleset, self.setup.seed, number, self.totals_before, lasting)
        self._agents: Sequence[Agent] = seat_agents(
            self.kinds, self.setup.seed, number, self.ruleset.players
        )
        self.setup.hands.append([])
        self.log, self.viewed, self._seen = [], 0, Seen()

    def _apply(self, action: str) -> None:
        self._state.apply_action(action)
        self.setup.hands[-1].append(action)
        if self._state.is_terminal():
            self.finished.append(self._state)

    def _computers_move(self) -> None:
        state = self._state
        while (decision := state.decision) is not None and decision.seat != self.seat:
            self._apply(self._agents[decision.seat].choose(state, decision.seat))
        self.news()
