"""The rating table of benchmarks/ratings.py, from rows as `strength.py --results` writes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import ratings  # noqa: E402


def row(a: str, b: str, nets: list[float], ruleset: str = "game") -> dict:
    return {"ruleset": ruleset, "seed": 1, "a": a, "b": b, "a_net": nets, "play_cpu": {a: 0.5}}


def test_the_player_that_wins_more_often_rates_higher() -> None:
    rows = [
        row("strong", "weak", [5, 3, -1, 4, 2, 6, 1, 2]),
        row("weak", "worst", [2, 1, 3, -2, 4, 1, 1, 2]),
        row("strong", "worst", [9, 8, 7, 9, 8, 7, 9, 8], ruleset="other"),
    ]
    rated = ratings.rate(rows)
    overall = {player: mu for player, (mu, _sigma) in rated[ratings.ALL].items()}
    assert overall["strong"] > overall["weak"] > overall["worst"]
    assert set(rated["other"]) == {"strong", "worst"}  # a game's own column rates its players
    text = ratings.table(rows)
    lines = text.splitlines()
    assert [line.split("|")[1].strip() for line in lines[4:]] == ["strong", "weak", "worst"]
    assert "| player | game | other | all games | CPU s per card |" in text


def test_a_draw_moves_no_one_apart() -> None:
    rated = ratings.rate([row("a", "b", [0.0, 0.0, 0.0])])[ratings.ALL]
    assert rated["a"][0] == rated["b"][0]


def test_files_are_read_and_the_outside_players_games_kept_apart(tmp_path) -> None:
    path = tmp_path / "results.jsonl"
    lines = [
        row("search", "magmacrunch", [1, 2], "french-tarot"),
        row("search", "random", [3]),
        row("openspiel-mcts:simulations=50", "heuristic", [3]),
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    rows = ratings.load_rows([str(path)])
    assert [r["ruleset"] for r in rows] == ["french-tarot*", "game", "game*"]


def test_a_broken_file_is_a_message_naming_the_line(tmp_path, capsys) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(row("a", "b", [1])) + "\n{not json\n", encoding="utf-8")
    assert ratings.main([str(path)]) == 1
    assert f"{path}:2: not a strength.py result row" in capsys.readouterr().err
    assert ratings.main([]) == 2


def test_two_players_against_the_same_opponents_are_compared_deal_by_deal() -> None:
    rows = [
        row("fast", "heuristic", [1.0, 2.0, 3.0, 4.0]),
        row("slow", "heuristic", [2.0, 2.0, 5.0, 4.0]),
        row("slow", "random", [9.0, 9.0, 9.0, 9.0]),  # another B: not paired with the others
    ]
    [line] = [line for line in ratings.paired(rows).splitlines() if line.startswith("| game")]
    assert line == "| game | fast | slow | heuristic | 4 | -0.75 ± 1.52 |"


def test_runs_of_different_lengths_are_compared_on_the_deals_both_played() -> None:
    rows = [row("fast", "heuristic", [1.0, 2.0, 3.0, 4.0]), row("slow", "heuristic", [2.0, 1.0])]
    [line] = [line for line in ratings.paired(rows).splitlines() if line.startswith("| game")]
    assert line.startswith("| game | fast | slow | heuristic | 2 | +0.00 ± ")


def test_a_game_that_is_not_zero_sum_is_won_by_a_less_b() -> None:
    """Every seat lost (A's net below zero), but B's seats lost more: A won each deal."""
    rows = [{**row("a", "b", [-5.0, -3.0, -4.0]), "a_less_b": [20.0, 15.0, 30.0]}]
    rated = ratings.rate(rows)[ratings.ALL]
    assert rated["a"][0] > rated["b"][0]
