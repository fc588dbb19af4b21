"""The `test` extra of pyproject.toml: CI installs only it, so it must hold every package the
other extras bring, or a test of an optional piece fails on a fresh machine while passing on a
developer's. Left out: the documentation site's (CI installs `docs` on its own) and JupyterLab
(the notebook's editor; its test runs the notebook with nbclient, which the extra holds)."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOT_TESTED = {"jupyterlab"}


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_test_extra_holds_every_other_extras_packages() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    test = _names(extras["test"]) | NOT_TESTED
    missing = {
        name: sorted(_names(requirements) - test)
        for name, requirements in extras.items()
        if name not in ("test", "docs") and _names(requirements) - test
    }
    assert not missing, f"packages of other extras missing from the test extra: {missing}"
