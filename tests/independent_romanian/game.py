"""A recorded sitting of Romanian Tarok read hand by hand, with what carries from one hand to
the next: the pool (fed when empty by every player, by the dealer each hand, in Michi-michi by
each trick taken; shared equally at the end of the sitting) and the four hands at double
stakes after a Michi-michi."""

from __future__ import annotations

from fractions import Fraction

from .hand import PLAYERS, RuleBroken, read_hand

ROUNDS = {"one": 1, "two": 2}


def sitting_differences(record: dict) -> list[str]:
    """Every hand's first difference from the text, as 'hand N: ...'."""
    options = record["ruleset"]["options"]
    last_hand = ROUNDS[options.get("sitting_rounds", "one")] * PLAYERS
    pool, double_stakes = Fraction(0), 0
    found = []
    for hand in record["hands"]:
        number = hand["number"]
        if hand["dealer"] != (number - 1) % PLAYERS:
            found.append(f"hand {number}: dealer {hand['dealer']}")
        paid = [Fraction(0)] * PLAYERS
        if pool <= 0:
            for seat in range(PLAYERS):
                paid[seat] += 1
            pool += PLAYERS
        paid[hand["dealer"]] += 1
        pool += 1
        try:
            reading = read_hand(hand, double_stakes, options)
        except RuleBroken as broken:
            found.append(f"hand {number}: the text forbids what the record does: {broken}")
            return found
        sides = hand.get("sides") or {}
        said = (sides.get("taker"), sides.get("contract"), sides.get("partner"))
        read = (reading.taker, reading.contract, reading.partner)
        if reading.contract == "michi":
            said = (None, sides.get("contract"), None)
        if said != read:
            found.append(f"hand {number}: taker, contract, partner: record {said}, text {read}")
            continue
        winners = [t["winner"] for t in hand["tricks"]]
        if winners != reading.trick_winners:
            found.append(f"hand {number}: trick winners {winners}, text {reading.trick_winners}")
            continue
        net = list(reading.net)
        if reading.contract == "michi":
            for seat, tricks in enumerate(reading.pool_paid):
                paid[seat] += tricks
                pool += tricks
            double_stakes = 4
        elif double_stakes > 0:
            double_stakes -= 1
        if reading.pagat_said:
            pool = _pagat_pool(reading, pool, paid)
        net = [n - p for n, p in zip(net, paid, strict=True)]
        if number == last_hand:
            net = [n + Fraction(pool, PLAYERS) for n in net]
            pool = 0
        # records write a number that is not whole as "8/3" (or a decimal where it is exact)
        if any(n != Fraction(str(r)) for n, r in zip(net, hand["net"], strict=True)):
            found.append(f"hand {number}: net {hand['net']}, text {[float(n) for n in net]}")
    return found


def _pagat_pool(reading, pool: Fraction, paid: list[Fraction]) -> Fraction:
    """An announced Pagat ultimo played for the pool (W): made, the declarer's side takes it;
    failed, it doubles it; contra'd, the side that failed is paid the pool by it... the losers
    bring it up to twice (four times...) what it held. Returns the pool left."""
    attackers, defenders = reading.attackers, reading.defenders
    factor = 2**reading.pagat_doublings
    winners, losers = (attackers, defenders) if reading.pagat_made else (defenders, attackers)
    if reading.pagat_made or reading.pagat_doublings:
        for seat in winners:
            paid[seat] -= pool / len(winners)
        left = Fraction(0)
    else:
        left = pool
    if reading.pagat_doublings or not reading.pagat_made:
        for seat in losers:
            paid[seat] += pool * factor / len(losers)
        left += pool * factor
    return left
