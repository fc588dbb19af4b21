"""Speed: loading, random hands, a simulation, and the engine's targets, measured in one run.

How long loading, checking and compiling each built-in ruleset takes, how many random hands a
second one core plays, how many a simulation plays over all cores, and the targets of the
engine's rebuild (issue 13), each beside its target. Prints numbers; asserts nothing.

    python benchmarks/speed.py [--hands N] [--rulesets A,B] [--simulate N] [--marolles N]
        [--batch N] [--batch-rulesets N] [--batch-names A,B] [--french N] [--search N]
        [--search-agent SPEC] [--search-run N] [--family-search N] [--family-names A,B]
        [--default-simulate N] [--family-report N] [--rules-runs N] [--fresh-runs N]
        [--magmacrunch DIR] [--installed]

A count of 0 skips its part. The heading names the engine measured: this checkout's, or with
`--installed` the `tarot` the running Python imports (the compiled build installed from its
wheel, see docs/results/speed.md), and whether it is compiled with mypyc or pure Python.
The targets:

- random Marolles hands in the batch back end (`tarot.batch`, many hands at once),
  against the plain program in the same run, one core: at least 3x; and every built-in
  ruleset run by the batch back end, its batch figure against its scalar one (both making
  the runner's hand summaries): at least 5x each, a ruleset it refuses counting as missing
  the target (issue 29). The batch sizes used are printed;
- `tarot simulate marolles-1637 --hands 20000` with no flags, as a newcomer runs it (every
  core, the default back end, the process's start and the report included), by the clock,
  against the plain program playing as many hands on one core in this process: at least 3x
  (issue 29; `--default-simulate N`). A command measured (this one and the family report
  below) runs once untimed on fewer hands first, and keeps its modules' bytecode (in a
  folder of the run, `PYTHONPYCACHEPREFIX`, even under PYTHONDONTWRITEBYTECODE), as an
  installed package has it;
- a study's search hand in each family (Marolles, French Tarot, Slovenian Tarok, Hungarian
  Tarokk, Minchiate; `--family-search N`): N units of its first ruleset played with search
  players in every seat as a study plays them (the back end the commands choose, the hands
  side by side, `Table.play`), CPU time a hand (a unit of a ruleset that plays sittings is
  a whole sitting, its hands counted), and its ratio to Marolles': at most 1.5x (issue 29);
- the Marolles family report with search players (`--family-report N`): `tarot diff
  --family marolles-1637 --hands N --agents search` run as a command on every core, its
  clock time scaled to 1,000 deals: at most 20 minutes on the 2-core machine (issue 29);
- random Marolles hands, engine against `plain_marolles.py` (a plain hand-written program of
  the same game, proved the same by `check_plain_marolles.py`), one core, same process: at
  least 0.5x;
- random French Tarot hands, the engine's `french-tarot` (and, with `--batch`, the batch
  back end's) against the hand-written French Tarot of the PyPI package magmacrunch-tarot,
  random legal moves in both: at least 2x. That
  package is not a dependency: it installs a module `tarot` and a `tarot` command of its own,
  which replace this project's, so install it apart
  (`pip install --no-deps --target DIR magmacrunch-tarot`) and pass `--magmacrunch DIR`;
  without it the line says so and is skipped;
- one Marolles hand with three search players at their default settings: at most 1 s; and
  with `--search-run N`, such hands as a run plays them, side by side: at most 0.2 s of CPU
  a hand (issue 15; a study's worker plays up to 100 side by side,
  `measure.runner.POOLED_CHUNK`, so `--search-run 100` is what a study does);
- `tarot rules` (`python -m tarot rules`, process start included): under 0.3 s;
- loading, checking and compiling one ruleset: under 0.1 s, each ruleset of the table in one
  process, and the largest as the first load of a fresh process.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.machinery
import importlib.metadata
import importlib.util
import io
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType

# this checkout's engine, unless --installed asks for the `tarot` this Python imports (a compiled
# build installed from a wheel, say)
if "--installed" not in sys.argv:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import plain_marolles

from tarot.batch.backend import DEFAULT_BACKEND, choose_backend
from tarot.batch.run import BATCH, play_summaries
from tarot.batch.sittings import sitting_summaries
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.core.agent import Agent
from tarot.core.ruleset import Ruleset
from tarot.engine.game import (
    deal_hand,
    play_game,
    play_hand,
    play_hands,
    plays_sittings,
    sitting_seed,
)
from tarot.load import paths
from tarot.measure.hand_summary import play_sitting_summarized, play_summarized
from tarot.measure.runner import (
    RulesetSpec,
    RunPlan,
    Table,
    available_cores,
    run_hands,
)
from tarot.players.lineup import seat_agents
from tarot.players.random_agent import RandomAgent

ROOT = Path(__file__).resolve().parent.parent  # the checkout whose engine is measured
# where `python -m tarot` runs: the checkout (whose `tarot` link comes first on the path), or
# with --installed a folder without one, so that the installed `tarot` is the one run
COMMAND_FOLDER = Path(tempfile.gettempdir()) if "--installed" in sys.argv else ROOT
LOAD_TARGET = 0.1  # seconds to load, check and compile one ruleset
MAROLLES_TARGET = 0.5  # engine hands/s over the plain program's
BATCH_MAROLLES_TARGET = 3.0  # batch back end hands/s over the plain program's
BATCH_RULESET_TARGET = 5.0  # batch back end hands/s over the scalar engine's, every ruleset
DEFAULT_SIMULATE_TARGET = 3.0  # `tarot simulate marolles-1637` with no flags over the plain program
#: the families whose study search hands are compared, each by its first ruleset
FAMILIES = (
    ("Marolles", "marolles-1637"),
    ("French Tarot", "french-tarot"),
    ("Slovenian Tarok", "slovenian-tarok"),
    ("Hungarian Tarokk", "hungarian-tarokk"),
    ("Minchiate", "minchiate"),
)
FAMILY_SEARCH_TARGET = 1.5  # a study's search hand in any family over Marolles'
FAMILY_REPORT_DEALS = 1000  # the deals of the Marolles family report with search players
FAMILY_REPORT_TARGET = 20 * 60  # seconds for that report on the 2-core machine
FRENCH_TARGET = 2.0  # engine hands/s over magmacrunch-tarot's
SEARCH_TARGET = 1.0  # seconds for one Marolles hand with three search players
STUDY_TARGET = 0.2  # the same, on average over a study (issue 15)
RULES_TARGET = 0.3  # seconds for `tarot rules`
# the readings of french-tarot that the PyPI program plays: no deal cancelled for the 1 of
# trumps in the first packet (one deal in six would end at once), a petit sec dealt again
FRENCH_READINGS = {"le_petit": "not_played", "petit_sec": "played"}
ROUNDS = 5  # timed blocks per program, alternated, so that a change of load hits both


def verdict(met: bool) -> str:
    return "met" if met else "not met"


def ruleset_table(names: list[str], hands: int) -> list[float]:
    """Load+check+compile time and random hands/s of each ruleset; the load times."""
    rulesets = paths.builtin_rulesets()
    print(f"{'ruleset':40} {'load+check+compile':>18} {'random hands/s':>15}")
    loads = []
    for name in names:
        start = time.perf_counter()
        ruleset = load_ruleset(rulesets[name])
        loaded = time.perf_counter() - start
        loads.append(loaded)
        rate = ""
        if hands:
            agents = [RandomAgent(seat) for seat in range(ruleset.players)]
            start = time.perf_counter()
            play_game(ruleset, seed=1, agents=agents, hands=hands)
            rate = f"{hands / (time.perf_counter() - start):.0f}"
        print(f"{name:40} {loaded * 1000:16.0f}ms {rate:>15}")
    slowest = max(loads)
    print(
        f"load+check+compile per ruleset: median {statistics.median(loads) * 1000:.0f} ms, "
        f"slowest {slowest * 1000:.0f} ms (target under {LOAD_TARGET * 1000:.0f} ms each: "
        f"{verdict(slowest < LOAD_TARGET)}; in one process: a base shared by a family is read"
        " once)"
    )
    return loads


#: Loads one ruleset in a fresh process and prints the seconds it took (imports excluded).
FRESH_LOAD = """
import sys, time
from tarot.compile.loader import load_ruleset
start = time.perf_counter()
load_ruleset(sys.argv[1])
print(time.perf_counter() - start)
"""


def fresh_loads(names: list[str], runs: int) -> None:
    """The table loads every ruleset in one process, where a base and the expressions shared
    by a family are read once: here each ruleset is the first one its process loads (lark's
    grammar cache, kept between processes, is used when it is there)."""
    for name in names:
        times = []
        for _ in range(runs):
            done = subprocess.run(
                [sys.executable, "-c", FRESH_LOAD, name],
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            )
            times.append(float(done.stdout))
        median = statistics.median(times)
        print(
            f"{name}, loaded first in a fresh process (imports excluded): {median * 1000:.0f} ms"
            f" median of {runs} (target under {LOAD_TARGET * 1000:.0f} ms: "
            f"{verdict(median < LOAD_TARGET)})"
        )


def simulation(hands: int) -> None:
    name = "marolles-1637"
    plan = RunPlan((RulesetSpec(name),), seed=1, hands=hands)
    ruleset = load_ruleset(name)
    for jobs in sorted({1, available_cores()}):
        start = time.perf_counter()
        for _ in run_hands(plan, [ruleset], jobs):
            pass
        elapsed = time.perf_counter() - start
        print(
            f"simulate {name}, {hands} hands, {jobs} job(s): "
            f"{hands / elapsed:.0f} hands/s (process start-up included)"
        )


def race(
    hands: int,
    engine: Callable[[int, int], None],
    other: Callable[[int, int], None],
    engine_block: int | None = None,
) -> tuple[float, float]:
    """Seconds per hand of `engine` and `other`, each called as f(first, count) to play hands
    first..first+count-1: a warm-up of each, then blocks of the two in turn (`engine_block`
    hands a block for the engine, when it differs from the other's)."""
    warm = max(1, hands // 10)
    engine(1, warm)
    other(1, warm)
    spent = [0.0, 0.0]
    block = max(1, hands // ROUNDS)
    blocks = (engine_block or block, block)
    first = warm + 1
    for _ in range(ROUNDS):
        for index, play in enumerate((engine, other)):
            start = time.perf_counter()
            play(first, blocks[index])
            spent[index] += time.perf_counter() - start
            first += blocks[index]
    return spent[0] / (blocks[0] * ROUNDS), spent[1] / (blocks[1] * ROUNDS)


def print_ratio(what: str, engine: float, other: float, name: str, target: float) -> None:
    ratio = other / engine  # the engine's hands/s over the other program's
    print(f"{what}, one core, same process:")
    for label, seconds in (("engine", engine), (name, other)):
        print(f"  {label + ':':8} {seconds * 1e6:8.0f} µs a hand, {1 / seconds:7.0f} hands/s")
    print(
        f"  ratio engine/{name}: {ratio:.2f}x (target at least {target}x: "
        f"{verdict(ratio >= target)})"
    )


def random_hands(ruleset: Ruleset, agents: list[Agent], first: int, count: int) -> None:
    """Hands first..first+count-1 of seed 1, each let go once played, as `simulate` plays
    them and as the programs raced against play theirs (`play_game` would keep them all)."""
    for _state in play_hands(ruleset, 1, agents, range(first, first + count)):
        pass


def marolles_ratio(hands: int) -> None:
    ruleset = load_ruleset("marolles-1637")
    agents = [RandomAgent(seat) for seat in range(ruleset.players)]
    rng = random.Random(1)
    choose = plain_marolles.random_players(rng)

    def engine(first: int, count: int) -> None:
        random_hands(ruleset, agents, first, count)

    def plain(first: int, count: int) -> None:
        for number in range(first, first + count):
            plain_marolles.play_hand(plain_marolles.shuffled(rng), number % 3, choose)

    engine_time, plain_time = race(hands, engine, plain)
    print_ratio("random Marolles hands", engine_time, plain_time, "plain", MAROLLES_TARGET)


def batch_marolles_ratio(hands: int) -> None:
    """The batch back end against the plain program, random Marolles, one core."""
    ruleset = load_ruleset("marolles-1637")
    rng = random.Random(1)
    choose = plain_marolles.random_players(rng)

    def batch(first: int, count: int) -> None:
        play_summaries(ruleset, 1, range(first, first + count))

    def plain(first: int, count: int) -> None:
        for number in range(first, first + count):
            plain_marolles.play_hand(plain_marolles.shuffled(rng), number % 3, choose)

    print(f"batch back end: blocks of {2 * BATCH} hands, played {BATCH} at once")
    batch_time, plain_time = race(hands, batch, plain, 2 * BATCH)
    print_ratio(
        "random Marolles hands, batch back end",
        batch_time,
        plain_time,
        "plain",
        BATCH_MAROLLES_TARGET,
    )


def batch_rulesets(hands: int, only: str | None = None) -> None:
    """Each built-in ruleset the batch back end runs (or those of `only`, comma-separated):
    its batch figure against its scalar one, both making the runner's hand summaries, random
    players, one core."""
    print(
        f"batch back end against the scalar engine: {hands} hands each in the scalar engine, "
        f"blocks of {BATCH} played at once in batch"
    )
    print(f"  {'ruleset':44} {'scalar µs':>10} {'batch µs':>9} {'ratio':>7}")
    ratios = []
    names = list(paths.builtin_rulesets()) if only is None else only.split(",")
    for name in names:
        ruleset = load_ruleset(name)
        refused = supports(ruleset)
        if refused:
            print(f"  {name:44} not run in batch: {refused[0]}")
            continue

        # a ruleset that plays sittings is measured as the runner plays it: a unit a sitting
        sittings = plays_sittings(ruleset)

        def scalar(first: int, count: int, ruleset=ruleset, sittings=sittings) -> None:  # noqa: ANN001
            for n in range(first, first + count):
                if sittings:
                    seed = sitting_seed(1, n)
                    agents = partial(seat_agents, ("random",), seed, players=ruleset.players)
                    play_sitting_summarized(ruleset, 1, n, lambda hand, a=agents: a(hand))
                else:
                    agents = seat_agents(("random",), 1, n, ruleset.players)
                    play_summarized(ruleset, 1, n, agents)

        def batch(first: int, count: int, ruleset=ruleset, sittings=sittings) -> None:  # noqa: ANN001
            play = sitting_summaries if sittings else play_summaries
            play(ruleset, 1, range(first, first + count))

        batch_time, scalar_time = race(hands, batch, scalar, BATCH)
        ratio = scalar_time / batch_time
        ratios.append(ratio)
        label = name + (" (sittings)" if sittings else "")
        print(f"  {label:44} {scalar_time * 1e6:10.0f} {batch_time * 1e6:9.0f} {ratio:6.2f}x")
    lowest = f"the lowest ratio {min(ratios):.2f}x" if ratios else "no ratio"
    if only is not None:
        print(f"the rulesets asked for: {len(ratios)} of {len(names)} run there, {lowest}")
        return
    every = len(ratios) == len(names)
    which = "every built-in ruleset" if only is None else "the rulesets asked for"
    print(
        f"{which} in the batch back end: {len(ratios)} of {len(names)} run "
        f"there, {lowest} (target every one, at least {BATCH_RULESET_TARGET}x its scalar "
        f"figure: {verdict(every and min(ratios, default=0) >= BATCH_RULESET_TARGET)})"
    )


def magmacrunch_rules(directory: str | None) -> ModuleType | None:
    """The rules module of magmacrunch-tarot, loaded from its file under a name of its own
    (its package is called `tarot`, a name this project may take), or None if it is not
    installed (in this environment or in `directory`)."""
    search = [directory] if directory else sys.path
    try:
        dist = next(iter(importlib.metadata.distributions(name="magmacrunch-tarot", path=search)))
    except StopIteration:
        return None
    path = Path(str(dist.locate_file("tarot/rules.py")))
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("magmacrunch_tarot_rules", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    module.VERSION = dist.version
    return module


def magmacrunch_hands(rules: ModuleType, rng: random.Random) -> Callable[[int, int], None]:
    """Hands of the PyPI program with every seat choosing at random among its legal moves
    (bids, the discard, poignées, cards), not its computer players; a deal thrown in (petit
    sec, everybody passed) counts as a hand, as in the engine."""
    game = rules.Game(rand=rng.random)

    def play(_first: int, count: int) -> None:
        for _ in range(count):
            game.new_round()
            game.deal()
            while game.phase == rules.BIDDING:
                outcome = game.bid(game.current_bidder, rng.choice(game.bids_open()))
                if isinstance(outcome, dict) and outcome["event"] == "redeal":
                    break
            if game.phase == rules.DOG_EXCHANGE:
                hand = game.hands[game.taker]
                plain = [c for c in hand if c.type == rules.SUITED and c.rank != "R"]
                trumps = [c for c in hand if c.type == rules.TRUMP and not c.is_oudler]
                chosen = rng.sample(plain, 6) if len(plain) >= 6 else plain
                chosen += rng.sample(trumps, 6 - len(chosen))
                if game.discard([c.id for c in chosen]) is False:
                    raise RuntimeError("magmacrunch-tarot refused a random discard")
            while game.phase == rules.TRICK_PLAY:
                if game.poignee_offer:
                    game.declare_poignee(rng.random() < 0.5)
                seat = game.current
                legal = rules.legal_plays(game.hands[seat], game.trick)
                game.play(seat, rng.choice(legal))

    return play


def french_ratio(hands: int, directory: str | None, batched: bool = False) -> None:
    """French Tarot of the engine (or, `batched`, of the batch back end) against the PyPI
    program, random players, one core."""
    rules = magmacrunch_rules(directory)
    engine_name = "batch back end" if batched else "engine"
    if rules is None:
        print(
            f"random French Tarot hands, {engine_name}, against magmacrunch-tarot: skipped, "
            "the package is not installed (pip install --no-deps --target DIR "
            f"magmacrunch-tarot, then --magmacrunch DIR; target at least {FRENCH_TARGET}x)"
        )
        return
    ruleset = load_ruleset("french-tarot", FRENCH_READINGS)
    agents = [RandomAgent(seat) for seat in range(ruleset.players)]

    def engine(first: int, count: int) -> None:
        if batched:
            play_summaries(ruleset, 1, range(first, first + count))
        else:
            random_hands(ruleset, agents, first, count)

    other = magmacrunch_hands(rules, random.Random(1))
    if batched:
        print(f"batch back end: blocks of {2 * BATCH} hands, played {BATCH} at once")
    engine_time, other_time = race(hands, engine, other, 2 * BATCH if batched else None)
    readings = ", ".join(f"{option}={reading}" for option, reading in FRENCH_READINGS.items())
    what = (
        f"random French Tarot hands, {engine_name} (4 players; french-tarot with {readings}) "
        f"against magmacrunch-tarot {rules.VERSION}"
    )
    print_ratio(what, engine_time, other_time, "PyPI", FRENCH_TARGET)


def search_hand(hands: int, agent: str = "search") -> None:
    """Marolles hands with `agent` in every seat: clock time (the target's) and CPU time
    (what the hand costs on a machine shared with other work)."""
    ruleset = load_ruleset("marolles-1637")
    times, cpu = [], []
    for number in range(1, hands + 1):
        state = deal_hand(ruleset, 1, number)
        agents = seat_agents([agent], 1, number, ruleset.players)
        start, start_cpu = time.perf_counter(), time.process_time()
        play_hand(state, agents)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    mean = statistics.mean(times)
    spread = ", ".join(f"{t:.2f}" for t in times)
    print(
        f"one Marolles hand, three {agent} players: {mean:.2f} s mean over "
        f"{hands} hand(s) [{spread}], {statistics.mean(cpu):.2f} s of CPU "
        f"(target at most {SEARCH_TARGET:.0f} s: {verdict(mean <= SEARCH_TARGET)})"
    )


def search_run(hands: int, agent: str = "search") -> None:
    """Marolles hands with `agent` in every seat, as a run plays them (`Table.play`): one
    at a time, then side by side with their play-outs batched together (`agents.together`);
    CPU time per hand of each, and whether they gave the same hands."""
    plan = RunPlan((RulesetSpec("marolles-1637"),), seed=1, hands=hands, agents=(agent,))
    table = Table(plan, [load_ruleset("marolles-1637")])
    work = [(number, (0,)) for number in range(1, hands + 1)]
    start = time.process_time()
    alone = [table.play_hand(number, which) for number, which in work]
    alone_cpu = (time.process_time() - start) / hands
    start = time.process_time()
    together = table.play(work)
    together_cpu = (time.process_time() - start) / hands
    print(
        f"a run of {hands} Marolles hands, three {agent} players: {alone_cpu:.3f} s of CPU "
        f"a hand one at a time, {together_cpu:.3f} s side by side "
        f"({alone_cpu / together_cpu:.2f}x; the same hands: {alone == together}; "
        f"target {STUDY_TARGET} s a hand over a study: {verdict(together_cpu <= STUDY_TARGET)})"
    )


def study_search_hand(name: str, units: int, agent: str) -> tuple[float, int]:
    """CPU seconds a hand of `units` units of `name` with `agent` in every seat, played as a
    study plays them (the back end the commands choose, `Table.play`), after one unit more
    untimed, and the hands played (a unit of a ruleset that plays sittings is a whole
    sitting)."""
    ruleset = load_ruleset(name)
    with contextlib.redirect_stderr(io.StringIO()):  # a fall back to the scalar engine's note
        backend = choose_backend(DEFAULT_BACKEND, [ruleset], (agent,))
    plan = RunPlan((RulesetSpec(name),), seed=1, hands=units, agents=(agent,), backend=backend)
    table = Table(plan, [ruleset])
    table.play([(units + 1, (0,))])  # a warm-up: what a worker does once, before its first hand
    start = time.process_time()
    played = table.play([(number, (0,)) for number in range(1, units + 1)])
    cpu = time.process_time() - start
    hands = sum(len(summary.taken) for (summary,) in played)
    return cpu / hands, hands


def family_search(units: int, agent: str = "search", only: str | None = None) -> None:
    """A study's search hand in each family (or in those whose first ruleset `only` names,
    comma-separated), and its ratio to Marolles' (measured first, always)."""
    wanted = None if only is None else set(only.split(","))
    families = [
        (family, name)
        for family, name in FAMILIES
        if wanted is None or name in wanted or name == FAMILIES[0][1]
    ]
    print(
        f"a study's search hand in each family: {units} unit(s) of its first ruleset, {agent} "
        "players in every seat, side by side as a study plays them, CPU time a hand"
    )
    print(f"  {'family':18} {'ruleset':18} {'hands':>5} {'CPU s a hand':>12} {'ratio':>7}")
    ratios = {}
    marolles = None
    for family, name in families:
        seconds, hands = study_search_hand(name, units, agent)
        marolles = marolles or seconds
        ratios[family] = seconds / marolles
        sittings = " (sittings)" if plays_sittings(load_ruleset(name)) else ""
        print(f"  {family:18} {name:18} {hands:5} {seconds:12.3f} {ratios[family]:6.2f}x{sittings}")
    worst = max(ratios, key=ratios.__getitem__)
    which = "every family" if wanted is None else "the families asked for"
    print(
        f"a study's search hand in {which} against Marolles': at most "
        f"{ratios[worst]:.2f}x ({worst}) (target at most {FAMILY_SEARCH_TARGET}x: "
        f"{verdict(ratios[worst] <= FAMILY_SEARCH_TARGET)})"
    )


@functools.cache
def command_environment() -> dict[str, str]:
    """The environment of the commands run: this one, but with the modules' bytecode kept
    (in a folder of this run), as an install leaves it (pip compiles every module it
    installs), whatever PYTHONDONTWRITEBYTECODE says here."""
    folder = tempfile.TemporaryDirectory(prefix="tarot-speed-bytecode-")
    _KEPT.append(folder)  # removed when this run ends
    environment = dict(os.environ)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    environment["PYTHONPYCACHEPREFIX"] = folder.name
    return environment


_KEPT: list[tempfile.TemporaryDirectory[str]] = []


def tarot_command(
    args: list[str], warm_up: list[str] | None = None
) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """`python -m tarot ARGS` run to its end, after `warm_up` (the same command on fewer
    hands, untimed: the bytecode written, and the user's cache filled, as by a first run):
    its clock seconds, the CPU seconds of it and its worker processes, and what it
    printed."""

    def run(arguments: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tarot", *arguments],
            cwd=COMMAND_FOLDER,
            env=command_environment(),
            check=True,
            capture_output=True,
            text=True,
        )

    if warm_up is not None:
        run(warm_up)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = run(args)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return elapsed, cpu, done


def default_simulate(hands: int) -> None:
    """`tarot simulate marolles-1637 --hands N` with no flags against the plain program's
    time for N hands on one core, half of them played before the command and half after."""
    rng = random.Random(1)
    choose = plain_marolles.random_players(rng)

    def plain(count: int) -> tuple[float, float]:
        start, start_cpu = time.perf_counter(), time.process_time()
        for number in range(count):
            plain_marolles.play_hand(plain_marolles.shuffled(rng), number % 3, choose)
        return time.perf_counter() - start, time.process_time() - start_cpu

    command = ["simulate", "marolles-1637", "--hands"]
    warm_up = [*command, str(min(hands, 2000))]
    first = plain(hands // 2)
    elapsed, cpu, done = tarot_command([*command, str(hands)], warm_up)
    second = plain(hands - hands // 2)
    plain_time, plain_cpu = first[0] + second[0], first[1] + second[1]
    heading = done.stdout.splitlines()[0] if done.stdout else ""
    ratio = plain_time / elapsed
    print(
        f"tarot simulate marolles-1637 --hands {hands}, no flags ({heading}): {elapsed:.2f} s "
        f"by the clock, {cpu:.2f} s of CPU; the plain program {plain_time:.2f} s on one core "
        f"({plain_cpu:.2f} s of CPU): {ratio:.2f}x by the clock, {plain_cpu / cpu:.2f}x in CPU "
        f"(target at least {DEFAULT_SIMULATE_TARGET}x by the clock: "
        f"{verdict(ratio >= DEFAULT_SIMULATE_TARGET)})"
    )
    for line in done.stderr.splitlines()[:1]:
        print(f"  it said: {line}")


def family_report(deals: int, agent: str = "search") -> None:
    """The Marolles family report with `agent` players, as the command runs it on every
    core, its clock time scaled to FAMILY_REPORT_DEALS deals (the start of the command and
    of its workers scaled with it: a fair estimate only from a few hundred deals)."""
    base = "marolles-1637"
    rulesets = 1 + len(paths.builtin_variants(base))
    args = ["diff", "--family", base, "--hands", str(deals), "--agents", agent]
    elapsed, cpu, _done = tarot_command(args, [*args[:3], "--hands", "1", *args[5:]])
    estimate = elapsed * FAMILY_REPORT_DEALS / deals
    scaled = "" if deals == FAMILY_REPORT_DEALS else f", scaled from {deals}"
    print(
        f"tarot {' '.join(args)} ({rulesets} rulesets, {available_cores()} core(s)): "
        f"{elapsed:.0f} s by the clock, {cpu:.0f} s of CPU; for {FAMILY_REPORT_DEALS} deals "
        f"{estimate / 60:.1f} min{scaled} (target at most {FAMILY_REPORT_TARGET // 60} min on "
        f"the 2-core machine: {verdict(estimate <= FAMILY_REPORT_TARGET)})"
    )


def rules_command(runs: int) -> None:
    command = [sys.executable, "-m", "tarot", "rules"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=COMMAND_FOLDER, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(
        f"tarot rules (python -m tarot rules, process start included): {median:.2f} s "
        f"median of {runs} run(s) (target under {RULES_TARGET} s: "
        f"{verdict(median < RULES_TARGET)})"
    )


def build_heading() -> str:
    """Which engine is measured: where `tarot` comes from, and whether it is the compiled
    build (modules compiled with mypyc beside the pure source) or pure Python."""
    package = Path(paths.__file__).resolve().parent.parent  # tarot/load/paths.py
    compiled = {
        path
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        for path in package.rglob(f"*{suffix}")
    }
    state_module = importlib.util.find_spec("tarot.engine.state")
    origin = state_module.origin if state_module is not None else None
    if compiled and origin and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
        kind = f"compiled with mypyc ({len(compiled)} modules)"
    else:
        kind = "pure Python"
    return f"engine: tarot from {package}, {kind}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="random hands per ruleset")
    parser.add_argument("--rulesets", help="comma-separated rulesets of the table ('': skip it)")
    parser.add_argument(
        "--simulate", type=int, default=4000, help="hands of the simulation run (0: skip)"
    )
    parser.add_argument(
        "--marolles", type=int, default=2000, help="hands per program, Marolles ratio (0: skip)"
    )
    parser.add_argument(
        "--batch", type=int, default=20000, help="hands per program, batch ratio (0: skip)"
    )
    parser.add_argument(
        "--batch-rulesets",
        type=int,
        default=1000,
        help="hands per ruleset and back end, batch against scalar (0: skip)",
    )
    parser.add_argument(
        "--batch-names",
        help="comma-separated rulesets of the batch-against-scalar table (default: every "
        "built-in; the verdict on every built-in is then left out)",
    )
    parser.add_argument(
        "--french", type=int, default=1000, help="hands per program, French ratio (0: skip)"
    )
    parser.add_argument("--search", type=int, default=3, help="search-player hands (0: skip)")
    parser.add_argument(
        "--search-agent",
        default="search",
        help="the search player, with settings (search:batch=off)",
    )
    parser.add_argument(
        "--search-run",
        type=int,
        default=0,
        help="search-player hands of a run, one at a time and side by side (0: skip; 50: a"
        " study's chunk)",
    )
    parser.add_argument(
        "--family-search",
        type=int,
        default=10,
        help="units of each family's first ruleset with search players, as a study plays them "
        "(0: skip; 50: a study's chunk)",
    )
    parser.add_argument(
        "--family-names",
        help="comma-separated first rulesets of the families whose search hand is measured "
        "(default: every family's; Marolles' is always measured, as the reference)",
    )
    parser.add_argument(
        "--default-simulate",
        type=int,
        default=20000,
        help="hands of `tarot simulate marolles-1637` with no flags, against the plain program "
        "(0: skip)",
    )
    parser.add_argument(
        "--family-report",
        type=int,
        default=0,
        help=f"deals of the Marolles family report with search players, its time scaled to "
        f"{FAMILY_REPORT_DEALS} (0: skip; {FAMILY_REPORT_DEALS}: the whole report)",
    )
    parser.add_argument("--rules-runs", type=int, default=5, help="tarot rules runs (0: skip)")
    parser.add_argument(
        "--fresh-runs",
        type=int,
        default=3,
        help="fresh processes per ruleset loaded first, for the table's largest (0: skip)",
    )
    parser.add_argument("--magmacrunch", help="a directory magmacrunch-tarot is installed in")
    parser.add_argument(
        "--installed",
        action="store_true",
        help="measure the tarot this Python imports (e.g. the compiled build), not the checkout's",
    )
    args = parser.parse_args()
    print(build_heading())
    builtin = list(paths.builtin_rulesets())
    names = builtin if args.rulesets is None else [n for n in args.rulesets.split(",") if n]
    unknown = [name for name in names if name not in builtin]
    if unknown:
        parser.error(f"--rulesets: no built-in ruleset {', '.join(unknown)}")
    if names:
        loads = ruleset_table(names, args.hands)
        if args.fresh_runs:
            largest = sorted(zip(loads, names, strict=True))[-1][1]
            fresh_loads(sorted({names[0], largest}), args.fresh_runs)
    if args.simulate:
        simulation(args.simulate)
    if args.marolles:
        marolles_ratio(args.marolles)
    if args.batch:
        batch_marolles_ratio(args.batch)
        french_ratio(args.batch, args.magmacrunch, batched=True)
    if args.batch_rulesets:
        batch_rulesets(args.batch_rulesets, args.batch_names)
    if args.french:
        french_ratio(args.french, args.magmacrunch)
    if args.search:
        search_hand(args.search, args.search_agent)
    if args.search_run:
        search_run(args.search_run, args.search_agent)
    if args.family_search:
        family_search(args.family_search, args.search_agent, args.family_names)
    if args.default_simulate:
        default_simulate(args.default_simulate)
    if args.family_report:
        family_report(args.family_report, args.search_agent)
    if args.rules_runs:
        rules_command(args.rules_runs)


if __name__ == "__main__":
    main()
