"""The effects of a study, folded in hand by hand: paired contrasts with t intervals.

Where it sits: `tarot study` gives `StudyEffects.add` each hand's summaries, one per run of
the design (the same deal under every run). For every contrast column of the design and
every response, the hand's effect is the mean of the response over the runs where the column
is +1 less its mean over the runs where it is -1: for a main effect, the high reading against
the default, averaged over the other factors' levels; for a two-way interaction, half the
difference between one factor's effect with the other high and with it low. Each effect is
then a mean over hands of a per-hand quantity, so it gets Student's t interval
(`statistics.t95`), the deal's luck cancelling within the hand as in a paired diff.

The sums are taken over sorted values, so that two runs that give the same values give the
same sum to the last bit: a factor that changes nothing has an effect of exactly 0 with an
interval of exactly [0, 0], whatever the other factors do. Everything is kept in a few
arrays (numpy), in constant memory however many hands are played.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from tarot.core.summary import HandSummary
from tarot.measure.statistics import Estimate, t95
from tarot.measure.study.design import Column, Design
from tarot.measure.study.responses import Response


class StudyEffects:
    def __init__(self, design: Design, responses: Sequence[Response]) -> None:
        self.columns: list[Column] = design.columns()
        self.responses = list(responses)
        self.runs = len(design.runs)
        vectors = np.array([column.vector for column in self.columns])
        self._high = np.array([np.flatnonzero(v > 0) for v in vectors])  # column -> runs
        self._low = np.array([np.flatnonzero(v < 0) for v in vectors])
        shape = (len(self.columns), len(self.responses))
        self.hands = 0
        self._mean = np.zeros(shape)
        self._m2 = np.zeros(shape)
        self._run_sums = np.zeros((self.runs, len(self.responses)))

    def add(self, hands: Sequence[HandSummary]) -> None:
        """One hand number's summaries, one per run in the design's order."""
        values = np.array([[r.read(hand) for r in self.responses] for hand in hands], float)
        high = np.sort(values[self._high], axis=1).sum(axis=1)
        low = np.sort(values[self._low], axis=1).sum(axis=1)
        contrast = (high - low) * (2.0 / self.runs)
        self.hands += 1
        delta = contrast - self._mean
        self._mean += delta / self.hands
        self._m2 += delta * (contrast - self._mean)
        self._run_sums += values

    def estimate(self, column: int, response: int) -> Estimate:
        """The effect of a column on a response, with its t interval (none from one hand)."""
        mean = float(self._mean[column, response])
        n = self.hands
        if n < 2:
            return Estimate(mean, None, n)
        variance = float(self._m2[column, response]) / (n - 1)
        return Estimate(mean, t95(n - 1) * math.sqrt(variance / n), n)

    def run_mean(self, run: int, response: int) -> float:
        """A response's mean over the hands of one run."""
        return float(self._run_sums[run, response]) / self.hands if self.hands else 0.0

    def grand_mean(self, response: int) -> float:
        """A response's mean over every run and hand."""
        return sum(self.run_mean(run, response) for run in range(self.runs)) / self.runs
