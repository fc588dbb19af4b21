"""Hands played for the Python API: `play` (one hand), `simulate` (many), `diff` (two rulesets).

Where it sits: a thin layer over what the command line runs. `play` deals and plays through
`tarot.engine.game.play_hands`, as `tarot play --hand N` does; `simulate` and `diff`
plan their hands as `tarot simulate` and `tarot diff --hands` do
(`tarot.measure.runner`), fold them into the same measures
(`tarot.measure.measures`, `tarot.measure.comparison`) and give back the numbers
the command line prints, as data, with one row per hand (the rows of `--out`). The built-in
players may play in worker processes (`jobs`), started so that a call at the top level of a
script is safe (`tarot.api.processes`); a user's own agents play in this process.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from tarot.api.agents import AgentsGiven, Lineup
from tarot.api.hand import State
from tarot.api.processes import GUARD_HINT, refuse_in_a_starting_worker, script_main, start_method
from tarot.api.rulesets import Ruleset, as_ruleset, check_deal
from tarot.core.summary import HandSummary, rule_keys
from tarot.engine.game import play_hand, play_hands, plays_sittings
from tarot.measure.comparison import Comparison
from tarot.measure.diff import diff_loaded, render
from tarot.measure.games import play_games
from tarot.measure.measures import RulesetMeasures
from tarot.measure.report import RunInfo, simulate_report, table_report
from tarot.measure.rows import hand_row, row_columns
from tarot.measure.runner import HandResults, RulesetSpec, RunPlan, Table, WorkerDied, run_hands

RulesetGiven = Ruleset | str | Path


def play(
    ruleset: RulesetGiven,
    seed: int = 1,
    agents: AgentsGiven = None,
    hand: int = 1,
    deal: Mapping | None = None,
) -> State:
    """Hand `hand` of the game seeded `seed`, played to its end by `agents` (random players
    when not given): the hand `tarot play RULESET --seed SEED --hand HAND --agents ...`
    plays; with `deal`, dealt as that chosen deal lays it out (`Ruleset.new_hand`), as
    `tarot play ... --deal FILE` plays it. Its `record()`, `payments`, `returns()` and
    `transcript()` tell what happened."""
    chosen = as_ruleset(ruleset)
    lineup = Lineup.of(agents, chosen.players)
    check_deal(seed, hand)
    players = chosen.players
    if deal is None:
        played = next(
            play_hands(chosen.compiled, seed, lambda n: lineup.seat(seed, n, players), [hand])
        )
    else:
        dealt = chosen.new_hand(seed, hand, deal).engine
        played = play_hand(dealt, lineup.seat(seed, hand, players))
    return State(chosen, played, seed, lineup.record_names(seed, hand))


@dataclass
class Simulation(Sequence[dict]):
    """The hands of `simulate`, one row per hand (the columns of `tarot simulate --out`:
    `net_0`, `net_1`... per seat, `dealer`, `winner`, `fired.RULE`...), so that
    `pandas.DataFrame(simulation)` is the table; `summary`, the measures `tarot simulate`
    reports (`report()` prints them as it does)."""

    ruleset: Ruleset
    rows: list[dict]
    summary: dict
    games: dict | None
    info: RunInfo = field(repr=False)

    @overload
    def __getitem__(self, index: int) -> dict: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict]: ...
    def __getitem__(self, index: int | slice) -> dict | list[dict]:
        return self.rows[index]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[dict]:
        return iter(self.rows)

    def report(self, format: str = "text") -> str:
        """The report `tarot simulate` prints (`format`: text, markdown or json)."""
        return simulate_report(self.ruleset.compiled, self.summary, self.info, format, self.games)

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (pandas must be installed)."""
        return _pandas().DataFrame(self.rows)


@dataclass
class Diff:
    """Two rulesets compared: `paper`, the rules as written (what `tarot diff A B --format
    json` prints), and with `hands`, `table`: the same deals played under both, the numbers
    `tarot diff A B --hands N` reports (paired differences per seat and place, by rule...);
    `rows`, one per hand and ruleset."""

    a: Ruleset
    b: Ruleset
    paper: dict
    table: dict | None
    rows: list[dict]
    info: RunInfo | None = field(repr=False)

    def report(self, format: str = "text") -> str:
        """The report `tarot diff A B [--hands N]` prints (text, markdown or json)."""
        paper = diff_loaded(self.a.compiled, self.b.compiled)
        if self.table is None or self.info is None:
            return render(paper, format)
        table = table_report(
            self.a.compiled,
            self.b.compiled,
            (_target(self.a), _target(self.b)),
            self.table,
            self.info,
            format,
            None,
            tuple(sorted(self.b.chosen.items())),
        )
        if format == "json":
            return json.dumps({"paper": self.paper, **json.loads(table)}, indent=1)
        return f"{render(paper, format)}\n\n{table}"

    def to_pandas(self) -> Any:
        """The rows (one per hand and ruleset) as a pandas DataFrame."""
        return _pandas().DataFrame(self.rows)


def simulate(
    ruleset: RulesetGiven,
    hands: int = 1000,
    agents: AgentsGiven = None,
    seed: int = 1,
    jobs: int = 1,
) -> Simulation:
    """Play hands 1..`hands` of the game seeded `seed` (each from zero totals, or each a
    whole sitting for a ruleset whose hands carry state over), as `tarot simulate RULESET
    --hands HANDS --seed SEED --agents ... --jobs JOBS` plays them; for a ruleset played in
    games, whole games too, as many hands again (built-in players only)."""
    chosen = as_ruleset(ruleset)
    lineup = Lineup.of(agents, chosen.players)
    plan = _plan([chosen], hands, lineup, seed, jobs)
    measures = RulesetMeasures.of(chosen.compiled)
    rows = _Rows([chosen], plan)
    for results in _run(plan, [chosen], lineup, jobs):
        measures.add(results[0])
        rows.add(results)
    games = None
    compiled = chosen.compiled
    if compiled.game is not None and not plays_sittings(compiled) and lineup.builtin:
        played, _stopped = play_games(compiled, seed, lineup.builtin, measures.hands)
        games = played.report() if played.games else None
    info = _info(plan, jobs, [chosen], tuple(sorted(chosen.chosen.items())))
    return Simulation(chosen, rows.rows, measures.report(), games, info)


def diff(
    a: RulesetGiven,
    b: RulesetGiven,
    hands: int = 0,
    agents: AgentsGiven = None,
    seed: int = 1,
    jobs: int = 1,
) -> Diff:
    """A against B: the rules as written, and with `hands`, the same deals played under both
    with the same players and seeds, as `tarot diff A B --hands HANDS` does (B's readings
    are those it was loaded with: `tarot.load(name, options=...)`)."""
    first, second = as_ruleset(a), as_ruleset(b)
    paper = json.loads(render(diff_loaded(first.compiled, second.compiled), "json"))
    if not hands:
        return Diff(first, second, paper, None, [], None)
    lineup = Lineup.of(agents, first.players)
    Lineup.of(agents, second.players)  # the same players must fit B's table too
    plan = _plan([first, second], hands, lineup, seed, jobs)
    comparison = Comparison(first.compiled, second.compiled)
    rows = _Rows([first, second], plan)
    for results in _run(plan, [first, second], lineup, jobs):
        comparison.add(*results)
        rows.add(results)
    info = _info(plan, jobs, [first, second])
    return Diff(first, second, paper, comparison.report(), rows.rows, info)


def _positive(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number from 1, not {value!r}")
    return value


def _plan(rulesets: Sequence[Ruleset], hands: int, lineup: Lineup, seed: int, jobs: int) -> RunPlan:
    _positive("hands", hands)
    _positive("jobs", jobs)
    check_deal(seed, 1)
    if lineup.builtin is None and jobs != 1:
        raise ValueError(
            "agents of your own play in this process: give jobs=1 (worker processes seat "
            "only the built-in players)"
        )
    specs = tuple(RulesetSpec(r.target, tuple(sorted(r.chosen.items()))) for r in rulesets)
    agents = lineup.builtin or lineup.labels
    return RunPlan(specs, seed, hands, agents, 1, "scalar")


def _run(
    plan: RunPlan, rulesets: Sequence[Ruleset], lineup: Lineup, jobs: int
) -> Iterator[HandResults]:
    """Each hand's results under every ruleset, in hand order."""
    compiled = [r.compiled for r in rulesets]
    if lineup.builtin is not None:
        if jobs > 1:
            refuse_in_a_starting_worker()
        start = start_method()
        try:
            yield from run_hands(plan, compiled, jobs, start=start)
        except WorkerDied as error:
            if start == "spawn" and script_main():
                raise WorkerDied(f"{error}; {GUARD_HINT}") from None
            raise
        return
    table = Table(plan, compiled, lineup.seat)
    everyone = tuple(range(len(compiled)))
    for number in range(plan.first, plan.first + plan.hands):
        yield table.play_hand(number, everyone)


class _Rows:
    """The rows of `--out` for the hands of a plan, kept in a list."""

    def __init__(self, rulesets: Sequence[Ruleset], plan: RunPlan) -> None:
        self.rulesets = [r.compiled for r in rulesets]
        self.keys = plan.keys(self.rulesets)
        self.columns = row_columns(self.rulesets, self.keys)
        self.rules = [rule_keys(r) for r in self.rulesets]
        self.rows: list[dict] = []

    def add(self, results: Sequence[HandSummary]) -> None:
        for ruleset, key, rules, hand in zip(
            self.rulesets, self.keys, self.rules, results, strict=True
        ):
            self.rows.append(hand_row(self.columns, ruleset, key, rules, hand))


def _info(
    plan: RunPlan,
    jobs: int,
    rulesets: Sequence[Ruleset],
    options: tuple[tuple[str, str], ...] = (),
) -> RunInfo:
    return RunInfo.of_plan(plan, jobs, [r.compiled for r in rulesets], options)


def _target(ruleset: Ruleset) -> str:
    """The ruleset as a command names it, with the readings it was loaded with."""
    chosen = sorted(ruleset.chosen.items())
    return " ".join([ruleset.target, *(f"--option {name}={value}" for name, value in chosen)])


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise ImportError(
            "to_pandas() needs pandas, which tarot does not install: pip install pandas "
            "(or build the table yourself: every row is a dict)"
        ) from None
    return pandas
