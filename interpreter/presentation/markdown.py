"""Markdown tables, shared by the reports that offer `--format markdown` (`tarot diff` on
paper in `tarot.measure.diff.render`, and at the table in `tarot.measure.report`)."""

from __future__ import annotations

from collections.abc import Sequence


def escape(text: str) -> str:
    """A table cell's text with the characters that would break the table escaped."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", "<br>")


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of a table whose cells are already escaped."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines
