"""A seeded random player: uniform over the legal actions, reproducible from its seed."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tarot.engine.draws import choose

if TYPE_CHECKING:
    from tarot.engine.state import HandState


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(f"tarot-agent/{seed}")

    def choose(self, state: HandState, seat: int) -> str:
        decision = state.decision
        assert decision is not None  # an agent is asked only while a decision is open
        return choose(self.rng, decision.choices)  # `legal_actions()`, without a copy
