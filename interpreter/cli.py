"""The `tarot` command: validate, rules, play, replay, diff, simulate.

argparse (standard library) parses the command line; each sub-command is one small function
that loads through `interpreter.loading` and prints (the commands that play many hands are in
`interpreter.table_commands`). A user's mistake (a bad ruleset, a
corrupt record, a wrong option) ends with a message and exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from interpreter import paths
from interpreter.agents.base import Agent
from interpreter.agents.human_agent import HumanAgent, LeftTable
from interpreter.agents.lineup import AGENT_KINDS, seat_agents
from interpreter.diff import FORMATS, diff_rulesets, render
from interpreter.engine.game import game_winners, play_game
from interpreter.engine.state import HandState
from interpreter.errors import Problem, RulesetError
from interpreter.loading.ruleset_loader import load_ruleset, locate
from interpreter.record import game_record
from interpreter.record_json import RecordError, parse_record, read_record_bytes, record_text
from interpreter.replay import record_problems, record_ruleset, replay_record
from interpreter.ruleset import Ruleset
from interpreter.simulation.plot import PlotUnavailable
from interpreter.table_commands import (
    DEFAULT_AGENTS,
    INTERRUPTED,
    OutputError,
    agents_for,
    cmd_diff_family,
    cmd_diff_table,
    cmd_simulate,
)
from interpreter.transcript import game_line, hand_transcript, totals_line

DEFAULT_SIMULATE_HANDS = 1000
DEFAULT_FAMILY_HANDS = 500


def _ruleset_files(targets: Sequence[str]) -> list[Path]:
    files: list[Path] = []
    for target in targets:
        path = Path(target)
        if path.is_dir():
            files += sorted(path.rglob("*.yaml")) + sorted(path.rglob("*.yml"))
        else:
            files.append(path if path.exists() else locate(target))
    return files


def cmd_validate(args: argparse.Namespace) -> int:
    failed = 0
    for path in _ruleset_files(args.paths):
        try:
            load_ruleset(path)
        except RulesetError as error:
            failed += 1
            print(error, file=sys.stderr)
            continue
        print(f"{path}: ok")
    return 1 if failed else 0


def cmd_rules(_args: argparse.Namespace) -> int:
    builtin = paths.builtin_rulesets()
    width = max((len(name) for name in builtin), default=0) + 2
    for name, path in builtin.items():
        try:
            ruleset = load_ruleset(path)
        except RulesetError:
            print(f"{name:{width}}(does not load: run tarot validate {path})")
            continue
        sources = ", ".join(sorted(ruleset.sources))
        print(f"{name:{width}}{ruleset.players} players  {ruleset.title}  [sources: {sources}]")
    return 0


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    chosen = {}
    for pair in pairs:
        name, sep, reading = pair.partition("=")
        if not sep or not name or not reading:
            raise RulesetError([Problem(None, "$", f"--option wants NAME=READING, got {pair!r}")])
        chosen[name] = reading
    return chosen


def cmd_play(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(args.ruleset, _parse_options(args.option))
    numbers = [args.hand] if args.hand else args.hands and list(range(1, args.hands + 1))
    # numbers is None for a whole game: as many hands as the ruleset's game takes
    kinds = agents_for(args, ruleset)
    if args.human is not None and not 0 <= args.human < ruleset.players:
        print(
            f"tarot: --human {args.human}: no such seat; {ruleset.id} has seats "
            f"0 to {ruleset.players - 1}",
            file=sys.stderr,
        )
        return 2
    out = sys.stderr if args.record == "-" else sys.stdout
    human = HumanAgent(output=out, seat=args.human) if args.human is not None else None

    def agents(number: int):
        seated = seat_agents(kinds, args.seed, number, ruleset.players)
        if human is not None:
            seated[args.human] = human
        return seated

    finished = []

    def show(state) -> None:
        finished.append(state)
        if args.quiet:
            return
        if human is None:
            print(hand_transcript(state), file=out)
            print(file=out)
            return
        human.hand_over(state)
        if numbers:
            more = state.number != numbers[-1]
        else:  # a whole game: one hand for a ruleset without a game end
            more = ruleset.game is not None and not game_winners(state)
        if more:
            human.wait("Press Enter to deal the next hand (q to leave): ")

    status = 0
    try:
        play_game(ruleset, args.seed, agents, numbers, on_hand=show)
    except (KeyboardInterrupt, LeftTable) as stop:
        why = "interrupted" if isinstance(stop, KeyboardInterrupt) else str(stop)
        kept = f"; the {len(finished)} finished hand(s) are kept" if finished else ""
        during = numbers[len(finished)] if numbers else len(finished) + 1
        print(f"\n{why}: stopped during hand {during}{kept}", file=sys.stderr)
        status = INTERRUPTED
    if finished:
        you = f"  (you are seat {args.human})" if human is not None else ""
        print(totals_line(finished) + you, file=out)
        winners = game_winners(finished[-1])
        if winners:
            print(game_line(finished, winners), file=out)
    if args.record:
        first = numbers[0] if numbers else 1
        _write_record(args.record, ruleset, args.seed, agents(first), finished, out)
    return status


def _write_record(
    target: str,
    ruleset: Ruleset,
    seed: int,
    agents: Sequence[Agent],
    finished: Sequence[HandState],
    out: TextIO,
) -> None:
    """The game record of the finished hands, to a file or (`-`) to standard output."""
    if not finished:
        print("no hand finished: no record written", file=sys.stderr)
        return
    try:
        text = record_text(game_record(ruleset, seed, [a.name for a in agents], finished))
    except RecordError as error:  # a value strict JSON cannot hold: no invalid file written
        raise OutputError(f"no record written: {error}") from None
    if target == "-":
        print(text)
    else:
        Path(target).write_text(text + "\n", encoding="utf-8")
        print(f"record written to {target}", file=out)


def cmd_replay(args: argparse.Namespace) -> int:
    source = "standard input" if args.file == "-" else args.file
    try:
        record = parse_record(read_record_bytes(args.file))
        problems = record_problems(record)
        if problems:
            for problem in problems:
                print(f"{source}: {problem}", file=sys.stderr)
            return 1
        try:
            ruleset = record_ruleset(record, args.ruleset)
        except RulesetError as error:
            print(_ruleset_refusal(source, args.ruleset, record, error), file=sys.stderr)
            return 1
        replay_record(record, ruleset)
    except RecordError as error:
        print(error.located(source), file=sys.stderr)
        return 1
    print(
        f"{source}: {len(record['hands'])} hand(s) replayed; every decision legal, every pack "
        "the seed's, every payment, total and winner the same"
    )
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    if args.family:
        if args.a or args.b:
            raise OutputError("give either two rulesets A B or --family BASE, not both")
        args.hands = args.hands or DEFAULT_FAMILY_HANDS
        return cmd_diff_family(args)
    if not args.a or not args.b:
        raise OutputError("tarot diff needs two rulesets A B (or --family BASE)")
    if args.hands:
        return cmd_diff_table(args)
    for flag in ("out", "plot"):
        if getattr(args, flag):
            raise OutputError(f"--{flag} needs --hands N: it describes hands played")
    print(render(diff_rulesets(args.a, args.b), args.format))
    return 0


def cmd_simulate_args(args: argparse.Namespace) -> int:
    return cmd_simulate(args, _parse_options(args.option))


def _ruleset_refusal(
    source: str, ruleset_file: str | None, record: dict, error: RulesetError
) -> str:
    """Why the ruleset to replay a record with does not load, blamed on the record where the
    record is wrong (an option or reading the ruleset does not have)."""
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
            return f"{source}: --ruleset: {missing.problems[0].message}"
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tarot", description="Run historical Tarot games written as YAML rulesets."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    validate = sub.add_parser("validate", help="check ruleset files and report every problem")
    validate.add_argument(
        "paths", nargs="+", metavar="PATH", help="ruleset files, folders of them, or built-in names"
    )
    validate.set_defaults(run=cmd_validate)

    rules = sub.add_parser("rules", help="list the built-in rulesets")
    rules.set_defaults(run=cmd_rules)

    play = sub.add_parser(
        "play", help="play hands with computer players (or sit in with --human) and print them"
    )
    play.add_argument("ruleset", metavar="RULESET", help="a built-in name or a YAML file")
    play.add_argument("--seed", type=int, default=1, help="seed of the shuffle and players")
    which = play.add_mutually_exclusive_group()
    which.add_argument(
        "--hands",
        type=int,
        help="number of hands (default: one hand, or a whole game for a ruleset played to a score)",
    )
    which.add_argument(
        "--hand",
        type=int,
        metavar="N",
        help="play only hand N of the game (as simulate and diff number them)",
    )
    _add_option_flag(play)
    _add_agents_flag(play)
    play.add_argument("--record", metavar="FILE", help="write the game record (JSON); - for stdout")
    play.add_argument(
        "--human",
        type=int,
        metavar="SEAT",
        help="you play this seat (0, 1, ...) at the terminal; you see only what it may see",
    )
    play.add_argument(
        "--quiet",
        action="store_true",
        help="print only the totals (with --human: also your decisions, but no hand results)",
    )
    play.set_defaults(run=cmd_play)

    replay = sub.add_parser("replay", help="replay a game record and check it")
    replay.add_argument("file", metavar="FILE", help="a game record; - for standard input")
    replay.add_argument(
        "--ruleset",
        metavar="FILE",
        help="the ruleset file (or built-in name) to replay with; by default the built-in "
        "ruleset the record names (a record never names a file)",
    )
    replay.set_defaults(run=cmd_replay)

    diff = sub.add_parser(
        "diff",
        help="compare two rulesets as written and, with --hands, at the table",
        description="Compare two rulesets as written (options, rules, values). With --hands N "
        "also play the same N deals under both with the same players and seeds, and report "
        "the paired differences. With --family BASE, compare every built-in variant of BASE "
        "against it in one table.",
    )
    diff.add_argument("a", metavar="A", nargs="?", help="a built-in name or a YAML file")
    diff.add_argument("b", metavar="B", nargs="?", help="a built-in name or a YAML file")
    diff.add_argument(
        "--family",
        metavar="BASE",
        help=f"every built-in ruleset that extends BASE against it "
        f"(default {DEFAULT_FAMILY_HANDS} hands)",
    )
    diff.add_argument("--hands", type=int, metavar="N", help="also play N paired hands under both")
    _add_run_flags(diff)
    diff.set_defaults(run=cmd_diff)

    simulate = sub.add_parser(
        "simulate",
        help="play many hands of one ruleset and report game measures",
        description="Play N hands with computer players and report the mean result per seat "
        "and place, balance, spread, length, branching and how often each rule paid.",
    )
    simulate.add_argument("ruleset", metavar="RULESET", help="a built-in name or a YAML file")
    simulate.add_argument(
        "--hands",
        type=int,
        default=DEFAULT_SIMULATE_HANDS,
        metavar="N",
        help=f"number of hands (default {DEFAULT_SIMULATE_HANDS})",
    )
    _add_option_flag(simulate)
    _add_run_flags(simulate)
    simulate.set_defaults(run=cmd_simulate_args)
    return parser


def _add_option_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=READING",
        help="choose a reading of an interpretation option (repeatable)",
    )


def _add_agents_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--agents",
        default=DEFAULT_AGENTS,
        metavar="KIND[,KIND...]",
        help=f"computer players: one kind for every seat or one per seat, from "
        f"{', '.join(AGENT_KINDS)} (default {DEFAULT_AGENTS})",
    )


def _add_run_flags(parser: argparse.ArgumentParser) -> None:
    _add_agents_flag(parser)
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and players")
    parser.add_argument(
        "--jobs",
        type=int,
        metavar="J",
        help="worker processes (default: every core); results do not depend on it",
    )
    parser.add_argument(
        "--out", metavar="FILE", help="write one row per hand and ruleset (.jsonl or .csv)"
    )
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="draw the results per seat (.png or .svg; needs the [plot] extra)",
    )
    parser.add_argument(
        "--format", choices=list(FORMATS), default="text", help="output format (default text)"
    )


def _count_problem(args: argparse.Namespace) -> str | None:
    for flag in ("hands", "hand", "jobs"):
        value = getattr(args, flag, None)
        if value is not None and value < 1:
            return f"--{flag} must be at least 1"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    problem = _count_problem(args)
    if problem:
        print(f"tarot: {problem}", file=sys.stderr)
        return 2
    try:
        return args.run(args)
    except RulesetError as error:
        print(error, file=sys.stderr)
        return 1
    except (OutputError, PlotUnavailable) as error:
        print(f"tarot: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
