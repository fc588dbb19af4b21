"""One table of `tarot serve`: people at one seat or several (each reached by its own link,
`tarot.web.seats`), computer players at the others, a game of hands dealt one after the
other.

Where it sits: between the web app (`tarot.web.app`, which turns requests into calls
here) and the engine (`tarot.engine.game.deal_hand`, `HandState.apply_action`), with the
computer players seated as `tarot play` seats them (`tarot.players.lineup`). A table
keeps the actions of every hand as texts; that list, with how the table was set up, is all it
needs to be rebuilt (`TableSetup`, written by `tarot.web.tables` after every action).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from tarot.core.actions import IllegalAction
from tarot.core.agent import Agent
from tarot.core.ruleset import Ruleset
from tarot.engine.game import deal_hand, game_winners
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState
from tarot.errors import TarotError
from tarot.expressions.builtins import Number
from tarot.players.lineup import parse_agents, seat_agents
from tarot.presentation.seat_news import Seen, news_lines
from tarot.presentation.seat_screen import capital, refusal
from tarot.records.record import game_record

PERSON = "human"  # how a game record names the person's seat


class Refused(TarotError):
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
    # the seats people sit at (`seat`, who opened the table, among them), each with the secret
    # token its link carries (`tarot.web.seats`); none in a table kept before there were any
    tokens: dict[int, str] = field(default_factory=dict)

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
            "tokens": {str(seat): token for seat, token in self.tokens.items()},
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
            {int(seat): str(token) for seat, token in data.get("tokens", {}).items()},
        )


class Table:
    """A game at one table: people at some seats, computer players at the others. Every
    public method is called under `lock`."""

    def __init__(
        self,
        table_id: str,
        ruleset: Ruleset,
        setup: TableSetup,
        think_seconds: float | None = None,
    ) -> None:
        for seat in {setup.seat, *setup.tokens}:
            if not 0 <= seat < ruleset.players:
                raise Refused(
                    400, f"seat {seat}: {ruleset.id} has seats 0 to {ruleset.players - 1}"
                )
        self.id = table_id
        self.ruleset = ruleset
        self.setup = setup
        self.people = frozenset({setup.seat, *setup.tokens})  # the seats people sit at
        self.kinds = parse_agents(setup.agents, ruleset.players)
        self.think_seconds = think_seconds  # a computer player's time per decision, at most
        self.lock = threading.Lock()
        self.finished: list[HandState] = []
        self._told: dict[int, _Told] = {}  # per person, what it was told of the hand in play
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
    def totals_before(self) -> list[Number]:
        """The game totals before the hand in play."""
        totals: list[Number] = [0] * self.ruleset.players
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
        """A person's action at `seat`, then the computer players' until it is a person's
        turn again or the hand is over."""
        if seat not in self.people:
            raise Refused(403, f"seat {seat} is played by the computer")
        decision = self._state.decision
        if decision is None:
            raise Refused(409, f"hand {self._state.number} is over: deal the next hand")
        if decision.seat != seat:
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
        for seat in self.people:
            names[seat] = PERSON
        return names

    def record(self) -> dict:
        """The game record of the finished hands (as `tarot play --record` writes it)."""
        return game_record(self.ruleset, self.setup.seed, self.agent_names(), self.finished)

    def news(self, seat: int | None = None) -> tuple[list[str], int]:
        """Catch a person's log up with the hand (what the seat has not been told yet): the
        whole log of the hand, and where the part not handed out before begins."""
        seat = self.seat if seat is None else seat
        told = self._told.setdefault(seat, _Told())
        told.log += news_lines(SeatView(self._state, seat), told.seen)
        start, told.viewed = told.viewed, len(told.log)
        return told.log, start

    def _deal(self) -> None:
        number = len(self.setup.hands) + 1
        previous = self.finished[-1] if self.finished else None
        lasting = previous.lasting if previous is not None else None
        self._state = deal_hand(self.ruleset, self.setup.seed, number, self.totals_before, lasting)
        self._agents: Sequence[Agent] = seat_agents(
            self.kinds, self.setup.seed, number, self.ruleset.players
        )
        for agent in self._agents:  # those that think bound their time (`web.thinking`)
            if hasattr(agent, "time_cap"):
                agent.time_cap = self.think_seconds
        self.setup.hands.append([])
        self._told = {}

    def _apply(self, action: str) -> None:
        self._state.apply_action(action)
        self.setup.hands[-1].append(action)
        if self._state.is_terminal():
            self.finished.append(self._state)

    def _computers_move(self) -> None:
        state = self._state
        while (decision := state.decision) is not None and decision.seat not in self.people:
            self._apply(self._agents[decision.seat].choose(state, decision.seat))


@dataclass
class _Told:
    """What one person was told of the hand in play: the lines in order, how many of them
    a view handed out, how far into the hand they go."""

    log: list[str] = field(default_factory=list)
    viewed: int = 0
    seen: Seen = field(default_factory=Seen)
