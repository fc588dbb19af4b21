"""`python -m tests.independent RECORD.json [HAND]`: check a French Tarot game record (or one
hand of it) against the independent reading of 003 and print each hand's first difference.
Exit 0 when every difference is a known doubt, 1 otherwise."""

from __future__ import annotations

import json
import sys

from .compare import hand_difference, record_differences


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print("usage: python -m tests.independent RECORD.json [HAND]", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as file:
        record = json.load(file)
    if len(argv) == 2:
        hand = record["hands"][int(argv[1]) - 1]
        found = [d for d in [hand_difference(hand, record["ruleset"]["options"])] if d]
    else:
        found = record_differences(record)
    for difference in found:
        label = f"known ({difference.known})" if difference.known else "DIFFERS"
        print(f"hand {difference.hand}: {label}: {difference.text}")
    checked = 1 if len(argv) == 2 else len(record["hands"])
    print(f"{checked} hand(s) checked, {len(found)} with a difference")
    return 1 if any(not d.known for d in found) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
