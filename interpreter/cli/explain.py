"""`tarot explain`: a ruleset as a rules page.

Where it sits: a command of `tarot.cli`, which parses the command line and calls `run`; what it
needs is imported when it runs.
"""

from __future__ import annotations

import argparse

from tarot.cli.flags import (
    add_option_flag,
)


def run(args: argparse.Namespace) -> int:
    from tarot.compile.loader import load_ruleset
    from tarot.compile.option_flags import readings_for
    from tarot.presentation.explain import explain_page
    from tarot.presentation.explain import render as render_page

    ruleset = load_ruleset(args.ruleset, readings_for(args.option, args.ruleset))
    print(render_page(explain_page(ruleset), args.format))
    return 0


def add_arguments(explain: argparse.ArgumentParser) -> None:
    from tarot.presentation.explain import FORMATS as PAGE_FORMATS

    explain.add_argument("ruleset", metavar="RULESET", help="a built-in name or a YAML file")
    explain.add_argument(
        "--format", choices=PAGE_FORMATS, default="text", help="output format (default text)"
    )
    add_option_flag(explain)
