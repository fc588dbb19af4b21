"""Writes the record attack cases of this folder (`record-*.json` and `record-*.case.yaml`):
two genuine records made with the tool, and copies of them tampered with one way each, every
case with the words its refusal must hold. The files are committed; run this again (from the
repository root: `python tests/data/attacks/records/make_record_attacks.py`) only to remake
them after a deliberate change of the record format or of the built-in rulesets.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]

# a whole game played to a score (three hands, seat 1 wins), and two hands of a game whose
# first hand is dealt three times (two deals thrown in)
GAME = ["early-french-3", "--seed", "2", "--agents", "heuristic"]
REDEALS = ["jeu-de-tarot-3", "--seed", "26", "--hands", "2", "--agents", "heuristic"]


def made_with_the_tool(play_args: list[str]) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "tarot", "play", *play_args, "--quiet", "--record", "-"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def text_of(record: dict) -> str:
    """As the tool writes a record."""
    return json.dumps(record, indent=1) + "\n"


def compact(record: dict) -> str:
    """Tampered copies are kept small, on one line (replay reads any JSON layout)."""
    return json.dumps(record, separators=(",", ":")) + "\n"


def case(name: str, description: str, data: bytes | str | None, expect: list[str], **more) -> None:
    """`data`: the record's bytes (None: the case needs no file of its own)."""
    file = HERE / f"record-{name}.json"
    if data is not None:
        file.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    spec = {
        "description": description,
        "args": more.pop("args", ["replay", f"{{here}}/{file.name}"]),
        "exit": more.pop("exit", 1),
        "expect": [words.replace("{file}", file.name) for words in expect],
        **more,
    }
    text = yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=100)
    (HERE / f"record-{name}.case.yaml").write_text(text, encoding="utf-8")


def tampered(record: dict, change: Callable[[dict], object]) -> str:
    copied = copy.deepcopy(record)
    change(copied)
    return compact(copied)


def main() -> None:
    game, redeals = made_with_the_tool(GAME), made_with_the_tool(REDEALS)
    assert len(game["hands"]) == 3 and game["game_winners"] == [1]
    assert [len(h["abandoned_deals"]) for h in redeals["hands"]] == [2, 0]
    case(
        "genuine-game",
        "a record made by tarot play (a whole game to a score) verifies",
        text_of(game),
        ["{file}: 3 hand(s) replayed"],
        exit=0,
    )
    case(
        "genuine-redeals",
        "a record made by tarot play with deals thrown in and dealt again verifies",
        text_of(redeals),
        ["{file}: 2 hand(s) replayed"],
        exit=0,
    )
    path_id = tampered(game, lambda r: r["ruleset"].update(id="/etc/passwd"))
    case(
        "ruleset-id-path",
        "a record whose ruleset id is a path is refused by the schema; the file is not opened",
        path_id,
        ["{file}: $.ruleset.id: '/etc/passwd' does not match"],
        forbid=["root:x:0:0"],
    )
    case(
        "ruleset-id-relative-path",
        "a record whose ruleset id climbs out of the folder is refused; nothing is opened",
        tampered(game, lambda r: r["ruleset"].update(id="../../../etc/passwd")),
        ["{file}: $.ruleset.id: '../../../etc/passwd' does not match"],
        forbid=["root:x:0:0"],
    )
    case(
        "ruleset-id-not-builtin",
        "a record naming a folder of the working directory as its ruleset: only built-in "
        "rulesets are looked up by id",
        tampered(game, lambda r: r["ruleset"].update(id="tests")),
        ["{file}: $.ruleset.id: no built-in ruleset is named 'tests'", "--ruleset FILE"],
    )
    case(
        "ruleset-file-not-a-ruleset",
        "replaying with --ruleset naming a file that is not a ruleset does not show its content",
        text_of(game),
        ["{file}: the ruleset to replay with does not load", "tarot validate /etc/passwd"],
        args=["replay", "{here}/record-ruleset-file-not-a-ruleset.json"]
        + ["--ruleset", "/etc/passwd"],
        forbid=["root:x:0:0"],
    )
    case(
        "wrong-seed",
        "a record whose seed does not give its packs",
        tampered(game, lambda r: r.update(seed=r["seed"] + 1)),
        ["{file}: $.hands[0].pack[0]: recorded", "(what seed 3 deals in hand 1)"],
    )
    case(
        "hands-reordered",
        "a record whose first two hands are swapped",
        tampered(game, lambda r: r["hands"].insert(0, r["hands"].pop(1))),
        ["{file}: $.hands[0].number: recorded 2, expected 1"],
    )

    def swap_and_renumber(record: dict) -> None:
        hands = record["hands"]
        hands[0], hands[1] = hands[1], hands[0]
        hands[0]["number"], hands[1]["number"] = 1, 2

    case(
        "hands-swapped-renumbered",
        "a record whose first two hands are swapped and numbered again to hide it",
        tampered(game, swap_and_renumber),
        ["{file}: $.hands[0].dealer: recorded seat 1, but the ruleset's rotation gives seat 0"],
    )

    def renumber(record: dict) -> None:
        for hand in record["hands"]:
            hand["number"] += 1

    case(
        "hands-renumbered",
        "a record whose hands are numbered from 2",
        tampered(game, renumber),
        ["{file}: $.hands[0].number: recorded 2, expected 1"],
    )
    case(
        "hand-dropped",
        "a record with its middle hand taken out",
        tampered(game, lambda r: r["hands"].pop(1)),
        ["{file}: $.hands[1].number: recorded 3, expected 2"],
    )
    case(
        "hand-counted-twice",
        "a record with a hand given twice",
        tampered(game, lambda r: r["hands"].insert(1, r["hands"][0])),
        ["{file}: $.hands[1].number: recorded 1, expected 2"],
    )

    def copy_as_next(record: dict) -> None:
        again = copy.deepcopy(record["hands"][0])
        record["hands"].insert(1, again)
        for number, hand in enumerate(record["hands"], start=1):
            hand["number"] = number

    case(
        "hand-copied-as-next",
        "a record with its first hand copied as the second, every hand numbered again",
        tampered(game, copy_as_next),
        ["{file}: $.hands[1].dealer: recorded seat 0, but the ruleset's rotation gives seat 1"],
    )
    case(
        "wrong-dealer",
        "a record whose second hand is dealt by the wrong seat",
        tampered(game, lambda r: r["hands"][1].update(dealer=2)),
        ["{file}: $.hands[1].dealer: recorded seat 2, but the ruleset's rotation gives seat 1"],
    )
    case(
        "wrong-winners",
        "a record that names another seat as the game's winner",
        tampered(game, lambda r: r.update(game_winners=[2])),
        ["{file}: $.game_winners[0]: recorded 2, replayed 1"],
    )
    case(
        "no-winners",
        "a record that says a game ended within its hands has no winner",
        tampered(game, lambda r: r.update(game_winners=[])),
        ["{file}: $.game_winners: recorded 0 entries, replayed 1"],
    )
    case(
        "extra-seat",
        "a record with a seat more than the ruleset has players",
        tampered(game, lambda r: r["seats"].append({"seat": 3, "agent": "heuristic"})),
        ["{file}: $.seats: recorded 4 seat(s), but early-french-3 is played by 3"],
    )
    case(
        "unknown-player",
        "a record naming a player the tool does not have",
        tampered(game, lambda r: r["seats"][2].update(agent="grandmaster")),
        ["{file}: $.seats[2].agent: recorded 'grandmaster', not a player this tool has"],
    )
    case(
        "seat-as-real-number",
        "a record giving a dealer as 1.0: integers are integers",
        tampered(game, lambda r: r["hands"][1].update(dealer=1.0)),
        ["{file}: $.hands[1].dealer: 1.0 is not of type 'integer'"],
    )
    case(
        "abandoned-deals-dropped",
        "a record whose hand leaves out the two deals thrown in before it",
        tampered(redeals, lambda r: r["hands"][0].update(abandoned_deals=[])),
        ["{file}: $.hands[0].pack[0]: recorded", "(what seed 26 deals in hand 1)"],
    )
    case(
        "abandoned-deal-repeated",
        "a record that gives the same thrown-in deal twice",
        tampered(
            redeals,
            lambda r: r["hands"][0]["abandoned_deals"].insert(
                1, r["hands"][0]["abandoned_deals"][0]
            ),
        ),
        ["{file}: $.hands[0].abandoned_deals[1].pack[0]: recorded"],
    )
    game_text = compact(game)
    case(
        "duplicate-key",
        "a record with the key seed twice: JSON readers differ on which one counts",
        game_text.replace('"seed":2,', '"seed":2,"seed":3,', 1),
        ["{file}: $: the key 'seed' is given twice"],
    )
    case(
        "duplicate-key-in-hand",
        "a record with a hand's dealer given twice",
        game_text.replace('"dealer":0,', '"dealer":0,"dealer":1,', 1),
        ["{file}: $.hands[0]: the key 'dealer' is given twice"],
    )
    nan = game_text.replace('"totals":[', '"totals":[NaN,', 1)
    case(
        "nan",
        "a record with a bare NaN (not JSON, as an old tool wrote it)",
        nan,
        ["not JSON: NaN is not a number JSON has"],
    )
    case(
        "infinity",
        "a record with -Infinity",
        game_text.replace('"seed":2,', '"seed":-Infinity,', 1),
        ["{file}:1:", "not JSON: -Infinity is not a number JSON has"],
    )
    case(
        "huge-float",
        "a record with a number too large for a float",
        game_text.replace('"seed":2,', '"seed":1e999,', 1),
        ["{file}:1:", "the number 1e999 is too large to hold"],
    )
    case(
        "huge-int",
        "a record whose seed has 5,000 digits (more than Python converts)",
        game_text.replace('"seed":2,', '"seed":' + "7" * 5000 + ",", 1),
        ["{file}:1:", "an integer of 5000 digits"],
    )
    case(
        "deep-nesting",
        "a record nested 5,000 deep",
        "[" * 5000 + "]" * 5000,
        ["{file}:1:17: not a record: nested more than 16 deep"],
    )
    case(
        "deep-nesting-in-a-value",
        "a record whose seed is a list nested 500 deep",
        game_text.replace('"seed":2,', '"seed":' + "[" * 500 + "]" * 500 + ",", 1),
        ["{file}:1:", "not a record: nested more than 16 deep"],
    )
    invalid = game_text.encode("utf-8").replace(b'"agent":"heuristic"', b'"agent":"\xff\xfe"', 1)
    case(
        "invalid-utf8",
        "a record with bytes that are not UTF-8 in a player's name",
        invalid,
        ["{file}:", "not UTF-8: the byte 0xff cannot be here"],
    )
    case("empty", "an empty record file", b"", ["{file}: empty: not a record"])
    case(
        "not-an-object",
        "a record that is a JSON list",
        "[1, 2, 3]\n",
        ["{file}: $: [1, 2, 3] is not of type 'object'"],
    )
    case(
        "directory",
        "a folder given as the record",
        None,
        ["cannot read: Is a directory"],
        args=["replay", "{here}"],
    )
    case(
        "stdin-nan",
        "a record on standard input with NaN in it",
        None,
        ["standard input:1:25: not JSON: NaN is not a number JSON has"],
        args=["replay", "-"],
        stdin='{"format": "x", "seed": NaN}',
    )


if __name__ == "__main__":
    main()
