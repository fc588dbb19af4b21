"""Seating players for a hand: which kind of agent sits in each seat, and its seed.

Every hand gets fresh agents seeded from (game seed, hand number, seat), so hand N plays the
same whether it is played alone (`tarot play --hand N`), as part of a game, in another process
(`tarot simulate --jobs`), or under a second ruleset for a paired comparison (`tarot diff`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from interpreter.agents.base import Agent
from interpreter.agents.heuristic_agent import HeuristicAgent
from interpreter.agents.random_agent import RandomAgent

AGENT_KINDS: dict[str, Callable[[str], Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
}


class LineupError(ValueError):
    """An --agents value that names an unknown kind or the wrong number of seats."""


def parse_agents(text: str, players: int) -> tuple[str, ...]:
    """`--agents heuristic` (every seat) or `--agents heuristic,random,random` (per seat)."""
    kinds = tuple(kind.strip() for kind in text.split(","))
    unknown = [kind for kind in kinds if kind not in AGENT_KINDS]
    if unknown:
        raise LineupError(
            f"--agents {text}: no agent kind {unknown[0]!r}; kinds: " + ", ".join(AGENT_KINDS)
        )
    if len(kinds) not in (1, players):
        raise LineupError(
            f"--agents {text}: give one kind for every seat or one per seat ({players}), "
            f"not {len(kinds)}"
        )
    return kinds


def agent_seed(seed: int, number: int, seat: int) -> str:
    return f"{seed}/{number}/{seat}"


def seat_agents(kinds: Sequence[str], seed: int, number: int, players: int) -> list[Agent]:
    """Fresh agents for hand `number`: one kind for every seat, or one kind per seat."""
    if len(kinds) not in (1, players):
        raise ValueError(f"give one agent kind for all seats or one per seat ({players})")
    chosen = list(kinds) * players if len(kinds) == 1 else list(kinds)
    return [AGENT_KINDS[kind](agent_seed(seed, number, seat)) for seat, kind in enumerate(chosen)]
