"""Marolles 1637 written out by hand: the plain program the engine's speed is measured against.

This is the game the built-in ruleset `marolles-1637` plays with every option at its default
reading (McLeod's reconstruction, source text 000): three players each for themselves, the
66-card pack, the cut card paid to the dealer when it is a Tarot, a deal of four rounds of
five and then 1/1/4, discards of 1/1/4 with two marques to each opponent for every trump or
Tarot discarded, declarations (each the largest the hand holds, declared or not; triomphes
shown as many as the level names), la Belle
paid when played, one marque for every Tarot kept or captured, the Fool excused, Ultimo
(six marques won or lost, in place of the Tarot payment), counting in threes and the
card-point settlement. It is ordinary Python (lists and dicts, one hand at a time) and knows
nothing of the interpreter: `benchmarks/speed.py` times it beside the engine and
`benchmarks/check_plain_marolles.py` proves that both play the same game.

Players are functions `choose(seat, kind, legal) -> one of legal`, asked for every decision
(kinds "discard", "declare", "show" and "play", as in the engine's records), even when there is one
legal move.

    python benchmarks/plain_marolles.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

# the readings of marolles-1637's options that this program plays (each option's default)
READINGS = {
    "deal_packets": "fives",
    "illegal_discard": "per_card",
    "belle_declared": "paid_when_played",
    "declaration_timing": "before_play",
    "declarations_maximal": "maximal",
    "kings_values": "mcleod",
    "fool_may_lead": "allowed",
    "fool_in_last_trick": "captured",
    "two_winners": "each_by_excess",
    "small_totals": "extrapolated",
    "ultimo_failure": "mcleod",
    "ultimo_replaces_tarot_payment": "replaces",
    "fool_last_trick_payment": "penalty_only",  # the two marques, no capture payment besides
    "belle_discarded": "not_paid",  # la Belle is paid only when played
    "tied_winners": "split_rounded_down",  # read only under two_winners higher_only
}
PLAYERS = 3
AVERAGE = 25  # card points at or above which a player is a winner
BAND = 5  # card points per marque in the settlement
TRICKS = 20

SUITS = ("swords", "batons", "cups", "coins")
LONG_SUITS = ("swords", "batons")  # pips rank 10 high; in the round suits, 1 high
COURTS = ("K", "Q", "C", "J")  # King, Queen, Cavalier, Jack, as written in records
COURT_STRENGTH = {"K": 14, "Q": 13, "C": 12, "J": 11}
COURT_POINTS = {"K": 5, "Q": 4, "C": 3, "J": 2}
TRUMP, FOOL = "trump", "fool"


@dataclass(frozen=True, eq=False)  # one object per card: compared by identity
class Card:
    name: str  # as in the engine's records: "swords-K", "cups-1", "trump-21", "fool"
    suit: str  # one of SUITS, TRUMP or FOOL
    rank: str | int  # court letter, pip or trump number (0 for the Fool)
    strength: int  # higher beats lower within the suit (trumps: their number)
    points: int  # counting value: 5 for a Tarot, 4/3/2 for Queen/Cavalier/Jack, else 0
    tarot: bool  # the Kings, trumps 1 and 21 and the Fool


def make_pack() -> list[Card]:
    """The 66 cards: no 1-3 in swords and batons, no 8-10 in cups and coins."""
    pack = []
    for suit in SUITS:
        for court in COURTS:
            pack.append(
                Card(
                    f"{suit}-{court}",
                    suit,
                    court,
                    COURT_STRENGTH[court],
                    COURT_POINTS[court],
                    court == "K",
                )
            )
        pips = range(10, 3, -1) if suit in LONG_SUITS else range(7, 0, -1)
        for pip in pips:
            strength = pip if suit in LONG_SUITS else 11 - pip
            pack.append(Card(f"{suit}-{pip}", suit, pip, strength, 0, False))
    for number in range(1, 22):
        tarot = number in (1, 21)
        pack.append(Card(f"trump-{number}", TRUMP, number, number, 5 if tarot else 0, tarot))
    pack.append(Card("fool", FOOL, 0, 0, 5, True))
    return pack


PACK = make_pack()
CARDS_BY_NAME = {card.name: card for card in PACK}
BELLE = CARDS_BY_NAME["coins-1"]

Chooser = Callable[[int, str, list], object]


@dataclass
class Hand:
    """One hand from the deal to the settlement, and everything paid in it."""

    dealer: int
    hands: list[list[Card]] = field(default_factory=lambda: [[] for _ in range(PLAYERS)])
    discards: list[list[Card]] = field(default_factory=lambda: [[] for _ in range(PLAYERS)])
    won: list[list[Card]] = field(default_factory=lambda: [[] for _ in range(PLAYERS)])
    payments: list[tuple[str, int, int, int]] = field(default_factory=list)  # rule, from, to, M
    points: list[int] = field(default_factory=list)

    def pay(self, rule: str, payer: int, payee: int, amount: int) -> None:
        if amount:
            self.payments.append((rule, payer, payee, amount))

    def paid_by_opponents(self, rule: str, seat: int, amount: int) -> None:
        for other in opponents(seat):
            self.pay(rule, other, seat, amount)

    def pays_opponents(self, rule: str, seat: int, amount: int) -> None:
        for other in opponents(seat):
            self.pay(rule, seat, other, amount)

    def net(self) -> list[int]:
        net = [0] * PLAYERS
        for _rule, payer, payee, amount in self.payments:
            net[payer] -= amount
            net[payee] += amount
        return net


def opponents(seat: int) -> list[int]:
    return [other for other in range(PLAYERS) if other != seat]


def play_hand(pack: list[Card], dealer: int, choose: Chooser) -> Hand:
    """Deal `pack` (top card first; the bottom card is the cut card, shown and dealt to the
    dealer), then discard, declare, play twenty tricks and settle."""
    hand = Hand(dealer)
    order = [(dealer + 1 + i) % PLAYERS for i in range(PLAYERS)]  # anticlockwise from dealer
    deal(hand, pack, order)
    if pack[-1].tarot:
        hand.paid_by_opponents("cut_tarot", dealer, 1)
    discard(hand, order, choose)
    declare(hand, order, choose)
    play_tricks(hand, order[0], choose)
    settle(hand)
    return hand


def deal(hand: Hand, pack: list[Card], order: list[int]) -> None:
    """Four rounds of five to each, then one to each other player and four to the dealer."""
    position = 0
    rounds = [[5, 5, 5]] * 4 + [[1, 1, 4]]  # in dealing order; the dealer is last
    for counts in rounds:
        for seat, count in zip(order, counts, strict=True):
            hand.hands[seat].extend(pack[position : position + count])
            position += count


def discard(hand: Hand, order: list[int], choose: Chooser) -> None:
    """One card from each other player, then four from the dealer, one at a time; a trump or
    a Tarot discarded costs two marques to each opponent."""
    for seat in order:
        count = 4 if seat == hand.dealer else 1
        for _ in range(count):
            card = choose(seat, "discard", list(hand.hands[seat]))
            hand.hands[seat].remove(card)
            hand.discards[seat].append(card)
            if card.tarot or card.suit == TRUMP:
                hand.pays_opponents("illegal_discard", seat, 2)


def declare(hand: Hand, order: list[int], choose: Chooser) -> None:
    """Each player in order of play offers each combination held, at its largest, and is
    paid for those declared."""
    for seat in order:
        for combination, level, value in combinations(hand.hands[seat], hand.discards[seat]):
            name = f"{combination}:{level}"
            if choose(seat, "declare", [name, f"{combination}:none"]) != name:
                continue
            show_triomphes(hand, seat, level, choose)
            if combination == "who_has_the_third":
                # paid by the opponent who holds none of the World, the Pagat and the Fool
                for other in opponents(seat):
                    held = hand.hands[other] + hand.discards[other]
                    if not any(is_triumph_tarot(card) for card in held):
                        hand.pay(name, other, seat, value)
            else:
                hand.paid_by_opponents(name, seat, value)


SHOWN_TRIOMPHES = {"ten": 10, "fifteen": 15, "twenty": 20}  # triomphes shown per level


def show_triomphes(hand: Hand, seat: int, level: str, choose: Chooser) -> None:
    """A player declaring triomphes shows as many as the level names; holding more, he picks
    them one by one."""
    if level not in SHOWN_TRIOMPHES:
        return
    held = [card for card in hand.hands[seat] if card.suit in (TRUMP, FOOL)]
    if SHOWN_TRIOMPHES[level] >= len(held):
        return
    for _ in range(SHOWN_TRIOMPHES[level]):
        held.remove(choose(seat, "show", list(held)))


def is_triumph_tarot(card: Card) -> bool:
    return card.suit == FOOL or (card.suit == TRUMP and card.rank in (1, 21))


def combinations(cards: list[Card], discarded: list[Card]) -> list[tuple[str, str, int]]:
    """(combination, level, marques) for every combination the hand holds, at its largest."""
    found = []
    tarots = sum(1 for card in cards if card.tarot)
    if tarots >= 4:
        level = {4: "four", 5: "five", 6: "six"}.get(tarots, "seven")
        found.append(("tarots", level, tarots - 3))
    kings = sum(1 for card in cards if card.rank == "K")
    fool = any(card.suit == FOOL for card in cards)
    if kings == 4:
        found.append(
            ("kings_and_fool", "four_kings_fool", 4)
            if fool
            else ("kings_and_fool", "four_kings", 3)
        )
    elif kings == 3:
        found.append(
            ("kings_and_fool", "three_kings_fool", 2)
            if fool
            else ("kings_and_fool", "three_kings", 1)
        )
    elif kings == 2 and fool:
        found.append(("kings_and_fool", "two_kings_fool", 1))
    triomphes = sum(1 for card in cards if card.suit in (TRUMP, FOOL))
    if triomphes >= 20:
        found.append(("triomphes", "twenty", 3))
    elif triomphes >= 15:
        found.append(("triomphes", "fifteen", 2))
    elif triomphes >= 10:
        found.append(("triomphes", "ten", 1))
    for suit in SUITS:
        if sum(1 for card in cards if card.suit == suit and card.rank in COURTS) == 4:
            found.append((f"imperial_{suit}", "all_courts", 1))
    for court, plural in (("Q", "queens"), ("C", "cavaliers"), ("J", "jacks")):
        if sum(1 for card in cards if card.rank == court) == 4:
            found.append((f"imperial_{plural}", "all_four", 1))
    trumps = {card.rank for card in cards if card.suit == TRUMP}
    for name, sequence in (("brizigole_top", range(21, 15, -1)), ("brizigole_bottom", range(1, 7))):
        run = 0
        for number in sequence:
            if number not in trumps:
                break
            run += 1
        if run >= 4:
            found.append((name, {4: "four", 5: "five", 6: "six"}[run], run - 3))
    triumph_tarots = sum(1 for card in cards if is_triumph_tarot(card))
    if triumph_tarots == 3:
        found.append(("all_three", "all_three", 3))
    elif triumph_tarots == 2 and not any(is_triumph_tarot(card) for card in discarded):
        # two of them, and the third is not among his own discards: he asks for it
        found.append(("who_has_the_third", "two_of_three", 1))
    return found


def legal_cards(cards: list[Card], trick: list[tuple[int, Card]]) -> list[Card]:
    """Follow suit; failing that, or when a trump is led, play a trump (any trump); the Fool
    may be played to any trick, and led; after a led Fool the next card sets the suit."""
    if len(cards) <= 1 or not trick:
        return list(cards)
    led = next((card for _seat, card in trick if card.suit != FOOL), None)
    if led is None:
        return list(cards)
    fools = [card for card in cards if card.suit == FOOL]
    others = [card for card in cards if card.suit != FOOL]
    trumps = [card for card in others if card.suit == TRUMP]
    if led.suit == TRUMP:
        return (trumps or others) + fools
    following = [card for card in others if card.suit == led.suit]
    return (following or trumps or others) + fools


def trick_winner(trick: list[tuple[int, Card]]) -> int:
    """The highest trump, or else the highest card of the suit led; the Fool never wins.
    (After a led Fool the next card is the lead, so some card always counts.)"""
    led = next(card for _seat, card in trick if card.suit != FOOL)

    def beats(play: tuple[int, Card]) -> tuple[int, int]:
        card = play[1]
        if card.suit == TRUMP:
            return 2, card.strength
        return (1, card.strength) if card.suit == led.suit else (0, 0)

    return max(trick, key=beats)[0]


def play_tricks(hand: Hand, leader: int, choose: Chooser) -> None:
    for number in range(1, TRICKS + 1):
        last = number == TRICKS
        trick: list[tuple[int, Card]] = []
        for i in range(PLAYERS):
            seat = (leader + i) % PLAYERS
            card = choose(seat, "play", legal_cards(hand.hands[seat], trick))
            hand.hands[seat].remove(card)
            trick.append((seat, card))
            if card is BELLE:
                hand.paid_by_opponents("belle_played", seat, 1)
        winner = trick_winner(trick)
        for seat, card in trick:
            fool = card.suit == FOOL
            keeper = seat if fool and not last else winner  # the Fool excused is kept
            hand.won[keeper].append(card)
            if last and fool:  # not excused in time
                hand.pays_opponents("fool_not_excused", seat, 2)
            elif last and (card.rank == "K" or (card.suit == TRUMP and card.rank == 1)):
                if winner == seat:  # Ultimo, in place of the Tarot payment
                    hand.paid_by_opponents("ultimo_won", seat, 6)
                else:
                    hand.pays_opponents("ultimo_lost", seat, 6)
            elif card.tarot and keeper == seat:
                hand.paid_by_opponents("tarot_kept", seat, 1)
            elif card.tarot:
                hand.pays_opponents("tarot_captured", seat, 1)
        leader = winner


def count_points(pile: list[Card]) -> int:
    """Counting in threes: each group of three scores its counting cards' values less one
    for each, plus one; two cards left over count as a group, a single one scores its value
    less one."""
    counting = [card.points for card in pile if card.points]
    groups, leftover = divmod(len(pile), 3)
    return sum(counting) - len(counting) + groups + (1 if leftover == 2 else 0)


def settle(hand: Hand) -> None:
    """Tricks and own discards are counted. One winner (25 or more): each loser pays him a
    marque per full five points short of 25. Two winners: the loser pays each a marque per
    full five points of that winner's excess."""
    hand.points = [count_points(hand.won[s] + hand.discards[s]) for s in range(PLAYERS)]
    winners = [s for s in range(PLAYERS) if hand.points[s] >= AVERAGE]
    losers = [s for s in range(PLAYERS) if hand.points[s] < AVERAGE]
    if len(winners) == 1:
        for loser in losers:
            shortfall = AVERAGE - hand.points[loser]
            hand.pay("losers_pay_winner", loser, winners[0], shortfall // BAND)
    elif len(winners) == 2:
        for loser in losers:
            for winner in winners:
                excess = hand.points[winner] - AVERAGE
                hand.pay("winners_paid_by_excess", loser, winner, excess // BAND)


def shuffled(rng: random.Random) -> list[Card]:
    """Shuffle, then cut: some cards from the top go to the bottom."""
    pack = list(PACK)
    rng.shuffle(pack)
    cut = rng.randrange(1, len(pack))
    return pack[cut:] + pack[:cut]


def random_players(rng: random.Random) -> Chooser:
    """Players choosing uniformly among the legal moves."""

    def choose(_seat: int, _kind: str, legal: list) -> object:
        return rng.choice(legal)

    return choose


def play_random_hands(hands: int, seed: int = 1) -> list[Hand]:
    """`hands` hands of a game with random players, the deal passing to the next player."""
    rng = random.Random(seed)
    choose = random_players(rng)
    return [play_hand(shuffled(rng), number % PLAYERS, choose) for number in range(hands)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    played = play_random_hands(args.hands, args.seed)
    elapsed = time.perf_counter() - start
    totals = [sum(hand.net()[s] for hand in played) for s in range(PLAYERS)]
    print(f"{args.hands} random hands in {elapsed:.2f} s: {args.hands / elapsed:.0f} hands/s")
    print(f"totals per seat: {totals}")


if __name__ == "__main__":
    main()
