"""Printing simulation results: one ruleset, two rulesets at the table, or a whole family.

Where it sits: the last step of `tarot simulate` and `tarot diff --hands`. It takes the plain
dicts that `RulesetMeasures.report` and `Comparison.report` give and formats them as text
(terminal), Markdown (tables for notes) or JSON (everything, for programs). Numbers with an
interval print as `mean ± half-width` (95%). Results are named in each ruleset's own unit
(`Ruleset.unit`); a difference of two rates is in percentage points (pp).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from interpreter.engine.game import sitting_seed
from interpreter.markdown import escape, table
from interpreter.ruleset import Ruleset

FORMATS = ("text", "markdown", "json")


@dataclass(frozen=True)
class RunInfo:
    """What was run, for the heading and the replay commands."""

    seed: int
    hands_asked: int
    agents: tuple[str, ...]
    jobs: int
    interrupted: bool = False
    options: tuple[tuple[str, str], ...] = ()  # chosen with --option, repeated in commands
    sittings: bool = False  # each unit is a whole sitting (a ruleset with lasting state)

    def heading(self, hands_done: int) -> str:
        players = ",".join(self.agents)
        unit = (
            "sittings (each a whole game; a hand below is a sitting)" if self.sittings else "hands"
        )
        done = f"{hands_done} {unit}"
        if self.interrupted:
            done = f"{hands_done} of {self.hands_asked} {unit} (interrupted)"
        return f"{done}, seed {self.seed}, {players} players, {self.jobs} job(s)"

    def replay_command(self, target: str, number: int) -> str:
        options = "".join(f" --option {name}={reading}" for name, reading in self.options)
        agents = "" if self.agents == ("random",) else f" --agents {','.join(self.agents)}"
        if self.sittings:  # sitting N is the whole game played with its own seed
            return f"tarot play {target} --seed {sitting_seed(self.seed, number)}{agents}{options}"
        return f"tarot play {target} --seed {self.seed} --hand {number}{agents}{options}"


def signed(value: float, digits: int = 2) -> str:
    return f"{value:+.{digits}f}"


def estimate(e: dict, digits: int = 2, sign: bool = True) -> str:
    """`mean ± half-width` of an estimate dict (`Estimate.as_dict`); the mean alone when it
    has no interval. A result shows its sign; a size (`plain`) does not."""
    low, high = e["ci95"]
    mean = f"{e['mean']:{'+' if sign else ''}.{digits}f}"
    return mean if low is None else f"{mean} ± {(high - low) / 2:.{digits}f}"


def plain(e: dict, digits: int = 2) -> str:
    return estimate(e, digits, sign=False)


def percent(share: float | None) -> str:
    return "n/a" if share is None else f"{100 * share:.1f}%"


def place_name(place: int) -> str:
    return "dealer" if place == 0 else f"dealer + {place}"


def _table(rows: Sequence[Sequence[str]], markdown: bool, indent: str = "  ") -> list[str]:
    if markdown:
        head, *body = [[escape(cell) for cell in row] for row in rows]
        return table(head, body)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        (indent + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))).rstrip()
        for row in rows
    ]


def _section(title: str, markdown: bool) -> list[str]:
    return ["", f"### {title}", ""] if markdown else ["", f"{title}:"]


def units(named: Sequence[tuple[str, Ruleset]]) -> str:
    """What results are counted in: the rulesets' unit (plural), or when they differ each
    one's, after the label it goes by in the report ("A in counters, B in points")."""
    plurals = {ruleset.unit.plural for _label, ruleset in named}
    if len(plurals) == 1:
        return plurals.pop()
    return ", ".join(f"{label} in {ruleset.unit.plural}" for label, ruleset in named)


def _unit_json(ruleset: Ruleset) -> dict:
    return asdict(ruleset.unit)


def _net_title(unit: str) -> str:
    return f"Net result per hand by seat ({unit}, mean ± 95% interval)"


# --- measures shared by simulate and diff ------------------------------------------------------


@dataclass(frozen=True)
class _Measure:
    label: str
    value: Callable[[dict], float | dict | None]  # a number, or an estimate dict
    digits: int = 2
    as_percent: bool = False
    signed: bool = False  # a result, shown with its sign


def _measures(places: int, unit: str) -> list[_Measure]:
    def at(key: str, place: int) -> Callable[[dict], float | dict | None]:
        return lambda r: r[key][place] if place < len(r[key]) else None

    return [
        *(
            _Measure(f"mean result, {place_name(p)}", at("by_place", p), signed=True)
            for p in range(places)
        ),
        *(
            _Measure(f"win rate, {place_name(p)}", at("win_rate_by_place", p), as_percent=True)
            for p in range(places)
        ),
        _Measure("balance (1 - widest win-rate gap)", lambda r: r["balance"], 3),
        _Measure("drawn hands (best result shared)", lambda r: r["draws"], as_percent=True),
        _Measure("spread of results in a hand (sd)", lambda r: r["spread"]),
        _Measure(f"{unit} won by the winners", lambda r: r["moved"]),
        _Measure("decisions per hand", lambda r: r["decisions_per_hand"], 1),
        _Measure("legal choices per decision", lambda r: r["choices_per_decision"]),
        _Measure("decided after (share of decisions)", lambda r: r["decided_after"], 3),
        _Measure("lead changes per hand", lambda r: r["lead_changes"]),
    ]


def _number(value: float | dict | None) -> float | None:
    return value["mean"] if isinstance(value, dict) else value


def _cell(measure: _Measure, value: float | dict | None) -> str:
    if value is None:
        return "-"
    if measure.as_percent:
        assert not isinstance(value, dict)  # a share is a plain number, never an estimate
        return percent(value)
    if isinstance(value, dict):
        return (
            estimate(value, measure.digits)
            if measure.label.startswith("mean result")
            else (plain(value, measure.digits))
        )
    return f"{value:.{measure.digits}f}"


def _measure_rows(reports: Sequence[dict], unit: str) -> list[list[str]]:
    """One row per measure, one column per ruleset; with two rulesets a last column B - A
    (the difference of the two means; the paired intervals are in the tables above)."""
    rows = []
    for measure in _measures(max(len(r["by_place"]) for r in reports), unit):
        values = [measure.value(r) for r in reports]
        row = [measure.label, *(_cell(measure, v) for v in values)]
        if len(reports) == 2:
            a, b = (_number(v) for v in values)
            gap = None if a is None or b is None else b - a
            if gap is None:
                row.append("-")
            elif measure.as_percent:
                row.append(f"{100 * gap:+.1f} pp")
            else:
                row.append(f"{gap:+.{measure.digits}f}")
        rows.append(row)
    return rows


def _rule_rows(rulesets: Sequence[Ruleset], reports: Sequence[dict]) -> list[list[str]]:
    """One row per rule that paid: the share of hands it paid in (and times per hand) under
    each ruleset; with two, a last column B - A of the shares."""
    keys = sorted({key for r in reports for key in r["rules"]})
    rows = []
    for key in keys:
        label = next((rs.rule_label(key) for rs in rulesets if rs.rule(key) is not None), key)
        shares = [r["rules"].get(key, {"hands": 0.0, "per_hand": 0.0}) for r in reports]
        cells = [f"{percent(f['hands'])} ({f['per_hand']:.3f})" for f in shares]
        if len(reports) == 2:
            cells.append(f"{100 * (shares[1]['hands'] - shares[0]['hands']):+.1f} pp")
        rows.append([key, label, *cells])
    return rows


# --- tarot simulate -----------------------------------------------------------------------------


def simulate_report(ruleset: Ruleset, measures: dict, info: RunInfo, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(
            {
                "ruleset": ruleset.id,
                "unit": _unit_json(ruleset),
                "options": ruleset.options,
                "run": _run_json(info),
                "measures": measures,
            },
            indent=1,
        )
    md = fmt == "markdown"
    out = [("## " if md else "") + f"{ruleset.id}: {info.heading(measures['hands'])}"]
    unit = ruleset.unit.plural
    out += _section(_net_title(unit), md)
    out += _table(
        [["seat", "result"]] + [[str(s), estimate(e)] for s, e in enumerate(measures["by_seat"])],
        md,
    )
    out += _section("Game measures", md)
    out += _table([["measure", ruleset.id], *_measure_rows([measures], unit)], md)
    out += _section("Rules that paid (share of hands, and times per hand)", md)
    rules = _rule_rows([ruleset], [measures])
    out += _table([["rule", "name", ruleset.id], *rules], md) if rules else ["  none"]
    return "\n".join(out)


def _run_json(info: RunInfo) -> dict:
    return {
        "seed": info.seed,
        "hands_asked": info.hands_asked,
        "agents": list(info.agents),
        "jobs": info.jobs,
        "interrupted": info.interrupted,
        "options": dict(info.options),
    }


# --- tarot diff A B --hands N -------------------------------------------------------------------


def table_report(
    a: Ruleset, b: Ruleset, targets: tuple[str, str], result: dict, info: RunInfo, fmt: str
) -> str:
    """The at-the-table half of a diff: `result` is `Comparison.report()`."""
    if fmt == "json":
        return json.dumps(
            {
                "a": a.id,
                "b": b.id,
                "unit": {"a": _unit_json(a), "b": _unit_json(b)},
                "run": _run_json(info),
                "table": result,
            },
            indent=1,
        )
    md = fmt == "markdown"
    hands = result["hands"]
    how = (
        "paired: the same packs, players and seeds under both"
        if result["paired"]
        else "UNPAIRED: the rulesets do not share a deck and player count, so each is "
        "measured on its own deals and the differences are between means"
    )
    out = [("## " if md else "") + f"At the table: {info.heading(hands)}", f"({how})"]
    unit = units([("A", a), ("B", b)])
    out += _section(_net_title(unit), md)
    label = "B - A (paired)" if result["paired"] else "B - A (unpaired)"
    seats = max(len(result["a"]["by_seat"]), len(result["b"]["by_seat"]))
    rows = [["seat", f"A {a.id}", f"B {b.id}", label]]
    for seat in range(seats):
        rows.append(
            [
                str(seat),
                _seat(result["a"], seat),
                _seat(result["b"], seat),
                estimate(result["difference_by_seat"][seat])
                if seat < len(result["difference_by_seat"])
                else "-",
            ]
        )
    out += _table(rows, md)
    if result["paired"]:
        out += _section("By place at the table (the dealer, then in order of play)", md)
        rows = [["place", f"A {a.id}", f"B {b.id}", label]]
        for place, gap in enumerate(result["difference_by_place"]):
            rows.append(
                [
                    place_name(place),
                    estimate(result["a"]["by_place"][place]),
                    estimate(result["b"]["by_place"][place]),
                    estimate(gap),
                ]
            )
        out += _table(rows, md)
        differing = result["differing_share"]
        count = round(differing * hands) if hands else 0
        out += [
            "",
            f"Hands whose result differs: {percent(differing)} ({count} of {hands}); "
            f"mean |B - A| per seat and hand ({unit}): {plain(result['mean_abs_difference'])}; "
            f"spread of results in a hand, B - A: {estimate(result['spread_difference'])}",
        ]
        if result["most_different"]:
            out += _section("Hands that differ most (replay each under A and under B)", md)
            for hand in result["most_different"]:
                out.append(
                    f"  hand {hand['hand']}: A {_nets(hand['net_a'])}, B {_nets(hand['net_b'])}"
                )
                out.append(f"    {info.replay_command(targets[0], hand['hand'])}")
                out.append(f"    {info.replay_command(targets[1], hand['hand'])}")
    out += _section("Game measures (B - A of a rate in percentage points, pp)", md)
    out += _table(
        [
            ["measure", f"A {a.id}", f"B {b.id}", "B - A"],
            *_measure_rows([result["a"], result["b"]], unit),
        ],
        md,
    )
    out += _section("Rules that paid (share of hands, and times per hand; B - A in pp)", md)
    rules = _rule_rows([a, b], [result["a"], result["b"]])
    out += (
        _table([["rule", "name", f"A {a.id}", f"B {b.id}", "B - A"], *rules], md)
        if rules
        else ["  none"]
    )
    return "\n".join(out)


def _seat(measures: dict, seat: int) -> str:
    return estimate(measures["by_seat"][seat]) if seat < len(measures["by_seat"]) else "-"


def _nets(net: Sequence[float]) -> str:
    return " ".join(f"{v:+g}" for v in net)


# --- tarot diff --family BASE --hands N ---------------------------------------------------------


@dataclass(frozen=True)
class FamilyLine:
    variant: Ruleset
    changed: list[str]  # "option: base reading -> variant reading"
    result: dict  # Comparison.report()


def family_report(base: Ruleset, lines: Sequence[FamilyLine], info: RunInfo, fmt: str) -> str:
    ordered = sorted(lines, key=_change_size, reverse=True)
    if fmt == "json":
        return json.dumps(
            {
                "base": base.id,
                "unit": _unit_json(base),
                "run": _run_json(info),
                "variants": [
                    {
                        "variant": line.variant.id,
                        "unit": _unit_json(line.variant),
                        "changed": line.changed,
                        "table": line.result,
                    }
                    for line in ordered
                ],
            },
            indent=1,
        )
    md = fmt == "markdown"
    hands = ordered[0].result["hands"] if ordered else 0
    out = [
        ("## " if md else "") + f"Family of {base.id}: each variant against it, "
        f"{info.heading(hands)}",
        "(sorted by the mean |B - A| per seat and hand, how much the variant moves results, "
        f"in {units([(r.id, r) for r in (base, *(line.variant for line in ordered))])}; "
        "dealer B - A is the dealer's paired difference; spread B - A the change in the "
        "standard deviation of the seats' results in a hand, i.e. in what is at stake)",
        "",
    ]
    rows = [
        ["variant", "changes", "hands differing", "mean |B - A|", "dealer B - A", "spread B - A"]
    ]
    for line in ordered:
        r = line.result
        if r["paired"]:
            cells = [
                plain(r["mean_abs_difference"]),
                estimate(r["difference_by_place"][0]),
                estimate(r["spread_difference"]),
            ]
        else:
            cells = ["unpaired", "-", "-"]
        changed = "; ".join(line.changed) or "(none)"
        rows.append([line.variant.id, changed, percent(r["differing_share"]), *cells])
    out += _table(rows, md)
    return "\n".join(out)


def _change_size(line: FamilyLine) -> float:
    e = line.result["mean_abs_difference"]
    return -1.0 if e is None else e["mean"]
