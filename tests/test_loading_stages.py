"""The loader's stages run apart: the checks leave a compiler ready, and the document as
written is kept beside the effective one (one run reporting every stage: test_loading_bounds)."""

from __future__ import annotations

from tarot.compile.loader import run_stages
from tarot.load import paths
from tarot.load.inheritance import resolve


def test_the_stages_leave_the_compiler_ready_and_the_document_as_written() -> None:
    path = paths.find_builtin("marolles-1637")
    draft, compiler = run_stages(path, resolve(path, paths.find_builtin), {})
    assert draft.problems == [] and compiler is not None
    ruleset = compiler.compile()
    assert ruleset is not None
    assert ruleset.written == draft.written
    assert ruleset.written != ruleset.document  # the readings are put in the effective one
    assert {"option"} in [
        set(v) for v in ruleset.written["play"]["excuse"].values() if isinstance(v, dict)
    ]
