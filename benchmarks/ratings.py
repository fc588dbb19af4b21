"""Ratings: one table that places every player measured by `strength.py`, game by game.

Prints numbers; asserts nothing.

    python benchmarks/strength.py ... --results FILE     (as many runs as wanted, one file)
    python benchmarks/ratings.py FILE [FILE...]

Each deal of a matchup A/B (A in one seat, B in the others, A rotated through every seat)
counts as one game between A and B: A won it if its mean net over its seats was above zero,
lost it if below, drew at zero (in a game that is not zero-sum, where strength.py keeps each
deal's A less B's mean as `a_less_b`, by that instead). The games are rated with
OpenSkill's Plackett-Luce model (the `openskill` package: the optional extra `[ratings]`, for
benchmarks only), every game of a matchup in turn with those of the other matchups (deal 1
of every matchup, then deal 2...), so that no matchup's games all come last. Ratings are
printed as mu ± sigma and ranked by the conservative estimate mu - 3 sigma, one column per
ruleset (a player rated only from the games of that ruleset) and one over all of them;
beside them, the mean CPU seconds each player took per card decision in those runs. A win
counts the same whatever its margin: the rating says who wins more often, the strength table
says by how much.

Then, for two players A and C each measured against the same B on the same ruleset and seed
(matchups A/B and C/B), A's result less C's, deal by deal over the deals both played (deals 1
to N of the seed, N the fewer of the two runs' deals), with a 95% t interval: a paired
comparison of A and C through the same opponents on the same deals, much cheaper than a
head-to-head matchup between two slow players.

An outside player (`magmacrunch`) plays `french-tarot` with its own readings, and
OpenSpiel's bots (`openspiel-mcts`, `openspiel-ismcts`) play on deals OpenSpiel makes; their
rows are rated under the ruleset's name followed by `*`, apart from the ruleset's own deals.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's package

from tarot.measure.statistics import RunningMean  # noqa: E402

OUTSIDE = "magmacrunch"
OPENSPIEL = "openspiel-"  # OpenSpiel's bots, whose matchups OpenSpiel deals
ALL = "all games"


def load_rows(paths: Iterable[str]) -> list[dict]:
    """The matchup rows of `strength.py --results` files, in the order written."""
    rows = []
    for path in paths:
        for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                row["a"], row["b"], row["ruleset"], row["a_net"]  # noqa: B018 (fields needed)
            except (ValueError, KeyError, TypeError) as error:
                problem = f"{path}:{number}: not a strength.py result row ({error})"
                raise ValueError(problem) from None
            rows.append(row)
    return load_rows_from(rows)


def load_rows_from(rows: Iterable[dict]) -> list[dict]:
    """Rows as rated: the outside player's games under their own name (`RULESET*`)."""
    return [{**row, "ruleset": row["ruleset"] + "*"} if _outside(row) else row for row in rows]


def _outside(row: dict) -> bool:
    """Whether an outside player's readings or deals made the row's games."""
    return any(
        player == OUTSIDE or str(player).startswith(OPENSPIEL) for player in (row["a"], row["b"])
    )


def rate(rows: Sequence[dict]) -> dict[str, dict[str, tuple[float, float]]]:
    """Per game (and over all: `ALL`), each player's (mu, sigma)."""
    from openskill.models import PlackettLuce  # the optional extra: imported when rating

    model = PlackettLuce()
    games = sorted({row["ruleset"] for row in rows})
    ratings: dict[str, dict[str, object]] = {game: {} for game in [*games, ALL]}
    longest = max((len(row["a_net"]) for row in rows), default=0)
    for deal in range(longest):
        for row in rows:
            if deal >= len(row["a_net"]):
                continue
            net = row.get("a_less_b", row["a_net"])[deal]  # not zero-sum: A less B decides
            ranks = [0, 0] if net == 0 else ([0, 1] if net > 0 else [1, 0])
            for game in (row["ruleset"], ALL):
                table = ratings[game]
                a = table.setdefault(row["a"], model.rating(name=row["a"]))
                b = table.setdefault(row["b"], model.rating(name=row["b"]))
                [[a_after], [b_after]] = model.rate([[a], [b]], ranks=ranks)
                table[row["a"]], table[row["b"]] = a_after, b_after
    return {
        game: {player: (r.mu, r.sigma) for player, r in table.items()}  # type: ignore[attr-defined]
        for game, table in ratings.items()
    }


def play_cpu(rows: Sequence[dict]) -> dict[str, float]:
    """Each player's CPU seconds per card decision, averaged over the runs that timed it."""
    seen: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        for player, seconds in row.get("play_cpu", {}).items():
            seen[player].append(seconds)
    return {player: sum(times) / len(times) for player, times in seen.items()}


def table(rows: Sequence[dict]) -> str:
    """The ratings as a Markdown table, best first over all games."""
    rated = rate(rows)
    times = play_cpu(rows)
    games = [game for game in rated if game != ALL]
    overall = rated[ALL]
    order = sorted(overall, key=lambda p: overall[p][0] - 3 * overall[p][1], reverse=True)
    deals = sum(len(row["a_net"]) for row in rows)
    lines = [
        f"Ratings (OpenSkill Plackett-Luce, mu ± sigma; {deals} games from {len(rows)} "
        "matchups; ranked by mu - 3 sigma over all games)",
        "",
        "| player | " + " | ".join([*games, ALL]) + " | CPU s per card |",
        "|---|" + "---|" * (len(games) + 2),
    ]
    for player in order:
        cells = []
        for game in [*games, ALL]:
            mu_sigma = rated[game].get(player)
            cells.append("" if mu_sigma is None else f"{mu_sigma[0]:.1f} ± {mu_sigma[1]:.1f}")
        cpu = times.get(player)
        cells.append("" if cpu is None else f"{cpu:.4f}")
        lines.append(f"| {player} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def paired(rows: Sequence[dict]) -> str:
    """A's results less C's on the same deals against the same B (see the docstring)."""
    lines = []
    for first, second in combinations(rows, 2):
        same = ("ruleset", "seed", "b")
        if any(first[key] != second[key] for key in same) or first["a"] == second["a"]:
            continue
        difference = RunningMean()  # over the deals both played: deals 1 to N of the seed
        for x, y in zip(first["a_net"], second["a_net"], strict=False):
            difference.add(x - y)
        estimate = difference.estimate()
        width = "" if estimate.half_width is None else f" ± {estimate.half_width:.2f}"
        lines.append(
            f"| {first['ruleset']} | {first['a']} | {second['a']} | {first['b']} | "
            f"{difference.count} | {estimate.mean:+.2f}{width} |"
        )
    if not lines:
        return ""
    head = [
        "Paired: A's mean net per hand less C's, against the same B on the same deals "
        "(95% interval)",
        "",
        "| ruleset | A | C | against B | deals | A - C |",
        "|---|---|---|---|---|---|",
    ]
    return "\n".join(head + lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or any(arg.startswith("-") for arg in args):
        print("usage: python benchmarks/ratings.py RESULTS.jsonl [...]", file=sys.stderr)
        return 2
    try:
        rows = load_rows(args)
    except (OSError, ValueError) as error:
        print(error, file=sys.stderr)
        return 1
    if not rows:
        print("no results in " + ", ".join(args), file=sys.stderr)
        return 1
    return report(rows)


def report(rows: Sequence[dict]) -> int:
    """Print the rating table and the paired comparisons; 1 without openskill."""
    try:
        print(table(rows))
    except ImportError:
        print("ratings need openskill: pip install 'tarot-rules[ratings]'", file=sys.stderr)
        return 1
    comparisons = paired(rows)
    if comparisons:
        print("\n" + comparisons)
    return 0


if __name__ == "__main__":
    sys.exit(main())
