"""The agent interface: given a hand state and a seat, return one of the legal actions."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tarot.engine.state import HandState


class Agent(Protocol):
    name: str

    def choose(self, state: HandState, seat: int) -> str:
        """One of `state.legal_actions()`; called only when `seat` is to decide."""
        ...


def decision_deadline(seconds: float | None, cap: float | None) -> float | None:
    """When a decision started now stops (`time.perf_counter`): after the agent's own
    `seconds` or the `cap` put on it, the sooner; None: when its counts are done."""
    limits = [limit for limit in (seconds, cap) if limit is not None]
    return time.perf_counter() + min(limits) if limits else None
