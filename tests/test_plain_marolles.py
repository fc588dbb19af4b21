"""The plain hand-written Marolles (`benchmarks/plain_marolles.py`), the program the engine's
speed is measured against, must play the game the engine plays under `marolles-1637`: the
proof script replays engine records through it and compares every payment, the card points,
the net and the legal moves. A ruleset change the plain program does not follow (a new option,
a new kind of decision) fails here instead of leaving the speed ratio unproven."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_plain_program_plays_every_hand_as_the_engine_does() -> None:
    # seed 1 hand 43 has a declaration whose shown cards are picked one by one
    result = subprocess.run(
        [sys.executable, "benchmarks/check_plain_marolles.py", "--seeds", "1,2,3", "--hands", "50"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "150 of 150 hands agree" in result.stdout, result.stdout
