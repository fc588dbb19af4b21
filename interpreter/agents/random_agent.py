"""A seeded random player: uniform over the legal actions, reproducible from its seed."""

from __future__ import annotations

import random


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(f"tarot-agent/{seed}")

    def choose(self, state, seat: int) -> str:
        return self.rng.choice(state.decision.choices)  # `legal_actions()`, without a copy
