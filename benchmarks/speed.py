"""Speed: how long loading and checking each built-in ruleset takes, how many random hands a
second one core plays, and how many a simulation plays over all cores. Prints numbers;
asserts nothing.

    python benchmarks/speed.py [--hands N] [--simulate N]
"""

from __future__ import annotations

import argparse
import time

from interpreter import paths
from interpreter.agents.random_agent import RandomAgent
from interpreter.engine.game import play_game
from interpreter.loading.ruleset_loader import load_ruleset
from interpreter.simulation.runner import RulesetSpec, RunPlan, available_cores, run_hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="random hands per ruleset")
    parser.add_argument(
        "--simulate", type=int, default=4000, help="hands of the simulation run (0: skip)"
    )
    args = parser.parse_args()
    print(f"{'ruleset':40} {'load+check':>11} {'hands/s':>9}")
    for name, path in paths.builtin_rulesets().items():
        start = time.perf_counter()
        ruleset = load_ruleset(path)
        loaded = time.perf_counter() - start
        agents = [RandomAgent(seat) for seat in range(ruleset.players)]
        start = time.perf_counter()
        play_game(ruleset, seed=1, agents=agents, hands=args.hands)
        elapsed = time.perf_counter() - start
        print(f"{name:40} {loaded * 1000:9.0f}ms {args.hands / elapsed:9.0f}")
    if args.simulate:
        name = "marolles-1637"
        plan = RunPlan((RulesetSpec(name),), seed=1, hands=args.simulate)
        ruleset = load_ruleset(name)
        for jobs in sorted({1, available_cores()}):
            start = time.perf_counter()
            for _ in run_hands(plan, [ruleset], jobs):
                pass
            elapsed = time.perf_counter() - start
            print(
                f"simulate {name}, {args.simulate} hands, {jobs} job(s): "
                f"{args.simulate / elapsed:.0f} hands/s (process start-up included)"
            )


if __name__ == "__main__":
    main()
