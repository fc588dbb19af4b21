"""One root for every error a user can meet: `tarot.errors.TarotError`."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import tarot
from tarot.errors import TarotError

#: exceptions that are not errors a user meets: a stop asked for (Ctrl-C, SIGTERM), a person
#: leaving the table, and the loaders' own signals, each turned into a TarotError before it
#: leaves the module
NOT_ERRORS = {"Stopped", "LeftTable", "_TokenError", "_NotJson", "LimitExceeded"}


def _exception_classes() -> dict[str, type]:
    found = {}
    for module in pkgutil.walk_packages(tarot.__path__, "tarot."):
        if module.name.endswith("__main__"):
            continue
        try:
            loaded = importlib.import_module(module.name)
        except ImportError:  # an optional extra that is not installed
            continue
        for name, value in vars(loaded).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == loaded.__name__
            ):
                found[f"{loaded.__name__}.{name}"] = value
    return found


def test_every_error_of_the_package_is_a_tarot_error() -> None:
    classes = _exception_classes()
    assert len(classes) > 15
    strays = [
        name
        for name, value in classes.items()
        if not issubclass(value, TarotError) and name.rpartition(".")[2] not in NOT_ERRORS
    ]
    assert not strays


def test_the_errors_keep_their_older_bases() -> None:
    from tarot.core.actions import IllegalAction
    from tarot.errors import UsageError

    assert issubclass(IllegalAction, ValueError) and issubclass(UsageError, ValueError)
