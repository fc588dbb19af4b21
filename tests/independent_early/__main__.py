"""`python -m tests.independent_early RECORD.json`: check an Early French Tarot game record
against the independent reading of 002 and print each hand's first difference. Exit 0 when
there is none, 1 otherwise."""

from __future__ import annotations

import json
import sys

from .game import record_differences


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.independent_early RECORD.json", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as file:
        record = json.load(file)
    found = record_differences(record)
    for difference in found:
        print(f"hand {difference.hand}: {difference.text}")
    print(f"{len(record['hands'])} hand(s) checked, {len(found)} difference(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
