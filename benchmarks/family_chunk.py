"""A worker's chunk of the Marolles family report with search players: CPU time a hand.

`tarot diff --family marolles-1637 --hands N --agents search` hands each worker chunks of up
to 100 deals (`measure.runner.POOLED_CHUNK`), every deal played under all 17 rulesets of the family
side by side, the search players' play-outs of all those hands batched together
(`tarot.players.together`). This script plays one such chunk in this process, as a worker
plays it (`Table.play`), and prints the CPU time a hand, the load average around the run,
the commit, and a digest of every hand summary played: two commits that decide alike give
the same digest for the same arguments, so a speed change can be checked to change nothing.

    python benchmarks/family_chunk.py [--deals 100] [--first 1] [--rulesets 17] [--seed 1]

The family report's CPU time is about its hands (17 x 1,000) times the CPU a hand measured
here with `--deals` at its default (a worker's chunk); its clock time, on an idle machine,
that divided by the cores. The batches grow with the deals of a chunk (their fixed costs
shared by more play-outs), so a smaller `--deals` gives a higher figure; `--rulesets R`
plays the first R rulesets only, which leaves each ruleset's batches as large (a quicker
comparison of two commits).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(CHECKOUT))  # this checkout's engine

from tarot.load import paths  # noqa: E402
from tarot.measure.runner import POOLED_CHUNK, RulesetSpec, RunPlan, Table  # noqa: E402

BASE = "marolles-1637"


def commit() -> str:
    found = subprocess.run(
        ["git", "-C", str(CHECKOUT), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
    )
    dirty = subprocess.run(
        ["git", "-C", str(CHECKOUT), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    )
    return (found.stdout.strip() or "unknown") + (" (with changes)" if dirty.stdout else "")


def load() -> str:
    return "{:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals", type=int, default=POOLED_CHUNK, help=f"deals of the chunk ({POOLED_CHUNK})"
    )
    parser.add_argument("--first", type=int, default=1, help="the chunk's first deal number")
    parser.add_argument("--rulesets", type=int, help="the family's first R rulesets only")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", default="search", help="the players' spec (search)")
    args = parser.parse_args()
    names = [BASE, *paths.builtin_variants(BASE)][: args.rulesets]
    specs = tuple(RulesetSpec(name) for name in names)
    plan = RunPlan(specs, args.seed, args.deals, (args.agents,), args.first)
    table = Table(plan, [spec.load() for spec in specs])
    work = [(n, tuple(range(len(names)))) for n in range(args.first, args.first + args.deals)]
    before = load()
    start = time.process_time()
    played = table.play(work)
    cpu = time.process_time() - start
    digest = hashlib.sha256(repr(played).encode()).hexdigest()[:16]
    hands = args.deals * len(names)
    print(
        f"{len(names)} ruleset(s) x {args.deals} deals from {args.first} (seed {args.seed}, "
        f"{args.agents}), commit {commit()}: {cpu:.1f} s of CPU, {cpu / hands:.3f} s a hand; "
        f"load {before} before, {load()} after; summaries' digest {digest}"
    )


if __name__ == "__main__":
    main()
