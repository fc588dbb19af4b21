"""Printing simulation results: one ruleset, two rulesets at the table, or a whole family.

Where it sits: the last step of `tarot simulate` and `tarot diff --hands`. It takes the plain
dicts that `RulesetMeasures.report` and `Comparison.report` give and formats them as text
(terminal), Markdown (tables for notes) or JSON (everything, for programs). A mean prints as
`mean ± half-width` (t, 95%), a rate as `share [low, high]` in percent (Wilson, 95%). Which
measures are printed depends on the game's shape (`shape.GameShape`, in the report's
"shape"); a plot given with --plot is shown in place in Markdown. Results are named in each
ruleset's own unit (`Ruleset.unit`); a difference of two rates is in percentage points (pp).
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from tarot.core.ruleset import Ruleset
from tarot.engine.game import plays_sittings, sitting_seed
from tarot.measure.in_words import rule_name, summarize
from tarot.measure.shape import GameShape
from tarot.presentation.markdown import escape, table

if TYPE_CHECKING:
    from tarot.measure.runner import RunPlan

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
    backend: str = "scalar"  # "batch" or "auto" (checked): the hands are the batch back end's
    cluster: str | None = None  # --cluster: where the jobs ran (on this machine otherwise)

    @classmethod
    def of_plan(
        cls,
        plan: RunPlan,
        jobs: int,
        rulesets: Sequence[Ruleset],
        options: tuple[tuple[str, str], ...] = (),
        interrupted: bool = False,
        cluster: str | None = None,
    ) -> RunInfo:
        """What a run of `plan` on `jobs` jobs over `rulesets` was, for its report."""
        return cls(
            plan.seed,
            plan.hands,
            plan.agents,
            jobs,
            interrupted,
            tuple(options),
            sittings=any(plays_sittings(ruleset) for ruleset in rulesets),
            backend=plan.backend,
            cluster=cluster,
        )

    def heading(self, hands_done: int) -> str:
        players = ",".join(self.agents)
        unit = (
            "sittings (each a whole game; a hand below is a sitting)" if self.sittings else "hands"
        )
        done = f"{hands_done} {unit}"
        if self.interrupted:
            done = f"{hands_done} of {self.hands_asked} {unit} (interrupted)"
        where = f" on cluster {self.cluster}" if self.cluster else ""
        engine = "scalar engine" if self.engine == "scalar" else "batch back end"
        return f"{done}, seed {self.seed}, {players} players, {self.jobs} job(s){where}, {engine}"

    @property
    def engine(self) -> str:
        """The engine that played the hands, as the rows name it: "scalar" or "batch"."""
        return "scalar" if self.backend == "scalar" else "batch"

    def replay_command(self, target: str, number: int) -> str:
        options = "".join(f" --option {name}={reading}" for name, reading in self.options)
        agents = "" if self.agents == ("random",) else f" --agents {','.join(self.agents)}"
        batch = "" if self.backend == "scalar" else " --backend batch"
        if self.sittings:  # sitting N is the whole game played with its own seed
            seed = sitting_seed(self.seed, number)
            return f"tarot play {target} --seed {seed}{agents}{options}{batch}"
        return f"tarot play {target} --seed {self.seed} --hand {number}{agents}{options}{batch}"


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


def rate(r: dict) -> str:
    """A rate dict (`statistics.Rate.as_dict`) as `share [low, high]` in percent (Wilson)."""
    low, high = r["ci95"]
    if low is None:
        return "n/a"
    return f"{100 * r['rate']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


Value = float | dict | None  # a number, an estimate dict or a rate dict


@dataclass(frozen=True)
class _Measure:
    label: str
    value: Callable[[dict], Value]
    digits: int = 2
    as_percent: bool = False
    signed: bool = False  # a result, shown with its sign
    meaning: str = ""  # what it measures, where a table's heading is too short to say


def _at(key: str, index: int) -> Callable[[dict], Value]:
    return lambda r: r[key][index] if index < len(r[key]) else None


def _in_auction(*keys: str | int) -> Callable[[dict], Value]:
    def value(r: dict) -> Value:
        found = r["auction"]
        for key in keys:
            if found is None:
                return None
            found = found[key] if isinstance(key, str) else _item(found, key)
        return found

    return value


def _item(values: list, index: int) -> Value:
    return values[index] if index < len(values) else None


def _measures(shape: dict, places: int, unit: str) -> list[_Measure]:
    """The measures that mean something for a game of this shape (`GameShape.as_dict`):
    who won a hand and when where every seat plays for himself or partners play without an
    auction (read by sides, with the dealer's side's share of the wins); the auction's where
    a taker plays against defenders."""
    by_place = [
        _Measure(f"mean result, {place_name(p)}", _at("by_place", p), signed=True)
        for p in range(places)
    ]
    common = [
        _Measure("spread of results in a hand (sd)", lambda r: r["spread"]),
        _Measure(f"won by the winners ({unit})", lambda r: r["moved"]),
        _Measure(f"paid by every rule, the swing ({unit})", lambda r: r["swing"]),
        _Measure("decisions per hand", lambda r: r["decisions_per_hand"], 1),
        _Measure("legal choices per decision", lambda r: r["choices_per_decision"]),
    ]
    if shape["taker_against_defenders"]:
        return [
            _Measure("hands taken (not all passed or thrown in)", _in_auction("taken")),
            _Measure("contracts made (taker ahead)", _in_auction("made")),
            _Measure("taker's mean result", _in_auction("taker"), signed=True),
            _Measure("a defender's mean result", _in_auction("defence"), signed=True),
            *(
                _Measure(f"takes, {place_name(p)}", _in_auction("takes_by_place", p))
                for p in range(places)
            ),
            *by_place,
            *common,
        ]
    sides = []
    if shape.get("partners"):
        sides = [_Measure("hands won by the dealer's side (of those won)", _dealer_side_wins)]
    return [
        *by_place,
        *(
            _Measure(f"win rate, {place_name(p)}", _at("win_rate_by_place", p), as_percent=True)
            for p in range(places)
        ),
        *sides,
        _Measure("balance (1 - widest win-rate gap)", lambda r: r["balance"], 3),
        _Measure("drawn hands (best shared by sides)", lambda r: r["draws"], as_percent=True),
        *common,
        _Measure("decided after (share of decisions)", lambda r: r["decided_after"], 3),
        _Measure("lead changes per hand", lambda r: r["lead_changes"]),
    ]


def _dealer_side_wins(r: dict) -> Value:
    return r.get("dealer_side_wins")


def _number(value: Value) -> float | None:
    if isinstance(value, dict):
        return value["rate"] if "rate" in value else value["mean"]
    return value


def _is_rate(measure: _Measure, value: Value) -> bool:
    return measure.as_percent or (isinstance(value, dict) and "rate" in value)


def _cell(measure: _Measure, value: Value) -> str:
    if value is None:
        return "-"
    if isinstance(value, dict):
        if "rate" in value:
            return rate(value)
        return estimate(value, measure.digits, sign=measure.signed)
    if measure.as_percent:
        return percent(value)
    return f"{value:.{measure.digits}f}"


def _gap(measure: _Measure, values: Sequence[Value]) -> str:
    """B - A of a measure's two values: percentage points for a rate."""
    a, b = (_number(v) for v in values)
    if a is None or b is None:
        return "-"
    if _is_rate(measure, values[0]) or _is_rate(measure, values[1]):
        return f"{100 * (b - a):+.1f} pp"
    return f"{b - a:+.{measure.digits}f}"


def _measure_rows(reports: Sequence[dict], unit: str) -> list[list[str]]:
    """One row per measure that fits the first report's game shape, one column per ruleset;
    with two rulesets a last column B - A (the difference of the two means; the paired
    intervals are in the tables above)."""
    rows = []
    places = max(len(r["by_place"]) for r in reports)
    for measure in _measures(reports[0]["shape"], places, unit):
        values = [measure.value(r) for r in reports]
        row = [measure.label, *(_cell(measure, v) for v in values)]
        if len(reports) == 2:
            row.append(_gap(measure, values))
        rows.append(row)
    return rows


def _contract_rows(reports: Sequence[dict], unit: str) -> list[list[str]]:
    """The auction by contract: how often it was bid, how often made, and the taker's mean
    result at it; of two rulesets, a row for each under the other (A, then B), so that the
    table stays narrow."""
    names = list(
        dict.fromkeys(c for r in reports for c in (r["auction"] or {}).get("contracts", {}))
    )
    sides = ["A", "B"] if len(reports) == 2 else []
    rows = [["contract", *(["under"] if sides else []), "bid", "made", f"taker's result ({unit})"]]
    for name in names:
        for index, r in enumerate(reports):
            contract = _contracts(r).get(name)
            row = [name if index == 0 else "", *([sides[index]] if sides else [])]
            if contract is None:
                row += ["-", "-", "-"]
            else:
                row += [rate(contract["bid"]), rate(contract["made"]), estimate(contract["taker"])]
            rows.append(row)
    return rows


def _contracts(report: dict) -> dict:
    return report["auction"]["contracts"] if report["auction"] else {}


def _auction_section(reports: Sequence[dict], unit: str, md: bool) -> list[str]:
    if not any(r["auction"] for r in reports):
        return []
    out = _section(
        "The auction by contract (bid: share of hands; made: share of its hands in which "
        "the taker came out ahead; Wilson intervals)",
        md,
    )
    return out + _table(_contract_rows(reports, unit), md)


def _rule_rows(ruleset: Ruleset, report: dict) -> list[list[str]]:
    """One row per rule that fired or paid: the share of hands it fired in (Wilson), the
    times per hand, what it paid per hand (t) and its share of all that rules paid."""
    return [
        [
            key,
            rule_name([ruleset], key),
            rate(rule["fired"]),
            f"{rule['per_hand']:.3f}",
            plain(rule["paid"]),
            percent(rule["share_of_swing"]),
        ]
        for key, rule in sorted(report["rules"].items())
    ]


def _rule_head(unit: str) -> list[str]:
    return ["rule", "name", "fired", "times", f"paid ({unit})", "share"]


_NO_RULE = {"hands": 0.0, "fired": None, "paid": None, "share_of_swing": 0.0}


def _points(e: dict) -> str:
    """A paired difference of shares in percentage points, with its interval."""
    low, high = e["ci95"]
    mean = f"{100 * e['mean']:+.1f} pp"
    return mean if low is None else f"{mean} ± {100 * (high - low) / 2:.1f}"


def _rule_gap_rows(
    rulesets: Sequence[Ruleset],
    reports: Sequence[dict],
    gaps: dict,
    fired_gaps: dict | None = None,
) -> list:
    """Two rulesets: for every rule, how often it fired and what it paid under A and B, and
    the B - A of each (`gaps`: what it paid, by rule, from `Comparison.report`; `fired_gaps`:
    whether it fired, paired, when the hands are); the rules whose payments moved most
    first."""

    def moved(key: str) -> float:
        gap = gaps.get(key)
        return -abs(gap["mean"]) if gap else 0.0

    keys = sorted({key for r in reports for key in r["rules"]}, key=lambda k: (moved(k), k))
    rows = []
    for key in keys:
        a, b = (r["rules"].get(key, _NO_RULE) for r in reports)
        rows.append(
            [
                key,
                rule_name(rulesets, key),
                *(rate(f["fired"]) if f["fired"] else "-" for f in (a, b)),
                _points(fired_gaps[key])
                if fired_gaps and key in fired_gaps
                else f"{100 * (b['hands'] - a['hands']):+.1f} pp",
                *(plain(f["paid"]) if f["paid"] else "-" for f in (a, b)),
                estimate(gaps[key]) if key in gaps else "-",
                *(percent(f["share_of_swing"]) for f in (a, b)),
            ]
        )
    return rows


# the two rule tables of a diff (each within 100 columns): the rule's id, then its columns
_RULE_HEAD = ["rule"]
_RULE_PAID_HEAD = ["A paid", "B paid", "B - A paid", "A share", "B share"]
_RULE_FIRED_HEAD = ["A fired", "B fired", "B - A fired"]


def _games_section(games: dict | None, md: bool) -> list[str]:
    """Whole games (a ruleset that plays several hands): length and winners."""
    if not games:
        return []
    out = _section(
        f"Whole games ({games['games']} played on their own seeds; a shared win counts "
        "for each winner)",
        md,
    )
    rows = [["measure", "value"], ["hands per game", plain(games["hands_per_game"], 2)]]
    rows += [[f"wins, seat {s}", rate(r)] for s, r in enumerate(games["win_rate_by_seat"])]
    if games["unfinished"]:
        rows.append(["games that reached their last hand undecided", str(games["unfinished"])])
    return out + _table(rows, md)


# --- tarot simulate -----------------------------------------------------------------------------


def simulate_report(
    ruleset: Ruleset,
    measures: dict,
    info: RunInfo,
    fmt: str,
    games: dict | None = None,
    picture: str | None = None,
) -> str:
    """The report of `tarot simulate`: `measures` is `RulesetMeasures.report()`, `games`
    `GameMeasures.report()` for a ruleset that plays several hands, `picture` the file of
    its plot (shown in place in Markdown)."""
    if fmt == "json":
        return json.dumps(
            {
                "ruleset": ruleset.id,
                "unit": _unit_json(ruleset),
                "options": ruleset.options,
                "run": _run_json(info),
                "measures": measures,
                "games": games,
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
    out += _auction_section([measures], unit, md)
    out += _section(_measures_title(measures), md)
    out += _table([["measure", ruleset.id], *_measure_rows([measures], unit)], md)
    out += _games_section(games, md)
    out += _section(_RULES_TITLE, md)
    rules = _rule_rows(ruleset, measures)
    out += _table([_rule_head(unit), *rules], md) if rules else ["  none"]
    out += _picture(picture, f"{ruleset.id}: net result per hand by seat", md)
    return "\n".join(out)


def _picture(path: str | None, caption: str, md: bool) -> list[str]:
    """The plot in its place: an image in Markdown, its file name in text."""
    if path is None:
        return []
    if md:
        return ["", f"![{escape(caption)}]({path.replace(' ', '%20')})"]
    return ["", f"Picture: {path}"]


_RULES_TITLE = (
    "Rules that fired (share of hands [Wilson 95%], times per hand) and what they paid "
    "(per hand, t 95%; share of all that rules paid)"
)


def _measures_title(measures: dict) -> str:
    if measures["shape"]["taker_against_defenders"]:
        return "Game measures (a taker against defenders; rates with Wilson 95% intervals)"
    if measures["shape"].get("partners"):
        return "Game measures (partners, a side winning a hand as one; Wilson 95% intervals)"
    return "Game measures (each for himself)"


def _run_json(info: RunInfo) -> dict:
    return {
        "seed": info.seed,
        "hands_asked": info.hands_asked,
        "agents": list(info.agents),
        "jobs": info.jobs,
        "cluster": info.cluster,
        "backend": info.engine,
        "interrupted": info.interrupted,
        "options": dict(info.options),
    }


# --- tarot diff A B --hands N -------------------------------------------------------------------


def side_name(ruleset: Ruleset, options: tuple[tuple[str, str], ...] = ()) -> str:
    """A ruleset's name in a report's column: its id, and the readings chosen on the command
    line after it (`NAME [OPTION=READING]`)."""
    if not options:
        return ruleset.id
    return f"{ruleset.id} [{', '.join(f'{name}={reading}' for name, reading in options)}]"


def table_report(
    a: Ruleset,
    b: Ruleset,
    targets: tuple[str, str],
    result: dict,
    info: RunInfo,
    fmt: str,
    picture: str | None = None,
    b_options: tuple[tuple[str, str], ...] = (),
) -> str:
    """The at-the-table half of a diff: `result` is `Comparison.report()`, `picture` the file
    of its plot (shown in place in Markdown), `b_options` the readings `--option` chose for B
    (named in B's column, so that A and B of one ruleset stay apart)."""
    name_a, name_b = a.id, side_name(b, b_options)
    unit = units([("A", a), ("B", b)])
    summary = summarize(a, b, result, unit)
    if fmt == "json":
        return json.dumps(
            {
                "a": a.id,
                "b": b.id,
                "b_options": dict(b_options),
                "unit": {"a": _unit_json(a), "b": _unit_json(b)},
                "run": _run_json(info),
                "summary": summary.as_dict(),
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
    out += ["", f"A is {name_a}, B is {name_b}.", ""]
    out += summary.lines(md)
    out += _section(_net_title(unit), md)
    label = "B - A (paired)" if result["paired"] else "B - A (unpaired)"
    seats = max(len(result["a"]["by_seat"]), len(result["b"]["by_seat"]))
    rows = [["seat", "A", "B", label]]
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
        rows = [["place", "A", "B", label]]
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
            f"Hands whose result differs: {percent(differing)} ({count} of {hands});",
            f"mean |B - A| per seat and hand ({unit}): {plain(result['mean_abs_difference'])};",
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
    out += _auction_section([result["a"], result["b"]], unit, md)
    out += _section(_measures_title(result["a"]) + "; B - A of a rate in percentage points, pp", md)
    out += _table(
        [
            ["measure", "A", "B", "B - A"],
            *_measure_rows([result["a"], result["b"]], unit),
        ],
        md,
    )
    rules = _rule_gap_rows(
        [a, b],
        [result["a"], result["b"]],
        result["rule_differences"],
        result.get("fired_differences"),
    )
    paired = result["paired"]
    out += _section(
        f"Rules paid per hand ({unit}, t 95%; B - A {'paired' if paired else 'of the means'}), "
        "largest change first",
        md,
    )
    named = md  # Markdown has room for the rules' names; the text lists them after the tables
    paid = [[*row[: 2 if named else 1], *row[5:]] for row in rules]
    fired_gaps = result.get("fired_differences") or {}
    by_firing = sorted(rules, key=lambda row: -abs(fired_gaps.get(row[0], {"mean": 0.0})["mean"]))
    fired = [[*row[: 2 if named else 1], *row[2:5]] for row in by_firing]
    name = ["name"] if named else []
    out += _table([[_RULE_HEAD[0], *name, *_RULE_PAID_HEAD], *paid], md) if rules else ["  none"]
    out += _section(
        f"Rules fired, share of hands (Wilson 95%; B - A in pp{', paired' if paired else ''}), "
        "largest change first",
        md,
    )
    out += _table([[_RULE_HEAD[0], *name, *_RULE_FIRED_HEAD], *fired], md) if rules else ["  none"]
    if rules and not named:
        out += ["", "Rule names:"]
        for row in rules:
            if row[1] != row[0]:
                out += textwrap.wrap(
                    f"{row[0]}: {row[1]}", 100, initial_indent="  ", subsequent_indent="    "
                )
    caption = "A and B, and the paired B - A, per seat and per rule whose payments changed"
    out += _picture(picture, caption if result["paired"] else "A and B per seat", md)
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
    label: str = ""  # the line's name in the report (the variant's id unless given)

    @property
    def name(self) -> str:
        return self.label or self.variant.id


def family_report(
    base: Ruleset,
    lines: Sequence[FamilyLine],
    info: RunInfo,
    fmt: str,
    title: str = "",
) -> str:
    """Several rulesets (the variants of a family, or the readings of one option) each
    against `base` on the same deals, in one table sorted by how much each moves results;
    `title` names what is compared (the family's by default)."""
    ordered = sorted(lines, key=_change_size, reverse=True)
    title = title or f"Family of {base.id}: each variant against it"
    if fmt == "json":
        return json.dumps(
            {
                "base": base.id,
                "unit": _unit_json(base),
                "run": _run_json(info),
                "variants": [
                    {
                        "variant": line.name,
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
    kind = "reading" if lines and all(line.label for line in lines) else "variant"
    measured_in = units([(r.id, r) for r in (base, *(line.variant for line in ordered))])
    explained = (
        f"(sorted by how much each {kind} moves results: mean |B - A|, the mean per seat and "
        f"hand of the paired difference, in {measured_in}; differing: the hands whose result "
        "differs; dealer: the dealer's paired B - A; spread: the B - A of the standard "
        "deviation of the seats' results in a hand, i.e. of what is at stake)"
    )
    out = [f"## {title}, {info.heading(hands)}"] if md else [f"{title}:", info.heading(hands)]
    out += [explained] if md else textwrap.wrap(explained, 100)
    out.append("")
    shaped = _family_measures(GameShape.of(base).as_dict(), base.unit.plural)
    rows = [
        [kind, "differing", "mean |B - A|", "dealer B - A", "spread B - A"]
        + [f"{measure.label} B - A" for measure in shaped]
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
        gaps = [_gap(m, [m.value(r["a"]), m.value(r["b"])]) for m in shaped]
        rows.append([line.name, percent(r["differing_share"]), *cells, *gaps])
    out += _table(rows, md)
    if shaped:
        said = "; ".join(f"{m.label}: {m.meaning}" for m in shaped)
        out += ["", *([said] if md else textwrap.wrap(f"({said})", 100))]
    out += _section(
        f"What each {kind} changes, the rule paid most differently, the clearest effect",
        md,
    )
    for line in ordered:
        summary = summarize(base, line.variant, line.result, line.variant.unit.plural)
        said = summary.effects[0].words(summary.unit) if summary.effects else "no clear effect"
        changed = "; ".join(line.changed) or "(no option)"
        rule = _most_changed_rule(line.result["rule_differences"])
        if md:
            out.append(f"- **{line.name}** ({changed}); {rule}; {said}")
        else:
            out.append(f"  {line.name}")
            for part in (changed, f"rule paid most differently: {rule}", said):
                out += textwrap.wrap(part, 100, initial_indent="    ", subsequent_indent="      ")
    return "\n".join(out)


def _family_measures(shape: dict, unit: str) -> list[_Measure]:
    """The columns a family's table adds for its game's shape, each B - A of the two means:
    the contracts made and the taker's result where a taker plays against defenders, the
    dealer's side's share of the wins where partners play without an auction."""
    if shape["taker_against_defenders"]:
        return [
            _Measure(
                "made",
                _in_auction("made"),
                meaning="the share of contracts taken that the taker made, in percentage points",
            ),
            _Measure(
                "taker",
                _in_auction("taker"),
                signed=True,
                meaning=f"the taker's mean result ({unit}), difference of the means",
            ),
        ]
    if shape.get("partners"):
        return [
            _Measure(
                "dealer's side",
                _dealer_side_wins,
                meaning="the share of hands won that the dealer's side won, in percentage points",
            )
        ]
    return []


def _most_changed_rule(differences: dict) -> str:
    """The rule whose payments per hand moved most, with its B - A; "-" when none moved."""
    moved = [(abs(e["mean"]), rule) for rule, e in differences.items() if e["mean"]]
    if not moved:
        return "-"
    rule = min(moved, key=lambda item: (-item[0], item[1]))[1]
    return f"{rule} {estimate(differences[rule])}"


def _change_size(line: FamilyLine) -> float:
    e = line.result["mean_abs_difference"]
    return -1.0 if e is None else e["mean"]
