"""Zones as bitmasks against zones as lists, measured on the positions random hands reach.

The plan's step 4 (`docs/design/engine2.md`) keeps a seat's hand as an int mask. The hand's
order is seen from outside: a seat's legal cards come in hand order, and a random player
picks among them by position, so records keep that order only if the legal cards are
handed out in it. This script takes every card decision of random hands of a ruleset and
times, in the same process and alternated, ways to the legal cards of the common case
(the suit led followed when the hand has it, else the whole hand):

- `engine`: the engine's own `tricks.legal_cards` (all the trick rules), for scale;
- `list`: the follow-suit step alone on the hand as a list;
- `mask, hand order`: the same step with the hand's mask and per-suit masks from the deck's
  tables, then the cards of the legal mask listed in hand order (what records need);
- `mask, card order`: the same masks, the cards listed by card index (records would change).

It also times copying the hands: lists (`Zones.copy`'s share) against ints. Prints numbers;
stops only if the last three ways disagree on the set of cards.

    python benchmarks/zone_masks.py [--ruleset marolles-1637] [--hands 60] [--rounds 7]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine

from tarot.compile.loader import load_ruleset
from tarot.core.actions import DecisionKind
from tarot.engine.game import deal_hand
from tarot.engine.tricks import legal_cards
from tarot.load import paths
from tarot.players.random_agent import RandomAgent

Position = tuple[list[int], list[tuple[int, int]]]  # (hand, trick)


def positions(name: str, hands: int) -> tuple[object, list[Position]]:
    """The ruleset and every card decision of `hands` random hands: the hand and the trick."""
    ruleset = load_ruleset(paths.builtin_rulesets()[name])
    agents = [RandomAgent(seat) for seat in range(ruleset.players)]
    found: list[Position] = []
    for number in range(1, hands + 1):
        state = deal_hand(ruleset, 1, number)
        while (decision := state.decision) is not None:
            if decision.kind == DecisionKind.PLAY:
                found.append((list(state.zones.hands[decision.seat]), list(state.zones.trick)))
            state.apply_action(agents[decision.seat].choose(state, decision.seat))
    return ruleset, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="marolles-1637")
    parser.add_argument("--hands", type=int, default=60, help="random hands to take positions from")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds of each way")
    args = parser.parse_args()
    ruleset, found = positions(args.ruleset, args.hands)
    pack, rules = ruleset.deck.cards, ruleset.play  # type: ignore[attr-defined]
    excuses = pack.fools
    suit_mask: dict[object, int] = {}
    for card in range(len(pack)):
        if card not in excuses:
            suit_mask[pack.suit[card]] = suit_mask.get(pack.suit[card], 0) | 1 << card
    masks = [sum(1 << c for c in hand) for hand, _trick in found]

    fools = sum(1 << card for card in excuses)
    suits = pack.suit
    leads = [next((c for _s, c in trick if c not in excuses), None) for _hand, trick in found]

    def engine() -> None:
        for hand, trick in found:
            legal_cards(rules, pack, hand, trick, excuses)

    def by_list() -> list[list[int]]:
        result = []
        for (hand, _trick), lead in zip(found, leads, strict=True):
            if lead is None:
                result.append(list(hand))
                continue
            suit = suits[lead]
            legal = [c for c in hand if suits[c] == suit and c not in excuses]
            result.append(legal + [c for c in hand if c in excuses] if legal else list(hand))
        return result

    def by_mask(hand_order: bool) -> Callable[[], list[list[int]]]:
        def run() -> list[list[int]]:
            result = []
            for (hand, _trick), lead, mask in zip(found, leads, masks, strict=True):
                legal = mask & suit_mask[suits[lead]] if lead is not None else 0
                legal = legal | (mask & fools) if legal else mask
                if hand_order:
                    result.append([c for c in hand if legal >> c & 1])
                else:
                    result.append([c for c in range(legal.bit_length()) if legal >> c & 1])
            return result

        return run

    ways = {
        "engine": engine,
        "list": by_list,
        "mask, hand order": by_mask(True),
        "mask, card order": by_mask(False),
    }
    answers = [sorted(map(sorted, way())) for way in list(ways.values())[1:]]  # type: ignore[arg-type]
    if any(answer != answers[0] for answer in answers):
        raise SystemExit("the ways disagree on the cards that follow suit")
    spent = dict.fromkeys(ways, 0.0)
    for _ in range(args.rounds):
        for label, way in ways.items():
            start = time.process_time()
            way()
            spent[label] += time.process_time() - start
    count = len(found) * args.rounds
    print(f"{args.ruleset}: {len(found)} card decisions of {args.hands} random hands")
    for label, seconds in spent.items():
        print(f"  legal cards, {label:17} {seconds / count * 1e9:7.0f} ns a decision")
    hands_lists = [hand for hand, _trick in found[: ruleset.players]]  # type: ignore[attr-defined]
    hand_masks = masks[: ruleset.players]  # type: ignore[attr-defined]
    copies = 20_000
    for label, copy in (
        ("lists", lambda: [list(hand) for hand in hands_lists]),
        ("ints", lambda: list(hand_masks)),
    ):
        start = time.process_time()
        for _ in range(copies):
            copy()
        each = (time.process_time() - start) / copies
        print(f"  copy of the hands as {label:5} {each * 1e9:7.0f} ns")


if __name__ == "__main__":
    main()
