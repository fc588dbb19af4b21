"""Loading a ruleset: YAML text -> merged, checked data with positions -> compiled `Ruleset`.

Pipeline, run by :mod:`~interpreter.loading.ruleset_loader`: load
(:mod:`~interpreter.loading.yaml_source`: one file -> data + positions;
:mod:`~interpreter.loading.inheritance`: ``extends`` chains merged, provenance of every
value) -> check, building nothing the engine runs (:mod:`~interpreter.loading.schema_check`,
:mod:`~interpreter.loading.options`, :mod:`~interpreter.loading.semantic_checks`) -> compile
(:mod:`~interpreter.loading.compile`).

``check_schema`` is imported on first use: importing this package must stay cheap for
`tarot rules`, which reads files and follows ``extends`` but never checks the schema.
"""

from typing import Any

from interpreter.loading.inheritance import MergedDocument, resolve
from interpreter.loading.yaml_source import (
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
        from interpreter.loading.schema_check import check_schema

        return check_schema
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
