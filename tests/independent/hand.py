"""One hand of French Tarot read again from its record's deal and decisions, by 003's rules
alone: the deal, "Le Petit", the auction, the called King, the discard, the declarations, every
card played, the Excuse and its exchange, the count, and what each seat wins or loses.

`read_hand` raises `RuleBroken` when the record does something 003 forbids (a card that may
not be played, a bid out of turn, a King discarded...); otherwise it returns a `HandReading`
that `compare.differences` sets beside what the record says."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .cards import LOW_CARD_POINTS, Card, cards_of, points_of
from .rules import (
    BIDS,
    CHELEM_ANNOUNCED_FAILED,
    CHELEM_ANNOUNCED_MADE,
    CHELEM_UNANNOUNCED,
    GAME_POINTS,
    LE_PETIT_CARDS,
    MULTIPLIER,
    PACK_ENDS_KEPT_FROM_TALON,
    PETIT_AU_BOUT,
    POIGNEE_VALUE,
    TABLES,
    TAKER_SEES_TALON,
    TARGET_BY_BOUTS,
    TableSize,
)
from .tricks import legality_problem, winning_index

ATTACK, DEFENCE = "attack", "defence"


class RuleBroken(Exception):
    """The record does something 003 does not allow."""


@dataclass
class ExcuseDebt:
    """A low card owed to the winner of the trick the Excuse was played to."""

    debtor: str
    creditor_seat: int
    trick: int
    paid_after_trick: int | None = None
    paid_from_talon: bool = False


@dataclass
class HandReading:
    """What 003 makes of one hand."""

    thrown_in: str | None
    net: list[float]
    taker: int | None = None
    contract: str | None = None
    partner: int | None = None
    trick_winners: list[int] = field(default_factory=list)
    side_points: dict[str, float] = field(default_factory=dict)
    bouts: int = 0
    score: float = 0
    excuse_debt: ExcuseDebt | None = None


@dataclass(frozen=True)
class Doubts:
    """Points where the record reads 003 otherwise than this checker; each False is the
    checker's own reading of the text, each True the record's, so a hand that differs only
    there can still be checked in everything else."""

    unseen_talon_pays_in_play: bool = False
    """The talon nobody looked at (garde sans, garde contre) is in its side's pile from the
    first trick, so a card of it may pay for the Excuse during play. The checker: 003 says
    nobody looks at it and adds it to the tricks at the end of the hand."""

    one_chelem_bonus: bool = False
    """One chelem bonus a hand: the taker's side's announcement if it made one, else the
    defence's, else a chelem made unannounced. So a failed announcement costs 200 and nothing
    more when the other side takes every trick, and when both sides announce (option
    `chelem_by`) only the taker's counts. The checker: each of 003's bonuses applies on its
    own terms, so both."""


@dataclass
class Table:
    """The fixed facts of one hand: its cards, players, dealer and options."""

    cards: dict[str, Card]
    players: int
    dealer: int
    options: dict[str, str]
    size: TableSize
    doubts: Doubts

    def seat_after(self, seat: int, steps: int = 1) -> int:
        """Play goes to the right; seats are numbered in the order of play."""
        return (seat + steps) % self.players

    def card(self, card_id: str) -> Card:
        if card_id not in self.cards:
            raise RuleBroken(f"card {card_id!r} is not in the deck")
        return self.cards[card_id]


def read_hand(hand: dict, options: dict[str, str], doubts: Doubts = Doubts()) -> HandReading:
    """003's reading of one recorded hand, under the record's options."""
    players = len(hand["hands_dealt"])
    if players not in TABLES:
        raise RuleBroken(f"{players} players: 003's four-player game and its 3 and 5 variants")
    cards = cards_of(hand["deck"])
    table = Table(cards, players, hand["dealer"], options, TABLES[players], doubts)
    if hand.get("abandoned_deals"):
        raise RuleBroken("003 deals again with the next dealer, never the same one")
    dealt, talon = _check_deal(table, hand)
    thrown = _le_petit(table, dealt)
    decisions = list(hand["decisions"])
    if thrown:
        if decisions:
            raise RuleBroken("decisions after a deal cancelled by Le Petit")
        return HandReading(thrown_in=thrown, net=[0] * players)
    if _petit_sec(table, dealt, _take(decisions, "redeal")):
        if decisions:
            raise RuleBroken("decisions after a deal cancelled for a petit sec")
        return HandReading(thrown_in="petit_sec", net=[0] * players)
    taker, contract = _auction(table, _take(decisions, "bid"))
    if taker is None:
        if decisions:
            raise RuleBroken("decisions after every player passed")
        return HandReading(thrown_in="all_passed", net=[0] * players)
    partner = _partner(table, taker, _take(decisions, "call"), dealt, talon)
    in_hand = {seat: list(cards) for seat, cards in enumerate(dealt)}
    discards = _discard(table, taker, contract, in_hand, talon, _take(decisions, "discard"))
    attackers = {taker} if partner is None else {taker, partner}
    declared = _declared_before_playing(decisions)
    chelems, poignees = _declarations(table, taker, in_hand, declared, hand)
    plays = _take(decisions, "play")
    if decisions:
        raise RuleBroken(f"decision out of order or of an unknown kind: {decisions[0]}")
    reading = HandReading(None, [0] * players, taker, contract, partner)
    _play_and_score(table, reading, in_hand, plays, attackers, discards, talon, chelems, poignees)
    return reading


def _take(decisions: list[dict], kind: str) -> list[dict]:
    """The run of decisions of one kind at the front of the list, removed from it."""
    taken = []
    while decisions and decisions[0]["kind"] == kind:
        taken.append(decisions.pop(0))
    return taken


def _declared_before_playing(decisions: list[dict]) -> list[dict]:
    """The declarations, removed from the list: a chelem before the first card of the hand, a
    poignée just before its holder plays his first card."""
    declared = []
    played: set[int] = set()
    for decision in list(decisions):
        if decision["kind"] == "play":
            played.add(decision["seat"])
        elif decision["kind"] == "declare":
            late = decision["seat"] in played or (
                played and decision["choice"].startswith("chelem")
            )
            if late:
                raise RuleBroken(f"{decision['choice']} declared after play began")
            declared.append(decision)
            decisions.remove(decision)
        elif decision["kind"] == "show":  # a trump picked to show with the poignée declared
            if decision["seat"] in played:
                raise RuleBroken(f"seat {decision['seat']} shows a card after playing one")
            decisions.remove(decision)
    return declared


def _check_deal(table: Table, hand: dict) -> tuple[list[list[Card]], list[Card]]:
    """The deal as 003 has it: packets to each player in turn from the dealer's right, the
    talon's cards one at a time, never among the first or last three of the pack."""
    pack = [table.card(card_id) for card_id in hand["pack"]]
    talon_ids = list(hand.get("talon", []))
    size = table.size
    if len(pack) != 78 or len(set(hand["pack"])) != 78:
        raise RuleBroken("the pack is not the 78 cards")
    if len(talon_ids) != size.talon:
        raise RuleBroken(f"a talon of {len(talon_ids)} cards, 003 says {size.talon}")
    ends = set(hand["pack"][:PACK_ENDS_KEPT_FROM_TALON] + hand["pack"][-PACK_ENDS_KEPT_FROM_TALON:])
    if ends & set(talon_ids):
        raise RuleBroken("a card of the first or last three of the pack went to the talon")
    dealt: list[list[Card]] = [[] for _ in range(table.players)]
    first_seat = table.seat_after(table.dealer)
    for index, card in enumerate(c for c in pack if c.id not in talon_ids):
        dealt[table.seat_after(first_seat, index // size.packet)].append(card)
    for seat, cards in enumerate(dealt):
        if [c.id for c in cards] != hand["hands_dealt"][seat]:
            raise RuleBroken(f"seat {seat}'s cards are not those the pack deals it in packets")
        if len(cards) != size.hand_size:
            raise RuleBroken(f"seat {seat} was dealt {len(cards)} cards, 003 says {size.hand_size}")
    return dealt, [table.card(card_id) for card_id in talon_ids]


def _le_petit(table: Table, dealt: list[list[Card]]) -> str | None:
    """003's "Le Petit": the 1 of trumps among a player's first three cards cancels the deal.
    With three players the cards go in fours; option `le_petit_cards` says which count."""
    if table.options.get("le_petit", "played") != "played":
        return None
    first = LE_PETIT_CARDS
    if table.options.get("le_petit_cards") == "first_packet":
        first = table.size.packet
    for cards in dealt:
        if any(card.trump == 1 for card in cards[:first]):
            return "le_petit"
    return None


def _petit_sec(table: Table, dealt: list[list[Card]], asked: list[dict]) -> bool:
    """Option `petit_sec` (rules-facts, not 003): a player whose only trump is the 1, without
    the Excuse, may have the deal cancelled."""
    for decision in asked:
        seat, (rule, _, choice) = decision["seat"], decision["choice"].partition(":")
        trumps = [c for c in dealt[seat] if c.is_trump or c.fool]
        alone = len(trumps) == 1 and trumps[0].trump == 1
        if rule != "petit_sec" or table.options.get("petit_sec") != "played" or not alone:
            raise RuleBroken(f"seat {seat} asked for {decision['choice']}")
        if choice == "redeal":
            return True
    return False


def _auction(table: Table, bids: list[dict]) -> tuple[int | None, str | None]:
    """Each player once, from the dealer's right: a bid above the last one, or pass."""
    if len(bids) != table.players:
        raise RuleBroken(f"{len(bids)} bids, one per player expected")
    taker, contract = None, None
    for turn, bid in enumerate(bids):
        seat = table.seat_after(table.dealer, turn + 1)
        if bid["seat"] != seat:
            raise RuleBroken(f"seat {bid['seat']} bid in seat {seat}'s turn")
        if bid["choice"] == "pass":
            continue
        if bid["choice"] not in BIDS:
            raise RuleBroken(f"unknown bid {bid['choice']!r}")
        if contract is not None and BIDS.index(bid["choice"]) <= BIDS.index(contract):
            raise RuleBroken(f"seat {seat} bid {bid['choice']} after {contract}")
        taker, contract = seat, bid["choice"]
    return taker, contract


def _partner(
    table: Table, taker: int, calls: list[dict], dealt: list[list[Card]], talon: list[Card]
) -> int | None:
    """Five players: the taker calls a King (a Queen if he holds all four Kings); its holder
    is his partner, or he plays alone if it is in the talon or his own hand."""
    if table.players != 5:
        if calls:
            raise RuleBroken("a partner called with other than five players")
        return None
    if len(calls) != 1 or calls[0]["seat"] != taker:
        raise RuleBroken("with five players the taker calls one card")
    called = table.card(calls[0]["choice"])
    holds_all_kings = sum(card.is_king for card in dealt[taker]) == 4
    if not (called.is_king or (called.is_queen and holds_all_kings)):
        raise RuleBroken(f"the taker called {called.id}: a King, or a Queen with all four Kings")
    for seat, cards in enumerate(dealt):
        if seat != taker and called in cards:
            return seat
    return None


def _discard(
    table: Table,
    taker: int,
    contract: str,
    in_hand: dict[int, list[Card]],
    talon: list[Card],
    discards: list[dict],
) -> list[Card]:
    """Petite or garde: the taker takes the talon and lays away as many cards, never a King or
    a bout, and a trump only when he has nothing else to lay away."""
    if contract not in TAKER_SEES_TALON:
        if discards:
            raise RuleBroken(f"a discard under {contract}, where nobody sees the talon")
        return []
    cards = in_hand[taker] + talon
    if len(discards) != len(talon) or any(d["seat"] != taker for d in discards):
        raise RuleBroken(f"the taker lays away {len(talon)} cards")
    laid = [table.card(d["choice"]) for d in discards]
    if len({c.id for c in laid}) != len(laid) or any(c not in cards for c in laid):
        raise RuleBroken("a discard not in the taker's hand and talon")
    plain = [c for c in cards if not (c.is_trump or c.is_king or c.fool)]
    for card in laid:
        if card.is_king or card.is_bout:
            raise RuleBroken(f"{card.id} laid away: never a King or a bout")
        if card.is_trump and len(plain) >= len(talon):
            raise RuleBroken(f"{card.id} laid away though the taker had other cards")
    in_hand[taker] = [c for c in cards if c not in laid]
    return laid


def _declarations(
    table: Table, taker: int, in_hand: dict[int, list[Card]], declared: list[dict], hand: dict
) -> tuple[dict[int, bool], dict[int, str]]:
    """Chelem announcements (by the taker, or either side under option `chelem_by`) and
    poignées, checked against the trumps each player holds as play begins."""
    chelems: dict[int, bool] = {}
    poignees: dict[int, str] = {}
    for declaration in declared:
        seat, (name, _, level) = declaration["seat"], declaration["choice"].partition(":")
        if name == "chelem":
            if level == "announced":
                chelems[seat] = True
            elif level != "none":
                raise RuleBroken(f"unknown chelem declaration {level!r}")
        elif name == "poignee":
            if level != "none":
                poignees[seat] = level
        else:
            raise RuleBroken(f"unknown declaration {declaration['choice']!r}")
    if table.options.get("chelem_by", "taker") == "taker" and set(chelems) - {taker}:
        raise RuleBroken("a chelem announced by a player other than the taker")
    for seat, level in poignees.items():
        _check_poignee(table, seat, level, in_hand[seat], hand)
    return chelems, poignees


def _check_poignee(table: Table, seat: int, level: str, cards: list[Card], hand: dict) -> None:
    thresholds = table.size.poignee
    if level not in thresholds:
        raise RuleBroken(f"unknown poignée {level!r}")
    held = [c for c in cards if c.is_trump or c.fool]
    reached = [name for name, count in thresholds.items() if len(held) >= count]
    if level not in reached:
        raise RuleBroken(f"seat {seat} declared a {level} poignée with {len(held)} trumps")
    if table.options.get("poignee_level", "highest") == "highest" and level != reached[-1]:
        raise RuleBroken(f"seat {seat} declared {level}, his trumps reach {reached[-1]}")
    shown = [
        table.card(card_id)
        for showing in hand.get("shown", [])
        if showing["seat"] == seat and showing["what"] == "poignee"
        for card_id in showing["cards"]
    ]
    if len(shown) != thresholds[level] or any(c not in held for c in shown):
        raise RuleBroken(f"seat {seat}'s poignée shows {[c.id for c in shown]}")
    if any(c.fool for c in shown) and any(c.is_trump and c not in shown for c in held):
        raise RuleBroken(f"seat {seat} showed the Excuse while keeping a trump hidden")


@dataclass
class PlayedTrick:
    cards: list[Card]
    seats: list[int]
    winner: int
    winning_card: Card
    excuse_won: bool


def _play_and_score(
    table: Table,
    reading: HandReading,
    in_hand: dict[int, list[Card]],
    plays: list[dict],
    attackers: set[int],
    discards: list[Card],
    talon: list[Card],
    chelems: dict[int, bool],
    poignees: dict[int, str],
) -> None:
    def side_of(seat: int) -> str:
        return ATTACK if seat in attackers else DEFENCE

    tricks = _play_tricks(table, in_hand, plays, side_of)
    reading.trick_winners = [trick.winner for trick in tricks]
    unseen_talon = {"garde_sans": ATTACK, "garde_contre": DEFENCE}.get(reading.contract)
    piles, reading.excuse_debt = _gather(table, tricks, side_of, discards, (unseen_talon, talon))
    reading.side_points = {side: points_of(cards) for side, cards in piles.items()}
    reading.bouts = sum(card.is_bout for card in piles[ATTACK])
    difference = reading.side_points[ATTACK] - TARGET_BY_BOUTS[reading.bouts]
    if difference != int(difference):
        # 003's rule for three and five players, used with four too (half a point comes up
        # there only when an Excuse debt lapses): rounded for the taker when he wins, against
        # him when he loses, so half a point short loses by one.
        difference = math.ceil(difference) if difference > 0 else math.floor(difference)
    made = difference >= 0
    contract = (GAME_POINTS + abs(difference)) * (1 if made else -1)
    petit = _petit_au_bout(tricks, side_of)
    poignee = sum(POIGNEE_VALUE[level] for level in poignees.values()) * (1 if made else -1)
    announced = {side_of(seat) for seat in chelems}
    chelem = _chelem(tricks, side_of, announced, table.doubts.one_chelem_bonus)
    score = (contract + petit) * MULTIPLIER[reading.contract] + poignee + chelem
    reading.score = _rounded(score, table.options.get("score_rounding", "exact"))
    reading.net = _shares(table, reading, attackers)


def _play_tricks(table: Table, in_hand: dict[int, list[Card]], plays: list[dict], side_of):
    """Every trick, each card checked as it is played; the first led by the dealer's right."""
    count = table.size.hand_size
    if len(plays) != count * table.players:
        raise RuleBroken(f"{len(plays)} cards played, {count * table.players} expected")
    tricks: list[PlayedTrick] = []
    leader = table.seat_after(table.dealer)
    for number in range(1, count + 1):
        cards: list[Card] = []
        seats = [table.seat_after(leader, turn) for turn in range(table.players)]
        for seat in seats:
            play = plays[len(tricks) * table.players + len(cards)]
            if play["seat"] != seat:
                raise RuleBroken(
                    f"trick {number}: seat {play['seat']} played in seat {seat}'s turn"
                )
            card = table.card(play["choice"])
            problem = legality_problem(card, in_hand[seat], cards)
            if problem:
                raise RuleBroken(f"trick {number}, seat {seat}: {problem}")
            in_hand[seat].remove(card)
            cards.append(card)
        # The Excuse wins only when led to the last trick by a side that won all the others.
        excuse_won = (
            number == count
            and cards[0].fool
            and all(side_of(t.winner) == side_of(leader) for t in tricks)
        )
        index = 0 if excuse_won else winning_index(cards)
        tricks.append(PlayedTrick(cards, seats, seats[index], cards[index], excuse_won))
        leader = seats[index]
    return tricks


def _gather(
    table: Table,
    tricks: list[PlayedTrick],
    side_of,
    discards: list[Card],
    unseen_talon: tuple[str | None, list[Card]],
):
    """Each side's cards: its tricks (the taker's discards count as his), the Excuse kept by
    its side before the last trick, and a half-point card handed over for it as soon as that
    side has one. A talon nobody looked at joins its side's tricks at the end of the hand, so
    it can settle a debt only then."""
    piles: dict[str, list[Card]] = {ATTACK: list(discards), DEFENCE: []}
    talon_side, talon = unseen_talon
    if talon_side and table.doubts.unseen_talon_pays_in_play:
        piles[talon_side] += talon
        talon_side = None
    debt: ExcuseDebt | None = None
    for number, trick in enumerate(tricks, start=1):
        winning_side = side_of(trick.winner)
        for card, seat in zip(trick.cards, trick.seats, strict=True):
            keeps_excuse = card.fool and number < len(tricks) and side_of(seat) != winning_side
            if keeps_excuse:
                debt = ExcuseDebt(side_of(seat), trick.winner, number)
            piles[side_of(seat) if keeps_excuse else winning_side].append(card)
        if debt and debt.paid_after_trick is None and _hand_over(debt, piles, side_of):
            debt.paid_after_trick = number
    if talon_side:
        piles[talon_side] += talon
    if debt and debt.paid_after_trick is None:
        debt.paid_from_talon = _hand_over(debt, piles, side_of)
        surrender = table.options.get("excuse_debt", "lapses") == "fool_surrendered"
        if not debt.paid_from_talon and surrender:
            fool = next(c for c in piles[debt.debtor] if c.fool)
            piles[debt.debtor].remove(fool)
            piles[side_of(debt.creditor_seat)].append(fool)
    return piles, debt


def _hand_over(debt: ExcuseDebt, piles: dict[str, list[Card]], side_of) -> bool:
    """Move a half-point card from the debtor's pile to the creditor's, if it has one."""
    low = [c for c in piles[debt.debtor] if c.points == LOW_CARD_POINTS]
    if low:
        piles[debt.debtor].remove(low[0])
        piles[side_of(debt.creditor_seat)].append(low[0])
    return bool(low)


def _petit_au_bout(tricks: list[PlayedTrick], side_of) -> int:
    """10 for the side that takes the last trick with the 1 of trumps in it; after a chelem
    finished by leading the Excuse, for the 1 of trumps winning the trick before. Signed
    for the taker's side."""
    last = tricks[-1]
    if any(card.trump == 1 for card in last.cards):
        side = side_of(last.winner)
    elif last.excuse_won and len(tricks) > 1 and tricks[-2].winning_card.trump == 1:
        side = side_of(tricks[-2].winner)
    else:
        return 0
    return PETIT_AU_BOUT if side == ATTACK else -PETIT_AU_BOUT


def _chelem(tricks: list[PlayedTrick], side_of, announced_by: set[str], one_bonus: bool) -> int:
    """Announced: 400 made, -200 failed; unannounced and made: 200. Signed for the taker.
    Under the doubt `one_chelem_bonus`, only the first of these counts: the taker's side's
    announcement, the defence's, a chelem unannounced."""
    total = 0
    for side, sign in ((ATTACK, 1), (DEFENCE, -1)):
        took_all = all(side_of(trick.winner) == side for trick in tricks)
        if side in announced_by:
            value = CHELEM_ANNOUNCED_MADE if took_all else CHELEM_ANNOUNCED_FAILED
        elif took_all and not (one_bonus and announced_by):
            value = CHELEM_UNANNOUNCED
        else:
            value = 0
        if one_bonus and value:
            return sign * value
        total += sign * value
    return total


def _rounded(score: float, reading: str) -> float:
    """Option `score_rounding` (003 mentions players who round to 5 or 10): halves away
    from zero."""
    step = {"exact": 0, "nearest_5": 5, "nearest_10": 10}[reading]
    if not step:
        return score
    return math.copysign(math.floor(abs(score) / step + 0.5) * step, score)


def _shares(table: Table, reading: HandReading, attackers: set[int]) -> list[float]:
    """Each defender pays the score to the taker's side (or is paid it). With five players
    and a partner, option `partner_share`: the taker two shares and the partner one, or
    halves."""
    score = reading.score
    net = [0.0] * table.players
    defenders = [seat for seat in range(table.players) if seat not in attackers]
    for seat in defenders:
        net[seat] = -score
    side_total = score * len(defenders)
    if reading.partner is None:
        net[reading.taker] = side_total
    elif table.options.get("partner_share", "two_to_one") == "equal":
        net[reading.taker] = net[reading.partner] = side_total / 2
    else:
        net[reading.taker] = 2 * score
        net[reading.partner] = score
    return net
