"""The commands that play many hands: `tarot simulate` and `tarot diff --hands / --family`.

Where it sits: called by `tarot.cli`, which parses the arguments. Each command loads its
rulesets (so a broken one is reported before anything runs), checks the output paths, plays
the hands through `tarot.measure.driver` and prints a report. A run stopped by
Ctrl-C, SIGTERM or SIGHUP still reports, writes and draws what it finished, and exits 128 +
the signal (130 for Ctrl-C); one stopped by a failed write of its rows does the same and
exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace

from tarot.batch.backend import choose_backend
from tarot.cli.flags import (
    DEFAULT_SIMULATE_HANDS,
    add_hands_flag,
    add_option_flag,
    add_run_flags,
)
from tarot.compile.loader import load_ruleset
from tarot.core.output_files import OutputError, check_output_path
from tarot.core.ruleset import Ruleset
from tarot.core.stopping import exit_status
from tarot.engine.game import plays_sittings
from tarot.errors import UsageError, shown_text
from tarot.load import paths
from tarot.measure.cluster import ClusterAddress
from tarot.measure.comparison import Comparison
from tarot.measure.diff import diff_loaded, render
from tarot.measure.driver import RunEnd, drive
from tarot.measure.games import play_games
from tarot.measure.in_words import rule_name
from tarot.measure.measures import RulesetMeasures
from tarot.measure.plot import (
    PlotUnavailable,
    Series,
    check_plot_path,
    difference_rows,
    plot_differences,
    plot_results,
    require_plotting,
)
from tarot.measure.report import (
    FamilyLine,
    RunInfo,
    family_report,
    side_name,
    simulate_report,
    table_report,
    units,
)
from tarot.measure.rows import RowWriter, row_format
from tarot.measure.runner import (
    Executor,
    HandResults,
    RulesetSpec,
    RunPlan,
    available_cores,
)
from tarot.measure.store import ResultStore
from tarot.players.lineup import parse_agents

DEFAULT_AGENTS = "random"


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse, before any hand is played, an --out or --plot path that cannot be written."""
    try:
        if getattr(args, "out", None):
            row_format(args.out)
            check_output_path("--out", args.out)
        if getattr(args, "plot", None):
            check_plot_path(args.plot)
            require_plotting()
    except PlotUnavailable as error:
        raise OutputError(str(error)) from error


def jobs_for(args: argparse.Namespace) -> int:
    """--jobs, or every core; never more processes than cores (said once on stderr)."""
    cores = available_cores()
    if args.jobs is None:
        return cores
    if args.jobs > cores:
        print(
            f"tarot: --jobs {args.jobs}: only {cores} core(s) here; using {cores}", file=sys.stderr
        )
        args.jobs = cores
    return args.jobs


def agents_for(args: argparse.Namespace, *rulesets: Ruleset) -> tuple[str, ...]:
    """The --agents kinds, checked against every ruleset's player count (LineupError, a
    usage mistake, if they do not fit)."""
    kinds = [parse_agents(args.agents, ruleset.players) for ruleset in rulesets]
    return kinds[0]


@dataclass(frozen=True)
class _Ran:
    """Where the hands were played: how many jobs, on this machine or on a cluster."""

    jobs: int
    cluster: str | None = None


def _info(
    plan: RunPlan,
    ran: _Ran,
    end: RunEnd,
    rulesets: list[Ruleset],
    options: tuple[tuple[str, str], ...] = (),
) -> RunInfo:
    return RunInfo.of_plan(plan, ran.jobs, rulesets, options, end.early, ran.cluster)


@contextmanager
def _players(args: argparse.Namespace) -> Iterator[tuple[int | Executor, _Ran]]:
    """Who plays the hands: the cluster --cluster names, or --jobs processes here."""
    address: ClusterAddress | None = getattr(args, "cluster", None)
    if address is None:
        jobs = jobs_for(args)
        yield jobs, _Ran(jobs)
        return
    from tarot.measure.cluster import dask_executor

    cores = available_cores()
    if address.local_workers is not None and address.local_workers > cores:
        print(
            f"tarot: --cluster {address.text}: only {cores} core(s) here; using {cores}",
            file=sys.stderr,
        )
        address = replace(address, local_workers=cores)
    with dask_executor(address) as executor:
        yield executor, _Ran(executor.width, address.text)


def drive_run(
    args: argparse.Namespace,
    plan: RunPlan,
    rulesets: list[Ruleset],
    consume: Callable[[Sequence[HandResults]], None],
    label: str,
) -> tuple[RunEnd, _Ran]:
    """Play the plan through `drive` where --jobs or --cluster says, with the --out rows
    and the --store the user named (the cluster reached first, then the store opened: a
    cluster or store refused leaves the rows file untouched)."""
    with _players(args) as (jobs, ran):
        store = None
        if getattr(args, "store", None):
            store = ResultStore(args.store, trust=args.trust_store)
            if store.resealed:
                print(
                    f"--store {args.store}: {store.resealed} hand(s) sealed as yours "
                    "(--trust-store)",
                    file=sys.stderr,
                )
        try:
            rows = RowWriter(args.out, rulesets, plan.keys(rulesets)) if args.out else None
        except BaseException:
            if store is not None:
                store.close()
            raise
        return drive(plan, rulesets, jobs, consume, rows, label, store), ran


def nothing_finished(end: RunEnd) -> int:
    if end.failure:
        print(shown_text(f"tarot: {end.failure}"), file=sys.stderr)
        return 1
    print("interrupted before any hand finished", file=sys.stderr)
    return exit_status()


def finish_run(end: RunEnd, args: argparse.Namespace) -> int:
    if end.failure:
        print(shown_text(f"tarot: {end.failure}"), file=sys.stderr)
        print("stopped: the report covers the hands that finished", file=sys.stderr)
        return 1
    if args.out:
        print(f"rows written to {args.out}", file=sys.stderr)
    if end.interrupted:
        print("interrupted: the report covers the hands that finished", file=sys.stderr)
        return exit_status()
    return 0


def cmd_simulate(args: argparse.Namespace, options: dict[str, str]) -> int:
    ruleset = load_ruleset(args.ruleset, options)
    agents = agents_for(args, ruleset)
    check_outputs(args)
    chosen = tuple(sorted(options.items()))
    backend = choose_backend(args.backend, [ruleset], agents)
    plan = RunPlan((RulesetSpec(args.ruleset, chosen),), args.seed, args.hands, agents, 1, backend)
    measures = RulesetMeasures.of(ruleset)
    end, ran = drive_run(
        args,
        plan,
        [ruleset],
        lambda chunk: measures.add_all([hand for (hand,) in chunk]),
        ruleset.id,
    )
    if measures.hands == 0:
        return nothing_finished(end)
    games = None
    # whole games too (as many hands again), unless the run's units are already sittings
    if ruleset.game is not None and not plays_sittings(ruleset) and not end.early:
        played, stopped = play_games(ruleset, args.seed, agents, measures.hands)
        games = played.report() if played.games else None
        end = RunEnd(interrupted=stopped)
    info = _info(plan, ran, end, [ruleset], chosen)
    print(simulate_report(ruleset, measures.report(), info, args.format, games, args.plot))
    if args.plot:
        plot_results(
            args.plot,
            f"{ruleset.id}: net result per hand, {measures.hands} hands",
            [Series(ruleset.id, measures.histogram, measures.hands)],
            ruleset.unit.plural,
        )
        print(f"picture written to {args.plot}", file=sys.stderr)
    return finish_run(end, args)


def cmd_diff_table(
    args: argparse.Namespace, a: Ruleset, b: Ruleset, b_options: dict[str, str]
) -> int:
    """`tarot diff A B --hands N`: the rules as written, then the same deals under both (B
    loaded with the readings `--option` chose, `b_options`)."""
    paper = diff_loaded(a, b)
    agents = agents_for(args, a, b)
    check_outputs(args)
    backend = choose_backend(args.backend, [a, b], agents)
    chosen = tuple(sorted(b_options.items()))
    plan = RunPlan(
        (RulesetSpec(args.a), RulesetSpec(args.b, chosen)),
        args.seed,
        args.hands,
        agents,
        1,
        backend,
    )
    # B's replay commands carry its readings
    b_target = " ".join([args.b, *(f"--option {name}={reading}" for name, reading in chosen)])
    comparison = Comparison(a, b)
    end, ran = drive_run(
        args,
        plan,
        [a, b],
        lambda chunk: comparison.add_all([(under_a, under_b) for under_a, under_b in chunk]),
        f"{a.id} vs {b.id}",
    )
    if comparison.hands == 0:
        return nothing_finished(end)
    info = _info(plan, ran, end, [a, b])
    table = table_report(
        a, b, (args.a, b_target), comparison.report(), info, args.format, args.plot, chosen
    )
    if args.format == "json":
        print(
            json.dumps({"paper": json.loads(render(paper, "json")), **json.loads(table)}, indent=1)
        )
    else:
        print(render(paper, args.format))
        print()
        print(table)
    if args.plot:
        title = f"{a.id} (A) and {side_name(b, chosen)} (B), {comparison.hands} hands"
        if comparison.paired:
            rows = difference_rows(comparison, lambda rule: rule_name([a, b], rule))
            title = f"What B changes against A, {comparison.hands} hands paired: " + (
                f"A {a.id}, B {side_name(b, chosen)}"
            )
            plot_differences(args.plot, title, ("A", "B"), rows, units([("A", a), ("B", b)]))
        else:
            plot_results(
                args.plot,
                f"{title}: net result per hand (unpaired: no B - A hand by hand)",
                [
                    Series(f"A {a.id}", comparison.a.histogram, comparison.a.hands),
                    Series(f"B {side_name(b, chosen)}", comparison.b.histogram, comparison.b.hands),
                ],
                units([("A", a), ("B", b)]),
            )
        print(f"picture written to {args.plot}", file=sys.stderr)
    return finish_run(end, args)


def cmd_diff_family(args: argparse.Namespace) -> int:
    """`tarot diff --family BASE --hands N`: every built-in variant of BASE against it."""
    if args.plot:
        raise UsageError("--plot draws two rulesets; use it with tarot diff A B --hands N")
    base = load_ruleset(args.family)
    names = paths.builtin_variants(args.family)
    if not names:
        return _family_of_readings(args, base)
    variants = [load_ruleset(name) for name in names]
    specs = tuple(RulesetSpec(target) for target in (args.family, *names))
    lines = [(variant, changed_options(base, variant), "") for variant in variants]
    return _against_base(args, base, specs, lines, "")


def _family_of_readings(args: argparse.Namespace, base: Ruleset) -> int:
    """`tarot diff --family BASE` where no built-in ruleset extends BASE: its family is the
    other readings of its options, each against the ruleset as it stands, in one table."""
    specs, lines = _other_readings(args.family, base, list(base.option_readings()), True)
    if not lines:
        raise UsageError(
            f"--family: no ruleset extends {args.family!r} and it has no option with another "
            "reading; tarot rules lists the rulesets"
        )
    title = (
        f"Family of {base.id}: no built-in ruleset extends it, so each other reading of its "
        "options, against the readings in force"
    )
    return _against_base(args, base, specs, lines, title)


def cmd_diff_readings(args: argparse.Namespace, option: str) -> int:
    """`tarot diff BASE --option NAME --hands N`: every other reading of one option of BASE
    against the reading in force, on the same deals, in one table."""
    from tarot.compile.option_flags import OptionFlagError, shown
    from tarot.errors import did_you_mean

    if args.plot:
        raise UsageError("--plot draws two rulesets; use it with tarot diff A B --hands N")
    base = load_ruleset(args.a)
    readings = base.option_readings()
    if option not in readings:
        listed = ", ".join(readings) or "none"
        raise OptionFlagError(
            f"--option: {base.id} has no option {shown(option)}; "
            f"{did_you_mean(option, list(readings))}options: {listed}"
        )
    specs, lines = _other_readings(args.a, base, [option], False)
    default = base.options[option]
    title = f"Readings of {option} in {base.id}: each against {default}, the reading in force"
    return _against_base(args, base, specs, lines, title)


def _other_readings(
    target: str, base: Ruleset, options: list[str], named_by_option: bool
) -> tuple[tuple[RulesetSpec, ...], list[tuple[Ruleset, list[str], str]]]:
    """Every reading of `options` other than the one in force, each `target` loaded with it:
    the runs' specs (base's first) and the report's lines, each named by its reading (or
    `OPTION=READING`, `named_by_option`)."""
    readings = base.option_readings()
    others = [
        (option, reading)
        for option in options
        for reading in readings[option]
        if reading != base.options[option]
    ]
    specs = (
        RulesetSpec(target),
        *(RulesetSpec(target, ((option, reading),)) for option, reading in others),
    )
    lines = [
        (
            load_ruleset(target, {option: reading}),
            [f"{option}: {base.options[option]} -> {reading}"],
            f"{option}={reading}" if named_by_option else reading,
        )
        for option, reading in others
    ]
    return specs, lines


def _against_base(
    args: argparse.Namespace,
    base: Ruleset,
    specs: tuple[RulesetSpec, ...],
    lines: list[tuple[Ruleset, list[str], str]],
    title: str,
) -> int:
    """Every ruleset of `lines` (each with what it changes and its name in the report, ""
    for its id)
    against `base` on the same deals, in one table (`specs`: base's, then each line's)."""
    variants = [variant for variant, _, _ in lines]
    agents = agents_for(args, base, *variants)
    check_outputs(args)
    backend = choose_backend(args.backend, [base, *variants], agents)
    plan = RunPlan(specs, args.seed, args.hands, agents, 1, backend)
    comparisons = [Comparison(base, variant) for variant in variants]

    def consume(chunk: Sequence[HandResults]) -> None:
        for at, comparison in enumerate(comparisons, start=1):
            comparison.add_all([(results[0], results[at]) for results in chunk])

    end, ran = drive_run(args, plan, [base, *variants], consume, f"{base.id} family")
    if comparisons[0].hands == 0:
        return nothing_finished(end)
    reported = [
        FamilyLine(variant, changed, comparison.report(), label)
        for (variant, changed, label), comparison in zip(lines, comparisons, strict=True)
    ]
    info = _info(plan, ran, end, [base, *variants])
    print(family_report(base, reported, info, args.format, title))
    return finish_run(end, args)


def changed_options(base: Ruleset, variant: Ruleset) -> list[str]:
    names = sorted(set(base.options) | set(variant.options))
    return [
        f"{name}: {base.options.get(name, '-')} -> {variant.options.get(name, '-')}"
        for name in names
        if base.options.get(name) != variant.options.get(name)
    ]


def run(args: argparse.Namespace) -> int:
    from tarot.cli.simulate import cmd_simulate
    from tarot.compile.option_flags import readings_for

    return cmd_simulate(args, readings_for(args.option, args.ruleset))


def add_arguments(simulate: argparse.ArgumentParser) -> None:
    simulate.add_argument("ruleset", metavar="RULESET", help="a built-in name or a YAML file")
    add_hands_flag(simulate, DEFAULT_SIMULATE_HANDS, "number of hands")
    add_option_flag(simulate)
    add_run_flags(simulate)
