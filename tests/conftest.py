"""Shared fixtures: the repository root on sys.path and the Marolles 1637 ruleset."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tarot.compile.loader import load_ruleset  # noqa: E402


@pytest.fixture(scope="session")
def marolles():
    """The Marolles 1637 ruleset with every option at its default reading."""
    return load_ruleset("marolles-1637")
