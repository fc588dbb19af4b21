"""Pictures of a run: the distribution of net results per seat, and of a diff's B - A.

Where it sits: `--plot FILE` of `tarot simulate` and `tarot diff --hands`. It draws from the
histograms that `RulesetMeasures` and `Comparison` keep (a count per distinct value, so
memory stays flat). `plot_results` draws one panel per seat (one ruleset's results, as a
share of its hands). `plot_differences` draws, for a diff, one row per seat and one per rule
whose result or payments clearly changed (a B - A interval that excludes zero), each titled
by its name: on the left the A and B distributions side by side, on the right the
distribution of the paired B - A with its mean and interval. Legends sit above the
panels, never on the bars. matplotlib is an optional extra (`pip install '.[plot]'`); without
it `PlotUnavailable` says how to get it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarot.core.output_files import check_output_path
from tarot.errors import TarotError
from tarot.measure.comparison import Comparison

INSTALL_HINT = (
    "plotting needs matplotlib, an optional extra: pip install 'tarot-rules[plot]' "
    "(or, in a checkout, pip install '.[plot]')"
)
SUFFIXES = (".png", ".svg")
BINS = 30


class PlotUnavailable(TarotError, RuntimeError):
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
    return _bins_of([v for s in series for histogram in s.histograms for v in histogram])


def _bins_of(values: Sequence[float]) -> list[float]:
    """Equal bins over the values; one bin per whole number when they are few whole
    numbers, so that a bar stands on each value that occurred."""
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if low == high:
        low, high = low - 0.5, high + 0.5
    if all(float(v).is_integer() for v in values) and high - low <= BINS:
        return [low - 0.5 + i for i in range(int(high - low) + 2)]
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
        rows,
        columns,
        figsize=(4.2 * columns, 3.2 * rows + 0.6),
        squeeze=False,
        sharey=True,
        layout="constrained",
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
    if len(series) > 1:
        handles, labels = axes[0][0].get_legend_handles_labels()
        figure.legend(handles, labels, loc="outside lower center", ncol=len(series))
    _save(pyplot, figure, path, title)


def _save(pyplot: Any, figure: Any, path: str, title: str) -> None:
    """Title the figure (its legend, if any, stands below the panels, outside them), write
    it, and close it whatever happens."""
    figure.suptitle(title)
    try:
        figure.savefig(path, dpi=100)
    except OSError as error:
        raise PlotUnavailable(f"--plot {path}: cannot write: {error.strerror}") from error
    finally:
        pyplot.close(figure)


@dataclass(frozen=True)
class Difference:
    """One row of a diff's picture: a seat's result or a rule's payments per hand."""

    title: str
    quantity: str  # what the values are: "net result of a hand", "payments of a hand"
    under_a: Counter  # value -> number of hands
    under_b: Counter
    gap: Counter  # paired B - A -> number of hands
    estimate: dict  # the mean of B - A with its interval (`Estimate.as_dict`)


MOST_RULES = 6  # rules drawn at most: those whose payments moved most


def plot_differences(
    path: str, title: str, labels: tuple[str, str], rows: Sequence[Difference], unit: str
) -> None:
    """Draw a diff to `path`: per row, the A and B distributions and the paired B - A."""
    check_plot_path(path)
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(
        len(rows), 2, figsize=(11, 2.6 * len(rows) + 0.8), squeeze=False, layout="constrained"
    )
    colours = ("tab:blue", "tab:orange", "tab:green")
    for row, (left, right) in zip(rows, axes, strict=True):
        hands = sum(row.under_a.values()) or 1
        values = [*row.under_a, *row.under_b]
        left.hist(
            [list(row.under_a), list(row.under_b)],
            bins=_bins_of(values),
            weights=[[n / hands for n in h.values()] for h in (row.under_a, row.under_b)],
            label=list(labels),
            color=colours[:2],
        )
        left.set_title(f"{row.title}: under A and under B", fontsize="medium")
        left.set_xlabel(f"{row.quantity} ({unit})")
        left.set_ylabel("share of hands")
        gaps = list(row.gap)
        right.hist(
            gaps,
            bins=_bins_of(gaps),
            weights=[n / hands for n in row.gap.values()],
            label="B - A, paired",
            color=colours[2],
        )
        right.axvline(0, color="grey", linewidth=0.8)
        right.set_title(f"{row.title}: B - A, {_interval(row.estimate)}", fontsize="medium")
        right.set_xlabel(f"B - A of the {row.quantity} ({unit})")
    handles = [
        *axes[0][0].get_legend_handles_labels()[0],
        *axes[0][1].get_legend_handles_labels()[0],
    ]
    figure.legend(handles, [*labels, "B - A, paired"], loc="outside lower center", ncol=3)
    _save(pyplot, figure, path, title)


def _interval(e: dict) -> str:
    low, high = e["ci95"]
    if low is None:
        return f"mean {e['mean']:+.2f}"
    return f"mean {e['mean']:+.2f} ± {(high - low) / 2:.2f}"


def difference_rows(comparison: Comparison, name: Callable[[str], str] = str) -> list[Difference]:
    """The rows of a paired diff's picture: only what changed, each titled in words (`name`
    gives a rule's name from its id). What changed is a seat's result or a rule's payments
    whose B - A interval excludes zero (the seats first, then the rules that moved most,
    `MOST_RULES` at most); when nothing did, the rules whose payments differ in some hand,
    and when none does, every seat, so that the picture says so rather than stay empty."""
    seats = [
        Difference(
            f"Seat {seat}",
            "net result of a hand",
            comparison.a.histogram[seat],
            comparison.b.histogram[seat],
            comparison.difference_histogram[seat],
            comparison.difference[seat].estimate().as_dict(),
        )
        for seat in range(len(comparison.difference))
    ]
    gaps = comparison.rule_difference
    moved = [rule for rule, histogram in gaps.histograms.items() if set(histogram) - {0}]
    moved.sort(key=lambda rule: (-abs(gaps.mean(rule)), rule))
    rules = [
        Difference(
            name(rule),
            "payments of a hand",
            comparison.a.paid.histogram(rule),
            comparison.b.paid.histogram(rule),
            gaps.histogram(rule),
            gaps.estimate(rule).as_dict(),
        )
        for rule in moved
    ]
    clear = [row for row in [*seats, *rules] if _excludes_zero(row.estimate)]
    if clear:
        return [row for row in clear if row in seats] + [r for r in clear if r in rules][
            :MOST_RULES
        ]
    return rules[:MOST_RULES] or seats


def _excludes_zero(e: dict) -> bool:
    low, high = e["ci95"]
    return low is not None and high is not None and (low > 0 or high < 0)
