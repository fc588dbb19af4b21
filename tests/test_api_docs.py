"""The Python API's documentation runs: docs/api.md's examples as doctests, and the tutorial
notebook executed top to bottom in a real kernel (nbclient, from the test extra)."""

from __future__ import annotations

import doctest
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
