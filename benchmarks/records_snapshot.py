"""Records of every built-in ruleset for fixed seeds, to prove that a change keeps behaviour.

A change that should not change what the engine does (a faster engine, a new structure) must
give byte-identical records before and after, for every built-in ruleset, under random,
heuristic and search players. This script writes those records into a folder, or writes them
and compares them with a folder written before the change:

    python benchmarks/records_snapshot.py DIR                 # write the records into DIR
    python benchmarks/records_snapshot.py DIR --compare BASE  # write, then compare with BASE

Per ruleset: three hands with random players and three with heuristic players (seed 3), and
one hand with search players at two samples (seed 5). A ruleset that fails writes its message
in `NAME.PLAYERS.err` in place of a record. Comparing ignores nothing: every file of either
folder must be in the other with the same bytes. Exits 1 when the folders differ.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine

from tarot.cli import main as tarot
from tarot.load.listing import builtin_listings

# (label, seed, hands, players) for every built-in ruleset
RUNS = (
    ("random", 3, 3, "random"),
    ("heuristic", 3, 3, "heuristic"),
    ("search", 5, 1, "search:samples=2"),
)


def write_records(folder: Path, names: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        for label, seed, hands, players in RUNS:
            record = folder / f"{name}.{label}.json"
            messages = io.StringIO()
            args = ["play", name, "--seed", str(seed), "--hands", str(hands)]
            args += ["--agents", players, "--record", str(record), "--quiet"]
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(messages):
                status = tarot(args)
            if status != 0:
                (folder / f"{name}.{label}.err").write_text(messages.getvalue(), encoding="utf-8")
                print(f"{name} ({label}): exit {status}", file=sys.stderr)
        print(f"{name}: written", file=sys.stderr)


def differences(folder: Path, base: Path) -> list[str]:
    mine = {path.name for path in folder.iterdir()}
    theirs = {path.name for path in base.iterdir()}
    found = [f"only in {base}: {name}" for name in sorted(theirs - mine)]
    found += [f"only in {folder}: {name}" for name in sorted(mine - theirs)]
    for name in sorted(mine & theirs):
        if (folder / name).read_bytes() != (base / name).read_bytes():
            found.append(f"differs: {name}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="where to write the records")
    parser.add_argument("--compare", type=Path, metavar="BASE", help="a folder written before")
    parser.add_argument("--rulesets", help="comma-separated names (default: every built-in)")
    args = parser.parse_args()
    names = args.rulesets.split(",") if args.rulesets else sorted(builtin_listings())
    write_records(args.folder, names)
    if args.compare is None:
        return 0
    found = differences(args.folder, args.compare)
    for line in found:
        print(line)
    print(f"{len(found)} difference(s) from {args.compare}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
