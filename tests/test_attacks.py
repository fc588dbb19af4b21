"""Attack cases (tests/data/attacks/*/*.case.yaml): hostile rulesets, records and command
lines, each run as a user would run it, must end with the expected exit status and message,
no traceback, within a time limit and a memory limit. The format is in the folder's README."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from tiers import one_fast

ROOT = Path(__file__).resolve().parent.parent
ATTACKS = ROOT / "tests" / "data" / "attacks"
SECONDS = 10  # the promise is 5 s; twice that on a loaded CI machine before failing
MEMORY_BYTES = 3 * 1024**3
CASES = sorted(ATTACKS.glob("*/*.case.yaml"))


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def _fill(text: str, here: Path, tmp: Path) -> str:
    return text.replace("{here}", str(here)).replace("{tmp}", str(tmp))


def test_there_are_cases_in_every_family() -> None:
    for family in ("rulesets", "records", "commands"):
        assert list((ATTACKS / family).glob("*.case.yaml")), f"no attack cases in {family}/"


@pytest.mark.parametrize(
    "case_file", one_fast(CASES, lambda p: p.parent.name), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_attack_is_refused_cleanly(case_file: Path, tmp_path: Path) -> None:
    case = yaml.safe_load(case_file.read_text(encoding="utf-8"))
    here = case_file.parent
    args = [_fill(str(arg), here, tmp_path) for arg in case["args"]]
    stdin = _fill(case["stdin"], here, tmp_path) if "stdin" in case else None
    done = subprocess.run(
        [sys.executable, "-m", "tarot", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=SECONDS,
        preexec_fn=_limit_memory,
    )
    output = done.stdout + done.stderr
    assert "Traceback" not in output, output[-3000:]
    assert done.returncode == case["exit"], output[-3000:]
    for words in case["expect"]:
        assert words in output, f"{words!r} not in:\n{output[-3000:]}"
    for words in case.get("forbid", []):
        assert words not in output, f"{words!r} in:\n{output[-3000:]}"
