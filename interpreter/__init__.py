"""tarot: historical Tarot card games as YAML rulesets, run by one generic interpreter.

`import tarot` gives the Python API (`docs/api.md`): `tarot.load`, `tarot.play`,
`tarot.simulate`, `tarot.diff`, `tarot.Agent`... Its names are imported on first use, so the
command line (`tarot rules`, say) does not pay for what it does not run.
"""

from __future__ import annotations

import sys
import types
from typing import Any

# the names `tarot.api` exports (listed here too: reading them there would import it)
__all__ = [
    "Action",
    "Agent",
    "AgentError",
    "Card",
    "DealError",
    "Diff",
    "EvaluationError",
    "HandNotOver",
    "HeuristicAgent",
    "IllegalAction",
    "Observation",
    "Payment",
    "RandomAgent",
    "Ruleset",
    "RulesetError",
    "SearchAgent",
    "Simulation",
    "State",
    "diff",
    "load",
    "play",
    "rulesets",
    "simulate",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import api  # relative: the package is imported as `tarot`

        value = getattr(api, name)
        globals()[name] = value  # found at once the next time
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Package(types.ModuleType):
    """The package's module, keeping the API's `load` and `diff` when the stage packages of
    the same names (`tarot/load/`, `tarot/diff/`) are imported: importing a submodule sets
    it as an attribute of its parent, which would hide the functions. The stages stay
    importable by their full names (`from tarot.load import ...`)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in __all__ and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __dir__() -> list[str]:
    """The API's names (and the module's own `__name__`, `__doc__`...), not its helpers."""
    return sorted({*__all__, *(name for name in globals() if name.startswith("__"))})
