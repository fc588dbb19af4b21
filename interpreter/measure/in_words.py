"""What a comparison of two rulesets at the table found, said in words: the summary that opens
`tarot diff A B --hands N`.

Where it sits: between `comparison.Comparison.report` (the paired differences, as plain
dicts) and `report.table_report`, which prints the summary before its tables in text and
Markdown and puts it in the JSON. It reads the report only, so it says nothing the tables do
not hold: an *effect* is a difference B - A whose 95% interval excludes zero (a place's net
result, the spread of results in a hand, what a rule paid per hand, how often a rule fired),
each given with both values and the interval, the largest first (amounts in the ruleset's
unit, then shares of hands in percentage points); what did not change is said after them.
Rules are named by their names (`rule_name`), results in the ruleset's unit.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from tarot.core.ruleset import Ruleset

#: rules named one by one among those that did not change; the rest are counted
NAMED_UNCHANGED = 6
WIDTH = 100  # the text report's columns


@dataclass(frozen=True)
class Effect:
    """One difference whose 95% interval excludes zero."""

    subject: str  # what changed, in words: a rule's name, "the dealer"
    measure: str  # the verb before the values: "paid", "fired in", or none
    key: str  # where it is in the report: "place.0", "spread", "rule.ID", "fired.ID"
    a: float
    b: float
    mean: float  # B - A
    half_width: float
    share: bool  # a share of hands (printed in percent, the difference in pp)

    def words(self, unit: str) -> str:
        """`subject: measure B instead of A (B - A mean ± half-width)` in the report's unit."""
        if self.share:
            values = f"{100 * self.b:.1f}% of hands instead of {100 * self.a:.1f}%"
            gap = f"{100 * self.mean:+.1f} pp ± {100 * self.half_width:.1f}"
        elif self.key.startswith(("place.", "seat.")):
            values = f"{self.b:+.2f} {unit} a hand instead of {self.a:+.2f}"
            gap = f"{self.mean:+.2f} ± {self.half_width:.2f}"
        else:
            per = "" if self.key == "spread" else " a hand"
            values = f"{self.b:.2f} {unit}{per} instead of {self.a:.2f}"
            gap = f"{self.mean:+.2f} ± {self.half_width:.2f}"
        said = f"{self.measure} {values}" if self.measure else values
        return f"{self.subject}: {said} (B - A {gap})"

    def as_dict(self, unit: str) -> dict:
        return {
            "subject": self.subject,
            "measure": self.measure,
            "key": self.key,
            "a": self.a,
            "b": self.b,
            "difference": {
                "mean": self.mean,
                "ci95": [self.mean - self.half_width, self.mean + self.half_width],
            },
            "unit": "share of hands" if self.share else unit,
            "words": self.words(unit),
        }


@dataclass(frozen=True)
class Summary:
    """The effects of B against A, ranked, and what did not change."""

    hands: int
    paired: bool
    unit: str
    effects: list[Effect]
    unchanged: list[str]  # sentences
    differing: str | None  # how many hands came out differently, in words

    def lines(self, markdown: bool) -> list[str]:
        """The summary as the text report prints it (wrapped to WIDTH) or as Markdown."""
        if markdown:
            out = ["### Summary", ""]
            if self.effects:
                out += ["Clear effects (95% intervals that exclude zero), largest first:", ""]
                out += [f"- {effect.words(self.unit)}" for effect in self.effects]
            else:
                out.append("No clear effect: every 95% interval includes zero.")
            out += ["", *self.unchanged]
            if self.differing:
                out += ["", self.differing]
            return out
        out = ["Summary:"]
        if self.effects:
            out.append("  Clear effects (95% intervals that exclude zero), largest first:")
            for effect in self.effects:
                out += _wrapped(effect.words(self.unit), "  - ", "    ")
        else:
            out.append("  No clear effect: every 95% interval includes zero.")
        for sentence in [*self.unchanged, *([self.differing] if self.differing else [])]:
            out += _wrapped(sentence, "  ", "  ")
        return out

    def as_dict(self) -> dict:
        return {
            "paired": self.paired,
            "hands": self.hands,
            "unit": self.unit,
            "effects": [effect.as_dict(self.unit) for effect in self.effects],
            "unchanged": self.unchanged,
            "differing": self.differing,
        }


def _wrapped(text: str, first: str, rest: str) -> list[str]:
    """`text` wrapped to WIDTH, never breaking a `B - A` or a `mean ± half-width`."""
    glued = text.replace("B - A", "B\0-\0A").replace(" ± ", "\0±\0")
    lines = textwrap.wrap(glued, WIDTH, initial_indent=first, subsequent_indent=rest)
    return [line.replace("\0", " ") for line in lines] or [first]


def _place(place: int) -> str:
    return "the dealer" if place == 0 else f"the dealer's {_ordinal(place)} player"


def _ordinal(n: int) -> str:
    return {1: "next", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def _clear(e: dict | None) -> tuple[float, float] | None:
    """(mean, half-width) of an estimate dict whose interval excludes zero; else None."""
    if not e:
        return None
    low, high = e["ci95"]
    if low is None or high is None or low <= 0 <= high:
        return None
    return e["mean"], (high - low) / 2


def _same_every_hand(e: dict | None) -> bool:
    return e is not None and e["mean"] == 0 and e["ci95"] == [0, 0]


def _rule_value(report: dict, key: str, field: str) -> float:
    rule = report["rules"].get(key)
    if rule is None:
        return 0.0
    return rule["fired"]["rate"] if field == "fired" else rule["paid"]["mean"]


def rule_name(rulesets: Sequence[Ruleset], key: str) -> str:
    """The name of the rule a payment names, from the first ruleset that has the rule."""
    found = (rs.rule_label(key) for rs in rulesets if rs.rule(key) is not None)
    return next(found, rulesets[0].rule_label(key))


def summarize(a: Ruleset, b: Ruleset, result: dict, unit: str) -> Summary:
    """The summary of `result` (`Comparison.report()`) of B against A, results in `unit`."""
    amounts: list[Effect] = []
    shares: list[Effect] = []
    still: list[str] = []
    paired = result["paired"]
    ra, rb = result["a"], result["b"]
    if paired:
        places = result["difference_by_place"]
        steady = []
        for place, gap in enumerate(places):
            clear = _clear(gap)
            if clear is None:
                steady.append(_place(place))
                continue
            amounts.append(
                Effect(
                    _place(place),
                    "",
                    f"place.{place}",
                    ra["by_place"][place]["mean"],
                    rb["by_place"][place]["mean"],
                    *clear,
                    share=False,
                )
            )
        if steady and len(steady) == len(places):
            still.append(
                "No place at the table gains or loses clearly: every place's net result per "
                "hand has a B - A interval that includes zero."
            )
        elif steady:
            still.append(f"No clear change in the net result of {', '.join(steady)}.")
        clear = _clear(result["spread_difference"])
        if clear is not None:
            amounts.append(
                Effect(
                    "what is at stake (the spread of the seats' results in a hand)",
                    "",
                    "spread",
                    ra["spread"]["mean"],
                    rb["spread"]["mean"],
                    *clear,
                    share=False,
                )
            )
        else:
            still.append(
                "What is at stake in a hand (the spread of results) does not clearly change."
            )
    else:
        for seat, gap in enumerate(result["difference_by_seat"]):
            clear = _clear(gap)
            if clear is not None:
                amounts.append(
                    Effect(
                        f"seat {seat}",
                        "",
                        f"seat.{seat}",
                        ra["by_seat"][seat]["mean"],
                        rb["by_seat"][seat]["mean"],
                        *clear,
                        share=False,
                    )
                )
    rulesets = [a, b]
    moved: set[str] = set()
    fired = result.get("fired_differences") or {}
    for differences, field, verb, into in (
        (result["rule_differences"], "paid", "paid", amounts),
        (fired, "fired", "fired in", shares),
    ):
        for key, gap in sorted(differences.items()):
            clear = _clear(gap)
            if clear is None:
                continue
            moved.add(key)
            into.append(
                Effect(
                    rule_name(rulesets, key),
                    verb,
                    f"{'rule' if field == 'paid' else 'fired'}.{key}",
                    _rule_value(ra, key, field),
                    _rule_value(rb, key, field),
                    *clear,
                    share=field == "fired",
                )
            )
    amounts.sort(key=lambda e: (-abs(e.mean), e.key))
    shares.sort(key=lambda e: (-abs(e.mean), e.key))
    still += _rules_unchanged(rulesets, result, moved)
    return Summary(result["hands"], paired, unit, amounts + shares, still, _differing(result, unit))


def _rules_unchanged(rulesets: Sequence[Ruleset], result: dict, moved: set[str]) -> list[str]:
    others = sorted(set(result["rule_differences"]) - moved)
    if not others:
        return []
    fired = result.get("fired_differences") or {}
    same = [
        key
        for key in others
        if _same_every_hand(result["rule_differences"][key]) and _same_every_hand(fired.get(key))
    ]
    noisy = [key for key in others if key not in same]
    out = []
    if noisy:
        names = [rule_name(rulesets, key) for key in noisy[:NAMED_UNCHANGED]]
        more = len(noisy) - len(names)
        listed = "; ".join(names) + (f"; and {more} more" if more else "")
        out.append(f"Rules that moved within their intervals (no clear change): {listed}.")
    if same:
        out.append(
            f"{len(same)} other rule(s) fired and paid the same in every hand under both."
            if result["paired"]
            else f"{len(same)} other rule(s) paid the same on average."
        )
    return out


def _differing(result: dict, unit: str) -> str | None:
    share = result.get("differing_share")
    if share is None:
        return None
    hands = result["hands"]
    count = round(share * hands)
    size = result["mean_abs_difference"]
    return (
        f"{count} of {hands} hands ({100 * share:.1f}%) came out differently for some seat, "
        f"by {size['mean']:.2f} {unit} per seat and hand on average; a changed rule also "
        "changes what players decide after it, so this share says how far a change reaches, "
        "not how much it matters."
    )
