"""One Tapp-Tarock hand read again from its record by the rules text: the deal, the auction,
the tapp and the discards, the announcements and kontras, every trick, the card points and
each seat's net. `hand_difference` gives the first thing the record says that the text does
not (or a rule the record breaks), or None."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import KINGS, TRULL, TRUMP, counted, rank, suit

PLAYERS = 3
LEVELS = ["three", "two", "one", "solo"]
VALUES = {"three": 10, "two": 20, "one": 30, "solo": 50, "bridscher": 10}
PACKETS = {"three": 2, "two": 3, "one": 6}
BONUSES = ("pagat_ultimo", "trull", "four_kings", "with_40", "with_50")
SILENT = {"pagat_ultimo": 10, "trull": 10, "four_kings": 10, "with_40": 10, "with_50": 20}


class RuleBroken(Exception):
    """The record does something the text does not allow."""


@dataclass
class Reading:
    """What the text makes of the hand."""

    contract: str = "bridscher"
    taker: int | None = None
    winners: list[int] = field(default_factory=list)
    taker_points: int | None = None
    seat_points: list[int] | None = None  # a Bridscher's, seat by seat
    net: list[int] = field(default_factory=lambda: [0] * PLAYERS)


def _next(seat: int) -> int:
    return (seat + 1) % PLAYERS


def _deal(hand: dict) -> tuple[list[list[str]], list[str]]:
    """The tapp (six cards) first, then four rounds of four from the dealer's next."""
    pack = hand["pack"]
    tapp = pack[:6]
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    at = 6
    for _ in range(4):
        seat = _next(hand["dealer"])
        for _ in range(PLAYERS):
            hands[seat] += pack[at : at + 4]
            at += 4
            seat = _next(seat)
    return hands, tapp


def _auction(bids: list[tuple[int, str]], dealer: int, options: dict) -> tuple[str, int | None]:
    """The contract and its taker, every word checked; (bridscher, None) when all pass."""
    first = _next(dealer)
    order = [(first + k) % PLAYERS for k in range(PLAYERS)]
    active = list(order)
    level, bidder = -1, None
    turn = 0
    for seat, word in bids:
        while order[turn % PLAYERS] not in active:
            turn += 1
        if seat != order[turn % PLAYERS]:
            raise RuleBroken(f"seat {seat} bids out of turn")
        turn += 1
        may_hold = (
            options.get("hold") == "hold"
            and bidder is not None
            and order.index(seat) < order.index(bidder)
        )
        if word == "pass":
            active.remove(seat)
        elif word.startswith("hold:"):
            if not may_hold or word != f"hold:{LEVELS[level]}":
                raise RuleBroken(f"seat {seat} may not {word}")
            bidder = seat
        else:
            asked = LEVELS.index(word)
            steps_ok = asked == level + 1 or (may_hold and asked == level + 2)
            one_step = options.get("bid_steps") == "one_step"
            if asked <= level or ((one_step or level < 0) and not steps_ok):
                raise RuleBroken(f"seat {seat} may not bid {word} over {level}")
            level, bidder = asked, seat
    if not active:
        return "bridscher", None
    if bidder is None or active != [bidder]:
        raise RuleBroken(f"the auction ends with {active} still bidding")
    return LEVELS[level], bidder


def _legal_discard(card: str, held: list[str]) -> bool:
    """Never a King or a trull card; a tarot only with no other suit card but Kings left."""
    if card in KINGS or card in TRULL:
        return False
    if suit(card) == TRUMP:
        return not any(suit(c) != TRUMP and c not in KINGS for c in held)
    return True


def _legal_card(card: str, held: list[str], trick: list[str]) -> bool:
    """Follow suit; else a tarot; else anything."""
    if card not in held:
        return False
    if not trick:
        return True
    led = suit(trick[0])
    if any(suit(c) == led for c in held):
        return suit(card) == led
    if any(suit(c) == TRUMP for c in held):
        return suit(card) == TRUMP
    return True


def _trick_winner(cards: list[tuple[int, str]]) -> int:
    led = suit(cards[0][1])
    trumps = [(rank(c), s) for s, c in cards if suit(c) == TRUMP]
    if trumps:
        return max(trumps)[1]
    return max((rank(c), s) for s, c in cards if suit(c) == led)[1]


def read_hand(hand: dict, options: dict, simplified: bool) -> Reading:
    """The hand as the text plays and scores it."""
    dealt, tapp = _deal(hand)
    if dealt != [list(h) for h in hand["hands_dealt"]] or tapp != hand["talon"]:
        raise RuleBroken("the hands dealt are not the pack's, dealt as the text says")
    held = [list(h) for h in dealt]
    decisions = [(d["seat"], d["kind"], d["choice"]) for d in hand["decisions"]]
    bids = [(s, c) for s, k, c in decisions if k == "bid"]
    reading = Reading()
    reading.contract, reading.taker = _auction(bids, hand["dealer"], options)
    taker, contract = reading.taker, reading.contract
    defenders = [s for s in range(PLAYERS) if s != taker]
    piles: list[list[str]] = [[] for _ in range(PLAYERS)]
    if contract in PACKETS:
        assert taker is not None
        chosen = [int(c.split(":")[1]) for s, k, c in decisions if k == "packet"]
        size = 6 // PACKETS[contract]
        if len(chosen) != 1 or not 1 <= chosen[0] <= PACKETS[contract]:
            raise RuleBroken(f"packet choice {chosen} in {contract}")
        taken = tapp[(chosen[0] - 1) * size : chosen[0] * size]
        held[taker] += taken
        laid = [c for s, k, c in decisions if k == "discard"]
        if len(laid) != size:
            raise RuleBroken(f"{len(laid)} cards laid away for {size} taken")
        for card in laid:
            if card not in held[taker] or not _legal_discard(card, held[taker]):
                raise RuleBroken(f"{card} may not be laid away")
            held[taker].remove(card)
            piles[taker].append(card)
    elif any(k in ("packet", "discard") for _, k, _ in decisions):
        raise RuleBroken(f"the tapp is used in {contract}")
    announced = _announcements(decisions, contract, taker, held, options)
    doubled = _kontras(decisions, contract, taker, announced, options)
    # play
    leader = taker if taker is not None else _next(hand["dealer"])
    plays = [(s, c) for s, k, c in decisions if k == "play"]
    last_trick: list[tuple[int, str]] = []
    for number in range(16):
        trick = plays[number * 3 : number * 3 + 3]
        if [s for s, _ in trick] != [leader, _next(leader), _next(_next(leader))]:
            raise RuleBroken(f"trick {number + 1} not played in turn from seat {leader}")
        for k, (seat, card) in enumerate(trick):
            if not _legal_card(card, held[seat], [c for _, c in trick[:k]]):
                raise RuleBroken(f"trick {number + 1}: seat {seat} may not play {card}")
            held[seat].remove(card)
        leader = _trick_winner(trick)
        reading.winners.append(leader)
        piles[leader] += [c for _, c in trick]
        last_trick = trick
    # card points and payments
    stake = 2 if options.get("stakes") == "german" else 1
    net = reading.net

    def pay(payer: int, payee: int, amount: int) -> None:
        if payer != payee:
            net[payer] -= amount
            net[payee] += amount

    if contract == "bridscher":
        reading.seat_points = [counted(p, simplified) for p in piles]
        most = max(reading.seat_points)
        losers = [s for s in range(PLAYERS) if reading.seat_points[s] == most]
        virgins = sum(1 for s in range(PLAYERS) if s not in reading.winners)
        for loser in losers:
            for other in range(PLAYERS):
                if other not in losers:
                    pay(loser, other, 10 * stake * 2**virgins)
        return reading
    assert taker is not None
    taker_points = counted(piles[taker], simplified)
    reading.taker_points = taker_points
    won = taker_points >= 36
    game = VALUES[contract] * stake * doubled.get("game", 1)
    for d in defenders:
        pay(d, taker, game) if won else pay(taker, d, game)
    pagat_last = any(c == "trump-1" for _, c in last_trick)
    last_winner = reading.winners[-1]
    pagat_player = next((s for s, c in last_trick if c == "trump-1"), None)

    def made(bonus: str, seat: int) -> bool:
        if bonus == "trull":
            return all(c in piles[seat] for c in TRULL)  # never laid away: won in tricks
        if bonus == "four_kings":
            return all(c in piles[seat] for c in KINGS)
        if bonus == "pagat_ultimo":
            if not pagat_last or last_winner != seat:
                return False
            return options.get("pagat_ultimo") == "pagat_taken" or pagat_player == seat
        if seat != taker or not won:
            return False
        return 40 <= taker_points < 50 if bonus == "with_40" else taker_points >= 50

    for bonus in BONUSES:
        factor = doubled.get(bonus, 1)
        for seat in range(PLAYERS):
            if made(bonus, seat):
                worth = SILENT[bonus] * stake * (2 * factor if seat in announced[bonus] else 1)
                for other in range(PLAYERS):
                    pay(other, seat, worth)
            elif seat in announced[bonus]:
                for other in range(PLAYERS):
                    pay(seat, other, 2 * SILENT[bonus] * stake * factor)
    return reading


def _announcements(decisions, contract, taker, held, options) -> dict[str, set[int]]:
    """Who announced each bonus, each announcement checked allowed."""
    announced: dict[str, set[int]] = {bonus: set() for bonus in BONUSES}
    for seat, kind, choice in decisions:
        if kind != "announce" or choice == "pass":
            continue
        bonus = choice.split(":")[1]
        if contract == "bridscher":
            raise RuleBroken("a bonus announced in a Bridscher")
        if bonus in ("with_40", "with_50") and seat != taker:
            raise RuleBroken(f"seat {seat}, not the bid winner, announces {bonus}")
        if (
            bonus == "pagat_ultimo"
            and options.get("pagat_ultimo") != "pagat_taken"
            and "trump-1" not in held[seat]
        ):
            raise RuleBroken(f"seat {seat} announces Pagat ultimo without the Pagat")
        announced[bonus].add(seat)
    return announced


def _kontras(decisions, contract, taker, announced, options) -> dict[str, int]:
    """Each target's multiplier: 2 once somebody allowed to has said kontra on it."""
    doubled: dict[str, int] = {}
    for seat, kind, choice in decisions:
        if kind != "double" or choice.startswith("pass:"):
            continue
        word, target = choice.split(":")
        if options.get("kontra") != "played" or word != "kontra" or target in doubled:
            raise RuleBroken(f"seat {seat} says {choice}")
        if target in ("game", "with_40", "with_50"):
            allowed = seat != taker and (target == "game" or taker in announced[target])
        else:
            allowed = bool(announced[target]) and seat not in announced[target]
        if not allowed or contract == "bridscher":
            raise RuleBroken(f"seat {seat} may not say kontra on {target}")
        doubled[target] = 2
    return doubled


def hand_difference(hand: dict, options: dict, simplified: bool = False) -> str | None:
    """The first difference between the record's hand and the text's reading of it."""
    try:
        reading = read_hand(hand, options, simplified)
    except RuleBroken as broken:
        return f"hand {hand['number']}: the text forbids what the record does: {broken}"
    sides = hand.get("sides") or {}
    said = (sides.get("contract"), sides.get("taker"))
    read = (reading.contract, reading.taker)
    if reading.contract != "bridscher" and said != read:
        return f"hand {hand['number']}: contract and taker: record {said}, text {read}"
    winners = [trick["winner"] for trick in hand["tricks"]]
    if winners != reading.winners:
        return f"hand {hand['number']}: trick winners: record {winners}, text {reading.winners}"
    if reading.seat_points is not None and hand["card_points"] != reading.seat_points:
        recorded = hand["card_points"]
        return f"hand {hand['number']}: card points: record {recorded}, text {reading.seat_points}"
    if reading.taker is not None and hand["card_points"][reading.taker] != reading.taker_points:
        recorded = hand["card_points"][reading.taker]
        read = reading.taker_points
        return f"hand {hand['number']}: bid winner's points: record {recorded}, text {read}"
    if hand["net"] != reading.net:
        return f"hand {hand['number']}: net: record {hand['net']}, text {reading.net}"
    return None


def record_differences(record: dict) -> list[str]:
    """Every hand's first difference, and the deal passing to the next seat."""
    options = record["ruleset"]["options"]
    simplified = record["ruleset"]["id"].endswith("simplified")
    found = []
    for number, hand in enumerate(record["hands"]):
        if hand["dealer"] != number % PLAYERS:
            found.append(f"hand {hand['number']}: dealer {hand['dealer']}")
        difference = hand_difference(hand, options, simplified)
        if difference:
            found.append(difference)
    return found
