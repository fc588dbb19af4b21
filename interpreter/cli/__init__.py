"""The `tarot` command: validate, rules, explain, play, serve, replay, diff, simulate, study,
schema, completion.

argparse (standard library) parses the command line, through `tarot.cli.usage`; each
sub-command is a module of this package (`validate`, `rules`, `explain`, `play`, `serve`,
`replay`, `diff`, `simulate`, `study`, `schema`, `completion`) with `add_arguments(parser)`
and `run(args)`, and the flags several share are in `tarot.cli.flags`. A mistake typed on the
command line (a flag, a name, a value) is one line `tarot: error: ...` and exit status 2; a
mistake in a file (a bad ruleset, a corrupt record) is a positioned message and exit status
1; never a traceback.

Each sub-command imports what it needs when it runs, and only the sub-command named on the
command line gets its arguments (whose help names agents and formats): the engine, the
expression compiler, jsonschema and the simulation take longer to import than `tarot rules`
takes to run.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tarot.cli.flags import add_rulesets_flag
from tarot.cli.usage import TarotParser, unknown_arguments, usage_message
from tarot.core.stopping import exit_status, signals_stop_the_run
from tarot.errors import RulesetError, UsageError, shown_text


def build_parser(command: str | None = None) -> TarotParser:
    """The `tarot` parser; given the sub-command the command line names, only that one gets its
    arguments (the others keep their line in `tarot --help`)."""
    parser = TarotParser(
        prog="tarot", description="Run historical Tarot games written as YAML rulesets."
    )
    parser.add_argument("--version", action="version", version=f"tarot {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, settings, module_name in _COMMANDS:
        command_parser = sub.add_parser(name, **settings)
        if command in (None, name):
            module = importlib.import_module(f"tarot.cli.{module_name}")
            module.add_arguments(command_parser)
            if name not in ("schema", "completion"):
                add_rulesets_flag(command_parser)
            command_parser.set_defaults(run=module.run)
        parser.commands[name] = command_parser
    return parser


def _version() -> str:
    """The installed distribution's version (`pyproject.toml`), as pip knows it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tarot-rules")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


#: name, `add_parser` settings, the function adding its arguments, the function running it
#: each command: its name, its line in `tarot --help`, and the module of `tarot.cli` that
#: adds its arguments (`add_arguments`) and runs it (`run`), imported only when it is named
_COMMANDS: list[tuple[str, dict[str, Any], str]] = [
    (
        "validate",
        {"help": "check ruleset files and report every problem"},
        "validate",
    ),
    (
        "rules",
        {"help": "list the rulesets: the built-in ones and those of your folders"},
        "rules",
    ),
    (
        "explain",
        {
            "help": "the ruleset as a rules page: each rule with its source, options, assumptions",
            "description": "Print the ruleset as a rules page in the order a player learns the "
            "game, each rule in plain words with its source, every option with its readings and "
            "the one in force, the parameters, the assumptions and the full citation of each "
            "source.",
        },
        "explain",
    ),
    (
        "play",
        {"help": "play hands with computer players (or sit in with --human) and print them"},
        "play",
    ),
    (
        "serve",
        {
            "help": "play at a table in the browser (needs the [web] extra)",
            "description": "Start a web server on this machine and open the page, where you "
            "play any ruleset at any seat against computer players; the server keeps the "
            "hidden cards. Each table's actions and record are kept in a folder, so a table "
            "reopens by its address.",
        },
        "serve",
    ),
    ("replay", {"help": "replay a game record and check it"}, "replay"),
    (
        "diff",
        {
            "help": "compare two rulesets as written and, with --hands, at the table",
            "description": "Compare two rulesets as written (options, rules, values). With "
            "--hands N also play the same N deals under both with the same players and seeds, "
            "and report the paired differences. With --family BASE, compare every built-in "
            "variant of BASE against it in one table; with BASE --option NAME, every reading "
            "of that option against the one in force, in one table.",
        },
        "diff",
    ),
    (
        "simulate",
        {
            "help": "play many hands of one ruleset and report game measures",
            "description": "Play N hands with computer players and report the mean result per "
            "seat and place, balance, spread, length, branching and how often each rule paid.",
        },
        "simulate",
    ),
    (
        "study",
        {
            "help": "which of a ruleset's options change the game, alone and together",
            "description": "Play a designed experiment over the options of BASE (each its "
            "default reading against one other): every run of a full or fractional factorial "
            "design on the same N deals, with the same players and seeds. Report each "
            "option's main effect and the two-way interactions that change results, ranked "
            "by size with 95%% intervals, the design's aliasing, and which options no player "
            "would notice. Needs the [study] extra (pydoe).",
        },
        "study",
    ),
    (
        "schema",
        {"help": "where the ruleset schema is installed, and the editor settings that use it"},
        "schema",
    ),
    (
        "completion",
        {
            "help": "print a shell completion script (needs the [completion] extra)",
            "description": "Print the completion script of bash, zsh or tcsh, e.g. "
            "`tarot completion bash > ~/.local/share/bash-completion/completions/tarot`.",
        },
        "completion",
    ),
]


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    named = argv[0] if argv and not argv[0].startswith("-") else None
    parser = build_parser(named)
    try:
        args, extras = parser.parse_known_args(argv)
        if extras:
            raise unknown_arguments(parser.commands.get(args.command, parser), extras)
        _search_path(args)
        with signals_stop_the_run():
            return args.run(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return exit_status()
    except BrokenPipeError:
        return 0
    except Exception as error:  # noqa: BLE001 - those not a user's mistake are raised again
        status = _refusal(error)
        if status is None:
            raise
        return status


def _search_path(args: argparse.Namespace) -> None:
    """Put the folders of `--rulesets` on the search path; a usage error for one that is not
    a folder; a note for each name typed that a user's ruleset takes from a built-in one."""
    from tarot.load import paths

    for folder in args.rulesets if "rulesets" in args else []:
        if not Path(folder).is_dir():
            raise UsageError(f"--rulesets {folder}: no such folder")
    paths.set_user_folders(getattr(args, "rulesets", []))
    if not paths.user_folders():
        return
    typed = [getattr(args, key, None) for key in ("ruleset", "a", "b", "base", "family")]
    typed += getattr(args, "paths", [])
    for name in dict.fromkeys(name for name in typed if isinstance(name, str)):
        note = paths.shadowing_note(name)
        if note is not None:
            print(note, file=sys.stderr)


def _refusal(error: Exception) -> int | None:
    """Print why a command stopped on a user's mistake and return its exit status; None for
    an error that is no user's mistake. Whatever a message quotes (a store's table names,
    a scheduler's or a worker's words) reaches the terminal with its control characters
    escaped."""
    if isinstance(error, UsageError):  # --agents, --option, a ruleset name, a flag
        _say(f"tarot: error: {usage_message(error)}")
        return 2
    if isinstance(error, RulesetError):
        _say(str(error))
        return 1
    from tarot.core.output_files import OutputError
    from tarot.expressions import EvaluationError
    from tarot.measure.cluster import ClusterError
    from tarot.measure.plot import PlotUnavailable
    from tarot.measure.runner import RulesetMismatch, WorkerDied
    from tarot.measure.study.design import DesignUnavailable
    from tarot.records.batch_agreement import BatchDisagreement

    if isinstance(
        error,
        OutputError
        | PlotUnavailable
        | RulesetMismatch
        | WorkerDied
        | BatchDisagreement
        | ClusterError
        | DesignUnavailable,
    ):
        _say(f"tarot: {error}")
        return 1
    if isinstance(error, EvaluationError):  # rows already written are kept
        _say(f"{error}\nthe run was stopped")
        return 1
    if isinstance(error, OSError):  # a path the command line named that cannot be used at all
        where = f"{error.filename}: " if error.filename else ""
        _say(f"tarot: {where}{error.strerror or error}")
        return 1
    return None


def _say(message: str) -> None:
    print(shown_text(message), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
