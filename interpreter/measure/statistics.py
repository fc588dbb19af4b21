"""Streaming statistics with 95% intervals that fit the quantity, kept in constant memory.

Where it sits: used by `tarot.measure.measures` and `.comparison` to fold hand
results in one at a time, so a run of a million hands needs no more memory than a run of ten.

Which interval each quantity gets:

- a mean (a seat's result per hand, what a rule paid per hand, a paired B - A): Student's t,
  mean ± t(0.975, n - 1) standard errors (`RunningMean.estimate`);
- a difference of two means measured on different deals: Welch's t, with the
  Welch-Satterthwaite degrees of freedom (`difference_of_means`);
- a rate (how often a contract is bid or made, a rule fires, a seat wins a game): Wilson's
  score interval (`Rate.interval`), which stays inside [0, 1] and does not shrink to nothing
  at 0 or 1 out of n as the normal approximation does.

The t quantile is computed here from the regularized incomplete beta function (no scipy).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

LEVEL = 0.95
Z95 = NormalDist().inv_cdf(0.5 + LEVEL / 2)  # 1.95996...: the 97.5th normal percentile


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


# --- Student's t --------------------------------------------------------------------------------


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return result


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * _incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


@lru_cache(maxsize=512)
def t_quantile(p: float, df: float) -> float:
    """The `p` quantile (0.5 < p < 1) of Student's t with `df` degrees of freedom, by
    bisection on `t_cdf`; the normal quantile for very many degrees of freedom."""
    if df > 1e7:
        return NormalDist().inv_cdf(p)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


def t95(df: float) -> float:
    """The multiplier of the standard error for a two-sided 95% t interval."""
    return t_quantile(0.5 + LEVEL / 2, df)


# --- means --------------------------------------------------------------------------------------


class RunningMean:
    """Welford's online mean and variance."""

    __slots__ = ("count", "mean", "_m2")

    def __init__(self) -> None:
        self.count = 0
        self.mean = 0.0
        self._m2 = 0.0

    @classmethod
    def of_zeros(cls, count: int) -> RunningMean:
        """The running mean of `count` zeros (a quantity first seen after `count` values in
        which it was nothing, such as a rule that had not yet paid)."""
        running = cls()
        running.count = count
        return running

    def add(self, value: float) -> None:
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self._m2 += delta * (value - self.mean)

    def add_all(self, values: Iterable[float]) -> None:
        """`add` each of `values` in turn: the same arithmetic in the same order, so the
        same mean and variance to the last bit, without a call a value."""
        count, mean, m2 = self.count, self.mean, self._m2
        for value in values:
            count += 1
            delta = value - mean
            mean += delta / count
            m2 += delta * (value - mean)
        self.count, self.mean, self._m2 = count, mean, m2

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
        """The mean with its t interval (n - 1 degrees of freedom)."""
        error = self.standard_error()
        if error is None:
            return Estimate(self.mean, None, self.count)
        return Estimate(self.mean, t95(self.count - 1) * error, self.count)


def difference_of_means(a: RunningMean, b: RunningMean) -> Estimate:
    """b's mean less a's, for independent samples: Welch's t interval."""
    if a.count < 2 or b.count < 2:
        return Estimate(b.mean - a.mean, None, min(a.count, b.count))
    va, vb = a.variance / a.count, b.variance / b.count
    error = math.sqrt(va + vb)
    if error == 0.0:
        return Estimate(b.mean - a.mean, 0.0, min(a.count, b.count))
    df = (va + vb) ** 2 / (va**2 / (a.count - 1) + vb**2 / (b.count - 1))
    return Estimate(b.mean - a.mean, t95(df) * error, min(a.count, b.count))


# --- rates --------------------------------------------------------------------------------------


@dataclass
class Rate:
    """How often something happened: `hits` out of `trials`, with Wilson's score interval."""

    hits: int = 0
    trials: int = 0

    def add(self, hit: bool) -> None:
        self.trials += 1
        self.hits += hit

    @property
    def share(self) -> float:
        return self.hits / self.trials if self.trials else 0.0

    def interval(self) -> tuple[float, float] | None:
        """Wilson's 95% score interval (None with no trials)."""
        return wilson(self.hits, self.trials)

    def as_dict(self) -> dict:
        interval = self.interval()
        return {
            "rate": self.share,
            "ci95": list(interval) if interval else [None, None],
            "hits": self.hits,
            "n": self.trials,
        }


def wilson(hits: int, trials: int) -> tuple[float, float] | None:
    """Wilson's 95% score interval for a proportion of `hits` in `trials`."""
    if trials <= 0:
        return None
    p = hits / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == trials else min(1.0, centre + half)
    return low, high


class KeyedMeans:
    """A running mean and a histogram (value -> count) for each of a set of quantities that
    are known only as they first appear (what each rule paid in a hand): every quantity
    counts every value added, as 0 where it was absent, from the first one on."""

    def __init__(self) -> None:
        self.count = 0
        self.means: dict[str, RunningMean] = {}
        self.histograms: dict[str, Counter[float]] = {}

    def add(self, values: dict[str, float]) -> None:
        self.add_all((values,))

    def add_all(self, rows: Sequence[dict[str, float]]) -> None:
        """`add` each of `rows` in turn, a quantity at a time (the same values in the same
        order for each, so the same means to the last bit as row by row)."""
        first_seen: dict[str, int] = {}  # a quantity new here -> the row it first shows in
        # each quantity's values, 0 where a row lacks it, filled in one pass over the rows
        columns: dict[str, list[float]] = {}
        size = len(rows)
        for index, values in enumerate(rows):
            for key, value in values.items():
                column = columns.get(key)
                if column is None:
                    column = columns[key] = [0.0] * size
                    if key not in self.means:
                        first_seen[key] = index
                column[index] = value
        for key, index in first_seen.items():
            self.means[key] = RunningMean.of_zeros(self.count + index)
            self.histograms[key] = Counter({0.0: self.count + index} if self.count + index else {})
        for key, running in self.means.items():
            found = columns.get(key)
            column = [0.0] * size if found is None else found[first_seen.get(key, 0) :]
            running.add_all(column)
            self.histograms[key].update(column)
        self.count += size

    def mean(self, key: str) -> float:
        running = self.means.get(key)
        return running.mean if running is not None else 0.0

    def estimate(self, key: str) -> Estimate:
        """The t estimate of `key`'s mean (0 in every value when never seen)."""
        running = self.means.get(key)
        return (running or RunningMean.of_zeros(self.count)).estimate()

    def histogram(self, key: str) -> Counter[float]:
        return self.histograms.get(key) or Counter({0.0: self.count})
