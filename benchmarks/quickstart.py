"""The README's two quick-start commands, timed as a newcomer runs them, in a fresh virtual
environment each.

    python benchmarks/quickstart.py            # both commands
    python benchmarks/quickstart.py --only 1   # the first (install, play a hand)

The first command installs the package and plays one hand of Marolles 1637; the second
installs the test extra and runs the tests' fast tier (what `python -m pytest` runs). Each
runs in a new virtual environment under a temporary folder, with pip's own cache as the
machine has it (a first download takes longer). Prints the wall-clock seconds of each, the
commit, the date and the machine's processors; the README's quick-start times come from here.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent

#: each command as the README writes it, after `python3 -m venv .venv && . .venv/bin/activate`
COMMANDS = {
    1: "pip install -q . && tarot play marolles-1637 > /dev/null",
    2: "pip install -q '.[test]' && python -m pytest -q -p no:cacheprovider",
}


def commit() -> str:
    found = subprocess.run(
        ["git", "-C", str(CHECKOUT), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
    )
    return found.stdout.strip() or "unknown"


def timed(number: int) -> float:
    """Seconds of wall clock for command `number` in a fresh virtual environment."""
    with tempfile.TemporaryDirectory() as folder:
        venv = Path(folder) / ".venv"
        script = f". {venv}/bin/activate && {COMMANDS[number]}"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        start = time.perf_counter()
        done = subprocess.run(["bash", "-c", script], cwd=CHECKOUT)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"command {number} failed (exit status {done.returncode})")
        return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", type=int, choices=sorted(COMMANDS), help="one command")
    args = parser.parse_args()
    numbers = [args.only] if args.only else sorted(COMMANDS)
    print(f"commit {commit()}, {datetime.date.today().isoformat()}, {os.cpu_count()} processors")
    for number in numbers:
        print(f"command {number}: {timed(number):.0f} s  ({COMMANDS[number]})", flush=True)


if __name__ == "__main__":
    main()
