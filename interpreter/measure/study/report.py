"""Printing a study: the factors, the design's aliasing, the effects ranked, the verdicts.

Where it sits: the last step of `tarot study`, given the `findings`. Text for the terminal,
Markdown for notes, JSON with every estimate (every effect on every response, seats and
rules included) for programs. A mean prints as `mean ± half-width` (t, 95%); an effect on a
rate in percentage points (pp).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from tarot.core.ruleset import Ruleset
from tarot.measure.report import RunInfo, estimate
from tarot.measure.report import _section as section
from tarot.measure.report import _table as table
from tarot.measure.shape import GameShape
from tarot.measure.statistics import Estimate
from tarot.measure.study.design import Design
from tarot.measure.study.factors import Factor
from tarot.measure.study.findings import CHANGES, NOTICEABLE, SMALL, UNCLEAR, UNNOTICED, Finding
from tarot.measure.study.responses import RATE, Response


@dataclass(frozen=True)
class Study:
    """Everything a study report shows."""

    base: Ruleset
    target: str  # BASE as the command line gave it
    factors: Sequence[Factor]
    design: Design
    responses: Sequence[Response]
    findings: Sequence[Finding]
    threshold: float  # an effect on the results no larger is small
    hands: int
    info: RunInfo

    @property
    def mains(self) -> list[Finding]:
        return [f for f in self.findings if f.column.main]

    @property
    def interactions(self) -> list[Finding]:
        return [f for f in self.findings if not f.column.main]


def _effect(e: Estimate, response: Response) -> str:
    """An effect as `mean ± half-width`; in percentage points for a rate."""
    if response.kind == RATE:
        scaled = Estimate(100 * e.mean, None if e.half_width is None else 100 * e.half_width, 0)
        return estimate(scaled.as_dict(), 1) + " pp"
    return estimate(e.as_dict())


def study_report(study: Study, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(_json(study), indent=1)
    md = fmt == "markdown"
    unit = study.base.unit.plural
    runs = len(study.design.runs)
    out = [
        ("## " if md else "")
        + f"Which doubts matter: {study.base.id}, {len(study.factors)} option(s), "
        f"{study.design.title()}; {study.info.heading(study.hands)}, in every run",
        f"(an effect is the mean under the studied reading less the mean under the default, "
        f"over the {runs} runs of the design, on the same deals in every run; an interaction "
        "is half the change in one option's effect when the other is studied too; 95% t "
        "intervals over the hands)",
    ]
    out += section("Options (low: the default reading; high: the reading studied)", md)
    rows = [["option", "low", "high", "readings left out"]]
    for factor in study.factors:
        left = ", ".join(f"{r} (--levels {factor.option}={r})" for r in factor.left_out)
        rows.append([factor.option, factor.low, factor.high, left or "-"])
    out += table(rows, md)
    out += _aliasing(study, md)
    results = [r for r in study.responses if r.group == "place" or r.key == "spread"]
    out += section(
        f"Main effects on the results ({unit} per hand; by place at the table, and the "
        "spread of results in a hand), largest first",
        md,
    )
    out += table(_effect_rows(study.mains, results, True), md)
    mattering = [f for f in study.interactions if f.verdict == CHANGES]
    grouped = " (a line [n] is group n of the aliasing: the estimate is of its sum)"
    out += section(
        "Two-way interactions that change results, largest first"
        + (grouped if study.design.confounded() else ""),
        md,
    )
    if mattering:
        out += table(_effect_rows(mattering, results, True, _groups(study)), md)
    small = sum(f.verdict == SMALL for f in study.interactions)
    rest = len(study.interactions) - len(mattering) - small
    out += _items(
        [
            f"{'besides these' if mattering else 'none'}: {small} small but clear of zero, "
            f"{rest} with every interval on the results including zero"
        ],
        md,
        out,
    )
    measures = [r for r in study.responses if r.group == "measure" and r.key != "spread"]
    shape = "a taker against defenders" if study.base.bidding is not None else "each for himself"
    if GameShape.of(study.base).partners:
        shape = "partners, a side winning as one"
    out += section(f"Main effects on the game measures ({shape}; rates in percentage points)", md)
    out += table(_effect_rows(study.mains, measures, False), md)
    out += section("Verdicts", md)
    out += _items(_verdicts(study, unit), md, out)
    return "\n".join(out)


def _items(lines: Sequence[str], md: bool, before: Sequence[str] = ("",)) -> list[str]:
    """Lines of prose: a list in Markdown (after a blank line, unless the lines `before`
    end with one), indented lines in text."""
    if md:
        return ([""] if before[-1:] != [""] else []) + [f"- {line}" for line in lines]
    return [f"  {line}" for line in lines]


def _aliasing(study: Study, md: bool) -> list[str]:
    confounded = study.design.confounded()
    out = section("Aliasing", md)
    if study.design.kind == "full":
        return out + _items(["none: a full factorial estimates every effect on its own"], md, out)
    if not confounded:
        return out + _items(
            [
                "no main effect or two-way interaction is confounded with another (resolution "
                "V or better); main effects are confounded only with interactions of four "
                "options or more, taken to be negligible"
            ],
            md,
            out,
        )
    out.append(
        ("" if md else "  ")
        + "main effects are clear of each other and of two-way interactions, confounded only "
        "with interactions of three options or more (taken to be negligible); these two-way "
        "interactions cannot be told apart, and each line's estimate is of their sum:"
    )
    names = [factor.option for factor in study.factors]
    groups = [f"[{n}] {column.label(names)}" for n, column in enumerate(confounded, 1)]
    return out + _items(groups, md, out)


def _groups(study: Study) -> dict[str, int]:
    """The number of each group of confounded interactions, by its label."""
    names = [factor.option for factor in study.factors]
    return {c.label(names): n for n, c in enumerate(study.design.confounded(), 1)}


def _short(finding: Finding, groups: dict[str, int]) -> str:
    """An effect's label; a group of confounded interactions by its first pair and number."""
    if finding.label not in groups:
        return finding.label
    first = finding.label.split(" = ")[0]
    return f"{first} [{groups[finding.label]}]"


def _effect_rows(
    findings: Sequence[Finding],
    responses: Sequence[Response],
    verdicts: bool,
    groups: dict[str, int] | None = None,
) -> list[list[str]]:
    head = ["effect", *(r.label for r in responses)]
    if verdicts:
        head += ["verdict", "rule paid most differently"]
    rows = [head]
    for finding in findings:
        label = _short(finding, groups or {})
        row = [label, *(_effect(finding.effects[r.key], r) for r in responses)]
        if verdicts:
            row += [finding.verdict, _rule_moved(finding)]
        rows.append(row)
    return rows


def _rule_moved(finding: Finding) -> str:
    """The rule whose payments per hand moved most, with the effect on them."""
    if finding.rule is None:
        return "-"
    name = finding.rule.removeprefix("rule.")
    return f"{name} {estimate(finding.effects[finding.rule].as_dict())}"


def _verdicts(study: Study, unit: str) -> list[str]:
    """One line per verdict, naming the options that have it."""

    def named(verdict: str) -> str:
        return ", ".join(f.label for f in study.mains if f.verdict == verdict) or "none"

    small = f"{study.threshold:.2f} {unit}"
    out = [
        f"Change results (an interval on the results clear of zero, an effect above {small}, "
        f"{100 * NOTICEABLE:.0f}% of the mean spread of results in a hand): {named(CHANGES)}",
        f"Small but real (clear of zero, no effect above {small}): {named(SMALL)}",
        f"No player would notice (every interval includes zero, no effect above {small}): "
        f"{named(UNNOTICED)}",
        f"Cannot tell yet (every interval on the results includes zero, but an effect is above "
        f"{small} or a game measure moved; more hands would tell): {named(UNCLEAR)}",
    ]
    if len(study.findings) >= 10:
        out.append(
            "(at 95% each, about one interval in twenty excludes zero by chance where there "
            "is no effect: an effect just clear of zero may be chance)"
        )
    return out


def _json(study: Study) -> dict:
    names = [factor.option for factor in study.factors]
    info = study.info
    return {
        "ruleset": study.base.id,
        "unit": study.base.unit.plural,
        "run": {
            "seed": info.seed,
            "hands_asked": info.hands_asked,
            "hands": study.hands,
            "agents": list(info.agents),
            "jobs": info.jobs,
            "backend": info.engine,
            "interrupted": info.interrupted,
        },
        "factors": [
            {"option": f.option, "low": f.low, "high": f.high, "left_out": list(f.left_out)}
            for f in study.factors
        ],
        "design": {
            "kind": study.design.kind,
            "title": study.design.title(),
            "runs": [
                {
                    f.option: (f.high if level > 0 else f.low)
                    for f, level in zip(study.factors, run, strict=True)
                }
                for run in study.design.runs
            ],
            "confounded": [column.label(names) for column in study.design.confounded()],
        },
        "small_effect": study.threshold,
        "responses": {
            r.key: {"label": r.label, "kind": r.kind, "group": r.group} for r in study.responses
        },
        "effects": [
            {
                "effect": finding.label,
                "terms": [
                    {"options": [names[i] for i in factors], "sign": sign}
                    for factors, sign in finding.column.terms
                ],
                "main": finding.column.main,
                "size": finding.size,
                "verdict": finding.verdict,
                "rule_moved_most": finding.rule,
                "estimates": {key: e.as_dict() for key, e in finding.effects.items()},
            }
            for finding in study.findings
        ],
    }
