"""Loading a ruleset: YAML text -> merged, schema-checked plain data with positions.

Pipeline: :mod:`~interpreter.loading.yaml_source` (one file -> data + positions) ->
:mod:`~interpreter.loading.inheritance` (``extends`` chains merged, provenance of every
value) -> :mod:`~interpreter.loading.schema_check` (JSON Schema validation as positioned
problems) -> (later, elsewhere) option resolution and compilation.

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
