"""`tarot study BASE`: the options' factorial design played on paired deals, then reported.

Where it sits: called by `tarot.cli`. It loads BASE, makes its factors and design (a
usage mistake or a missing design library is refused before anything runs), loads BASE once
per run of the design with that run's readings, and plays every hand number under every run
through `measure.driver` (so `--jobs`, `--store`, `--out`, the progress bar and a stop by
Ctrl-C work as in `tarot diff`), folding each hand into `effects.StudyEffects`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tarot.batch.backend import choose_backend
from tarot.cli.flags import (
    DEFAULT_STUDY_HANDS,
    add_hands_flag,
    add_run_flags,
)
from tarot.cli.simulate import (
    agents_for,
    check_outputs,
    drive_run,
    finish_run,
    nothing_finished,
)
from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.errors import Problem, RulesetError
from tarot.measure.comparison import can_pair
from tarot.measure.report import RunInfo
from tarot.measure.runner import HandResults, RulesetSpec, RunPlan
from tarot.measure.study.design import Design, make_design
from tarot.measure.study.effects import StudyEffects
from tarot.measure.study.factors import Factor, study_factors
from tarot.measure.study.findings import find
from tarot.measure.study.report import Study, study_report
from tarot.measure.study.responses import responses_for


def run_readings(factors: list[Factor], design: Design) -> list[tuple[tuple[str, str], ...]]:
    """The readings each run chooses (those other than the default), by option name."""
    return [tuple(sorted(_studied(factors, run))) for run in design.runs]


def _studied(factors: list[Factor], run: tuple[int, ...]) -> list[tuple[str, str]]:
    return [(f.option, f.high) for f, level in zip(factors, run, strict=True) if level > 0]


def _paired(base: Ruleset, rulesets: list[Ruleset], factors: list[Factor]) -> None:
    """Refuse a design whose runs do not deal the same packs to as many players."""
    for ruleset in rulesets:
        if not can_pair(base, ruleset):
            chosen = ", ".join(
                f"{n}={r}" for n, r in sorted(ruleset.options.items()) if base.options.get(n) != r
            )
            raise RulesetError(
                [
                    Problem(
                        None,
                        "$.options",
                        f"{base.id} with {chosen} has another deck or player count, so its "
                        "hands cannot be paired with the others; leave those options out "
                        f"(--options) and compare them with tarot diff ({len(factors)} "
                        "option(s) were to be studied)",
                    )
                ]
            )


def cmd_study(args: argparse.Namespace) -> int:
    base = load_ruleset(args.base)
    factors = study_factors(base, args.options, args.levels)
    design = make_design(args.design, len(factors))
    readings = run_readings(factors, design)
    rulesets = [load_ruleset(args.base, dict(chosen)) if chosen else base for chosen in readings]
    _paired(base, rulesets, factors)
    agents = agents_for(args, *rulesets)
    check_outputs(args)
    backend = choose_backend(args.backend, rulesets, agents)
    specs = tuple(RulesetSpec(args.base, chosen) for chosen in readings)
    plan = RunPlan(specs, args.seed, args.hands, agents, 1, backend)
    responses = responses_for(rulesets)
    effects = StudyEffects(design, responses)
    print(
        f"tarot study: {design.title()} over {len(factors)} option(s), {args.hands} hands "
        f"in each: {len(design.runs) * args.hands} hands in all",
        file=sys.stderr,
    )

    def consume(chunk: Sequence[HandResults]) -> None:
        for results in chunk:
            effects.add(results)

    end, ran = drive_run(args, plan, rulesets, consume, f"{base.id} study")
    if effects.hands == 0:
        return nothing_finished(end)
    findings, threshold = find(effects, [factor.option for factor in factors])
    info = RunInfo(
        args.seed, args.hands, agents, ran.jobs, end.early, backend=backend, cluster=ran.cluster
    )
    study = Study(
        base, args.base, factors, design, responses, findings, threshold, effects.hands, info
    )
    print(study_report(study, args.format))
    return finish_run(end, args)


def run(args: argparse.Namespace) -> int:
    from tarot.cli.study import cmd_study

    return cmd_study(args)


def add_arguments(study: argparse.ArgumentParser) -> None:
    from tarot.measure.study.design import DESIGNS, FULL_UP_TO

    study.add_argument("base", metavar="BASE", help="a built-in name or a YAML file")
    study.add_argument(
        "--options",
        metavar="A,B,...",
        help="the options to study (default: every option of BASE with two readings or more)",
    )
    study.add_argument(
        "--levels",
        action="append",
        default=[],
        metavar="NAME=READING",
        help="study this reading of an option against its default (repeatable; default: the "
        "first reading after the default)",
    )
    add_hands_flag(study, DEFAULT_STUDY_HANDS, "hands played under every run of the design")
    study.add_argument(
        "--design",
        choices=DESIGNS,
        default="auto",
        help=f"full: every combination of readings (2^k runs); fractional: the smallest "
        f"two-level fraction of resolution IV (V when it costs no more runs), in which no main "
        f"effect is confounded with a two-way interaction; auto (default): full for up to "
        f"{FULL_UP_TO} options, fractional for more",
    )
    add_run_flags(study, plot=False)
