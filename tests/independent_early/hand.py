"""One hand of 002 replayed from a record: the deal, every card played checked against the
rules of play, each trick's winner, the Fool taken back and paid for, and each seat's cards,
card points and net. A record that breaks a rule raises `RuleBroken`."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import FOOL, TRUMPS, Card, cards_of, check_pack

CARDS_EACH = 12
CLAIM_AT = 50


class RuleBroken(Exception):
    """The record does something 002 does not allow."""


@dataclass
class HandReading:
    """What 002 makes of one recorded hand."""

    trick_winners: list[int] = field(default_factory=list)
    exchanges: list[dict] = field(default_factory=list)
    card_points: list[int] = field(default_factory=list)
    net: list[int] = field(default_factory=list)
    claimed: list[int] = field(default_factory=list)


def may_play(card: Card, hand: list[Card], led: str | None) -> bool:
    """002's rules of play: the Fool at any time; otherwise follow suit, else trump, else any
    card. `led` is the suit to follow (None for the first card, or after the Fool led)."""
    if card.suit == FOOL or led is None or card.suit == led:
        return True
    if any(held.suit == led for held in hand):
        return False
    return card.suit == TRUMPS or not any(held.suit == TRUMPS for held in hand)


def trick_winner(played: list[tuple[int, Card]]) -> int:
    """The highest trump, else the highest card of the suit led; the Fool never wins, and a
    Fool led leaves the lead to the next card."""
    real = [(seat, card) for seat, card in played if card.suit != FOOL]
    led = real[0][1].suit
    trumps = [(seat, card) for seat, card in real if card.suit == TRUMPS]
    contenders = trumps or [(seat, card) for seat, card in real if card.suit == led]
    return max(contenders, key=lambda pair: pair[1].order)[0]


def dealt_hands(hand: dict, players: int) -> list[list[str]]:
    """The record's hands, checked against the pack: twelve each from the top, the rest aside."""
    pack, dealt = hand["pack"], hand["hands_dealt"]
    top = CARDS_EACH * players
    if len(pack) != 78 or len(set(pack)) != 78:
        raise RuleBroken("the pack is not 78 different cards")
    if any(len(cards) != CARDS_EACH for cards in dealt):
        raise RuleBroken(f"hands of {[len(cards) for cards in dealt]} cards, not 12 each")
    if sorted(c for cards in dealt for c in cards) != sorted(pack[:top]):
        raise RuleBroken("the hands are not the top 12 cards a player of the pack")
    if hand["talon"] != pack[top:]:
        raise RuleBroken("the cards set aside are not the rest of the pack")
    return [list(cards) for cards in dealt]


def read_hand(hand: dict, options: dict[str, str], totals: list[int]) -> HandReading:
    """Replay one hand by 002; `totals` are the seats' totals before it (for a claim)."""
    cards = cards_of(hand["deck"])
    check_pack(cards)
    players = len(hand["hands_dealt"])
    held = [[cards[c] for c in seat_cards] for seat_cards in dealt_hands(hand, players)]
    piles: list[list[Card]] = [[] for _ in range(players)]
    debts: list[tuple[int, int]] = []  # (Fool's player, winner of its trick) not yet paid
    recorded_exchanges = list(hand.get("excuse_exchanges", []))
    reading = HandReading()
    _check_decisions(hand)
    leader = (hand["dealer"] + 1) % players
    for number, trick in enumerate(hand["tricks"], start=1):
        played = _play_trick(trick, leader, held, cards, players)
        winner = trick_winner(played)
        reading.trick_winners.append(winner)
        last = number == CARDS_EACH
        for seat, card in played:
            keeps_fool = card.suit == FOOL and not (
                last and options["fool_last_trick"] == "captured"
            )
            piles[seat if keeps_fool else winner].append(card)
            if keeps_fool:
                debts.append((seat, winner))
        for debtor, creditor in list(debts):
            if any(card.suit != FOOL for card in piles[debtor]):
                given = _take_exchange(recorded_exchanges, debtor, creditor, number, piles, cards)
                reading.exchanges.append(given)
                debts.remove((debtor, creditor))
        leader = winner
        if options["tie_break"] == "first_to_claim" and not last:
            counts = [t + _count(pile) - CARDS_EACH for t, pile in zip(totals, piles, strict=True)]
            reading.claimed = [seat for seat in range(players) if counts[seat] >= CLAIM_AT]
            if reading.claimed:
                break
    if not reading.claimed and len(hand["tricks"]) != CARDS_EACH:
        raise RuleBroken(f"{len(hand['tricks'])} tricks played, not 12")
    for debtor, creditor in debts:  # a Fool still unpaid for when the hand ends
        piles[debtor] = [card for card in piles[debtor] if card.suit != FOOL]
        piles[creditor].append(next(c for c in cards.values() if c.suit == FOOL))
    if recorded_exchanges:
        raise RuleBroken(f"Fool payments 002 does not call for: {recorded_exchanges}")
    reading.card_points = [_count(pile) for pile in piles]
    reading.net = [points - CARDS_EACH for points in reading.card_points]
    return reading


def _count(pile: list[Card]) -> int:
    return len(pile) + sum(card.value for card in pile)


def _check_decisions(hand: dict) -> None:
    plays = [(d["seat"], d["choice"]) for d in hand["decisions"] if d["kind"] == "play"]
    in_tricks = [(c["seat"], c["card"]) for t in hand["tricks"] for c in t["cards"]]
    if plays != in_tricks:
        raise RuleBroken("the cards in the tricks are not the cards the players chose")


def _play_trick(
    trick: dict, leader: int, held: list[list[Card]], cards: dict[str, Card], players: int
) -> list[tuple[int, Card]]:
    number = trick["number"]
    if trick["leader"] != leader or len(trick["cards"]) != players:
        raise RuleBroken(f"trick {number}: led by {trick['leader']}, not {leader}, or not full")
    played: list[tuple[int, Card]] = []
    led = None
    for turn, entry in enumerate(trick["cards"]):
        seat, card = entry["seat"], cards[entry["card"]]
        if seat != (leader + turn) % players:
            raise RuleBroken(f"trick {number}: seat {seat} plays out of turn")
        if card not in held[seat]:
            raise RuleBroken(f"trick {number}: seat {seat} does not hold {card.id}")
        if not may_play(card, held[seat], led):
            raise RuleBroken(f"trick {number}: seat {seat} may not play {card.id} to {led}")
        held[seat].remove(card)
        played.append((seat, card))
        if led is None and card.suit != FOOL:
            led = card.suit
    return played


def _take_exchange(
    recorded: list[dict],
    debtor: int,
    creditor: int,
    number: int,
    piles: list[list[Card]],
    cards: dict[str, Card],
) -> dict:
    """The record's payment for a Fool, due after trick `number`; the card is moved."""
    for given in recorded:
        if given["from"] == debtor and given["after_trick"] == number:
            card = cards.get(given["card"])
            if given["to"] != creditor:
                raise RuleBroken(f"after trick {number}: the Fool paid to {given['to']}")
            if card is None or card.suit == FOOL or card not in piles[debtor]:
                raise RuleBroken(f"after trick {number}: {given['card']} is not a card won")
            recorded.remove(given)
            piles[debtor].remove(card)
            piles[creditor].append(card)
            return given
    raise RuleBroken(f"after trick {number}: seat {debtor} owes seat {creditor} a card")
