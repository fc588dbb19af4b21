"""Two rulesets played on the same deals: paired differences, seat by seat.

Where it sits: the table half of `tarot diff`. `Comparison.add` takes the summaries of one
hand number under A and under B (same pack, same agents, same seeds). When the two rulesets
share a deck and a player count the hands are paired: the per-seat difference B - A is
averaged hand by hand, which cancels the luck of the deal. Otherwise each side is measured on
its own and the difference of the means gets an unpaired (Welch) interval; the report says
which it is.

Besides each seat's result, the comparison keeps what each rule paid in a hand under B less
under A (paired), so that a rule whose amount changed shows by how much, and whether it fired
in the hand under B less under A (paired), so that a change in how often it fires gets an
interval too; and the distribution of every paired difference, for the plots. Means of
paired differences get a t interval, unpaired ones Welch's (`statistics`).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tarot.core.ruleset import Ruleset
from tarot.core.summary import HandSummary
from tarot.measure.measures import RulesetMeasures, spread
from tarot.measure.statistics import KeyedMeans, RunningMean, difference_of_means

MOST_DIFFERENT = 5


def can_pair(a: Ruleset, b: Ruleset) -> bool:
    """Whether a shuffled pack means the same cards under both rulesets."""
    return a.players == b.players and [c.id for c in a.deck.cards] == [c.id for c in b.deck.cards]


@dataclass(frozen=True)
class DifferentHand:
    number: int
    size: float  # sum over seats of |B - A|
    net_a: tuple[float, ...]
    net_b: tuple[float, ...]


class Comparison:
    def __init__(self, a: Ruleset, b: Ruleset) -> None:
        self.paired = can_pair(a, b)
        self.a = RulesetMeasures.of(a)
        self.b = RulesetMeasures.of(b)
        seats = a.players if self.paired else 0
        self.difference = [RunningMean() for _ in range(seats)]
        self.difference_histogram: list[Counter[float]] = [Counter() for _ in range(seats)]
        self.rule_difference = KeyedMeans()  # rule -> B - A of what it paid in a hand
        self.fired_difference = KeyedMeans()  # rule -> B - A of whether it fired (1 or 0)
        self.place_difference = [RunningMean() for _ in range(seats)]  # 0 = the dealer
        self.spread_difference = RunningMean()  # B - A of the spread of results in a hand
        self.size = RunningMean()  # mean over seats of |B - A|, per hand
        self.differing = 0
        self._largest: list[tuple[float, int, DifferentHand]] = []

    def add(self, under_a: HandSummary, under_b: HandSummary) -> None:
        self.add_all([(under_a, under_b)])

    def add_all(self, pairs: Sequence[tuple[HandSummary, HandSummary]]) -> None:
        """`add` each hand of `pairs` (under A, under B) in turn: each side's measures a
        chunk at a time (`RulesetMeasures.add_all`), the paired differences hand by hand."""
        self.a.add_all([under_a for under_a, _ in pairs])
        self.b.add_all([under_b for _, under_b in pairs])
        if self.paired:
            for under_a, under_b in pairs:
                self._add_paired(under_a, under_b)

    def _add_paired(self, under_a: HandSummary, under_b: HandSummary) -> None:
        gaps = [vb - va for va, vb in zip(under_a.net, under_b.net, strict=True)]
        for seat, gap in enumerate(gaps):
            self.difference[seat].add(gap)
            self.difference_histogram[seat][gap] += 1
            self.place_difference[self.a.place_of(seat, under_a.dealer)].add(gap)
        paid_a, paid_b = under_a.paid, under_b.paid
        self.rule_difference.add(
            {rule: paid_b.get(rule, 0.0) - paid_a.get(rule, 0.0) for rule in paid_a | paid_b}
        )
        fired_a, fired_b = under_a.fired, under_b.fired
        self.fired_difference.add(
            {rule: float(rule in fired_b) - float(rule in fired_a) for rule in fired_a | fired_b}
        )
        self.spread_difference.add(spread(under_b.net) - spread(under_a.net))
        size = sum(abs(g) for g in gaps)
        self.size.add(size / len(gaps))
        if size:
            self.differing += 1
            entry = DifferentHand(under_a.number, size, under_a.net, under_b.net)
            item = (size, -under_a.number, entry)  # the earlier hand wins a tie
            if len(self._largest) < MOST_DIFFERENT:
                heapq.heappush(self._largest, item)
            else:
                heapq.heappushpop(self._largest, item)

    @property
    def hands(self) -> int:
        return self.a.hands

    def most_different(self) -> list[DifferentHand]:
        return [entry for *_, entry in sorted(self._largest, reverse=True)]

    def seat_differences(self) -> list[dict]:
        if self.paired:
            return [m.estimate().as_dict() for m in self.difference]
        return [
            difference_of_means(a, b).as_dict()
            for a, b in zip(self.a.by_seat, self.b.by_seat, strict=False)
        ]

    def rule_differences(self) -> dict[str, dict]:
        """B - A of what each rule paid per hand: paired, or between the two means."""
        rules = self.rule_keys()
        if self.paired:
            return {rule: self.rule_difference.estimate(rule).as_dict() for rule in rules}
        zero_a, zero_b = RunningMean.of_zeros(self.a.hands), RunningMean.of_zeros(self.b.hands)
        return {
            rule: difference_of_means(
                self.a.paid.means.get(rule, zero_a), self.b.paid.means.get(rule, zero_b)
            ).as_dict()
            for rule in rules
        }

    def fired_differences(self) -> dict[str, dict] | None:
        """B - A of the share of hands in which each rule fired, paired hand by hand (a t
        interval on the per-hand differences of 1 and 0); None when the hands are not paired."""
        if not self.paired:
            return None
        return {rule: self.fired_difference.estimate(rule).as_dict() for rule in self.rule_keys()}

    def rule_keys(self) -> list[str]:
        return sorted(
            self.a.paid.means.keys()
            | self.b.paid.means.keys()
            | self.a.fired_hands.keys()
            | self.b.fired_hands.keys()
        )

    def report(self) -> dict:
        return {
            "paired": self.paired,
            "hands": self.hands,
            "difference_by_seat": self.seat_differences(),
            "difference_by_place": [m.estimate().as_dict() for m in self.place_difference],
            "rule_differences": self.rule_differences(),
            "fired_differences": self.fired_differences(),
            "spread_difference": (
                self.spread_difference.estimate().as_dict() if self.paired else None
            ),
            "differing_share": self.differing / self.hands if self.paired and self.hands else None,
            "mean_abs_difference": self.size.estimate().as_dict() if self.paired else None,
            "most_different": [
                {"hand": h.number, "size": h.size, "net_a": list(h.net_a), "net_b": list(h.net_b)}
                for h in self.most_different()
            ],
            "a": self.a.report(),
            "b": self.b.report(),
        }
