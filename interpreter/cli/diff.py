"""`tarot diff`: two rulesets compared on paper, and with `--hands` on the same deals.

Where it sits: a command of `tarot.cli`, which parses the command line and calls `run`; what it
needs is imported when it runs.
"""

from __future__ import annotations

import argparse

from tarot.cli.flags import (
    DEFAULT_FAMILY_HANDS,
    add_run_flags,
)
from tarot.core import whole_numbers
from tarot.errors import UsageError


def run(args: argparse.Namespace) -> int:
    from tarot.cli.simulate import cmd_diff_family, cmd_diff_readings, cmd_diff_table
    from tarot.compile.loader import load_ruleset
    from tarot.compile.option_flags import OptionFlagError, chosen_readings
    from tarot.measure.diff import diff_loaded, load_pair, render

    if args.family:
        if args.a or args.b:
            raise UsageError("tarot diff: give either two rulesets A B or --family BASE, not both")
        if args.option:
            raise OptionFlagError(
                "--option chooses readings for B of tarot diff A B; --family compares every "
                "variant as written"
            )
        args.hands = args.hands or DEFAULT_FAMILY_HANDS
        return cmd_diff_family(args)
    if args.a and not args.b and args.option and "=" not in args.option[0]:
        if len(args.option) > 1:
            raise OptionFlagError(
                "--option NAME (no reading) compares every reading of one option: name one"
            )
        args.hands = args.hands or DEFAULT_FAMILY_HANDS
        return cmd_diff_readings(args, args.option[0])
    if not args.a or not args.b:
        raise UsageError(
            "tarot diff needs two rulesets A B (or --family BASE, or BASE --option NAME)"
        )
    if not args.hands:
        for flag in ("out", "plot", "store"):
            if getattr(args, flag):
                raise UsageError(f"--{flag} needs --hands N: it describes hands played")
    a, b = load_pair(args.a, args.b)
    b_options = chosen_readings(args.option, b, "B")
    if b_options:
        b = load_ruleset(args.b, b_options)
    if args.hands:
        return cmd_diff_table(args, a, b, b_options)
    print(render(diff_loaded(a, b), args.format))
    return 0


def add_arguments(diff: argparse.ArgumentParser) -> None:
    diff.add_argument("a", metavar="A", nargs="?", help="a built-in name or a YAML file")
    diff.add_argument("b", metavar="B", nargs="?", help="a built-in name or a YAML file")
    diff.add_argument(
        "--family",
        metavar="BASE",
        help=f"every built-in ruleset that extends BASE against it "
        f"(default {DEFAULT_FAMILY_HANDS} hands)",
    )
    diff.add_argument(
        "--hands", type=whole_numbers.count, metavar="N", help="also play N paired hands under both"
    )
    diff.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=READING",
        help="compare B with this reading of one of its options (repeatable); with one "
        "ruleset BASE and a NAME alone, every reading of that option against the one in force "
        f"(default {DEFAULT_FAMILY_HANDS} hands)",
    )
    add_run_flags(diff)
