"""The loader's stages (load, check, compile) each report their problems, all in one run."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter import paths
from interpreter.errors import RulesetError
from interpreter.loading.inheritance import resolve
from interpreter.loading.ruleset_loader import load_ruleset, run_stages


def problems_of(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "v.yaml"
    path.write_text("extends: marolles-1637\n" + textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    return [str(problem).replace(str(path), "v.yaml") for problem in caught.value.problems]


def test_one_run_reports_the_schema_the_checks_and_the_compiler(tmp_path: Path) -> None:
    problems = problems_of(
        tmp_path,
        """\
        deal:
          packets: [{rounds: 1, each: 2}]
        settlement:
          - {id: wrong_key, name: W, from: dealer, to: "opponents(dealer)", amount: 1,
             source: mcleod, colour: red}
          - {id: unknown_source, name: U, from: dealer, to: "opponents(dealer)", amount: 1,
             source: nobody}
          - {id: wrong_type, name: T, from: dealer, to: "opponents(dealer)", amount: dealer,
             source: mcleod}
        """,
    )
    deal, schema, source, expression, hands = problems
    assert deal.startswith("v.yaml:3:12: $.deal.packets: the deal does not add up")
    assert schema.startswith("v.yaml:6:22: $.settlement[3]: unknown key 'colour'")
    assert source.startswith("v.yaml:8:14: $.settlement[4].source: unknown source 'nobody'")
    assert expression == (
        "v.yaml:9:78: $.settlement[5].amount: expected a NUMBER expression, got SEAT"
    )
    assert "marolles-1637.yaml:" in hands and "more cards to discard than are dealt" in hands


def test_the_stages_leave_the_compiler_ready_and_the_document_as_written(
    tmp_path: Path,
) -> None:
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
