"""One Illustrated Tarock hand read again from its record by the rules text: the deal, the
auction, both rounds of announcements, the exchange and the discards, the contras, every
trick, the card points and what each player scores. `hand_difference` gives the first thing
the record says that the text does not (or a rule the record breaks), or None."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import KINGS, TRULL, TRUMP, counted, rank, suit, value

PLAYERS = 3
LEVELS = ["three", "two", "one", "solo"]
CONTRACTS = {"three": (3, 1), "two": (5, 2), "one": (7, 3), "solo": (10, 4)}  # value, multiplier
GROUPS = {"three": 2, "two": 3, "one": 6}
# the declarer's bonuses: (announced value, silent value or None)
BONUSES = {
    "with_40": (5, None),
    "with_50": (20, None),
    "valat": (40, 20),
    "pagat_ultimo": (10, 5),
    "uhu": (10, 5),
    "kakadu": (10, 5),
    "without_trull": (10, None),
    "without_kings": (10, None),
}
MOUNTS = {"with_50": "with_40", "valat": "with_50"}  # announced only after the one below
CARD_OF = {"pagat_ultimo": ("trump-1", 0), "uhu": ("trump-2", 1), "kakadu": ("trump-3", 2)}
SIDE_BONUS = 3


class RuleBroken(Exception):
    """The record does something the text does not allow."""


@dataclass
class Reading:
    """What the text makes of the hand."""

    contract: str | None = None
    taker: int | None = None
    winners: list[int] = field(default_factory=list)
    taker_points: int | None = None
    scores: list[int] = field(default_factory=lambda: [0] * PLAYERS)


def _next(seat: int) -> int:
    return (seat + 1) % PLAYERS


def _deal(hand: dict) -> tuple[list[list[str]], list[str]]:
    """One card at a time from the dealer's left, sixteen rounds; the last six the talon."""
    pack = hand["pack"]
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    seat = _next(hand["dealer"])
    for card in pack[:48]:
        hands[seat].append(card)
        seat = _next(seat)
    return hands, pack[48:]


def _auction(bids: list[tuple[int, str]], dealer: int) -> tuple[str | None, int | None]:
    """From forehand round and round; a pass is final; each bid higher than the last."""
    order = [(dealer + 1 + k) % PLAYERS for k in range(PLAYERS)]
    active = list(order)
    level, bidder, turn = -1, None, 0
    for seat, word in bids:
        while order[turn % PLAYERS] not in active:
            turn += 1
        if seat != order[turn % PLAYERS]:
            raise RuleBroken(f"seat {seat} bids out of turn")
        turn += 1
        if word == "pass":
            active.remove(seat)
        elif word in LEVELS and LEVELS.index(word) > level:
            level, bidder = LEVELS.index(word), seat
        else:
            raise RuleBroken(f"seat {seat} may not bid {word}")
        if bidder is not None and active == [bidder]:
            break
    if bidder is None:
        if active:
            raise RuleBroken("the auction stops before all have passed")
        return None, None
    if active != [bidder]:
        raise RuleBroken(f"the auction ends with {active} still bidding")
    return LEVELS[level], bidder


def _may_announce(bonus: str, said: set[str], held: list[str]) -> bool:
    if bonus in said:
        return False
    if bonus in MOUNTS and MOUNTS[bonus] not in said:
        return False
    if bonus == "without_trull":
        return not any(c in TRULL for c in held)
    if bonus == "without_kings":
        return not any(c in KINGS for c in held)
    return True


def _barred(group: list[str], early: set[str]) -> bool:
    """Whether a group of the talon holds a card the declarer announced, before the
    exchange, he plays without."""
    return ("without_trull" in early and any(c in TRULL for c in group)) or (
        "without_kings" in early and any(c in KINGS for c in group)
    )


def _legal_discard(card: str, held: list[str]) -> bool:
    """Never a card worth 4; a trump only when nothing else may go."""
    if value(card) == 4:
        return False
    if suit(card) == TRUMP:
        return not any(suit(c) != TRUMP and value(c) != 4 for c in held)
    return True


def _legal_card(card: str, held: list[str], trick: list[str]) -> bool:
    """Follow suit; else trump; else anything."""
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


def read_hand(hand: dict, contra: int) -> Reading:
    """The hand as the text plays and scores it; `contra`, what one contra multiplies by."""
    dealt, talon = _deal(hand)
    if dealt != [list(h) for h in hand["hands_dealt"]] or talon != hand["talon"]:
        raise RuleBroken("the hands dealt are not the pack's, dealt as the text says")
    held = [list(h) for h in dealt]
    decisions = [(d["seat"], d["kind"], d["choice"]) for d in hand["decisions"]]
    reading = Reading()
    contract, taker = _auction([(s, c) for s, k, c in decisions if k == "bid"], hand["dealer"])
    reading.contract, reading.taker = contract, taker
    if contract is None or taker is None:
        if len(decisions) != sum(1 for _, k, _ in decisions if k == "bid"):
            raise RuleBroken("a hand all passed goes on")
        return reading  # thrown in: nobody scores
    defenders = [s for s in range(PLAYERS) if s != taker]
    early: set[str] = set()
    said: set[str] = set()
    piles: dict[str, list[str]] = {"taker": [], "defenders": []}
    steps = iter(decisions[sum(1 for _, k, _ in decisions if k == "bid") :])
    step = next(steps, None)
    # the first round: before the exchange, one question per bonus, the table's order
    for bonus in BONUSES:
        if not _may_announce(bonus, said, held[taker]):
            continue
        if (
            step is None
            or step[:2] != (taker, "ask")
            or step[2]
            not in (
                f"early_{bonus}:yes",
                f"early_{bonus}:no",
            )
        ):
            raise RuleBroken(f"the declarer is not asked about {bonus} before the exchange: {step}")
        if step[2].endswith(":yes"):
            early.add(bonus)
            said.add(bonus)
        step = next(steps, None)
    # the exchange
    if contract in GROUPS:
        size = 6 // GROUPS[contract]
        if step is None or step[:2] != (taker, "packet"):
            raise RuleBroken(f"no group chosen in {contract}: {step}")
        chosen = int(step[2].split(":")[1])
        if not 1 <= chosen <= GROUPS[contract]:
            raise RuleBroken(f"group {chosen} in {contract}")
        groups = [talon[k * size : (k + 1) * size] for k in range(GROUPS[contract])]
        taken = groups[chosen - 1]
        if _barred(taken, early) and not all(_barred(g, early) for g in groups):
            raise RuleBroken(f"group {chosen} holds a card the declarer announced he is without")
        held[taker] += taken
        piles["defenders"] += [c for c in talon if c not in taken]
        for _ in range(size):
            step = next(steps, None)
            if step is None or step[:2] != (taker, "discard"):
                raise RuleBroken(f"{size} cards to lay away, found {step}")
            card = step[2]
            if card not in held[taker] or not _legal_discard(card, held[taker]):
                raise RuleBroken(f"{card} may not be laid away")
            held[taker].remove(card)
            piles["taker"].append(card)
        step = next(steps, None)
    else:
        piles["defenders"] += talon
    # the second round: the declarer announces what he likes, one at a time, then passes
    while step is not None and step[1] == "announce":
        if step[0] != taker:
            raise RuleBroken(f"seat {step[0]}, not the declarer, announces")
        if step[2] == "pass":
            step = next(steps, None)
            break
        bonus = step[2].split(":")[1]
        if bonus not in BONUSES or not _may_announce(bonus, said, held[taker]):
            raise RuleBroken(f"the declarer may not announce {bonus}")
        said.add(bonus)
        step = next(steps, None)
    # contras: the defenders on the game or an announced bonus, the declarer's recontra
    factor: dict[str, int] = {}
    while step is not None and step[1] == "double":
        seat, _, choice = step
        word, target = choice.split(":")
        open_ = target == "game" or (target in said and not target.startswith("without_"))
        if word == "contra" and open_ and seat in defenders and target not in factor:
            factor[target] = contra
        elif word == "recontra" and seat == taker and factor.get(target) == contra:
            factor[target] = contra * contra
        elif word != "pass" or not open_:
            raise RuleBroken(f"seat {seat} may not say {choice}")
        step = next(steps, None)
    # play
    leader = _next(hand["dealer"])
    plays = []
    while step is not None:
        if step[1] != "play":
            raise RuleBroken(f"unexpected decision {step}")
        plays.append(step[:1] + step[2:])
        step = next(steps, None)
    if len(plays) != 48:
        raise RuleBroken(f"{len(plays)} cards played")
    tricks = []
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
        piles["taker" if leader == taker else "defenders"] += [c for _, c in trick]
        tricks.append(trick)
    _score(reading, contract, taker, tricks, piles, early, said, factor)
    return reading


def _score(reading, contract, taker, tricks, piles, early, said, factor) -> None:
    points = counted(piles["taker"])
    reading.taker_points = points
    won = points >= 36
    base, multiplier = CONTRACTS[contract]
    played = [c for trick in tricks for s, c in trick if s == taker]

    def made(bonus: str) -> bool:
        if bonus == "with_40":
            return points >= 40
        if bonus == "with_50":
            return points >= 50
        if bonus == "valat":
            return all(w == taker for w in reading.winners)
        if bonus in CARD_OF:
            card, back = CARD_OF[bonus]
            trick = tricks[15 - back]
            return (taker, card) in trick and reading.winners[15 - back] == taker
        cards = TRULL if bonus == "without_trull" else KINGS
        return won and not any(c in cards for c in played)

    game = (base + abs(points - 35)) * multiplier * factor.get("game", 1)
    taker_score = game if won else 0
    defender_score = 0 if won else game
    for bonus, (announced, silent) in BONUSES.items():
        if bonus in said:
            own = factor.get("game" if bonus.startswith("without_") else bonus, 1)
            worth = announced * multiplier * (2 if bonus in early else 1) * own
            if made(bonus):
                taker_score += worth
            else:
                defender_score += worth
        elif silent is not None and made(bonus):
            taker_score += silent * multiplier
    # Trull, Four Kings, Mondfang: silent, for either side
    for side in ("taker", "defenders"):
        pile = piles[side]
        bonus = int(all(c in pile for c in TRULL)) + int(all(c in pile for c in KINGS))
        mond = next(((s, n) for n, t in enumerate(tricks) for s, c in t if c == "trump-21"), None)
        if mond is not None:
            player, number = mond
            taken = reading.winners[number]
            if side == "taker":
                bonus += int(taken == taker and player != taker)
            else:
                bonus += int(taken != taker and player == taker)
        extra = bonus * SIDE_BONUS * multiplier
        if side == "taker":
            taker_score += extra
        else:
            defender_score += extra
    reading.scores = [taker_score if s == taker else defender_score for s in range(PLAYERS)]


def hand_difference(hand: dict, contra: int) -> str | None:
    """The first difference between the record's hand and the text's reading of it."""
    try:
        reading = read_hand(hand, contra)
    except RuleBroken as broken:
        return f"hand {hand['number']}: the text forbids what the record does: {broken}"
    if reading.contract is None:
        if hand.get("tricks") or any(hand["net"]):
            return f"hand {hand['number']}: all passed, but the record plays or scores"
        return None
    sides = hand.get("sides") or {}
    said = (sides.get("contract"), sides.get("taker"))
    read = (reading.contract, reading.taker)
    if said != read:
        return f"hand {hand['number']}: contract and declarer: record {said}, text {read}"
    winners = [trick["winner"] for trick in hand["tricks"]]
    if winners != reading.winners:
        return f"hand {hand['number']}: trick winners: record {winners}, text {reading.winners}"
    if hand["card_points"][reading.taker] != reading.taker_points:
        recorded, read_points = hand["card_points"][reading.taker], reading.taker_points
        return f"hand {hand['number']}: declarer's points: record {recorded}, text {read_points}"
    if hand["net"] != reading.scores:
        recorded = hand["net"]
        return f"hand {hand['number']}: scores: record {recorded}, text {reading.scores}"
    return None


def record_differences(record: dict) -> list[str]:
    """Every hand's first difference, the deal passing to the left, and the game's end: after
    the first hand in which a player reaches 100, won by the highest total."""
    contra = 2 if record["ruleset"]["id"].endswith("contra-doubles") else 4
    found = []
    totals = [0] * PLAYERS
    for number, hand in enumerate(record["hands"]):
        dealer = number % PLAYERS
        if max(totals) >= 100:
            found.append(f"hand {hand['number']}: played after the game was over")
        if hand["dealer"] != dealer:
            found.append(f"hand {hand['number']}: dealer {hand['dealer']}, text {dealer}")
        difference = hand_difference(hand, contra)
        if difference:
            found.append(difference)
        totals = [t + n for t, n in zip(totals, hand["net"], strict=True)]
    if record["totals"] != totals:
        found.append(f"totals: record {record['totals']}, text {totals}")
    best = max(totals)
    winners = [s for s in range(PLAYERS) if totals[s] == best]
    if best >= 100 and record["game_winners"] != winners:
        found.append(f"winners: record {record['game_winners']}, text {totals}")
    return found
