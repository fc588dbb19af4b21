"""Speed: how long loading and checking each built-in ruleset takes, and how many random
hands a second one core plays. Prints numbers; asserts nothing.

    python benchmarks/speed.py [--hands N]
"""

from __future__ import annotations

import argparse
import time

from interpreter import paths
from interpreter.agents.random_agent import RandomAgent
from interpreter.engine.game import play_game
from interpreter.loading.ruleset_loader import load_ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="random hands per ruleset")
    args = parser.parse_args()
    print(f"{'ruleset':32} {'load+check':>11} {'hands/s':>9}")
    for name, path in paths.builtin_rulesets().items():
        start = time.perf_counter()
        ruleset = load_ruleset(path)
        loaded = time.perf_counter() - start
        agents = [RandomAgent(seat) for seat in range(ruleset.players)]
        start = time.perf_counter()
        play_game(ruleset, seed=1, agents=agents, hands=args.hands)
        elapsed = time.perf_counter() - start
        print(f"{name:32} {loaded * 1000:9.0f}ms {args.hands / elapsed:9.0f}")


if __name__ == "__main__":
    main()
