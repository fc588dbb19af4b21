"""What names a hand's results: the keys of a row of `--out` and of the results store.

Where it sits: beside `runner`, read by `rows` (each row carries its `RunKey` and hand number)
and `store` (hands are kept under them). A hand's results depend on nothing but the ruleset
as compiled (its content hash, which covers the options chosen), the agent in each seat with
its settings, the seed, the hand number, and the program and engine (back end) that play
it. The program is
named by `results_version`: the package version and a hash of the source of every module that
can change how a hand is played, so a store never serves a hand played by other code.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tarot.core.ruleset import Ruleset
from tarot.load import paths

PACKAGE = Path(__file__).resolve().parent.parent

#: Modules and folders of the package that only present, store or hand out results (paths
#: relative to the package). Every other source file counts towards `results_version`: a new
#: module is counted until it is named here, so forgetting it only makes stored hands be
#: played again, never serves a hand played by other code.
PRESENTATION_ONLY = (
    "__init__.py",
    "__main__.py",
    "api/",
    "cli/",
    "core/output_files.py",
    "core/stopping.py",
    "core/whole_numbers.py",
    "compile/option_flags.py",
    "measure/cluster.py",
    "measure/comparison.py",
    "measure/diff/",
    "measure/driver.py",
    "measure/measures.py",
    "measure/plot.py",
    "measure/provenance.py",
    "measure/report.py",
    "measure/rows.py",
    "measure/runner.py",
    "measure/statistics.py",
    "measure/store.py",
    "measure/store_check.py",
    "measure/study/",
    "presentation/",
    "records/record.py",
    "records/record_file.py",
    "records/record_json.py",
    "records/replay.py",
)


def _plays_hands(relative: str) -> bool:
    return not any(
        relative == name or (name.endswith("/") and relative.startswith(name))
        for name in PRESENTATION_ONLY
    )


@cache
def results_version() -> str:
    """`VERSION+code.HASH`: the package version and a hash of the Python version and of the
    source of every module that plays a hand (`*.py`, and the expression grammar)."""
    digest = hashlib.sha256(f"{sys.implementation.name} {sys.version_info[:2]}".encode())
    files = [p for suffix in ("*.py", "*.lark") for p in PACKAGE.rglob(suffix)]
    for path in sorted(files, key=lambda p: p.relative_to(PACKAGE).as_posix()):
        relative = path.relative_to(PACKAGE).as_posix()
        if _plays_hands(relative):
            digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    try:
        version = importlib.metadata.version("tarot-rules")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout never installed
        version = "unknown"
    return f"{version}+code.{digest.hexdigest()[:16]}"


def seat_by_seat(agents: Sequence[str], players: int) -> tuple[str, ...]:
    """The agent text of every seat, from one text for all seats or one per seat."""
    return tuple(agents) * players if len(agents) == 1 else tuple(agents)


@dataclass(frozen=True)
class RunKey:
    """Everything but the hand number that a hand's results depend on, and the ruleset's
    name (which they do not depend on: the content hash names the rules)."""

    ruleset: str  # the ruleset's id
    ruleset_file: str | None  # the file it was read from; None for a built-in ruleset
    ruleset_hash: str
    options: tuple[tuple[str, str], ...]  # every option and the reading in force, by name
    agents: tuple[str, ...]  # one canonical agent text per seat (settings at default omitted)
    seed: int
    version: str
    backend: str = "scalar"  # the engine that played the hands (its own random numbers)

    @staticmethod
    def of(
        target: str, ruleset: Ruleset, agents: Sequence[str], seed: int, backend: str = "scalar"
    ) -> RunKey:
        """The key of hands played under `ruleset`, loaded from `target` (a built-in name or a
        file path, as the command line gave it), by the engine `backend`."""
        builtin = paths.find_named(target) is not None
        return RunKey(
            ruleset=ruleset.id,
            ruleset_file=None if builtin else target,
            ruleset_hash=ruleset.content_hash,
            options=tuple(sorted(ruleset.options.items())),
            agents=seat_by_seat(agents, ruleset.players),
            seed=seed,
            version=results_version(),
            backend=backend,
        )
