"""The `tarot` command, run as `python -m tarot` from the repository root.

A user's mistake (unknown ruleset, bad option, tampered record) must end with a message and
exit status 1, never a traceback.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from commands import tarot


def refused(result: subprocess.CompletedProcess[str], status: int = 1) -> str:
    """Assert a clean refusal; return stderr."""
    assert result.returncode == status, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    assert "Traceback" not in result.stdout
    assert result.stderr.strip(), "refused without a message"
    return result.stderr


@pytest.fixture(scope="module")
def record_text() -> str:
    """The JSON record of one hand of Marolles 1637 with seed 5."""
    result = tarot("play", "marolles-1637", "--seed", "5", "--quiet", "--record", "-")
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture()
def record(record_text: str) -> dict:
    return json.loads(record_text)


def write_record(tmp_path: Path, record: dict | str) -> Path:
    path = tmp_path / "record.json"
    text = record if isinstance(record, str) else json.dumps(record, indent=1)
    path.write_text(text, encoding="utf-8")
    return path


# --- rules ----------------------------------------------------------------------------------


def test_rules_lists_the_builtin_rulesets_with_titles() -> None:
    result = tarot("rules")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    marolles = [line for line in lines if line.split()[:1] == ["marolles-1637"]]
    assert len(marolles) == 1, result.stdout
    assert "Marolles 1637 (McLeod's reconstruction)" in marolles[0]
    assert "3 players" in marolles[0]
    assert "does not load" not in result.stdout


# --- play -----------------------------------------------------------------------------------


def test_play_prints_a_whole_hand() -> None:
    result = tarot("play", "marolles-1637", "--seed", "5")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "=== Hand 1 of Marolles 1637 (McLeod's reconstruction): seat 0 deals ===" in out
    assert "Deal (play passes anticlockwise, so each seat's next sits on its right):" in out
    assert re.search(r"^  Seat 0 \(dealer\) \[24\]: ", out, re.M)
    assert len(re.findall(r"^  Seat [12] \[21\]: ", out, re.M)) == 2
    assert "Discards:" in out
    assert "Play:" in out
    tricks = re.findall(r"^  Trick +(\d+): .*-> seat [012]$", out, re.M)
    assert [int(n) for n in tricks] == list(range(1, 21)), "(66 - 6 discarded) / 3 = 20 tricks"
    assert re.search(r"^Card points: seat 0 \d+, seat 1 \d+, seat 2 \d+$", out, re.M)
    net = re.search(
        r"^Net \(marques\): seat 0 ([+-]?\d+), seat 1 ([+-]?\d+), seat 2 ([+-]?\d+)$", out, re.M
    )
    assert net, out
    assert sum(int(n) for n in net.groups()) == 0, "payments only move marques around"
    assert "Totals after 1 hand(s), in marques:" in out


def test_play_is_deterministic() -> None:
    first = tarot("play", "marolles-1637", "--seed", "5")
    second = tarot("play", "marolles-1637", "--seed", "5")
    assert first.returncode == second.returncode == 0
    assert first.stdout.encode() == second.stdout.encode()
    other = tarot("play", "marolles-1637", "--seed", "6")
    assert other.returncode == 0
    assert other.stdout != first.stdout, "the seed should matter"


def test_play_several_hands_moves_the_dealer() -> None:
    result = tarot("play", "marolles-1637", "--seed", "5", "--hands", "3")
    assert result.returncode == 0, result.stderr
    headers = re.findall(r"^=== Hand (\d) of .*: seat (\d) deals ===$", result.stdout, re.M)
    assert headers == [("1", "0"), ("2", "1"), ("3", "2")]
    assert len(re.findall(r"^Net \(marques\): ", result.stdout, re.M)) == 3
    assert "Totals after 3 hand(s), in marques:" in result.stdout


def test_play_quiet_prints_only_the_totals() -> None:
    result = tarot("play", "marolles-1637", "--seed", "5", "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        line
        for line in tarot("play", "marolles-1637", "--seed", "5").stdout.splitlines()
        if line.startswith("Totals after")
    ]


def test_play_unknown_ruleset_lists_the_builtins() -> None:
    err = refused(tarot("play", "nonexistent"), 2)
    assert err.startswith("tarot: error: no ruleset named 'nonexistent'")
    assert "nonexistent" in err
    assert "marolles-1637" in err
    assert "marolles-1637-ultimo-literal" in err


def test_play_with_an_option() -> None:
    result = tarot("play", "marolles-1637", "--seed", "5", "--option", "ultimo_failure=literal")
    assert result.returncode == 0, result.stderr
    assert "Net (marques): " in result.stdout


def test_play_with_an_unknown_option_is_refused() -> None:
    err = refused(tarot("play", "marolles-1637", "--option", "nope=x"), 2)
    assert "tarot: error: --option: marolles-1637 has no option 'nope'" in err
    assert "ultimo_failure" in err, "the message should list the options"


def test_play_with_an_unknown_reading_is_refused() -> None:
    err = refused(tarot("play", "marolles-1637", "--option", "ultimo_failure=bad"), 2)
    assert "--option ultimo_failure: marolles-1637 has no reading 'bad'" in err
    assert "mcleod, literal" in err, "the message should list the readings"


def test_play_with_a_malformed_option_is_refused() -> None:
    err = refused(tarot("play", "marolles-1637", "--option", "ultimo_failure"), 2)
    assert "NAME=READING" in err


@pytest.mark.parametrize("hands", ["0", "-1"])
def test_play_refuses_fewer_than_one_hand(hands: str) -> None:
    # Refused as a usage error (argparse's status 2) or as a user mistake (1).
    result = tarot("play", "marolles-1637", "--hands", hands)
    assert result.returncode in (1, 2), result
    assert "Traceback" not in result.stderr
    assert "--hands" in result.stderr
    assert result.stdout == ""


# --- record and replay ----------------------------------------------------------------------


def test_record_to_stdout_replays(record_text: str) -> None:
    record = json.loads(record_text)
    assert record["ruleset"]["id"] == "marolles-1637"
    assert record["seed"] == 5
    assert len(record["hands"]) == 1
    result = tarot("replay", "-", stdin=record_text)
    assert result.returncode == 0, result.stderr
    assert "1 hand(s) replayed" in result.stdout


def test_record_piped_from_play_to_replay() -> None:
    play = tarot("play", "marolles-1637", "--seed", "5", "--record", "-")
    assert play.returncode == 0, play.stderr
    assert "Trick" in play.stderr, "with --record - the transcript goes to stderr"
    replay = tarot("replay", "-", stdin=play.stdout)
    assert replay.returncode == 0, replay.stderr


def test_record_written_to_a_file_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    play = tarot("play", "marolles-1637", "--seed", "5", "--hands", "2", "--record", str(path))
    assert play.returncode == 0, play.stderr
    assert f"record written to {path}" in play.stdout
    replay = tarot("replay", str(path))
    assert replay.returncode == 0, replay.stderr
    assert "2 hand(s) replayed" in replay.stdout


def test_replay_refuses_a_changed_payment(tmp_path: Path, record: dict) -> None:
    record["hands"][0]["payments"][3]["amount"] += 1
    path = write_record(tmp_path, record)
    err = refused(tarot("replay", str(path)))
    assert err.startswith(f"{path}: $.hands[0].payments[3].amount: recorded"), err


def test_replay_refuses_an_illegal_card(tmp_path: Path, record: dict) -> None:
    decisions = record["hands"][0]["decisions"]
    index = next(i for i, d in enumerate(decisions) if d["kind"] == "play")
    seat = decisions[index]["seat"]
    held = set(record["hands"][0]["hands_dealt"][seat])
    illegal = next(c for c in record["hands"][0]["pack"] if c not in held)
    decisions[index]["choice"] = illegal
    path = write_record(tmp_path, record)
    err = refused(tarot("replay", str(path)))
    assert err.startswith(f"{path}: $.hands[0].decisions[{index}]: illegal"), err
    assert repr(illegal) in err


def test_replay_refuses_a_truncated_record(tmp_path: Path, record_text: str) -> None:
    path = write_record(tmp_path, record_text[: len(record_text) // 2])
    err = refused(tarot("replay", str(path)))
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: not JSON", err), err


def test_replay_refuses_a_record_with_a_key_removed(tmp_path: Path, record: dict) -> None:
    del record["hands"][0]["net"]
    path = write_record(tmp_path, record)
    err = refused(tarot("replay", str(path)))
    assert err.startswith(f"{path}: $.hands[0]:"), err
    assert "'net'" in err


def test_replay_refuses_changed_totals(tmp_path: Path, record: dict) -> None:
    record["totals"][0] += 1
    path = write_record(tmp_path, record)
    err = refused(tarot("replay", str(path)))
    assert err.startswith(f"{path}: $.totals[0]: recorded"), err


def test_replay_refuses_a_record_that_stops_early(tmp_path: Path, record: dict) -> None:
    record["hands"][0]["decisions"].pop()
    path = write_record(tmp_path, record)
    err = refused(tarot("replay", str(path)))
    assert err.startswith(f"{path}: $.hands[0].decisions:"), err


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.json"
    err = refused(tarot("replay", str(path)))
    assert err.startswith(f"{path}: cannot read"), err


def test_replay_refuses_a_record_with_an_unknown_option_reading(
    tmp_path: Path, record: dict
) -> None:
    record["ruleset"]["options"]["ultimo_failure"] = "bad"
    path = write_record(tmp_path, record)
    err = refused(tarot("replay", str(path)))
    assert err.startswith(f"{path}: $.ruleset.options.ultimo_failure"), err
