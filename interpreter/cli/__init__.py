"""The `tarot` command: validate, rules, explain, play, serve, replay, diff, simulate, study,
schema, completion.

argparse (standard library) parses the command line, through `tarot.cli.usage`; each
sub-command is one small function that loads through `tarot.load` and prints (the
commands that play many hands are in `tarot.cli.simulate`). A mistake typed on the
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
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tarot.cli.usage import TarotParser, unknown_arguments
from tarot.core import whole_numbers
from tarot.core.stopping import exit_status, signals_stop_the_run
from tarot.errors import RulesetError, UsageError

# The imports inside the functions below are deliberate: see the module's docstring.

DEFAULT_SIMULATE_HANDS = 1000
DEFAULT_FAMILY_HANDS = 500
DEFAULT_STUDY_HANDS = 500


def _ruleset_targets(targets: Sequence[str]) -> list[str | Path]:
    """Each target as given, a folder replaced by the YAML files under it."""
    found: list[str | Path] = []
    for target in targets:
        path = Path(target)
        try:
            is_dir = path.is_dir()
        except OSError:  # e.g. a name too long for the file system: locate() says so
            is_dir = False
        if is_dir:
            found += sorted(path.rglob("*.yaml")) + sorted(path.rglob("*.yml"))
        else:
            found.append(target)
    return found


def cmd_validate(args: argparse.Namespace) -> int:
    from tarot.compile.loader import load_ruleset, locate

    status = 0
    for target in _ruleset_targets(args.paths):
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


def cmd_rules(args: argparse.Namespace) -> int:
    """Each ruleset's name, players, title and sources (the built-in ones and those of the
    user's folders), read without checking or compiling it (`tarot validate` checks)."""
    from tarot.load import paths
    from tarot.load.listing import named_listings

    if args.names:  # for shell completion: nothing read but the file names
        print("\n".join(paths.list_named()))
        return 0
    listed = named_listings()
    builtin = paths.builtin_rulesets()
    hidden = paths.shadowed()
    width = max((len(name) for name in listed), default=0) + 2
    for name, (path, listing) in listed.items():
        where = "" if builtin.get(name) == path else f"  ({path})"
        if name in hidden:
            where += f"  [hides the built-in {name}]"
        if listing is None:
            print(f"{name:{width}}(does not load: run tarot validate {path})")
            continue
        sources = ", ".join(listing.sources)
        print(
            f"{name:{width}}{listing.players} players  {listing.title}  [sources: {sources}]"
            + where
        )
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    """The installed schema's path and the editor settings that use it."""
    from tarot.load import paths

    schema = (paths.schemas_dir() / f"{args.which}.schema.json").resolve()
    if args.path:
        print(schema)
        return 0
    uri = schema.as_uri()
    print(f"schema: {schema}")
    if args.which == "game-record":
        print("VS Code, in settings.json:")
        print(f'  "json.schemas": [{{"fileMatch": ["*.record.json"], "url": "{uri}"}}]')
        return 0
    print("VS Code (the YAML extension), in settings.json:")
    print(f'  "yaml.schemas": {{"{uri}": ["rulesets/**/*.yaml"]}}')
    print("any editor with yaml-language-server (Neovim, Helix, Emacs, Zed...), first line:")
    print(f"  # yaml-language-server: $schema={uri}")
    print(f"check-jsonschema: check-jsonschema --schemafile {schema} FILE...")
    return 0


def cmd_completion(args: argparse.Namespace) -> int:
    """A shell's completion script, made from the parser by shtab."""
    from tarot.cli.completion import completion_script

    print(completion_script(build_parser(), args.shell))
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from tarot.compile.loader import load_ruleset
    from tarot.compile.option_flags import readings_for
    from tarot.presentation.explain import explain_page
    from tarot.presentation.explain import render as render_page

    ruleset = load_ruleset(args.ruleset, readings_for(args.option, args.ruleset))
    print(render_page(explain_page(ruleset), args.format))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
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
            print(_ruleset_refusal(source, args.ruleset, record, error), file=sys.stderr)
            return 1
        replay_record(record, ruleset)
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
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
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


def cmd_simulate_args(args: argparse.Namespace) -> int:
    from tarot.cli.simulate import cmd_simulate
    from tarot.compile.option_flags import readings_for

    return cmd_simulate(args, readings_for(args.option, args.ruleset))


def cmd_study_args(args: argparse.Namespace) -> int:
    from tarot.cli.study import cmd_study

    return cmd_study(args)


def cmd_play_args(args: argparse.Namespace) -> int:
    from tarot.cli.play import cmd_play

    return cmd_play(args)


def _ruleset_refusal(
    source: str, ruleset_file: str | None, record: dict, error: RulesetError
) -> str:
    """Why the ruleset to replay a record with does not load, blamed on the record where the
    record is wrong (an option or reading the ruleset does not have)."""
    from tarot.compile.loader import locate
    from tarot.records.record_json import RecordError
    from tarot.records.replay import record_ruleset

    chosen = record["ruleset"]["options"]
    try:
        base = record_ruleset({"ruleset": {**record["ruleset"], "options": {}}}, ruleset_file)
    except (RulesetError, RecordError):
        # its problems are for `tarot validate`: said here they could quote a file that is
        # not a ruleset at all
        given = ruleset_file or record["ruleset"]["id"]
        try:
            locate(given)
        except RulesetError as missing:  # no such file or built-in: nothing read to quote
            message = missing.problems[0].message
            named = message if given in message else f"{given}: {message}"
            return f"{source}: --ruleset: {named}"
        return (
            f"{source}: the ruleset to replay with does not load ({len(error.problems)} "
            f"problem(s)); run: tarot validate {given}"
        )
    wrong = _unknown_choices(base.document.get("options", {}), chosen)
    if wrong:
        return "\n".join(f"{source}: $.ruleset.options.{problem}" for problem in wrong)
    return (
        f"{source}: $.ruleset: cannot load ruleset {base.id!r} with the record's options:\n{error}"
    )


def _unknown_choices(options: dict, chosen: dict[str, str]) -> list[str]:
    """Options or readings of a record that its ruleset does not have."""
    problems = []
    for option, reading in chosen.items():
        if option not in options:
            problems.append(
                f"{option}: the ruleset has no such option; options: " + ", ".join(sorted(options))
            )
        elif reading not in options[option].get("readings", {}):
            problems.append(
                f"{option}: no reading {reading!r}; readings: "
                + ", ".join(options[option]["readings"])
            )
    return problems


def build_parser(command: str | None = None) -> TarotParser:
    """The `tarot` parser; given the sub-command the command line names, only that one gets its
    arguments (the others keep their line in `tarot --help`)."""
    parser = TarotParser(
        prog="tarot", description="Run historical Tarot games written as YAML rulesets."
    )
    parser.add_argument("--version", action="version", version=f"tarot {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, settings, add_arguments, run in _COMMANDS:
        command_parser = sub.add_parser(name, **settings)
        if command in (None, name):
            add_arguments(command_parser)
            if name not in ("schema", "completion"):
                _add_rulesets_flag(command_parser)
        command_parser.set_defaults(run=run)
        parser.commands[name] = command_parser
    return parser


def _version() -> str:
    """The installed distribution's version (`pyproject.toml`), as pip knows it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tarot-rules")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def _add_rulesets_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rulesets",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of your own rulesets, looked through by name before those of "
        "$TAROT_PATH and the built-in ones (repeatable)",
    )


def _validate_arguments(validate: argparse.ArgumentParser) -> None:
    validate.add_argument(
        "paths", nargs="+", metavar="PATH", help="ruleset files, folders of them, or built-in names"
    )


def _rules_arguments(rules: argparse.ArgumentParser) -> None:
    rules.add_argument("--names", action="store_true", help="print only the names, one a line")


def _schema_arguments(schema: argparse.ArgumentParser) -> None:
    schema.add_argument(
        "which",
        nargs="?",
        choices=["ruleset", "game-record"],
        default="ruleset",
        help="the schema of rulesets (default) or of game records",
    )
    schema.add_argument("--path", action="store_true", help="print only the schema's path")


def _completion_arguments(completion: argparse.ArgumentParser) -> None:
    completion.add_argument("shell", choices=["bash", "zsh", "tcsh"], help="the shell")


def _explain_arguments(explain: argparse.ArgumentParser) -> None:
    from tarot.presentation.explain import FORMATS as PAGE_FORMATS

    explain.add_argument("ruleset", metavar="RULESET", help="a built-in name or a YAML file")
    explain.add_argument(
        "--format", choices=PAGE_FORMATS, default="text", help="output format (default text)"
    )
    _add_option_flag(explain)


def _play_arguments(play: argparse.ArgumentParser) -> None:
    from tarot.players.lineup import LEVELS

    play.add_argument("ruleset", metavar="RULESET", help="a built-in name or a YAML file")
    play.add_argument(
        "--seed", type=whole_numbers.seed, default=1, help="seed of the shuffle and players"
    )
    which = play.add_mutually_exclusive_group()
    which.add_argument(
        "--hands",
        type=whole_numbers.count,
        help="number of hands (default: one hand, or a whole game for a ruleset played to a score)",
    )
    which.add_argument(
        "--hand",
        type=whole_numbers.count,
        metavar="N",
        help="play only hand N of the game (as simulate and diff number them; in a ruleset "
        "with lasting state, from the start of a sitting)",
    )
    play.add_argument(
        "--deal",
        metavar="FILE",
        help="deal the hand as this YAML or JSON file lays it out (each seat's cards, the "
        "talon; docs/api.md, A chosen deal) instead of shuffling; plays one hand",
    )
    _add_option_flag(play)
    _add_agents_flag(play)
    play.set_defaults(agents=None)  # so that --level can tell whether --agents was given
    play.add_argument("--record", metavar="FILE", help="write the game record (JSON); - for stdout")
    play.add_argument(
        "--human",
        type=whole_numbers.seat,
        metavar="SEAT",
        help="you play this seat (0, 1, ...) at the terminal; you see only what it may see",
    )
    play.add_argument(
        "--level",
        choices=list(LEVELS),
        help="the computer players' strength, instead of --agents: "
        + ", ".join(f"{level} = {kind}" for level, kind in LEVELS.items())
        + " (as measured in docs/players/strength.md)",
    )
    play.add_argument(
        "--quiet",
        action="store_true",
        help="print only the totals (with --human: also your decisions, but no hand results)",
    )
    play.add_argument(
        "--sources",
        action="store_true",
        help="the full account of each hand: cards by their ids (as records write them) and "
        "every payment with its sources and the option readings it rests on",
    )
    play.add_argument(
        "--backend",
        choices=["scalar", "batch"],
        default="scalar",
        help="batch: the hands as `simulate`/`diff --backend batch|auto` played them (random "
        "players, the batch back end's own deals), each checked against the scalar engine "
        "(default scalar)",
    )


def _serve_arguments(serve: argparse.ArgumentParser) -> None:
    serve.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    serve.add_argument("--port", type=whole_numbers.port, default=8000, help="default 8000")
    serve.add_argument(
        "--no-browser", action="store_true", help="do not open the page in a browser"
    )
    serve.add_argument(
        "--tables",
        metavar="DIR",
        help="keep each table's actions and record here (default ~/.local/share/tarot/tables)",
    )
    serve.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        help="a host name the page is reached at besides localhost and the loopback addresses "
        "(repeat for several); requests naming any other host are refused",
    )
    serve.add_argument(
        "--think-seconds",
        type=whole_numbers.think_seconds,
        default=10,
        help="at most this long per decision for a computer player (default 10, at most 600)",
    )


def cmd_serve_args(args: argparse.Namespace) -> int:
    from tarot.web.serve import cmd_serve

    return cmd_serve(args)


def _replay_arguments(replay: argparse.ArgumentParser) -> None:
    replay.add_argument("file", metavar="FILE", help="a game record; - for standard input")
    replay.add_argument(
        "--ruleset",
        metavar="FILE",
        help="the ruleset file (or built-in name) to replay with; by default the built-in "
        "ruleset the record names (a record never names a file)",
    )


def _diff_arguments(diff: argparse.ArgumentParser) -> None:
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
    _add_run_flags(diff)


def _simulate_arguments(simulate: argparse.ArgumentParser) -> None:
    simulate.add_argument("ruleset", metavar="RULESET", help="a built-in name or a YAML file")
    _add_hands_flag(simulate, DEFAULT_SIMULATE_HANDS, "number of hands")
    _add_option_flag(simulate)
    _add_run_flags(simulate)


def _study_arguments(study: argparse.ArgumentParser) -> None:
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
    _add_hands_flag(study, DEFAULT_STUDY_HANDS, "hands played under every run of the design")
    study.add_argument(
        "--design",
        choices=DESIGNS,
        default="auto",
        help=f"full: every combination of readings (2^k runs); fractional: the smallest "
        f"two-level fraction of resolution IV (V when it costs no more runs), in which no main "
        f"effect is confounded with a two-way interaction; auto (default): full for up to "
        f"{FULL_UP_TO} options, fractional for more",
    )
    _add_run_flags(study, plot=False)


#: name, `add_parser` settings, the function adding its arguments, the function running it
_COMMANDS: list[
    tuple[
        str,
        dict[str, Any],
        Callable[[argparse.ArgumentParser], None],
        Callable[[argparse.Namespace], int],
    ]
] = [
    (
        "validate",
        {"help": "check ruleset files and report every problem"},
        _validate_arguments,
        cmd_validate,
    ),
    (
        "rules",
        {"help": "list the rulesets: the built-in ones and those of your folders"},
        _rules_arguments,
        cmd_rules,
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
        _explain_arguments,
        cmd_explain,
    ),
    (
        "play",
        {"help": "play hands with computer players (or sit in with --human) and print them"},
        _play_arguments,
        cmd_play_args,
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
        _serve_arguments,
        cmd_serve_args,
    ),
    ("replay", {"help": "replay a game record and check it"}, _replay_arguments, cmd_replay),
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
        _diff_arguments,
        cmd_diff,
    ),
    (
        "simulate",
        {
            "help": "play many hands of one ruleset and report game measures",
            "description": "Play N hands with computer players and report the mean result per "
            "seat and place, balance, spread, length, branching and how often each rule paid.",
        },
        _simulate_arguments,
        cmd_simulate_args,
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
        _study_arguments,
        cmd_study_args,
    ),
    (
        "schema",
        {"help": "where the ruleset schema is installed, and the editor settings that use it"},
        _schema_arguments,
        cmd_schema,
    ),
    (
        "completion",
        {
            "help": "print a shell completion script (needs the [completion] extra)",
            "description": "Print the completion script of bash, zsh or tcsh, e.g. "
            "`tarot completion bash > ~/.local/share/bash-completion/completions/tarot`.",
        },
        _completion_arguments,
        cmd_completion,
    ),
]


def _add_hands_flag(parser: argparse.ArgumentParser, default: int, what: str) -> None:
    parser.add_argument(
        "--hands",
        type=whole_numbers.count,
        default=default,
        metavar="N",
        help=f"{what} (default {default})",
    )


def _add_option_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=READING",
        help="choose a reading of an interpretation option (repeatable)",
    )


def _add_agents_flag(parser: argparse.ArgumentParser) -> None:
    from tarot.cli.simulate import DEFAULT_AGENTS
    from tarot.players.lineup import AGENT_KINDS

    parser.add_argument(
        "--agents",
        default=DEFAULT_AGENTS,
        metavar="KIND[,KIND...]",
        help=f"computer players: one kind for every seat or one per seat, from "
        f"{', '.join(AGENT_KINDS)} (default {DEFAULT_AGENTS})",
    )


def _add_run_flags(parser: argparse.ArgumentParser, plot: bool = True) -> None:
    from tarot.measure.diff import FORMATS

    _add_agents_flag(parser)
    parser.add_argument(
        "--seed", type=whole_numbers.seed, default=1, help="seed of the deals and players"
    )
    from tarot.measure.cluster import cluster_address

    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs",
        type=whole_numbers.count,
        metavar="J",
        help="worker processes (default: every core); results do not depend on it",
    )
    where.add_argument(
        "--cluster",
        type=cluster_address,
        metavar="ADDRESS",
        help="play the hands on a Dask cluster: a scheduler's address tcp://HOST:PORT, or "
        "local[:N] to start one here with N workers (needs the [cluster] extra); results do "
        "not depend on it",
    )
    parser.add_argument(
        "--out", metavar="FILE", help="write one row per hand and ruleset (.jsonl or .csv)"
    )
    parser.add_argument(
        "--store",
        metavar="FILE",
        help="keep every hand played in this SQLite file and reuse the hands it holds "
        "(made if missing); results do not depend on it",
    )
    if plot:
        parser.add_argument(
            "--plot",
            metavar="FILE",
            help="draw the results per seat (.png or .svg; needs the [plot] extra)",
        )
    parser.add_argument(
        "--format", choices=list(FORMATS), default="text", help="output format (default text)"
    )
    parser.add_argument(
        "--backend",
        choices=["scalar", "batch", "auto"],
        default="scalar",
        help="scalar: one hand at a time (the reference); batch: thousands of random hands at "
        "once with numpy, refused for a ruleset it cannot run; auto: batch where it can run "
        "every ruleset and player, else scalar, saying why (default scalar)",
    )


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


def usage_message(error: UsageError) -> str:
    """The one line a usage error prints after `tarot: error: `."""
    if isinstance(error, RulesetError):
        return "; ".join(problem.message for problem in error.problems)
    return str(error)


def _refusal(error: Exception) -> int | None:
    """Print why a command stopped on a user's mistake and return its exit status; None for
    an error that is no user's mistake."""
    if isinstance(error, UsageError):  # --agents, --option, a ruleset name, a flag
        print(f"tarot: error: {usage_message(error)}", file=sys.stderr)
        return 2
    if isinstance(error, RulesetError):
        print(error, file=sys.stderr)
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
        print(f"tarot: {error}", file=sys.stderr)
        return 1
    if isinstance(error, EvaluationError):  # rows already written are kept
        print(f"{error}\nthe run was stopped", file=sys.stderr)
        return 1
    if isinstance(error, OSError):  # a path the command line named that cannot be used at all
        where = f"{error.filename}: " if error.filename else ""
        print(f"tarot: {where}{error.strerror or error}", file=sys.stderr)
        return 1
    return None


if __name__ == "__main__":
    sys.exit(main())
