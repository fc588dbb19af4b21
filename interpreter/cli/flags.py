"""Flags and checks shared by several commands: the hands, options, players and run flags, the
search path of rulesets, and what a record's ruleset refuses.

Where it sits: read by the command modules of `tarot.cli`.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from tarot.core import whole_numbers
from tarot.errors import RulesetError

DEFAULT_SIMULATE_HANDS = 1000


DEFAULT_FAMILY_HANDS = 500


DEFAULT_STUDY_HANDS = 500


def ruleset_targets(targets: Sequence[str]) -> list[str | Path]:
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


def ruleset_refusal(
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
    wrong = unknown_choices(base.document.get("options", {}), chosen)
    if wrong:
        return "\n".join(f"{source}: $.ruleset.options.{problem}" for problem in wrong)
    return (
        f"{source}: $.ruleset: cannot load ruleset {base.id!r} with the record's options:\n{error}"
    )


def unknown_choices(options: dict, chosen: dict[str, str]) -> list[str]:
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


def add_rulesets_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rulesets",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of your own rulesets, looked through by name before those of "
        "$TAROT_PATH and the built-in ones (repeatable)",
    )


def add_hands_flag(parser: argparse.ArgumentParser, default: int, what: str) -> None:
    parser.add_argument(
        "--hands",
        type=whole_numbers.count,
        default=default,
        metavar="N",
        help=f"{what} (default {default})",
    )


def add_option_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=READING",
        help="choose a reading of an interpretation option (repeatable)",
    )


def add_agents_flag(parser: argparse.ArgumentParser) -> None:
    from tarot.cli.simulate import DEFAULT_AGENTS
    from tarot.players.lineup import AGENT_KINDS

    parser.add_argument(
        "--agents",
        default=DEFAULT_AGENTS,
        metavar="KIND[,KIND...]",
        help=f"computer players: one kind for every seat or one per seat, from "
        f"{', '.join(AGENT_KINDS)} (default {DEFAULT_AGENTS})",
    )


def add_run_flags(parser: argparse.ArgumentParser, plot: bool = True) -> None:
    from tarot.measure.diff import FORMATS

    add_agents_flag(parser)
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
        help="play the hands on a Dask cluster: a scheduler's address tls://HOST:PORT "
        "(tcp:// on this machine only), or local[:N] to start one here with N workers (needs "
        "the [cluster] extra); results do not depend on it",
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
    parser.add_argument(
        "--trust-store",
        action="store_true",
        help="vouch for the hands of a --store not sealed by you (one of yours from another "
        "machine or an older tarot, or from someone you trust): they are sealed as yours",
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
    from tarot.batch.backend import BACKENDS, DEFAULT_BACKEND

    parser.add_argument(
        "--backend",
        choices=list(BACKENDS),
        default=DEFAULT_BACKEND,
        help="auto (the default): the batch back end where it can run every ruleset and "
        "player of the run, one hand in a thousand checked on the scalar engine, else the "
        "scalar engine, saying why; scalar: one hand at a time (the reference); batch: "
        "thousands of random hands at once with numpy, refused for a ruleset it cannot run",
    )
