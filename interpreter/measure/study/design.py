"""The runs of a study: a two-level factorial design over its factors, and what it confounds.

Where it sits: after `factors`, before the runs are played. A design is a matrix with a row
per run and a column per factor, -1 for the low reading and +1 for the high one. It is made
by the `pydoe` library (the `study` extra): `ff2n` for the full factorial, `fracfact_by_res`
for the smallest fractional factorial of resolution IV (or V, when that takes no more
runs). A library rather than generators
written here, because a fractional design's aliasing is easy to get wrong by hand: generators
that each look long enough can still multiply into a short word, and then a main effect is
silently confounded with a two-way interaction. The design is checked anyway
(`check_resolution`), and its aliasing is read from its own columns, not from a table.

`--design auto` takes the full factorial for up to `FULL_UP_TO` factors (16 runs at most)
and the fraction from one more (16 runs for 5 to 8 factors, 32 for 9 to 16).
Resolution IV: no main effect is confounded with another or with a two-way interaction;
two-way interactions may be confounded with each other, and each main effect with
interactions of three factors or more, which the study takes to be negligible.

A contrast column is what one estimate reads: a main effect, or a group of two-way
interactions the design cannot tell apart (`Column.terms`, each with the sign of its
column against the group's).
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Sequence
from dataclasses import dataclass

from tarot.errors import TarotError

DESIGNS = ("auto", "full", "fractional")
FULL_UP_TO = 4  # --design auto: a full factorial for this many factors or fewer
RESOLUTION = 4  # of the fractional designs


class DesignUnavailable(TarotError, RuntimeError):
    """The design library is not installed."""


def _pydoe() -> types.ModuleType:
    try:
        import pydoe
    except ImportError:
        raise DesignUnavailable(
            "tarot study lays out its runs with the pydoe library, which is not installed; "
            "install the study extra: pip install 'tarot-rules[study]'"
        ) from None
    return pydoe


Term = tuple[tuple[int, ...], int]  # the factors (by index) whose product it is, and its sign


@dataclass(frozen=True)
class Column:
    """One estimate: a main effect (one term of one factor), or the two-way interactions a
    design confounds, each with its sign against the column (`vector`, one ±1 per run)."""

    terms: tuple[Term, ...]
    vector: tuple[int, ...]

    @property
    def main(self) -> bool:
        return len(self.terms[0][0]) == 1

    def label(self, names: Sequence[str]) -> str:
        parts = []
        for factors, sign in self.terms:
            text = " x ".join(names[i] for i in factors)
            parts.append(text if sign > 0 else f"-({text})")
        return " = ".join(parts)


@dataclass(frozen=True)
class Design:
    kind: str  # "full" or "fractional"
    runs: tuple[tuple[int, ...], ...]  # per run, per factor: -1 low, +1 high

    @property
    def factors(self) -> int:
        return len(self.runs[0])

    def title(self) -> str:
        k, size = self.factors, len(self.runs)
        if self.kind == "full":
            return f"full factorial 2^{k}: {size} runs"
        fraction = k - (size.bit_length() - 1)
        resolution = "IV" if self.confounded() else "V or better"
        return f"fractional factorial 2^({k}-{fraction}), resolution {resolution}: {size} runs"

    def columns(self) -> list[Column]:
        """The main effects, in factor order, then each group of two-way interactions that
        the design confounds (one column per group), in the order of their first pair."""
        mains = [Column((((i,), 1),), self._column((i,))) for i in range(self.factors)]
        groups: dict[tuple[int, ...], list[Term]] = {}
        for pair in itertools.combinations(range(self.factors), 2):
            vector = self._column(pair)
            sign = vector[0]  # every group's vector starts with +1
            groups.setdefault(tuple(sign * v for v in vector), []).append((pair, sign))
        pairs = [Column(tuple(terms), vector) for vector, terms in groups.items()]
        return mains + pairs

    def _column(self, factors: Sequence[int]) -> tuple[int, ...]:
        product = []
        for run in self.runs:
            value = 1
            for i in factors:
                value *= run[i]
            product.append(value)
        return tuple(product)

    def confounded(self) -> list[Column]:
        """The groups of two or more two-way interactions that the design cannot tell apart."""
        return [c for c in self.columns() if not c.main and len(c.terms) > 1]

    def check_resolution(self) -> None:
        """Raise if a main effect is confounded with another or with a two-way interaction
        (a design below resolution IV), or the runs are not balanced."""
        columns = self.columns()
        seen: set[tuple[int, ...]] = set()
        for column in columns:
            key = tuple(column.vector[0] * v for v in column.vector)
            if column.main and key in seen:
                raise AssertionError("a main effect is confounded with another")
            if sum(column.vector) != 0:
                raise AssertionError("a contrast column is not balanced")
            seen.add(key)
        main_keys = {tuple(c.vector[0] * v for v in c.vector) for c in columns if c.main}
        for column in columns:
            if not column.main and tuple(column.vector) in main_keys:
                raise AssertionError("a main effect is confounded with a two-way interaction")


def choose_kind(requested: str, factors: int) -> str:
    """`full` or `fractional`: what `--design` asks for, `auto` choosing by the count."""
    if requested == "auto":
        return "full" if factors <= FULL_UP_TO else "fractional"
    return requested


def make_design(requested: str, factors: int) -> Design:
    """The design `--design` asks for over `factors` factors (DesignUnavailable without the
    library). A fraction of three factors or fewer is the full factorial: no smaller design
    keeps resolution IV."""
    kind = choose_kind(requested, factors)
    pydoe = _pydoe()
    if kind == "full" or factors < 3:
        matrix = pydoe.ff2n(factors)
        kind = "full"
    else:
        matrix = pydoe.fracfact_by_res(factors, RESOLUTION)
        clearer = pydoe.fracfact_by_res(factors, RESOLUTION + 1)
        if len(clearer) == len(matrix):  # resolution V at no more cost
            matrix = clearer
        if len(matrix) == 2**factors:
            kind = "full"
    runs = tuple(tuple(1 if value > 0 else -1 for value in row) for row in matrix)
    design = Design(kind, runs)
    design.check_resolution()
    return design
