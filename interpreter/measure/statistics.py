"""Streaming statistics: means with 95% confidence intervals, kept in constant memory.

Where it sits: used by `interpreter.measure.measures` and `.comparison` to fold hand
results in one at a time, so a run of a million hands needs no more memory than a run of ten.
Intervals use the normal approximation (mean ± 1.96 standard errors), which is what the
number of hands a simulation runs (hundreds and up) calls for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal distribution


@dataclass(frozen=True)
class Estimate:
    """A mean and the half-width of its 95% interval (None with fewer than two values)."""

    mean: float
    half_width: float | None
    count: int

    @property
    def low(self) -> float | None:
        return None if self.half_width is None else self.mean - self.half_width

    @property
    def high(self) -> float | None:
        return None if self.half_width is None else self.mean + self.half_width

    def excludes_zero(self) -> bool:
        return self.half_width is not None and abs(self.mean) > self.half_width

    def as_dict(self) -> dict:
        return {"mean": self.mean, "ci95": [self.low, self.high], "n": self.count}


class RunningMean:
    """Welford's online mean and variance."""

    __slots__ = ("count", "mean", "_m2")

    def __init__(self) -> None:
        self.count = 0
        self.mean = 0.0
        self._m2 = 0.0

    def add(self, value: float) -> None:
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self._m2 += delta * (value - self.mean)

    @property
    def variance(self) -> float:
        """The sample variance (n - 1 in the denominator); 0 with fewer than two values."""
        return self._m2 / (self.count - 1) if self.count > 1 else 0.0

    @property
    def std(self) -> float:
        return math.sqrt(self.variance)

    def standard_error(self) -> float | None:
        return math.sqrt(self.variance / self.count) if self.count > 1 else None

    def estimate(self) -> Estimate:
        error = self.standard_error()
        return Estimate(self.mean, None if error is None else Z95 * error, self.count)


def difference_of_means(a: RunningMean, b: RunningMean) -> Estimate:
    """b's mean less a's, for independent samples (Welch's standard error)."""
    if a.count < 2 or b.count < 2:
        return Estimate(b.mean - a.mean, None, min(a.count, b.count))
    error = math.sqrt(a.variance / a.count + b.variance / b.count)
    return Estimate(b.mean - a.mean, Z95 * error, min(a.count, b.count))
