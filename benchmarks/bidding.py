"""How a player bids and announces: the hands it bids on, and what becomes of its contracts.

A benchmark beside `strength.py` (issue "Players worth playing against"): it plays hands with
one kind of player in every seat, reads each hand's record, and prints, for every choice made
at a bid, how strong the hands were on which that choice was made (trumps held and the card
points of the hand as dealt, before any talon), and for every contract that became the
taker's, how often the taker came out ahead. Then every announcement and declaration made
(each choice other than a pass or "none"), with how often the one who made it came out
ahead in that hand. A player that bids on weak hands shows it in the first table; one that
announces at random shows it in the second.

    python benchmarks/bidding.py french-tarot --agents search --hands 200 --jobs 2

Nothing in it names a game: strength is read from the pack (trumps, card points).
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import tarot
from tarot.measure.statistics import wilson

SILENT_CHOICES = {"pass", "none", "no"}


def is_silent(choice: str) -> bool:
    """A pass, or a declaration's "none" (records write it `DECLARATION:none`)."""
    return choice in SILENT_CHOICES or choice.rpartition(":")[2] in SILENT_CHOICES


@dataclass
class BidSeen:
    choice: str
    trumps: int
    points: float


@dataclass
class HandSeen:
    bids: list[BidSeen] = field(default_factory=list)
    contract: str | None = None
    taker_net: float | None = None
    announcements: list[tuple[str, float]] = field(default_factory=list)


def _card_facts(ruleset: tarot.Ruleset) -> tuple[dict[str, bool], dict[str, float]]:
    trumps = {card: card.is_trump for card in ruleset.cards}
    points = {card: float(card.points) for card in ruleset.cards}
    return trumps, points


def read_hand(ruleset_name: str, seed: int, hand: int, agents: str) -> HandSeen:
    """Plays one hand and reads what every seat bid on and announced."""
    ruleset = tarot.load(ruleset_name)
    is_trump, points = _card_facts(ruleset)
    record = tarot.play(ruleset, seed=seed, agents=agents, hand=hand).record()
    seen = HandSeen()
    for played in record["hands"]:
        dealt = played["hands_dealt"]
        net = played["net"]
        taker = None
        for decision in played["decisions"]:
            seat, kind, choice = decision["seat"], decision["kind"], str(decision["choice"])
            if kind == "bid":
                cards = dealt[seat]
                seen.bids.append(
                    BidSeen(
                        choice=choice,
                        trumps=sum(is_trump[c] for c in cards),
                        points=sum(points[c] for c in cards),
                    )
                )
                if not is_silent(choice):
                    taker, seen.contract = seat, choice
            elif kind in ("announce", "declare") and not is_silent(choice):
                seen.announcements.append((f"{kind} {choice}", net[seat]))
        if taker is not None:
            seen.taker_net = net[taker]
    return seen


def _rate(successes: int, n: int) -> str:
    """A share with its 95% Wilson interval."""
    interval = wilson(successes, n)
    if interval is None:
        return "-"
    low, high = interval
    return f"{100 * successes / n:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _mean(values: Iterable[float]) -> str:
    values = list(values)
    return f"{statistics.fmean(values):6.2f}" if values else "-"


def report(hands: list[HandSeen], ruleset_name: str, agents: str) -> str:
    lines = [f"{ruleset_name}, {agents} in every seat, {len(hands)} hands"]
    by_choice: dict[str, list[BidSeen]] = defaultdict(list)
    for hand in hands:
        for bid in hand.bids:
            by_choice[bid.choice].append(bid)
    lines.append("")
    lines.append("bids: the hands each choice was made on (as dealt)")
    lines.append(f"  {'choice':<16}{'n':>6}{'trumps':>9}{'points':>9}")
    for choice, bids in sorted(by_choice.items(), key=lambda item: -len(item[1])):
        trumps = _mean(b.trumps for b in bids)
        points = _mean(b.points for b in bids)
        lines.append(f"  {choice:<16}{len(bids):>6}{trumps:>9}{points:>9}")
    taken: dict[str, list[float]] = defaultdict(list)
    for hand in hands:
        if hand.contract is not None and hand.taker_net is not None:
            taken[hand.contract].append(hand.taker_net)
    lines.append("")
    lines.append("contracts taken: the taker ahead after the hand (95% Wilson interval)")
    lines.append(f"  {'contract':<16}{'n':>6}  {'taker ahead':<24}{'taker mean net':>15}")
    for contract, nets in sorted(taken.items(), key=lambda item: -len(item[1])):
        ahead = _rate(sum(n > 0 for n in nets), len(nets))
        lines.append(f"  {contract:<16}{len(nets):>6}  {ahead:<24}{_mean(nets):>15}")
    passed = sum(hand.contract is None for hand in hands)
    lines.append(f"  no contract (all passed): {passed} of {len(hands)} hands")
    made: dict[str, list[float]] = defaultdict(list)
    for hand in hands:
        for what, net in hand.announcements:
            made[what].append(net)
    lines.append("")
    lines.append("announcements and declarations made: the one who made it ahead after the hand")
    if not made:
        lines.append("  none made")
    for what, nets in sorted(made.items(), key=lambda item: -len(item[1])):
        ahead = _rate(sum(n > 0 for n in nets), len(nets))
        lines.append(f"  {what:<28}{len(nets):>6}  {ahead:<24}{_mean(nets):>9}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ruleset", help="a built-in ruleset's name or a ruleset file")
    parser.add_argument("--agents", default="search", help="the player in every seat")
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    numbers = range(1, args.hands + 1)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        hands = list(
            pool.map(
                read_hand,
                [args.ruleset] * len(numbers),
                [args.seed] * len(numbers),
                numbers,
                [args.agents] * len(numbers),
            )
        )
    print(report(hands, args.ruleset, args.agents))


if __name__ == "__main__":
    main()
