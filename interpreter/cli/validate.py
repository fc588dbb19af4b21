"""`tarot validate`: check rulesets, every problem of each at once.

Where it sits: a command of `tarot.cli`, which parses the command line and calls `run`; what it
needs is imported when it runs.
"""

from __future__ import annotations

import argparse
import sys

from tarot.cli.flags import (
    ruleset_targets,
)
from tarot.cli.usage import usage_message
from tarot.errors import RulesetError, UsageError


def run(args: argparse.Namespace) -> int:
    from tarot.compile.loader import load_ruleset, locate

    status = 0
    for target in ruleset_targets(args.paths):
        try:
            path = locate(target)
            load_ruleset(path)
        except UsageError as error:  # a name that is no ruleset
            status = 2
            print(f"tarot: error: {usage_message(error)}", file=sys.stderr)
            continue
        except RulesetError as error:
            status = status or 1
            print(error, file=sys.stderr)
            continue
        print(f"{path}: ok")
    return status


def add_arguments(validate: argparse.ArgumentParser) -> None:
    validate.add_argument(
        "paths", nargs="+", metavar="PATH", help="ruleset files, folders of them, or built-in names"
    )
