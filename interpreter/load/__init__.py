"""Stage 1 of loading a ruleset: YAML text -> merged data with the position of every value.

The stages, run by :mod:`~tarot.compile.loader`: load (this package:
:mod:`~tarot.load.yaml_source`, one file -> data + positions, within the budget of
:mod:`~tarot.load.yaml_limits`; :mod:`~tarot.load.inheritance`, ``extends``
chains merged with the provenance of every value; :mod:`~tarot.load.listing`, what
`tarot rules` shows, read without checking) -> check (:mod:`tarot.check`, building
nothing the engine runs) -> compile (:mod:`tarot.compile`).
"""

from tarot.load.inheritance import MergedDocument, resolve
from tarot.load.yaml_source import (
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
    "load_yaml",
    "parse_yaml",
    "position_in_scalar",
    "resolve",
]
