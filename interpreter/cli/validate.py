"""`tarot validate`: check rulesets, every problem of each at once.

Where it sits: a command of `tarot.cli`, which parses the command line and calls `run`; what it
needs is imported when it runs. As text, each problem is printed on standard error with its
source line and a caret under the place (`Problem.shown`), and each ruleset without one as
`PATH: ok` on standard output; with `--format json`, one JSON document on standard output
says both, each problem with its file, line and column (`Problem.as_json`).
"""

from __future__ import annotations

import argparse
import json
import sys

from tarot.cli.flags import (
    ruleset_targets,
)
from tarot.cli.usage import usage_message
from tarot.errors import Problem, RulesetError, UsageError


def run(args: argparse.Namespace) -> int:
    from tarot.compile.loader import load_ruleset, locate

    as_json = args.format == "json"
    status = 0
    checked: list[dict[str, object]] = []
    for target in ruleset_targets(args.paths):
        path = None
        problems: list[Problem] = []
        try:
            path = locate(target)
            load_ruleset(path)
        except UsageError as error:  # a name that is no ruleset
            status = 2
            problems = [Problem(None, "$", usage_message(error))]
            if not as_json:
                print(f"tarot: error: {usage_message(error)}", file=sys.stderr)
        except RulesetError as error:
            status = status or 1
            problems = error.problems
            if not as_json:
                print(error, file=sys.stderr)
        else:
            if not as_json:
                print(f"{path}: ok")
        checked.append(
            {
                "target": str(target),
                "file": None if path is None else str(path),
                "ok": not problems,
                "problems": [problem.as_json() for problem in problems],
            }
        )
    if as_json:
        print(json.dumps({"rulesets": checked}, indent=2, ensure_ascii=False))
    return status


def add_arguments(validate: argparse.ArgumentParser) -> None:
    validate.add_argument(
        "paths", nargs="+", metavar="PATH", help="ruleset files, folders of them, or built-in names"
    )
    validate.add_argument(
        "--format",
        choices=["text", "json"],
        default="text",
        help="text (default): the problems on standard error, each with its line quoted and a"
        " caret; json: one document on standard output, each problem with its file, line and"
        " column",
    )
