"""Proof that `plain_marolles.py` plays the game the engine plays under `marolles-1637`.

Records made by the engine (`python -m tarot play marolles-1637 --seed S --hands N
--record -`) are replayed through the plain program: each hand's pack and dealer, and each
recorded decision in turn (which must be among the plain program's legal moves, for the same
seat and kind of decision). Then every payment (rule, from, to, amount, in order), the card
points and the net per seat must be the same. Unless `--no-legal` is given, the engine plays
the same decisions alongside in this process, and its legal moves must be the plain
program's at every decision, so that neither allows a move the other refuses (the records
alone would not show a move the plain program allows and the engine refuses).

Prints how many hands agree and the first disagreement in detail; exits 1 if any disagree.

    python benchmarks/check_plain_marolles.py [--seeds 1,2,3,4] [--hands 250]
        [--record FILE ...] [--no-legal]
"""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import plain_marolles as plain

ROOT = Path(__file__).resolve().parent.parent  # the checkout whose engine is checked
sys.path.insert(0, str(ROOT))  # its engine, not the one installed in the environment
RULESET = "marolles-1637"


class Disagreement(Exception):
    """The engine's record and the plain program part ways; the message says how."""


def engine_record(seed: int, hands: int) -> dict:
    """A record made by the engine's command line, random players in every seat."""
    command = [sys.executable, "-m", "tarot", "play", RULESET]
    command += ["--seed", str(seed), "--hands", str(hands), "--record", "-"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@functools.cache
def engine_ruleset() -> object:
    from tarot.compile.loader import load_ruleset

    return load_ruleset(RULESET)


class EngineAlongside:
    """The engine playing the recorded decisions too, to compare its legal moves."""

    def __init__(self, seed: int, number: int) -> None:
        from tarot.engine.game import deal_hand

        self.state = deal_hand(engine_ruleset(), seed, number)

    def legal(self, seat: int) -> list[str]:
        if self.state.current_player() != seat:
            raise Disagreement(
                f"the engine asks seat {self.state.current_player()}, the plain program {seat}"
            )
        return sorted(str(action) for action in self.state.legal_actions())

    def apply(self, choice: str) -> None:
        self.state.apply_action(choice)


def replayer(decisions: list[dict], alongside: EngineAlongside | None) -> plain.Chooser:
    """A chooser that answers each question of the plain program with the next recorded
    decision, after checking that it is a legal answer to that question."""
    pending: Iterator[tuple[int, dict]] = enumerate(decisions)

    def choose(seat: int, kind: str, legal: list) -> object:
        step, decision = next(pending, (len(decisions), None))
        where = f"decision {step + 1}"
        if decision is None:
            raise Disagreement(
                f"{where}: the plain program asks seat {seat} to {kind}, "
                "but the record has no decision left"
            )
        if (decision["seat"], decision["kind"]) != (seat, kind):
            raise Disagreement(
                f"{where}: the record has seat {decision['seat']} {decision['kind']}, "
                f"the plain program asks seat {seat} to {kind}"
            )
        names = [name_of(move) for move in legal]
        if alongside is not None:
            engine_legal = alongside.legal(seat)
            if engine_legal != sorted(names):
                raise Disagreement(
                    f"{where} (seat {seat} {kind}): legal moves differ\n"
                    f"  engine only: {sorted(set(engine_legal) - set(names))}\n"
                    f"  plain only:  {sorted(set(names) - set(engine_legal))}"
                )
            alongside.apply(decision["choice"])
        if decision["choice"] not in names:
            raise Disagreement(
                f"{where}: seat {seat} {kind} {decision['choice']!r} is not legal for the "
                f"plain program; it allows {names}"
            )
        return legal[names.index(decision["choice"])]

    choose.left = lambda: sum(1 for _ in pending)  # type: ignore[attr-defined]
    return choose


def name_of(move: object) -> str:
    return move.name if isinstance(move, plain.Card) else str(move)


def check_hand(hand: dict, seed: int | None, legal: bool) -> None:
    """Raise Disagreement at the first difference between the record's hand and the plain
    program's replay of it."""
    if hand.get("abandoned_deals") or hand.get("thrown_in"):
        raise Disagreement("the record has a deal thrown in; the plain program never throws in")
    pack = [plain.CARDS_BY_NAME[name] for name in hand["pack"]]
    alongside = EngineAlongside(seed, hand["number"]) if legal and seed is not None else None
    choose = replayer(hand["decisions"], alongside)
    played = plain.play_hand(pack, hand["dealer"], choose)
    left = choose.left()
    if left:
        raise Disagreement(f"the plain program finished with {left} recorded decisions unused")
    engine = [(p["rule"], p["from"], p["to"], p["amount"]) for p in hand["payments"]]
    for index, (theirs, ours) in enumerate(zip(engine, played.payments, strict=False)):
        if theirs != ours:
            raise Disagreement(
                f"payment {index + 1} differs: engine {theirs}, plain {ours}\n"
                f"  engine payments: {engine}\n  plain payments:  {played.payments}"
            )
    if len(engine) != len(played.payments):
        shorter, longer = sorted((engine, played.payments), key=len)
        who = "engine" if longer is engine else "plain program"
        raise Disagreement(f"the {who} makes more payments: {longer[len(shorter) :]}")
    if hand["card_points"] != played.points:
        raise Disagreement(f"card points: engine {hand['card_points']}, plain {played.points}")
    if hand["net"] != played.net():
        raise Disagreement(f"net: engine {hand['net']}, plain {played.net()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1,2,3,4", help="comma-separated game seeds")
    parser.add_argument("--hands", type=int, default=250, help="hands per seed")
    parser.add_argument(
        "--record", nargs="*", default=[], help="check these record files instead of new ones"
    )
    parser.add_argument(
        "--no-legal",
        dest="legal",
        action="store_false",
        help="do not compare legal moves with the engine in this process (records only)",
    )
    args = parser.parse_args()
    try:
        seeds = [int(seed) for seed in args.seeds.split(",")]
    except ValueError:
        parser.error(f"--seeds: whole numbers separated by commas, not {args.seeds!r}")
    try:
        if args.record:
            records = [json.loads(Path(path).read_text()) for path in args.record]
        else:
            records = [engine_record(seed, args.hands) for seed in seeds]
    except (OSError, json.JSONDecodeError) as problem:
        print(f"error: cannot read a record: {problem}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as problem:
        print(f"error: the engine failed to make a record:\n{problem.stderr}", file=sys.stderr)
        return 1
    agree = total = 0
    first: str | None = None
    for record in records:
        if record["ruleset"]["id"] != RULESET:
            print(f"skipped: a record of {record['ruleset']['id']}, not {RULESET}")
            continue
        readings = record["ruleset"].get("options", {})
        other = {k: v for k, v in readings.items() if plain.READINGS.get(k) != v}
        if other:
            print(f"skipped: a record with readings the plain program does not play: {other}")
            continue
        for hand in record["hands"]:
            total += 1
            try:
                check_hand(hand, record.get("seed"), args.legal)
                agree += 1
            except Disagreement as problem:
                if first is None:
                    first = (
                        f"seed {record.get('seed')}, hand {hand['number']} "
                        f"(dealer {hand['dealer']}):\n{problem}"
                    )
    compared = "payments, card points, net" + (" and legal moves" if args.legal else "")
    print(f"{agree} of {total} hands agree ({compared} compared)")
    if first is not None:
        print(f"first disagreement: {first}")
    return 0 if agree == total and total else 1


if __name__ == "__main__":
    sys.exit(main())
