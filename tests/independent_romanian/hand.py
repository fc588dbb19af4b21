"""One recorded hand of Romanian Tarok read by the text: every decision checked legal, every
trick's winner found, every payment worked out (see the package's docstring for the readings
taken where the text is silent)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

PLAYERS = 4
TALON = 6
# the auction's ladder, lowest first: (id, value won, value lost, level, talon packets)
LADDER = [
    ("two", 2, 2, 1, 3),
    ("two_2", 2, 2, 2, 3),
    ("two_3", 2, 2, 3, 3),
    ("one", 3, 3, 1, 6),
    ("one_2", 3, 3, 2, 6),
    ("one_3", 3, 3, 3, 6),
    ("one_4", 3, 3, 4, 6),
    ("one_5", 3, 3, 5, 6),
    ("one_6", 3, 3, 6, 6),
    ("solo", 8, 8, 1, 0),
]
RANK = {name: place for place, (name, *_rest) in enumerate(LADDER)}
COURTS = {"K": 5, "Q": 4, "C": 3, "J": 2}
SUITS = ("hearts", "diamonds", "spades", "clubs")
TRULL = {"fool", "trump-1", "trump-21"}
# the bonuses either side may announce; those of one side only, with that side
EITHER = ("trull", "four_kings", "mondfang", "valat")
#: the names of the contras in order: W names two and goes on "etc." (the ruleset names each
#: one after supra contra `further_contra`)
CONTRAS = ("contra", "supracontra")
FURTHER = "further_contra"
#: the most contras a target takes, by the reading of "etc." (option `contras`): W's
#: further contras up to four in all (the ruleset's cap), or only the two W names
MOST_CONTRAS = {"etc": 4, "named": 2}


class RuleBroken(Exception):
    """The record does something the text forbids."""


@dataclass(frozen=True)
class Card:
    """A card of the 54-card pack: a trump (the Skiz is trump 22) or a suit card."""

    id: str
    suit: str  # "trump" for the trumps and the Skiz
    strength: int  # order within its suit (or among trumps), higher wins
    points: int

    @property
    def trump(self) -> bool:
        return self.suit == "trump"


def card(card_id: str) -> Card:
    if card_id == "fool":
        return Card(card_id, "trump", 22, 5)
    suit, rank = card_id.split("-")
    if suit == "trump":
        number = int(rank)
        return Card(card_id, "trump", number, 5 if number in (1, 21) else 1)
    if rank in COURTS:
        return Card(card_id, suit, 10 + COURTS[rank], COURTS[rank])
    number = int(rank)
    # red suits: ace (1) high down to 4; black suits: 10 high down to 7
    strength = 5 - number if suit in ("hearts", "diamonds") else number - 6
    return Card(card_id, suit, strength, 1)


def counted(cards: list[Card]) -> int:
    """Card points counted in threes: a group of three its points less 2, one or two cards
    left over their points less 1."""
    n = len(cards)
    return sum(c.points for c in cards) - 2 * (n // 3) - (1 if n % 3 else 0)


def is_five(c: Card) -> bool:
    return c.points == 5


@dataclass
class HandReading:
    """What the text makes of one hand."""

    taker: int | None
    contract: str
    partner: int | None
    trick_winners: list[int] = field(default_factory=list)
    attack_points: int | None = None
    net: list[Fraction] = field(default_factory=list)
    pool_paid: list[int] = field(default_factory=list)  # paid into the pool at the end
    pagat_said: bool = False  # an announced Pagat ultimo, played for the pool
    pagat_made: bool = False
    pagat_doublings: int = 0
    attackers: set[int] = field(default_factory=set)
    defenders: set[int] = field(default_factory=set)


def _next(seat: int) -> int:
    return (seat + 1) % PLAYERS


def _check_deal(hand: dict) -> None:
    pack, dealer = hand["pack"], hand["dealer"]
    if hand["talon"] != pack[:TALON]:
        raise RuleBroken("the talon is not the first six cards of the pack")
    dealt: list[list[str]] = [[] for _ in range(PLAYERS)]
    at = TALON
    for _round in range(2):
        seat = _next(dealer)
        for _ in range(PLAYERS):
            dealt[seat] += pack[at : at + 6]
            at += 6
            seat = _next(seat)
    if [sorted(h) for h in dealt] != [sorted(h) for h in hand["hands_dealt"]]:
        raise RuleBroken("the hands are not dealt in two rounds of six from the dealer's next")


def _auction(hand: dict, decisions: list[dict]) -> tuple[int | None, str]:
    """The taker and contract, each bid checked against the ladder and the holds."""
    forehand = _next(hand["dealer"])
    order = {(forehand + i) % PLAYERS: i for i in range(PLAYERS)}
    passed: set[int] = set()
    high: str | None = None
    bidder: int | None = None
    seat = forehand
    while True:
        if len(passed) == PLAYERS:
            return None, "michi"
        if len(passed) == PLAYERS - 1 and high is not None:
            return bidder, high
        if seat in passed:
            seat = _next(seat)
            continue
        if not decisions or decisions[0]["kind"] != "bid" or decisions[0]["seat"] != seat:
            raise RuleBroken(f"seat {seat} should speak in the auction")
        choice = decisions.pop(0)["choice"]
        last_word = len(passed) == PLAYERS - 1  # everyone else passed, no bid standing
        if choice == "pass":
            passed.add(seat)
        elif choice.startswith("hold:"):
            held = choice[5:]
            if held != high or bidder is None or order[seat] >= order[bidder]:
                raise RuleBroken(f"seat {seat} may not hold {held}")
            bidder = seat
        else:
            if choice not in RANK or (high is not None and RANK[choice] <= RANK[high]):
                raise RuleBroken(f"seat {seat} bids {choice} over {high}")
            high, bidder = choice, seat
        if last_word:
            return (bidder, high) if high is not None else (None, "michi")
        seat = _next(seat)


def _legal(hand_cards: list[Card], trick: list[Card]) -> list[Card]:
    if not trick:
        return hand_cards
    led = trick[0].suit
    same = [c for c in hand_cards if c.suit == led]
    if same:
        return same
    trumps = [c for c in hand_cards if c.trump]
    return trumps or hand_cards


def _winner(trick: list[tuple[int, Card]]) -> int:
    led = trick[0][1].suit
    trumps = [(c.strength, s) for s, c in trick if c.trump]
    if trumps:
        return max(trumps)[1]
    return max((c.strength, s) for s, c in trick if c.suit == led)[1]


@dataclass
class Said:
    """What the round of announcements left: who announced what, and each target's contras."""

    by: dict[str, set[int]] = field(default_factory=dict)
    doublings: dict[str, int] = field(default_factory=dict)

    def side_said(self, name: str, side: set[int]) -> bool:
        return bool(self.by.get(name, set()) & side)

    def count(self, target: str) -> int:
        return self.doublings.get(target, 0)

    def factor(self, target: str) -> int:
        return 2 ** self.count(target)


def _targets(said: Said, attackers: set[int], defenders: set[int]) -> dict[str, set[int]]:
    """Each thing that may be contra'd, with the side that makes the first contra."""
    targets = {"game": defenders}
    for name in EITHER:
        for label, side, against in (
            ("attackers", attackers, defenders),
            ("defenders", defenders, attackers),
        ):
            if said.side_said(name, side):
                targets[f"{label}_{name}"] = against
    for name, first in (
        ("pagat_ultimo", defenders),
        ("king_ultimo", defenders),
        ("captured_king", attackers),
    ):
        if said.by.get(name):
            targets[name] = first
    return targets


def _open(
    seat: int,
    said: Said,
    attackers: set[int],
    hand: list[Card],
    called: str | None,
    first_turn: bool,
    most: int,
) -> set[str]:
    """What the seat may say on its turn: the bonuses open to it (on its first turn only: W,
    "after the first round ... players may only contra"), and the next contra of every target
    whose turn is its side's."""
    defenders = set(range(PLAYERS)) - attackers
    side = attackers if seat in attackers else defenders
    held = {c.id for c in hand}
    may = {
        "trull": True,
        "four_kings": True,
        "mondfang": True,
        "valat": True,
        "pagat_ultimo": seat in attackers and "trump-1" in held,
        "king_ultimo": seat in attackers and called in held,
        "captured_king": seat in defenders,
    }
    choices = {
        f"announce:{n}"
        for n, ok in may.items()
        if first_turn and ok and not said.side_said(n, side)
    }
    for target, first in _targets(said, attackers, defenders).items():
        n = said.count(target)
        if n < most and seat in (first if n % 2 == 0 else set(range(PLAYERS)) - first):
            choices.add(f"{CONTRAS[n] if n < len(CONTRAS) else FURTHER}:{target}")
    return choices


def _announcements(
    decisions: list[dict],
    contract: str,
    taker: int | None,
    attackers: set[int],
    hands: list[list[Card]],
    called: str | None,
    most: int,
) -> Said:
    """The round of announcements: from the declarer, round and round, until three seats in a
    row have said nothing after the last thing said (every seat having had a turn); a seat says
    as much as it likes and passes, and is not asked when nothing is open to it; `most`: the
    contras a target may take."""
    said = Said()
    if contract == "michi" or taker is None:
        return said
    seat, turns, silent = taker, 0, 0
    while not (turns >= PLAYERS and silent >= PLAYERS - 1):
        spoke = False
        first_turn = turns < PLAYERS
        while choices := _open(seat, said, attackers, hands[seat], called, first_turn, most):
            if not decisions or decisions[0]["kind"] != "announce" or decisions[0]["seat"] != seat:
                raise RuleBroken(f"seat {seat} should be asked to announce")
            choice = decisions.pop(0)["choice"]
            if choice == "pass":
                break
            if choice not in choices:
                raise RuleBroken(f"seat {seat} may not say {choice}")
            word, name = choice.split(":")
            if word == "announce":
                said.by.setdefault(name, set()).add(seat)
            else:
                said.doublings[name] = said.count(name) + 1
            spoke = True
        silent = 0 if spoke else silent + 1
        turns += 1
        seat = _next(seat)
    return said


def read_hand(hand: dict, double_stakes: int, options: dict[str, str]) -> HandReading:
    """Reads one hand; `double_stakes` is what the hands before left."""
    _check_deal(hand)
    decisions = list(hand["decisions"])
    hands = [[card(c) for c in h] for h in hand["hands_dealt"]]
    talon = [card(c) for c in hand["talon"]]
    taker, contract = _auction(hand, decisions)
    spec = {name: rest for name, *rest in LADDER}
    partner = None
    called = None
    discards: list[Card] = []
    rest_of_talon: list[Card] = []
    if contract != "michi":
        assert taker is not None
        call = decisions.pop(0)
        if call["kind"] != "call" or call["seat"] != taker or not call["choice"].endswith("-K"):
            raise RuleBroken(f"the declarer should call a King: {call}")
        called = call["choice"]
        holders = [s for s in range(PLAYERS) if any(c.id == called for c in hands[s])]
        partner = holders[0] if holders and holders[0] != taker else None
        packets = spec[contract][3]
        if packets:
            take = decisions.pop(0)
            if take["kind"] != "packet" or take["seat"] != taker:
                raise RuleBroken(f"the declarer should take a packet: {take}")
            number = int(take["choice"].split(":")[1])
            size = TALON // packets
            if not 1 <= number <= packets:
                raise RuleBroken(f"no packet {number}")
            taken = talon[(number - 1) * size : number * size]
            rest_of_talon = [c for c in talon if c not in taken]
            hands[taker] += taken
            for _ in range(size):
                put = decisions.pop(0)
                if put["kind"] != "discard" or put["seat"] != taker:
                    raise RuleBroken(f"the declarer should lay away a card: {put}")
                c = card(put["choice"])
                if c not in hands[taker] or is_five(c):
                    raise RuleBroken(f"{c.id} may not be laid away")
                if c.trump and any(not x.trump and not is_five(x) for x in hands[taker]):
                    raise RuleBroken(f"a trump ({c.id}) laid away while other cards can go")
                hands[taker].remove(c)
                discards.append(c)
        else:
            rest_of_talon = list(talon)
    # the trumps declared, by the hand held once the talon is taken
    declared = [0] * PLAYERS
    while decisions and decisions[0]["kind"] == "declare":
        said = decisions.pop(0)
        seat, level = said["seat"], said["choice"].split(":")[1]
        if level == "none":
            continue
        trumps = sum(1 for c in hands[seat] if c.trump)
        values = {"eight": (trumps == 8, 1), "nine": (trumps == 9, 2), "ten": (trumps >= 10, 3)}
        holds, value = values.get(level, (False, 0))
        if contract == "michi" or not holds:
            raise RuleBroken(f"seat {seat} declares {level} holding {trumps} trumps")
        declared[seat] = value
    attackers = {taker} | ({partner} if partner is not None else set())
    defenders = set(range(PLAYERS)) - attackers
    most = MOST_CONTRAS[options.get("contras", "etc")]
    said = _announcements(decisions, contract, taker, attackers, hands, called, most)
    kept: dict[int, set[str]] = {}  # seat -> the cards it announced to keep for the last trick
    for name, card_id in (("pagat_ultimo", "trump-1"), ("king_ultimo", called)):
        for seat in said.by.get(name, set()):
            kept.setdefault(seat, set()).add(card_id or "")
    reading = HandReading(taker, contract, partner)
    won_cards: list[list[Card]] = [[] for _ in range(PLAYERS)]
    played_by: dict[str, int] = {}
    taken_by: dict[str, int] = {}
    leader = _next(hand["dealer"])
    last_trick: list[tuple[int, Card]] = []
    while any(hands):
        trick: list[tuple[int, Card]] = []
        seat = leader
        for _ in range(PLAYERS):
            play = decisions.pop(0) if decisions else None
            if play is None or play["kind"] != "play" or play["seat"] != seat:
                raise RuleBroken(f"seat {seat} should play: {play}")
            c = card(play["choice"])
            legal = _legal(hands[seat], [x for _s, x in trick])
            free = [x for x in legal if x.id not in kept.get(seat, set())]
            if len(hands[seat]) > 1 and free:
                legal = free  # a card kept for the last trick, while another can be played
            if c not in legal:
                raise RuleBroken(f"seat {seat} may not play {c.id}")
            hands[seat].remove(c)
            trick.append((seat, c))
            played_by[c.id] = seat
            seat = _next(seat)
        leader = _winner(trick)
        reading.trick_winners.append(leader)
        won_cards[leader] += [c for _s, c in trick]
        for _s, c in trick:
            taken_by[c.id] = leader
        last_trick = trick
    if decisions:
        raise RuleBroken(f"decisions left over: {decisions[:2]}")
    net = [Fraction(0)] * PLAYERS
    if contract == "michi":
        reading.pool_paid = [reading.trick_winners.count(s) for s in range(PLAYERS)]
        reading.net = net
        return reading
    stakes = 2 if double_stakes > 0 else 1
    attack_pile = [c for s in attackers for c in won_cards[s]] + discards
    defence_pile = [c for s in defenders for c in won_cards[s]] + rest_of_talon
    reading.attack_points = counted(attack_pile)
    won_v, lost_v, level, _packets = spec[contract]
    solo = contract == "solo"
    factor = 2 if solo else 1

    def pay(winners: set[int], value: Fraction | int) -> None:
        """Each member of the losing side pays `value`, shared by the winners."""
        for loser in set(range(PLAYERS)) - winners:
            net[loser] -= value
            for w in winners:
                net[w] += Fraction(value) / len(winners)

    def other(side: set[int]) -> set[int]:
        return defenders if side == attackers else attackers

    def bonus(name: str, made_by: set[int] | None, silent: int, announced: int) -> None:
        """A bonus either side may make: silent to the side that made it unless it announced
        it; announced, won or lost by the side that announced it, times its contras."""
        for side in (attackers, defenders):
            if said.side_said(name, side):
                target = ("attackers_" if side == attackers else "defenders_") + name
                value = announced * said.factor(target) * stakes
                pay(side if made_by == side else other(side), value)
            elif made_by == side:
                pay(side, silent * stakes)

    tricks_of = [reading.trick_winners.count(s) for s in range(PLAYERS)]
    attack_valat = all(tricks_of[s] == 0 for s in defenders)
    defence_valat = all(tricks_of[s] == 0 for s in attackers)
    valat_by = attackers if attack_valat else defenders if defence_valat else None
    game_factor = said.factor("game")
    if valat_by is None:
        if reading.attack_points >= 36:
            value = won_v * (level if said.count("game") else 1)
            pay(attackers, value * game_factor * stakes)
        else:
            pay(defenders, lost_v * level * game_factor * stakes)
    bonus("valat", valat_by, (32 if solo else 8) * game_factor, 64 if solo else 16)
    ids_of = {side: {c.id for c in pile} for side, pile in ((0, attack_pile), (1, defence_pile))}
    for name, group in (("trull", TRULL), ("four_kings", {f"{x}-K" for x in SUITS})):
        made_by = attackers if group <= ids_of[0] else defenders if group <= ids_of[1] else None
        bonus(name, made_by, factor, 2 * factor)
    mondfang_by = None
    if "trump-21" in played_by:
        by, to = played_by["trump-21"], taken_by["trump-21"]
        if (by in attackers) != (to in attackers):
            mondfang_by = attackers if to in attackers else defenders
    bonus("mondfang", mondfang_by, factor, 2 * factor)
    last_ids = {c.id: s for s, c in last_trick}
    top_trump = max(((c.strength, c.id) for _s, c in last_trick if c.trump), default=None)
    pagat_tried = last_ids.get("trump-1") in attackers
    reading.pagat_made = pagat_tried and top_trump is not None and top_trump[1] == "trump-1"
    reading.pagat_said = bool(said.by.get("pagat_ultimo"))
    reading.pagat_doublings = said.count("pagat_ultimo")
    reading.attackers, reading.defenders = attackers, defenders
    if reading.pagat_said:
        if options.get("pagat_pool", "value_and_pool") == "value_and_pool":
            value = (9 if solo else 7) * said.factor("pagat_ultimo") * stakes
            pay(attackers if reading.pagat_made else defenders, value)
    elif pagat_tried:
        pay(attackers if reading.pagat_made else defenders, stakes)
    king_tried = called in last_ids and last_ids[called] in attackers
    king_made = king_tried and reading.trick_winners[-1] in attackers
    if said.by.get("king_ultimo"):
        value = 2 * factor * said.factor("king_ultimo") * stakes
        pay(attackers if king_made else defenders, value)
    elif king_tried:
        pay(attackers if king_made else defenders, factor * stakes)
    if said.by.get("captured_king"):
        captured = called in taken_by and taken_by[called] in defenders
        value = factor * said.factor("captured_king") * stakes
        pay(defenders if captured else attackers, value)
    for side in (attackers, defenders):
        best = max(declared[s] for s in side)
        if best:
            pay(side, best * stakes)
    if not solo and called in hand["talon"] and any(c.id == called for c in rest_of_talon):
        for d in defenders:
            net[taker] -= 2 * stakes
            net[d] += 2 * stakes
    reading.net = net
    return reading
