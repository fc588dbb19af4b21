"""An information-set Monte Carlo tree search player for any ruleset (ISMCTS).

Where it sits: beside the search agent (`tarot.players.search_agent`, perfect-information
Monte Carlo), chosen with `--agents ismcts` (with settings: `--agents
ismcts:iterations=400:c=0.5`). Single-observer ISMCTS (Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", 2012; as OpenSpiel's ISMCTS bot): one tree for the
deciding seat, grown over many iterations, each on its own guess at the hidden cards:

  1. determinize: deal the cards the seat cannot see again, consistently with what it has
     seen (`tarot.players.sampling`, built on the seat's `SeatView`);
  2. select: from the root (the seat's present decision), at each of the seat's own decisions
     choose among the actions legal in this guess by UCB1 with availability counts (an
     action's exploration counts the iterations in which it was legal, not all of them); the
     other seats' decisions are taken by the play-out habits (`tarot.players.playouts`),
     and what the seat sees of them (their actions, but the choice of a private one, such as a
     discard), together with its own hand and the cards shown, names the next node: the tree
     is keyed by the seat's own actions and observations, never by the hidden cards;
  3. expand: the first of the seat's actions not yet tried at a node (drawn at random);
  4. play out: the hand finished with the greedy habits for every seat, as the search player
     plays out;
  5. back up: the seat's result (`HandState.returns`) added to every action taken on the way.

Unlike the search player, the seat's later decisions in an iteration are chosen without
knowing the guess (the tree is shared by every guess), so it does not count on knowing cards
it will never see ("strategy fusion"). The action tried most often at the root is chosen;
where the decision has a conservative answer (a pass, no declaration) another replaces it only
when its mean beats the conservative answer's by more than `CONFIDENCE` standard errors (as
the search player's `judging.pick`: a bid that looks good by luck is not made).

Results are scaled by the spread of the results seen at this decision, so the exploration
constant `c` means the same in every ruleset whatever its unit.

How it compares with the search player, as measured: the documentation site's page on the
players' strength (`docs/players/strength.md`).

Settings:
  iterations=N  iterations per decision (default DEFAULT_ITERATIONS); reproducible from the
                seed and settings.
  seconds=S     iterate until S seconds have passed (at least one iteration) instead; with
                iterations=N also given, stop at whichever comes first. Not reproducible.
  c=X           the UCB exploration constant on the scaled results (default DEFAULT_C).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from tarot.core.actions import Action
from tarot.core.agent import decision_deadline
from tarot.engine.collector import few_collections
from tarot.engine.seat_view import PRIVATE_KINDS, SeatView
from tarot.engine.state import HandState
from tarot.expressions.numbers import approximate
from tarot.players.judging import CONFIDENCE, conservative
from tarot.players.playouts import greedy_policy, play_out
from tarot.players.sampling import Sampler

DEFAULT_ITERATIONS = 200
DEFAULT_C = 0.7
MAX_ITERATIONS = 100_000
MAX_SECONDS = 3600.0


@dataclass
class Edge:
    """One of the seat's actions at a node: how often it was legal, taken, and what it gave."""

    available: int = 0
    visits: int = 0
    total: float = 0.0
    squares: float = 0.0
    children: dict[Hashable, Node] = field(default_factory=dict)

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def standard_error(self) -> float:
        if self.visits < 2:
            return math.inf
        variance = (self.squares - self.total**2 / self.visits) / (self.visits - 1)
        return math.sqrt(max(variance, 0.0) / self.visits)


@dataclass
class Node:
    """An information set of the deciding seat: its actions tried there."""

    edges: dict[Action, Edge] = field(default_factory=dict)


class IsmctsAgent:
    """Chooses by a tree search over its own information sets, on guessed deals."""

    SETTINGS = {"iterations": int, "seconds": float, "c": float}

    def __init__(
        self,
        seed: int | str = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = DEFAULT_C,
    ) -> None:
        if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError(f"iterations must be from 1 to {MAX_ITERATIONS:,}, not {iterations}")
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError(
                f"seconds must be more than 0 and at most {MAX_SECONDS:g}, not {seconds}"
            )
        if not 0 <= c <= 100:  # also refuses nan
            raise ValueError(f"c must be from 0 to 100, not {c}")
        self.iterations = (
            iterations if iterations is not None or seconds is not None else DEFAULT_ITERATIONS
        )
        self.seconds = seconds
        #: at most this many seconds per decision whatever the settings (a table of `tarot
        #: serve` sets it)
        self.time_cap: float | None = None
        self.c = c
        self.rng = random.Random(f"tarot-agent/ismcts/{seed}")
        settings = [
            f"{key}={value}"
            for key, value, default in (
                ("iterations", iterations, None),
                ("seconds", seconds, None),
                ("c", c, DEFAULT_C),
            )
            if value != default
        ]
        self.name = f"ismcts({', '.join(settings)})" if settings else "ismcts"

    def choose(self, state: HandState, seat: int) -> str:
        decision = state.decision
        assert decision is not None  # an agent is asked only while a decision is open
        if len(decision.choices) == 1:
            return decision.choices[0]
        root = self.search(Sampler(state, seat, SeatView(state, seat)), seat)
        index = self._pick(decision.actions, root)
        return decision.choices[index]

    def search(self, sampler: Sampler, seat: int) -> Node:
        """The tree grown from the sampler's view of the seat's decision."""
        root = Node()
        spread = _Spread()
        deadline = decision_deadline(self.seconds, self.time_cap)
        done = 0
        with few_collections():
            while done == 0 or self._more(done, deadline):
                guess = sampler.sample(self.rng)
                guess.keeps_log = False
                result = self._iterate(root, guess, seat, spread)
                spread.add(result)
                done += 1
        return root

    def _more(self, done: int, deadline: float | None) -> bool:
        if self.iterations is not None and done >= self.iterations:
            return False
        return deadline is None or time.perf_counter() < deadline

    def _iterate(self, root: Node, guess: HandState, seat: int, spread: _Spread) -> float:
        """One iteration on one guess: select, expand, play out; back up; the seat's result."""
        rng = self.rng
        node: Node | None = root
        taken: list[Edge] = []
        while node is not None and (decision := guess.decision) is not None:
            actions = decision.actions
            edges = node.edges
            for action in actions:
                edge = edges.get(action)
                if edge is None:
                    edge = edges[action] = Edge()
                edge.available += 1
            untried = [action for action in actions if edges[action].visits == 0]
            if untried:
                action = untried[0] if len(untried) == 1 else rng.choice(untried)
                node = None  # expanded: the rest is played out
            else:
                action = self._select(actions, edges, spread)
            edge = edges[action]
            taken.append(edge)
            guess.apply_action(action)
            if node is not None:
                seen = _to_own_decision(guess, seat, rng)
                child = edge.children.get(seen)
                node = edge.children[seen] = child if child is not None else Node()
        play_out(guess, greedy_policy, rng)
        result = approximate(guess.returns()[seat])  # a float for the statistics
        for edge in taken:
            edge.visits += 1
            edge.total += result
            edge.squares += result * result
        return result

    def _select(
        self, actions: Sequence[Action], edges: dict[Action, Edge], spread: _Spread
    ) -> Action:
        """UCB1 on the scaled results, counting each action's availability (ties: first)."""
        scale = spread.width()
        best, best_score = actions[0], -math.inf
        for action in actions:
            edge = edges[action]
            score = edge.mean() / scale + self.c * math.sqrt(math.log(edge.available) / edge.visits)
            if score > best_score:
                best, best_score = action, score
        return best

    def _pick(self, actions: Sequence[Action], root: Node) -> int:
        """The index of the action tried most (then of the best mean, then the first); a
        conservative answer kept unless clearly beaten."""
        edges = [root.edges.get(action, Edge()) for action in actions]
        best = max(range(len(actions)), key=lambda i: (edges[i].visits, edges[i].mean(), -i))
        safe = conservative(actions)
        if safe is None or safe == best:
            return best
        chosen, kept = edges[best], edges[safe]
        if kept.visits == 0:
            return best
        margin = CONFIDENCE * math.hypot(chosen.standard_error(), kept.standard_error())
        return best if chosen.mean() - kept.mean() > margin else safe


def _to_own_decision(state: HandState, seat: int, rng: random.Random) -> Hashable:
    """Play the other seats' decisions (and the seat's own forced ones) by the play-out
    habits until the seat has a choice to make or the hand ends; what the seat saw on the
    way, with its own hand and the cards shown then, names the node it reaches."""
    seen: list[object] = []
    while (decision := state.decision) is not None:
        actions = decision.actions
        if decision.seat == seat and len(actions) > 1:
            break
        action = actions[0] if len(actions) == 1 else greedy_policy(state, rng)
        private = decision.seat != seat and decision.kind in PRIVATE_KINDS
        seen.append((decision.seat, decision.kind, None if private else action))
        state.apply_action(action)
    return (
        tuple(seen),
        tuple(sorted(state.playable(seat))),
        tuple((holder, what, tuple(cards)) for holder, what, cards in state.shown),
        tuple(tuple(packet) for packet in state.zones.packets),
    )


class _Spread:
    """The range of the results seen at one decision: the scale of UCB's exploration."""

    def __init__(self) -> None:
        self.low, self.high = math.inf, -math.inf

    def add(self, result: float) -> None:
        self.low, self.high = min(self.low, result), max(self.high, result)

    def width(self) -> float:
        width = self.high - self.low
        return width if width > 0 else 1.0
