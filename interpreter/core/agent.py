"""The agent interface: given a hand state and a seat, return one of the legal actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tarot.engine.state import HandState


class Agent(Protocol):
    name: str

    def choose(self, state: HandState, seat: int) -> str:
        """One of `state.legal_actions()`; called only when `seat` is to decide."""
        ...
