"""Loading a ruleset: YAML text -> merged, schema-checked plain data with positions.

Pipeline: :mod:`~interpreter.loading.yaml_source` (one file -> data + positions) ->
:mod:`~interpreter.loading.inheritance` (``extends`` chains merged, provenance of every
value) -> :mod:`~interpreter.loading.schema_check` (JSON Schema validation as positioned
problems) -> (later, elsewhere) option resolution and compilation.
"""

from interpreter.loading.inheritance import MergedDocument, resolve
from interpreter.loading.schema_check import check_schema
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
