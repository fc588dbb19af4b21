"""One Strawman Tarock hand read again from its record by the rules text, and a whole sitting:
the deal and any redeal, the claim, every trick, the card points and each seat's net.
`hand_difference` gives the first thing the record says that the text does not (or a rule the
record breaks), or None; `record_differences` does so for every hand of a sitting and for the
sitting's end."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import HONNEURS, KINGS, PAGAT, TAROT, counted, suit, trick_winner

PLAYERS = 2
HAND = 15  # cards in hand, dealt in three packs of five
PILES = 3  # piles of four in each straw man
CREDITS = 100  # a short round's stake
PAYS = {"claim_won": 30, "claimer_beaten": 40, "simple_won": 20, "bonus": 10}
TO_WIN = 36


class RuleBroken(Exception):
    """The record does something the text does not allow."""


@dataclass
class Reading:
    """What the text makes of the hand."""

    taker: int | None = None
    winners: list[int] = field(default_factory=list)  # of each trick
    points: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    net: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    shown: list = field(default_factory=list)  # (seat, cards) taken from the straw men


def deal(pack: list[str], dealer: int) -> tuple[list[list[str]], list[list[list[str]]]]:
    """The hands (three rounds of five from the dealer's other) and the straw men (four
    rounds of one card on each of a player's three piles), each pile bottom card first."""
    order = [1 - dealer, dealer]
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    at = 0
    for _ in range(3):
        for seat in order:
            hands[seat] += pack[at : at + HAND // 3]
            at += HAND // 3
    piles: list[list[list[str]]] = [[[] for _ in range(PILES)] for _ in range(PLAYERS)]
    for _ in range(4):
        for seat in order:
            for pile in piles[seat]:
                pile.append(pack[at])
                at += 1
    if at != len(pack):
        raise RuleBroken(f"a pack of {len(pack)} cards, 54 expected")
    return hands, piles


def _without_tarot(hands: list[list[str]]) -> list[int]:
    return [seat for seat, cards in enumerate(hands) if not any(suit(c) == TAROT for c in cards)]


def _redeal_asked(hands: list[list[str]], decisions: list[dict], options: dict) -> bool:
    """Whether the deal is made again: at once (German reading) or asked for by a player
    without a tarot (English); every redeal word checked."""
    lacking = _without_tarot(hands)
    words = [d for d in decisions if d["kind"] == "redeal"]
    if options.get("no_tarot_redeal") == "always":
        if words:
            raise RuleBroken("a redeal asked about where the deal is made again at once")
        return bool(lacking)
    asked = False
    for word in words:
        if word["seat"] not in lacking:
            raise RuleBroken(f"seat {word['seat']} has a tarot and was asked about a redeal")
        asked = asked or word["choice"].endswith(":redeal")
    if not asked and sorted(w["seat"] for w in words) != lacking:
        raise RuleBroken(f"seats {lacking} hold no tarot and were not all asked")
    return asked


def _claim(bids: list[dict], dealer: int, options: dict) -> int | None:
    """The claimer, or None for a simple game: the player who did not deal speaks first."""
    forehand = 1 - dealer
    taker = None
    for turn, bid in enumerate(bids):
        seat, word = bid["seat"], bid["choice"]
        if seat != (forehand if turn == 0 else dealer) or turn > 1:
            raise RuleBroken(f"seat {seat} speaks out of turn in the claim")
        if word == "claim":
            if taker is not None or (
                seat == dealer and options.get("dealer_claims") != "dealer_after"
            ):
                raise RuleBroken(f"seat {seat} may not claim")
            taker = seat
        elif word != "pass":
            raise RuleBroken(f"seat {seat} says {word!r}")
    return taker


def _legal(available: list[str], trick: list[tuple[int, str]]) -> list[str]:
    """Follow suit, else a tarot, else anything."""
    if not trick:
        return available
    led = suit(trick[0][1])
    following = [c for c in available if suit(c) == led]
    if following:
        return following
    return [c for c in available if suit(c) == TAROT] or available


def _turn_up(hands: list[list[str]], piles: list[list[list[str]]], shown: list) -> None:
    """Each player's straw men looked at: a tarot or King lying face up goes into the hand,
    shown to the other, and the next card is turned, until every pile shows a lesser suit
    card or is empty. What each player took is added to `shown` as (seat, cards)."""
    for seat, seat_piles in enumerate(piles):
        taken = []
        while any(pile and _to_hand(pile[-1]) for pile in seat_piles):
            for pile in seat_piles:
                if pile and _to_hand(pile[-1]):
                    taken.append(pile.pop())
        hands[seat] += taken
        if taken:
            shown.append((seat, sorted(taken)))


def _to_hand(card: str) -> bool:
    return suit(card) == TAROT or card in KINGS


def play(
    hands, piles, leader: int, cards: list[dict]
) -> tuple[list[int], list[list[str]], list, list]:
    """Every card checked legal: the trick winners, each seat's tricks, the last trick, and
    the straw cards taken into a hand as (seat, cards) in order."""
    hands = [list(h) for h in hands]
    piles = [[list(p) for p in seat_piles] for seat_piles in piles]
    shown: list = []
    _turn_up(hands, piles, shown)  # once the claim is decided
    winners: list[int] = []
    taken: list[list[str]] = [[] for _ in range(PLAYERS)]
    trick: list[tuple[int, str]] = []
    last: list[tuple[int, str]] = []
    for decision in cards:
        seat, card = decision["seat"], decision["choice"]
        expected = leader if not trick else 1 - trick[0][0]
        if seat != expected:
            raise RuleBroken(f"seat {seat} plays out of turn in trick {len(winners) + 1}")
        available = hands[seat] + [p[-1] for p in piles[seat] if p]
        if card not in _legal(available, trick):
            raise RuleBroken(f"seat {seat} may not play {card} in trick {len(winners) + 1}")
        if card in hands[seat]:
            hands[seat].remove(card)
        else:
            next(p for p in piles[seat] if p and p[-1] == card).pop()
        trick.append((seat, card))
        if len(trick) == PLAYERS:
            leader = trick_winner(trick)
            winners.append(leader)
            taken[leader] += [c for _s, c in trick]
            last, trick = trick, []
            _turn_up(hands, piles, shown)  # the next card of a straw man played from
    if trick or any(hands) or any(p for seat_piles in piles for p in seat_piles):
        raise RuleBroken("the hand ends with cards still to play")
    return winners, taken, last, shown


def read_hand(hand: dict, options: dict, simplified: bool) -> Reading:
    """The text's reading of one recorded hand, under the record's options."""
    dealer = hand["dealer"]
    for abandoned in hand.get("abandoned_deals") or []:
        dealt, _piles = deal(abandoned["pack"], dealer)
        if not _redeal_asked(dealt, abandoned.get("decisions", []), options):
            raise RuleBroken("a deal thrown in that nothing in the text throws in")
    hands, piles = deal(hand["pack"], dealer)
    if _redeal_asked(hands, hand["decisions"], options):
        raise RuleBroken("the deal played is one the text makes again")
    taker = _claim([d for d in hand["decisions"] if d["kind"] == "bid"], dealer, options)
    leader = 1 - dealer if taker is None else taker
    cards = [d for d in hand["decisions"] if d["kind"] == "play"]
    others = {d["kind"] for d in hand["decisions"]} - {"redeal", "bid", "play"}
    if others:
        raise RuleBroken(f"decisions the text has not: {sorted(others)}")
    winners, taken, last, shown = play(hands, piles, leader, cards)
    points = [counted(pile, simplified) for pile in taken]
    won = [p >= TO_WIN for p in points]
    net = [0] * PLAYERS

    def pay(to: int, amount: int) -> None:
        net[to] += amount
        net[1 - to] -= amount

    for seat in range(PLAYERS):
        if won[seat]:
            if taker is None:
                pay(seat, PAYS["simple_won"])
            else:
                pay(seat, PAYS["claim_won"] if seat == taker else PAYS["claimer_beaten"])
            if points[seat] >= 50:
                pay(seat, 2 * PAYS["bonus"])
            elif points[seat] >= 40:
                pay(seat, PAYS["bonus"])
        if all(c in taken[seat] for c in HONNEURS):
            pay(seat, PAYS["bonus"])
        if all(c in taken[seat] for c in KINGS):
            pay(seat, PAYS["bonus"])
        pagat = [s for s, c in last if c == PAGAT]
        literal = options.get("pagat_ultimo") == "pagat_taken"
        if pagat and winners[-1] == seat and (literal or pagat[0] == seat):
            pay(seat, PAYS["bonus"])
    return Reading(taker, winners, points, net, shown)


def hand_difference(hand: dict, options: dict, simplified: bool) -> str | None:
    """The first thing the record says of the hand that the text does not, or None."""
    try:
        reading = read_hand(hand, options, simplified)
    except RuleBroken as broken:
        return str(broken)
    sides = hand.get("sides") or {}
    recorded_taker = sides.get("taker") if sides.get("contract") == "claim" else None
    if recorded_taker != reading.taker:
        return f"claimer: recorded {recorded_taker}, the text {reading.taker}"
    recorded_shown = [(s["seat"], sorted(s["cards"])) for s in hand["shown"]]
    if recorded_shown != reading.shown:
        return f"straw cards taken: recorded {recorded_shown}, the text {reading.shown}"
    recorded_winners = [t["winner"] for t in hand["tricks"]]
    if recorded_winners != reading.winners:
        return f"trick winners: recorded {recorded_winners}, the text {reading.winners}"
    if hand["card_points"] != reading.points:
        return f"card points: recorded {hand['card_points']}, the text {reading.points}"
    if hand["net"] != reading.net:
        return f"net: recorded {hand['net']}, the text {reading.net}"
    return None


def record_differences(record: dict) -> list[str]:
    """Every hand of a recorded sitting the text reads otherwise, as `hand N: why`, and the
    sitting's end: the dealers alternate, the sitting stops once a player has lost his 100
    credits, and the other wins it."""
    options = record["ruleset"]["options"]
    simplified = record["ruleset"]["id"].endswith("simplified")
    found = []
    totals = [0] * PLAYERS
    hands = record["hands"]
    for number, hand in enumerate(hands, start=1):
        if hand["dealer"] != (number - 1) % PLAYERS:
            found.append(f"hand {number}: dealt by seat {hand['dealer']}")
        difference = hand_difference(hand, options, simplified)
        if difference is not None:
            found.append(f"hand {number}: {difference}")
        totals = [t + n for t, n in zip(totals, hand["net"], strict=True)]
        over = any(t <= -CREDITS for t in totals)
        if over != (number == len(hands)):
            found.append(
                f"hand {number}: totals {totals}, the sitting {'ends' if over else 'goes on'}"
            )
    if record.get("totals") != totals:
        found.append(f"totals: recorded {record.get('totals')}, the text {totals}")
    winners = [s for s in range(PLAYERS) if totals[s] > -CREDITS]
    if record.get("game_winners") != winners:
        found.append(f"winners: recorded {record.get('game_winners')}, the text {winners}")
    return found
