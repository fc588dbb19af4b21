"""`tarot replay`: a game record played again and checked, decision by decision.

Where it sits: a command of `tarot.cli`, which parses the command line and calls `run`; what it
needs is imported when it runs.
"""

from __future__ import annotations

import argparse
import sys

from tarot.cli.flags import (
    ruleset_refusal,
)
from tarot.errors import RulesetError


def run(args: argparse.Namespace) -> int:
    from tarot.expressions import EvaluationError
    from tarot.load import paths
    from tarot.records.record_json import RecordError, parse_record, read_record_bytes
    from tarot.records.replay import record_problems, record_ruleset, replay_record

    source = "standard input" if args.file == "-" else args.file
    try:
        record = parse_record(read_record_bytes(args.file))
        problems = record_problems(record)
        if problems:
            for problem in problems:
                print(f"{source}: {problem}", file=sys.stderr)
            return 1
        assert isinstance(record, dict)  # the record schema wants an object
        note = None if args.ruleset else paths.shadowing_note(record["ruleset"]["id"])
        if note is not None:  # the record names a built-in ruleset; the user's is read
            print(note, file=sys.stderr)
        try:
            ruleset = record_ruleset(record, args.ruleset)
        except RulesetError as error:
            print(ruleset_refusal(source, args.ruleset, record, error), file=sys.stderr)
            return 1
        unchecked = replay_record(record, ruleset)
    except RecordError as error:
        print(error.located(source), file=sys.stderr)
        return 1
    except EvaluationError as error:
        print(f"{source}: replaying stopped: {error}", file=sys.stderr)
        return 1
    chosen = sum("deal" in hand for hand in record["hands"])
    packs = "the seed's" if not chosen else f"the seed's or its chosen deal's ({chosen} chosen)"
    print(
        f"{source}: {len(record['hands'])} hand(s) replayed; every decision legal, every pack "
        f"{packs}, every payment, total and winner the same"
    )
    for note in unchecked:  # a record written before records told all
        print(f"{source}: {note}")
    return 0


def add_arguments(replay: argparse.ArgumentParser) -> None:
    replay.add_argument("file", metavar="FILE", help="a game record; - for standard input")
    replay.add_argument(
        "--ruleset",
        metavar="FILE",
        help="the ruleset file (or built-in name) to replay with; by default the built-in "
        "ruleset the record names (a record never names a file)",
    )
