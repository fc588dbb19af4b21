"""Strength: how much one kind of player wins against another, on paired deals.

Prints numbers; asserts nothing.

    python benchmarks/strength.py [--rulesets marolles-1637[,...]] [--hands N] [--seed S]
        [--jobs J] [--matchups A/B[,A/B...]] [--magmacrunch DIR] [--openspiel DIR]
        [--results FILE] [--ratings]

A matchup A/B seats agent A in one seat and agent B in all the others, and plays each deal
once with A in every seat in turn, so that no seat's advantage counts for or against A. For
each matchup it prints A's mean net result per hand (in the ruleset's unit, 95% interval over
the deals; zero is parity), then the mean time each agent took per decision that had more than one
legal action, by kind of decision. In a game that is not zero-sum (only a declarer scores,
or every seat pays into an account), A's net alone can be below zero while the B players
lose far more: there it also prints A less the B seats' mean in the same hands, paired deal
by deal, and that line says which player is stronger. Agents are named as on the command line
(`search:samples=20`); seeds are those of `tarot simulate`, so a hand can be replayed with
`tarot play RULESET --seed S --hand N --agents ...`.

An outside player may stand for A or B: `magmacrunch`, the computer player of the French
Tarot program on PyPI (`benchmarks/outside_players.py`; install it apart with
`pip install --no-deps --target DIR magmacrunch-tarot` and pass `--magmacrunch DIR`). It plays
`french-tarot` only, with the readings that program plays (`speed.FRENCH_READINGS`). The
table against it, with both seatings:

    python benchmarks/strength.py --rulesets french-tarot --magmacrunch DIR --hands 200 \
        --matchups search/magmacrunch,magmacrunch/search,heuristic/magmacrunch,\
magmacrunch/heuristic,random/magmacrunch

OpenSpiel's tarok bots stand in the same way (`benchmarks/openspiel_players.py`):
`openspiel-mcts` (its MCTS bot on OpenSpiel's own game state, which sees every card) and
`openspiel-ismcts` (its ISMCTS bot searching our engine's hand), each with
`:simulations=N:c=X`; install open_spiel apart (`pip install --target DIR open_spiel==2.0.2`)
and pass `--openspiel DIR`. They play `slovenian-tarok-openspiel` and
`slovenian-tarok-3-openspiel`; when one plays, every deal of the matchup is dealt by OpenSpiel
from a seed of ours and handed to our engine. Decisions where OpenSpiel and our ruleset part
are made by our heuristic player and counted. The table against them:

    python benchmarks/strength.py --rulesets slovenian-tarok-openspiel --openspiel DIR \
        --hands 100 --jobs 2 --matchups search/openspiel-mcts,heuristic/openspiel-mcts
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine

import ratings
from openspiel_players import (
    OpenSpiel,
    check_ruleset,
    is_openspiel,
    load_openspiel,
    openspiel_agent,
    openspiel_hand,
    parse_openspiel,
)
from outside_players import MAGMACRUNCH, MagmacrunchAgent
from speed import FRENCH_READINGS, magmacrunch_rules

from tarot.compile.loader import load_ruleset
from tarot.core.agent import Agent
from tarot.core.ruleset import Ruleset
from tarot.engine.game import deal_hand
from tarot.errors import RulesetError
from tarot.measure.runner import available_cores
from tarot.measure.statistics import RunningMean
from tarot.players.lineup import LineupError, agent_seed, canonical_agent, seat_agents

DEFAULT_MATCHUPS = "search/random,search/heuristic,heuristic/random"

# (agent, decision kind) -> [count, seconds, CPU seconds]
Timings = dict[tuple[str, str], list[float]]


@dataclass
class Deal:
    """What one deal of one matchup gave: A's net in each seat, the agents' timings, and
    for each outside player the decisions it left to its fallback and those it was asked."""

    number: int
    a_net: list[float]
    b_net: list[float] = field(default_factory=list)  # per seating, the B seats' mean net
    zero_sum: bool = True  # every hand's results summed to zero
    timings: Timings = field(default_factory=dict)
    fallbacks: dict[str, list[int]] = field(default_factory=dict)


class _Timed:
    """An agent whose decisions with a real choice are timed."""

    def __init__(self, agent, label: str, timings: Timings) -> None:
        self.agent, self.label, self.timings = agent, label, timings

    def choose(self, state, seat: int) -> str:
        if len(state.decision.choices) == 1:
            return self.agent.choose(state, seat)
        kind = state.decision.kind
        start, cpu = time.perf_counter(), time.process_time()
        action = self.agent.choose(state, seat)
        tally = self.timings.setdefault((self.label, kind), [0, 0.0, 0.0])
        tally[0] += 1
        tally[1] += time.perf_counter() - start
        tally[2] += time.process_time() - cpu
        return action


def play_deal(
    ruleset: Ruleset,
    seed: int,
    number: int,
    a: str,
    b: str,
    outside: str | None = None,
    openspiel: str | None = None,
) -> Deal:
    """Deal `number` played once with A in each seat and B in the others (`outside`: the
    directory magmacrunch-tarot is installed in, when it plays; `openspiel`: open_spiel's,
    when one of its bots plays, which then deals)."""
    deal = Deal(number, [])
    players = ruleset.players
    bots = _openspiel(openspiel) if is_openspiel(a) or is_openspiel(b) else None
    for a_seat in range(players):
        kinds = [a if seat == a_seat else b for seat in range(players)]
        agents = _seat(kinds, seed, number, ruleset, outside, bots)
        timed = [
            _Timed(agent, kind, deal.timings) for agent, kind in zip(agents, kinds, strict=True)
        ]
        if bots is None:
            state = deal_hand(ruleset, seed, number)
        else:
            state = openspiel_hand(ruleset, bots, seed, number)
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(timed[seat].choose(state, seat))
        returns = state.returns()
        deal.a_net.append(returns[a_seat])
        others = [net for seat, net in enumerate(returns) if seat != a_seat]
        deal.b_net.append(sum(others) / len(others))
        deal.zero_sum = deal.zero_sum and abs(sum(returns)) < 1e-9
        for agent, kind in zip(agents, kinds, strict=True):
            if is_openspiel(kind):
                tally = deal.fallbacks.setdefault(kind, [0, 0])
                tally[0] += agent.fallbacks  # type: ignore[attr-defined]
                tally[1] += agent.asked  # type: ignore[attr-defined]
    return deal


def _seat(
    kinds: list[str],
    seed: int,
    number: int,
    ruleset: Ruleset,
    outside: str | None,
    bots: OpenSpiel | None,
) -> list[Agent]:
    """Our agents from their texts, the outside players where they are named."""
    players = ruleset.players
    agents = seat_agents(
        [kind if _ours(kind) else "random" for kind in kinds], seed, number, players
    )
    for seat, kind in enumerate(kinds):
        if kind == MAGMACRUNCH:
            agents[seat] = MagmacrunchAgent(_outside(outside), agent_seed(seed, number, seat))
        elif is_openspiel(kind):
            assert bots is not None
            agents[seat] = openspiel_agent(
                kind, bots, ruleset, seed, number, agent_seed(seed, number, seat)
            )
    return agents


def _ours(kind: str) -> bool:
    return kind != MAGMACRUNCH and not is_openspiel(kind)


_rulesets: dict[tuple[str, bool], Ruleset] = {}
_outside_rules: dict[str | None, object] = {}
_openspiels: dict[str | None, OpenSpiel] = {}


def _load(name: str, outside: bool = False) -> Ruleset:
    """A ruleset, with the readings the outside player plays when it takes part."""
    if (name, outside) not in _rulesets:
        _rulesets[name, outside] = load_ruleset(name, FRENCH_READINGS if outside else None)
    return _rulesets[name, outside]


def _outside(directory: str | None):
    if directory not in _outside_rules:
        rules = magmacrunch_rules(directory)
        if rules is None:
            raise LineupError(
                f"{MAGMACRUNCH}: magmacrunch-tarot is not installed"
                + (f" in {directory}" if directory else "")
                + " (pip install --no-deps --target DIR magmacrunch-tarot, then --magmacrunch DIR)"
            )
        _outside_rules[directory] = rules
    return _outside_rules[directory]


def _openspiel(directory: str | None) -> OpenSpiel:
    if directory not in _openspiels:
        bots = load_openspiel(directory)
        if bots is None:
            raise LineupError(
                "openspiel: open_spiel is not installed"
                + (f" in {directory}" if directory else "")
                + " (pip install --target DIR open_spiel==2.0.2, then --openspiel DIR)"
            )
        _openspiels[directory] = bots
    return _openspiels[directory]


def _task(job: tuple[str, int, int, str, str, str | None, str | None]) -> Deal:
    name, seed, number, a, b, outside, openspiel = job
    plays = MAGMACRUNCH in (a, b)
    return play_deal(_load(name, plays), seed, number, a, b, outside, openspiel)


def run_matchup(
    name: str,
    seed: int,
    hands: int,
    a: str,
    b: str,
    jobs: int,
    outside: str | None = None,
    per_deal: list[float] | None = None,
    openspiel: str | None = None,
    fallbacks: dict[str, list[int]] | None = None,
    relative: list[float] | None = None,
) -> tuple[RunningMean, Timings]:
    """A's mean net per hand over the deals (each deal's mean over A's seats), and timings;
    each deal's mean also added to `per_deal`, in the deals' order, when given, and the
    outside players' fallback counts to `fallbacks`. Where the game is not zero-sum (a
    hand's results need not sum to zero), A's net alone says little (every seat may lose,
    as when only a declarer scores): `relative` gets each deal's A less B, A's net less the
    B seats' mean in the same seating, in the deals' order, and stays empty while every hand
    summed to zero."""
    tasks = [(name, seed, number, a, b, outside, openspiel) for number in range(1, hands + 1)]
    result: RunningMean = RunningMean()
    timings: Timings = {}
    bar = tqdm(total=hands, unit="deal", desc=f"{name} {a} vs {b}", file=sys.stderr)
    if jobs > 1:
        pool = multiprocessing.get_context("spawn").Pool(jobs)
        deals = pool.imap(_task, tasks)
    else:
        pool, deals = None, map(_task, tasks)
    try:
        gaps: list[float] = []
        zero_sum = True
        for deal in deals:
            result.add(sum(deal.a_net) / len(deal.a_net))
            gaps.append(sum(deal.a_net) / len(deal.a_net) - sum(deal.b_net) / len(deal.b_net))
            zero_sum = zero_sum and deal.zero_sum
            if per_deal is not None:
                per_deal.append(sum(deal.a_net) / len(deal.a_net))
            _add_timings(timings, deal.timings)
            if fallbacks is not None:
                for kind, counts in deal.fallbacks.items():
                    tally = fallbacks.setdefault(kind, [0, 0])
                    tally[0] += counts[0]
                    tally[1] += counts[1]
            bar.update()
    finally:
        bar.close()
        if pool is not None:
            pool.terminate()
            pool.join()
    if relative is not None and not zero_sum:
        relative.extend(gaps)
    return result, timings


def result_row(
    name: str,
    seed: int,
    a: str,
    b: str,
    per_deal: list[float],
    timings: Timings,
    relative: list[float] | None = None,
) -> dict:
    """What `--results` keeps of a matchup: its deals' results for A, and each agent's CPU
    seconds per card decision (`play`); in a game that is not zero-sum, also each deal's A
    less B (`a_less_b`), by which `ratings.py` says who won the deal."""
    cpu = {
        agent: seconds / count
        for (agent, kind), (count, _clock, seconds) in timings.items()
        if kind == "play" and count
    }
    row = {"ruleset": name, "seed": seed, "a": a, "b": b, "a_net": per_deal, "play_cpu": cpu}
    if relative:
        row["a_less_b"] = relative
    return row


def _add_timings(total: Timings, more: Timings) -> None:
    for key, counts in more.items():
        tally = total.setdefault(key, [0, 0.0, 0.0])
        for i, value in enumerate(counts):
            tally[i] += value


def _interval(result: RunningMean) -> str:
    estimate = result.estimate()
    if estimate.half_width is None:
        return f"{estimate.mean:+.2f}"
    verdict = "A stronger" if estimate.mean > 0 else "B stronger"
    verdict = verdict if estimate.excludes_zero() else "no clear difference"
    return f"{estimate.mean:+.2f} ± {estimate.half_width:.2f}  ({verdict})"


def _canonical(text: str) -> str:
    text = text.strip()
    if is_openspiel(text):
        try:
            parse_openspiel(text)
        except ValueError as error:
            raise LineupError(f"--matchups: {error}") from None
        return text
    return text if text == MAGMACRUNCH else canonical_agent(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default="marolles-1637", help="comma-separated names")
    parser.add_argument("--hands", type=int, default=300, help="deals per matchup")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=available_cores())
    parser.add_argument("--matchups", default=DEFAULT_MATCHUPS, help="A/B,A/B...")
    parser.add_argument(
        "--magmacrunch", help="the directory magmacrunch-tarot is installed in (--target)"
    )
    parser.add_argument(
        "--openspiel",
        help="the directory open_spiel is installed in (--target, a venv or its site-packages)",
    )
    parser.add_argument(
        "--results",
        help="append each matchup's per-deal results to this file (JSON lines), "
        "for benchmarks/ratings.py",
    )
    parser.add_argument(
        "--ratings",
        action="store_true",
        help="also rate every player from this run's deals (benchmarks/ratings.py; openskill)",
    )
    args = parser.parse_args(argv)
    try:
        matchups = []
        for pair in args.matchups.split(","):
            a, slash, b = pair.partition("/")
            if not slash:
                raise LineupError(f"--matchups: {pair!r} is not A/B")
            matchups.append((_canonical(a), _canonical(b)))
        outside = any(MAGMACRUNCH in pair for pair in matchups)
        if outside:
            _outside(args.magmacrunch)
        bots = any(is_openspiel(agent) for pair in matchups for agent in pair)
        if bots:
            _openspiel(args.openspiel)
        for name in args.rulesets.split(","):
            ruleset = _load(name, outside)
            if bots:
                check_ruleset(ruleset)
    except (LineupError, RulesetError, ValueError) as error:
        print(error, file=sys.stderr)
        return 1
    print(
        f"Strength: {args.hands} deals per matchup, seed {args.seed}, {args.jobs} job(s); "
        "A in one seat, B in the others, A rotated through every seat on each deal"
    )
    if outside:
        readings = ", ".join(f"{option}={reading}" for option, reading in FRENCH_READINGS.items())
        print(f"with {MAGMACRUNCH} playing: each ruleset read with {readings}")
    rows: list[dict] = []
    for name in args.rulesets.split(","):
        unit = _load(name, outside).unit.plural
        print(f"\n{name}: A's mean net result per hand ({unit}, 95% interval)")
        all_timings: Timings = {}
        for a, b in matchups:
            per_deal: list[float] = []
            fallbacks: dict[str, list[int]] = {}
            relative: list[float] = []
            result, timings = run_matchup(
                name,
                args.seed,
                args.hands,
                a,
                b,
                args.jobs,
                args.magmacrunch,
                per_deal,
                args.openspiel,
                fallbacks,
                relative,
            )
            print(f"  {a:>28} vs {b:<28} {_interval(result)}", flush=True)
            if relative:
                gap = RunningMean()
                for value in relative:
                    gap.add(value)
                print(
                    f"  {'':>28}    not zero-sum: A less B's mean in the same hands "
                    f"{_interval(gap)}",
                    flush=True,
                )
            for kind, (fell, asked) in fallbacks.items():
                print(
                    f"  {'':>28}    {kind}: {fell} of its {asked} decisions made by the "
                    "heuristic player (OpenSpiel and the ruleset parted)"
                )
            row = result_row(name, args.seed, a, b, per_deal, timings, relative)
            rows.append(row)
            if args.results:
                with open(args.results, "a", encoding="utf-8") as file:
                    file.write(json.dumps(row) + "\n")
            _add_timings(all_timings, timings)
        print(
            f"\n{name}: mean time per decision with a choice (seconds of the clock / of the "
            "process's CPU, which a busy machine inflates less)"
        )
        for agent in sorted({agent for agent, _kind in all_timings}):
            parts = [
                f"{kind} {seconds / count:.4f}/{cpu / count:.4f} (n={count:.0f})"
                for (label, kind), (count, seconds, cpu) in sorted(all_timings.items())
                if label == agent
            ]
            print(f"  {agent:>28}: " + ", ".join(parts))
    if args.ratings:
        print()
        return ratings.report(ratings.load_rows_from(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
