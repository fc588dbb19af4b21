"""Stage 1 of loading a ruleset: YAML text -> merged data with the position of every value.

The stages, run by :mod:`~interpreter.ruleset_loader`: load (this package:
:mod:`~interpreter.load.yaml_source`, one file -> data + positions, within the budget of
:mod:`~interpreter.load.yaml_limits`; :mod:`~interpreter.load.inheritance`, ``extends``
chains merged with the provenance of every value; :mod:`~interpreter.load.listing`, what
`tarot rules` shows, read without checking) -> check (:mod:`interpreter.check`, building
nothing the engine runs) -> compile (:mod:`interpreter.compile`).

``check_schema`` is imported on first use: importing this package must stay cheap for
`tarot rules`, which reads files and follows ``extends`` but never checks the schema.
"""

from typing import Any

from interpreter.load.inheritance import MergedDocument, resolve
from interpreter.load.yaml_source import (
    DocPath,
    ScalarInfo,
    SourceDocument,
    load_yaml,
    parse_yaml,
    position_in_scalar,
)

__all__ = [
    "DocPath",
    "MergedDocument",
    "ScalarInfo",
    "SourceDocument",
    "check_schema",
    "load_yaml",
    "parse_yaml",
    "position_in_scalar",
    "resolve",
]


def __getattr__(name: str) -> Any:
    if name == "check_schema":
        from interpreter.check.schema_check import check_schema

        return check_schema
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
