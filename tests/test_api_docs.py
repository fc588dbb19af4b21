"""The Python API's documentation runs: docs/api.md's examples as doctests, its researcher's
script as a script, and the tutorial notebook executed top to bottom in a real kernel
(nbclient, from the test extra)."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_the_examples_of_the_api_page_print_what_it_says() -> None:
    result = doctest.testfile(
        str(DOCS / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.attempted > 30  # every example block is read
    assert result.failed == 0


@pytest.mark.slow
def test_the_tutorial_notebook_runs_top_to_bottom() -> None:
    notebook = nbformat.read(DOCS / "tutorial.ipynb", as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    # the kernel starts in the repository root, as a reader's does in a checkout
    client = NotebookClient(
        notebook, kernel_name="python3", timeout=600, resources={"metadata": {"path": str(ROOT)}}
    )
    client.execute()  # CellExecutionError, with the cell and its traceback, on any failure
    printed = "".join(
        output.get("text", "")
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
    )
    assert "refused: seat 1 may not discard 'pass'" in printed
    assert "200 hands" in printed and "net_0" in printed  # the pandas table
    assert "what the failed Ultimo paid per hand, B - A: -" in printed


def test_the_researchers_script_runs_at_the_top_level_with_two_jobs(tmp_path: Path) -> None:
    """docs/api.md's script, run as a user runs it (`python taker_by_contract.py`, from
    another folder): its calls at the top level with jobs=2 run once, and it prints the
    table the page shows."""
    page = (DOCS / "api.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- script: (\S+) -->\n```python\n(.*?)```\n", page, re.S)
    assert found, "the page marks its script"
    name, source = found.groups()
    assert "jobs=2" in source and "if __name__" not in source
    script = tmp_path / name
    script.write_text(source, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    printed = done.stdout
    assert printed.count("500 hands of French Tarot") == 1, "the script ran once, not per worker"
    shown = page.partition(f"<!-- script: {name} -->")[2].split("```")[3]
    assert [line.split() for line in printed.splitlines()] == [
        line.split() for line in shown.strip().splitlines()
    ], "the page shows what the script prints"
