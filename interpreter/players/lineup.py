"""Seating players for a hand: which kind of agent sits in each seat, its settings, its seed.

Every hand gets fresh agents seeded from (game seed, hand number, seat), so hand N plays the
same whether it is played alone (`tarot play --hand N`), as part of a game, in another process
(`tarot simulate --jobs`), or under a second ruleset for a paired comparison (`tarot diff`).

An agent is named by text, `KIND` or `KIND:key=value[:key=value...]` (`search:samples=20`),
so that worker processes can build the same agents from the text alone. The settings a kind
takes are its class's `SETTINGS` (name -> type); their defaults are its constructor's. Kinds:
random, heuristic, search (`search_agent`, perfect-information Monte Carlo) and ismcts
(`ismcts_agent`, information-set tree search).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from functools import cache

from tarot.core.agent import Agent
from tarot.errors import UsageError, did_you_mean
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.ismcts_agent import IsmctsAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent

AGENT_KINDS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "search": SearchAgent,
    "ismcts": IsmctsAgent,
}

#: `tarot play --level`: the computer players for each level, chosen from the measurements of
#: the players' strength (`docs/players/strength.md`: strength against time per decision)
LEVELS: dict[str, str] = {
    "easy": "heuristic",
    "normal": "search",
    "strong": "search:samples=32",
}

MAX_SETTING_CHARACTERS = 20


class LineupError(UsageError):
    """An --agents value that names an unknown kind or setting, a bad setting value, or the
    wrong number of seats."""


def parse_agents(text: str, players: int) -> tuple[str, ...]:
    """`--agents heuristic` (every seat) or `--agents search:samples=20,random,random` (per
    seat). Returns each seat's agent text in a canonical form (settings at their default
    left out)."""
    kinds = tuple(canonical_agent(part.strip(), text) for part in text.split(","))
    if len(kinds) not in (1, players):
        raise LineupError(
            f"--agents {text}: give one kind for every seat or one per seat ({players}), "
            f"not {len(kinds)}"
        )
    return kinds


def agent_settings(spec: str, text: str | None = None) -> tuple[str, dict[str, object]]:
    """The kind and the settings of one agent text; `text` is the whole --agents value, for
    the messages."""
    given = text if text is not None else spec
    where = f"--agents {given if len(given) <= 60 else given[:40] + '...'}"
    kind, *pairs = spec.split(":")
    if kind not in AGENT_KINDS:
        raise LineupError(
            f"{where}: no agent kind {kind!r}; {did_you_mean(kind, list(AGENT_KINDS))}kinds: "
            + ", ".join(AGENT_KINDS)
        )
    allowed: dict[str, type] = getattr(AGENT_KINDS[kind], "SETTINGS", {})
    names = ", ".join(allowed) if allowed else "none"
    settings: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise LineupError(f"{where}: agent {kind!r}: settings are key=value, not {pair!r}")
        if key not in allowed:
            raise LineupError(
                f"{where}: agent {kind!r} has no setting {key!r}; "
                f"{did_you_mean(key, list(allowed))}settings: {names}"
            )
        if len(value) > MAX_SETTING_CHARACTERS:  # before any conversion, and never echoed whole
            raise LineupError(
                f"{where}: agent {kind!r}: {key} is {len(value):,} characters long; "
                f"a setting is at most {MAX_SETTING_CHARACTERS}"
            )
        try:
            settings[key] = allowed[key](value)
        except ValueError:
            wanted = {int: "a whole number", float: "a number"}.get(allowed[key], "text")
            raise LineupError(
                f"{where}: agent {kind!r}: {key} must be {wanted}, not {value!r}"
            ) from None
    try:
        AGENT_KINDS[kind](seed=0, **settings)  # the agent checks its own ranges
    except ValueError as error:
        raise LineupError(f"{where}: agent {kind!r}: {error}") from None
    return kind, settings


def canonical_agent(spec: str, text: str | None = None) -> str:
    """The agent text with its settings checked, in the order the kind lists them, and those
    at their default value left out."""
    kind, settings = agent_settings(spec, text)
    defaults = {
        name: parameter.default
        for name, parameter in inspect.signature(AGENT_KINDS[kind]).parameters.items()
    }
    order = list(getattr(AGENT_KINDS[kind], "SETTINGS", {}))
    kept = [key for key in order if key in settings and settings[key] != defaults.get(key)]
    return ":".join([kind, *(f"{key}={settings[key]}" for key in kept)])


@cache
def _factory(spec: str) -> Callable[[str], Agent]:
    kind, settings = agent_settings(spec)
    return lambda seed: AGENT_KINDS[kind](seed, **settings)


def agent_seed(seed: int, number: int, seat: int) -> str:
    return f"{seed}/{number}/{seat}"


def seat_agents(kinds: Sequence[str], seed: int, number: int, players: int) -> list[Agent]:
    """Fresh agents for hand `number`: one agent text for every seat, or one per seat."""
    if len(kinds) not in (1, players):
        raise ValueError(f"give one agent kind for all seats or one per seat ({players})")
    chosen = list(kinds) * players if len(kinds) == 1 else list(kinds)
    return [_factory(spec)(agent_seed(seed, number, seat)) for seat, spec in enumerate(chosen)]
