"""Pictures of a run: the distribution of net results per seat, A beside B.

Where it sits: `--plot FILE` of `tarot simulate` and `tarot diff --hands`. It draws from the
result histograms that `RulesetMeasures` keeps (a count per distinct result, so memory stays
flat), one panel per seat, each ruleset's bars side by side as a share of its hands.
matplotlib is an optional extra (`pip install '.[plot]'`); without it `PlotUnavailable` says
how to get it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.output_files import check_output_path

INSTALL_HINT = (
    "plotting needs matplotlib, an optional extra: pip install 'tarot-rules[plot]' "
    "(or, in a checkout, pip install '.[plot]')"
)
SUFFIXES = (".png", ".svg")
BINS = 30


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed, or the picture cannot be written."""


@dataclass(frozen=True)
class Series:
    label: str
    histograms: Sequence[Counter]  # per seat: result -> number of hands
    hands: int


def check_plot_path(path: str) -> None:
    """Refuse a picture name that is not .png or .svg, or a place that cannot be written
    (`output_files.OutputError`)."""
    if Path(path).suffix.lower() not in SUFFIXES:
        raise PlotUnavailable(f"--plot {path}: name the picture .png or .svg")
    check_output_path("--plot", path)


def _pyplot() -> Any:  # matplotlib.pyplot (no type information installed)
    try:
        import matplotlib
    except ImportError as error:
        raise PlotUnavailable(INSTALL_HINT) from error
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    return pyplot


def require_plotting() -> None:
    """Fail early, before a long run, when plotting is not available."""
    _pyplot()


def _bins(series: Sequence[Series]) -> list[float]:
    values = [v for s in series for histogram in s.histograms for v in histogram]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if low == high:
        low, high = low - 0.5, high + 0.5
    step = (high - low) / BINS
    return [low + i * step for i in range(BINS + 1)]


def plot_results(path: str, title: str, series: Sequence[Series], unit: str) -> None:
    """Draw `series` to `path`, results labelled in `unit` (the rulesets' unit, plural)."""
    check_plot_path(path)
    pyplot = _pyplot()
    seats = max(len(s.histograms) for s in series)
    columns = min(seats, 3)
    rows = -(-seats // columns)
    figure, axes = pyplot.subplots(
        rows, columns, figsize=(4.2 * columns, 3.2 * rows), squeeze=False, sharey=True
    )
    bins = _bins(series)
    for seat in range(rows * columns):
        ax = axes[seat // columns][seat % columns]
        if seat >= seats:
            ax.set_visible(False)
            continue
        present = [s for s in series if seat < len(s.histograms)]
        ax.hist(
            [list(s.histograms[seat].keys()) for s in present],
            bins=bins,
            weights=[[n / s.hands for n in s.histograms[seat].values()] for s in present],
            label=[s.label for s in present],
        )
        ax.set_title(f"seat {seat}")
        ax.set_xlabel(f"net result of a hand ({unit})")
        if seat % columns == 0:
            ax.set_ylabel("share of hands")
    axes[0][0].legend(fontsize="small")
    figure.suptitle(title)
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as error:
        raise PlotUnavailable(f"--plot {path}: cannot write: {error.strerror}") from error
    finally:
        pyplot.close(figure)
