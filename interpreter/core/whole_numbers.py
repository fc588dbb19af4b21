"""Whole numbers typed on the command line (`--hands`, `--hand`, `--jobs`, `--seed`, `--human`,
`--port`,
`--think-seconds`).

Where it sits: argparse `type=` functions for `tarot.cli`. Each number is checked
against stated bounds before it is used, and its length before it is converted, so an absurd
value (a 5,000-digit number, `1e9`, `٣`) is a usage message (exit 2) that shows the value
shortened, never a traceback or a run that cannot end.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

MAX_COUNT = 10**15  # hands, a hand number, worker processes: far beyond any real run
MAX_SEED = 10**18 - 1  # a seed has at most 18 digits, either sign
MAX_SEAT = 999

_WHOLE = re.compile(r"[+-]?[0-9]+")


def _shown(text: str) -> str:
    if _WHOLE.fullmatch(text.strip()):
        digits = len(text.strip().lstrip("+-"))
        if digits > 24:
            return f"a {digits}-digit number"
    return repr(text if len(text) <= 24 else text[:20] + "...")


def _bounded(low: int, high: int, high_text: str) -> Callable[[str], int]:
    def whole_number(text: str) -> int:
        written = text.strip()
        if not _WHOLE.fullmatch(written):
            raise argparse.ArgumentTypeError(f"wants a whole number, got {_shown(text)}")
        digits = written.lstrip("+-").lstrip("0") or "0"
        if len(digits) > len(str(max(abs(low), high))):
            value = None
        else:
            value = -int(digits) if written.startswith("-") else int(digits)
        if value is not None and value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        if value is None or value > high:
            raise argparse.ArgumentTypeError(
                f"must be at most {high_text}, got {_shown(text)}"
                if low >= 0
                else f"must have at most {len(str(high))} digits, got {_shown(text)}"
            )
        return value

    return whole_number


count = _bounded(1, MAX_COUNT, "10^15")
seed = _bounded(-MAX_SEED, MAX_SEED, "")
seat = _bounded(-MAX_SEAT, MAX_SEAT, "")  # which seats exist: the command says, knowing the game
port = _bounded(1, 65535, "65535")
think_seconds = _bounded(1, 600, "600")  # `tarot serve`: a computer player's time per decision
