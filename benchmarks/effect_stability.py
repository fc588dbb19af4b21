"""Does a reading's effect hold as the search players grow stronger? Two rulesets compared
on the same deals with search players at several sample counts, the paired differences
printed for each.

    python benchmarks/effect_stability.py marolles-1637 marolles-1637-ultimo-literal \
        --samples 4,8,16,32 --hands 100 --jobs 2

For each sample count it plays `--hands` paired deals under A and B (as `tarot diff A B
--agents search:samples=N` does, through the same runner), and prints the time it took,
then for every rule whose payments or firings differ between A and B: what it paid per hand
under each (B - A paired, with a t interval) and how often it fired (Wilson intervals), and
the mean per-seat |B - A| of the hand's result. An effect is stable when its sign, and
roughly its size, hold from one sample count to the next.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarot.compile.loader import load_ruleset  # noqa: E402
from tarot.measure.comparison import Comparison  # noqa: E402
from tarot.measure.runner import RulesetSpec, RunPlan, run_hands  # noqa: E402


def interval(estimate: dict) -> str:
    low, high = estimate["ci95"] if estimate["ci95"] is not None else (None, None)
    if low is None:
        return f"{estimate['mean']:+.2f}"
    mark = "" if low <= 0 <= high else " *"
    return f"{estimate['mean']:+.2f} [{low:+.2f}, {high:+.2f}]{mark}"


def share(fired: dict) -> str:
    rate = fired["fired"]
    low, high = rate["ci95"]
    if low is None:
        return f"{100 * rate['rate']:.1f}%"
    return f"{100 * rate['rate']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def compare(a: str, b: str, samples: int, hands: int, jobs: int, seed: int) -> None:
    agents = (f"search:samples={samples}",)
    plan = RunPlan((RulesetSpec(a), RulesetSpec(b)), seed=seed, hands=hands, agents=agents)
    rulesets = [spec.load() for spec in plan.rulesets]
    comparison = Comparison(*rulesets)
    start = time.perf_counter()
    for under_a, under_b in run_hands(plan, rulesets, jobs):
        comparison.add(under_a, under_b)
    seconds = time.perf_counter() - start
    report = comparison.report()
    print(
        f"\nsamples={samples}: {hands} paired deals in {seconds:.0f} s "
        f"({seconds / hands:.2f} s a deal for both rulesets, {jobs} job(s))"
    )
    fired_a, fired_b = report["a"]["rules"], report["b"]["rules"]
    for rule, difference in report["rule_differences"].items():
        in_a, in_b = fired_a.get(rule), fired_b.get(rule)
        hits = [None if rule is None else rule["fired"]["hits"] for rule in (in_a, in_b)]
        same_firing = hits[0] == hits[1]
        if difference["mean"] == 0 and difference["ci95"] in (None, [0.0, 0.0]) and same_firing:
            continue
        print(
            f"  {rule}: paid B - A {interval(difference)} a hand; fired A "
            f"{share(in_a) if in_a else '-'}, B {share(in_b) if in_b else '-'}"
        )
    print(f"  mean |B - A| per seat: {interval(report['mean_abs_difference'])}")
    print(f"  spread of a hand's results, B - A: {interval(report['spread_difference'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="ruleset A (a built-in name or a YAML file)")
    parser.add_argument("b", help="ruleset B")
    parser.add_argument("--samples", default="4,8,16,32", help="comma-separated sample counts")
    parser.add_argument("--hands", type=int, default=100, help="paired deals per sample count")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and players")
    args = parser.parse_args()
    load_ruleset(args.a), load_ruleset(args.b)  # a bad name stops here, before any play
    print(f"{args.b} against {args.a}, search players; * marks an interval without zero")
    for samples in (int(part) for part in args.samples.split(",")):
        compare(args.a, args.b, samples, args.hands, args.jobs, args.seed)


if __name__ == "__main__":
    main()
