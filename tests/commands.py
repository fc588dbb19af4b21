"""Running the `tarot` command as a user would, for the tests: `python -m tarot`
from the repository root."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tarot(
    *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m tarot ARGS` from the checkout (`env`: the process's environment, if not
    this one's)."""
    return subprocess.run(
        [sys.executable, "-m", "tarot", *args],
        cwd=ROOT,
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def recorded_game(
    ruleset: str,
    seed: int,
    agent: str = "random",
    hands: int | None = None,
    options: Sequence[str] = (),
) -> dict:
    """The record of a seeded game played by `tarot play ... --record -` (a whole game when
    `hands` is None)."""
    args = ["play", ruleset, "--seed", str(seed), "--agents", agent]
    if hands is not None:
        args += ["--hands", str(hands)]
    for option in options:
        args += ["--option", option]
    played = tarot(*args, "--record", "-", "--quiet")
    assert played.returncode == 0, played.stderr
    return json.loads(played.stdout)


def run_in_process(capsys, *args: str) -> tuple[int, str, str]:
    """`tarot ARGS` in this process (`capsys`, pytest's fixture, captures its output):
    (exit status, stdout, stderr), and no traceback in either."""
    from tarot.cli import main

    try:
        status = main(list(args))
    except SystemExit as exit_:  # argparse refusing the command line
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err
