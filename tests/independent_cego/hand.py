"""One Cego hand read again from its record by the rules text: the deal, the two phases of
bidding, the exchange with the blind, the Pagat's ultimo, every trick, the card points and
each seat's net. `hand_difference` gives the first thing the record says that the text does
not (or a rule the record breaks), or None."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .cards import TRUMP, counted, is_pip, pack, rank, suit

PLAYERS = 3
TRICKS = 13
# the games of phase 2, lowest first, with the cards each keeps before the blind, those laid
# away after it, and its factor not against a Solo and against one (Games; Scoring)
GAMES = ["cego", "eine", "one_empty", "two_empty", "two_different", "pagat"]
KEEP = {"cego": 2, "eine": 1, "one_empty": 1, "two_empty": 2, "two_different": 2, "pagat": 1}
AFTER = {"cego": 1, "two_empty": 1, "two_different": 1}
FACTOR = {"cego": 1, "eine": 2, "one_empty": 3, "two_empty": 4, "two_different": 5, "pagat": 6}
EMPTY = ("one_empty", "two_empty", "two_different")


class RuleBroken(Exception):
    """The record does something the text does not allow."""


@dataclass
class Reading:
    """What the text makes of the hand."""

    contract: str = ""
    taker: int = -1
    solo_bid: bool = False
    winners: list[int] = field(default_factory=list)
    pile_points: int = 0  # the declarer's tricks and cards laid away (or the blind)
    net: list[int] = field(default_factory=lambda: [0] * PLAYERS)


def _next(seat: int) -> int:
    return (seat + 1) % PLAYERS


def _deal(hand: dict) -> tuple[list[list[str]], list[str]]:
    """One card at a time from the dealer's next until each has thirteen; the rest the
    blind."""
    cards = hand["pack"]
    if sorted(cards) != sorted(pack()):
        raise RuleBroken("the pack is not the text's 51 cards")
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    for at in range(13 * PLAYERS):
        hands[(hand["dealer"] + 1 + at) % PLAYERS].append(cards[at])
    return hands, cards[13 * PLAYERS :]


def _pips_by_suit(held: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in held:
        if is_pip(card):
            counts[suit(card)] = counts.get(suit(card), 0) + 1
    return counts


def _may_play_game(game: str, held: list[str]) -> bool:
    """Whether the hand has what the game lays face up."""
    pips = _pips_by_suit(held)
    if game == "one_empty":
        return bool(pips)
    if game == "two_empty":
        return any(n >= 2 for n in pips.values())
    if game == "two_different":
        return len(pips) >= 2
    if game == "pagat":
        return "trump-1" in held
    return True


def _phase_one(asks: list[tuple[int, str]], dealer: int) -> int | None:
    """The Solo bidder, every answer checked asked in turn, none after a Solo."""
    order = [_next(dealer), _next(_next(dealer)), dealer]
    bidder = None
    for k, (seat, answer) in enumerate(asks):
        if bidder is not None or k >= PLAYERS or seat != order[k]:
            raise RuleBroken(f"seat {seat} asked about Solo out of turn")
        if answer.endswith(":yes"):
            bidder = seat
    if bidder is None and len(asks) != PLAYERS:
        raise RuleBroken("not every player was asked about Solo")
    return bidder


def _phase_two(
    bids: list[tuple[int, str]],
    first: int,
    bidders: list[int],
    must_open: bool,
    held: list[list[str]],
) -> tuple[str | None, int | None]:
    """The game and its declarer (None, None when all pass), every word checked."""
    order = [(first + k) % PLAYERS for k in range(PLAYERS)]
    order = [seat for seat in order if seat in bidders]
    active = list(order)
    level, bidder = -1, None
    turn = 0
    over = False
    for seat, word in bids:
        if over:
            raise RuleBroken(f"seat {seat} bids after the auction is over")
        while order[turn % len(order)] not in active:
            turn += 1
        if seat != order[turn % len(order)]:
            raise RuleBroken(f"seat {seat} bids out of turn")
        turn += 1
        earlier = bidder is not None and order.index(seat) < order.index(bidder)
        if word == "pass":
            if must_open and seat == order[0] and level < 0:
                raise RuleBroken("forehand passes where he must bid Cego")
            active.remove(seat)
        elif word.startswith("hold:"):
            game = word.split(":")[1]
            if not earlier or game != GAMES[level] or not _may_play_game(game, held[seat]):
                raise RuleBroken(f"seat {seat} may not {word}")
            bidder = seat
        else:
            if earlier or word not in GAMES or GAMES.index(word) != level + 1:
                raise RuleBroken(f"seat {seat} may not bid {word} (jump bids are not allowed)")
            if not _may_play_game(word, held[seat]):
                raise RuleBroken(f"seat {seat} bids {word} without the cards it lays face up")
            level, bidder = level + 1, seat
        # over once the highest bidder is the only one left, or all have passed; a player
        # left alone with no bid standing still speaks (a bid, or a pass for the Solo)
        over = not active or (bidder is not None and active == [bidder])
    if not over:
        raise RuleBroken(f"the auction ends with {active} still bidding")
    if bidder is None:
        return None, None
    return GAMES[level], bidder


def _kept_ok(game: str, kept: list[str]) -> bool:
    """The cards the declarer kept before taking the blind, as his game says."""
    pips = [card for card in kept if is_pip(card)]
    if game == "one_empty":
        return len(pips) == 1
    if game == "two_empty":
        return len(pips) == 2 and suit(pips[0]) == suit(pips[1])
    if game == "two_different":
        return len(pips) == 2 and suit(pips[0]) != suit(pips[1])
    if game == "pagat":
        return kept == ["trump-1"]
    return True


def _trump_order(card: str) -> int:
    return rank(card) if suit(card) == TRUMP else -1


def _after_ok(game: str, card: str, held: list[str]) -> bool:
    """The card laid away after the blind: any in Cego; the lowest trump in Two Empty, the
    highest in Two Different (any card when none is held)."""
    trumps = [c for c in held if suit(c) == TRUMP]
    if game == "cego" or not trumps:
        return True
    pick = min if game == "two_empty" else max
    return card == pick(trumps, key=_trump_order)


def _legal_card(card: str, held: list[str], trick: list[str]) -> bool:
    """Follow suit; else a trump; else anything."""
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


def read_hand(hand: dict, options: dict) -> Reading:
    """The hand as the text plays and scores it."""
    dealt, blind = _deal(hand)
    if dealt != [list(h) for h in hand["hands_dealt"]] or blind != hand["talon"]:
        raise RuleBroken("the hands dealt are not the pack's, dealt as the text says")
    held = [list(h) for h in dealt]
    decisions = [(d["seat"], d["kind"], d["choice"]) for d in hand["decisions"]]
    reading = Reading()
    solo_bidder = _phase_one([(s, c) for s, k, c in decisions if k == "ask"], hand["dealer"])
    reading.solo_bid = solo_bidder is not None
    if solo_bidder is None:
        first, bidders = _next(hand["dealer"]), list(range(PLAYERS))
    else:
        first, bidders = _next(solo_bidder), [s for s in range(PLAYERS) if s != solo_bidder]
    bids = [(s, c) for s, k, c in decisions if k == "bid"]
    game, declarer = _phase_two(bids, first, bidders, solo_bidder is None, held)
    if game is None or declarer is None:
        if solo_bidder is None:
            raise RuleBroken("nobody plays, though forehand must bid Cego")
        game, declarer = "solo", solo_bidder
    reading.contract, reading.taker = game, declarer
    # the exchange
    pile: list[str] = []
    laid = [(s, c) for s, k, c in decisions if k == "discard"]
    if any(s != declarer for s, _ in laid):
        raise RuleBroken("a player other than the declarer lays cards away")
    laid_cards = [c for _, c in laid]
    if game == "solo":
        if laid_cards:
            raise RuleBroken("cards laid away in a Solo")
        pile += blind
    else:
        before = 13 - KEEP[game]
        if len(laid_cards) != before + AFTER.get(game, 0):
            raise RuleBroken(f"{len(laid_cards)} cards laid away in {game}")
        for card in laid_cards[:before]:
            if card not in held[declarer]:
                raise RuleBroken(f"{card} laid away but not held")
            held[declarer].remove(card)
        if not _kept_ok(game, held[declarer]):
            raise RuleBroken(f"{game}: the cards kept {held[declarer]} may not be kept")
        held[declarer] += blind
        for card in laid_cards[before:]:
            if card not in held[declarer] or not _after_ok(game, card, held[declarer]):
                raise RuleBroken(f"{card} may not be laid away after the blind in {game}")
            held[declarer].remove(card)
        pile += laid_cards
    ultimo = False
    for seat, kind, choice in decisions:
        if kind == "announce" and choice != "pass":
            if choice != "announce:ultimo" or game != "pagat" or seat != declarer:
                raise RuleBroken(f"seat {seat} announces {choice}")
            ultimo = True
    # play
    leader = declarer
    plays = [(s, c) for s, k, c in decisions if k == "play"]
    if len(plays) != 3 * TRICKS:
        raise RuleBroken(f"{len(plays)} cards played")
    for number in range(TRICKS):
        trick = plays[number * 3 : number * 3 + 3]
        if [s for s, _ in trick] != [leader, _next(leader), _next(_next(leader))]:
            raise RuleBroken(f"trick {number + 1} not played in turn from seat {leader}")
        for k, (seat, card) in enumerate(trick):
            so_far = [c for _, c in trick[:k]]
            if not _legal_card(card, held[seat], so_far):
                raise RuleBroken(f"trick {number + 1}: seat {seat} may not play {card}")
            if seat == declarer:
                _check_declarer_card(
                    card,
                    number + 1,
                    held[seat],
                    so_far,
                    game,
                    kept_cards(game, laid_cards, dealt[declarer]),
                    ultimo,
                    options,
                )
            held[seat].remove(card)
        leader = _trick_winner(trick)
        reading.winners.append(leader)
        if leader == declarer:
            pile += [c for _, c in trick]
    reading.pile_points = counted(pile)
    # the score
    pagat_last = plays[-3:]
    made_ultimo = ("trump-1" in [c for _, c in pagat_last]) and reading.winners[-1] == declarer
    if declarer not in reading.winners or (ultimo and not made_ultimo):
        declarer_points, defender_points = 0, 69
    else:
        declarer_points = reading.pile_points + 1
        defender_points = 70 - declarer_points
    won = declarer_points >= 36
    if game == "solo":
        factor = 2 if won else 1
    elif reading.solo_bid:
        factor = FACTOR[game] + 1
    else:
        factor = FACTOR[game]
    winning = declarer_points if won else defender_points
    value = math.ceil((winning - 35) * factor / 5) * 5
    if reading.solo_bid and game != "solo" and options.get("against_solo_doubled") == "doubled":
        value *= 2
    for defender in range(PLAYERS):
        if defender != declarer:
            sign = 1 if won else -1
            reading.net[declarer] += sign * value
            reading.net[defender] -= sign * value
    return reading


def kept_cards(game: str, laid: list[str], dealt: list[str]) -> list[str]:
    """The cards the declarer kept from his own hand (those of an Empty game lie face up)."""
    if game == "solo":
        return []
    return [c for c in dealt if c not in laid[: 13 - KEEP[game]]]


def _check_declarer_card(
    card: str,
    number: int,
    held: list[str],
    trick: list[str],
    game: str,
    kept: list[str],
    ultimo: bool,
    options: dict,
) -> None:
    """The declarer's own duties: the Pagat to the first trick, or kept to the last after
    ultimo; with the variant, the face-up pip cards to the first tricks."""
    legal = [c for c in held if _legal_card(c, held, trick)]
    if game == "pagat" and number == 1 and not ultimo and card != "trump-1":
        raise RuleBroken("the Pagat is not played to the first trick")
    if game == "pagat" and ultimo and card == "trump-1" and number < TRICKS and len(legal) > 1:
        raise RuleBroken(f"the Pagat, kept for ultimo, falls at trick {number}")
    if options.get("face_up_first") == "first_tricks" and game in EMPTY:
        due = [c for c in kept if c in legal]
        if number <= KEEP[game] and due and card not in due:
            raise RuleBroken(f"trick {number}: the face-up cards {due} must be played first")


def hand_difference(hand: dict, options: dict) -> str | None:
    """The first difference between the record's hand and the text's reading of it."""
    try:
        reading = read_hand(hand, options)
    except RuleBroken as broken:
        return f"hand {hand['number']}: the text forbids what the record does: {broken}"
    sides = hand.get("sides") or {}
    said = (sides.get("contract"), sides.get("taker"))
    read = (reading.contract, reading.taker)
    if said != read:
        return f"hand {hand['number']}: contract and declarer: record {said}, text {read}"
    winners = [trick["winner"] for trick in hand["tricks"]]
    if winners != reading.winners:
        return f"hand {hand['number']}: trick winners: record {winners}, text {reading.winners}"
    recorded = hand["card_points"][reading.taker]
    if recorded != reading.pile_points:
        return (
            f"hand {hand['number']}: declarer's card points: record {recorded}, "
            f"text {reading.pile_points}"
        )
    if hand["net"] != reading.net:
        return f"hand {hand['number']}: net: record {hand['net']}, text {reading.net}"
    return None


def record_differences(record: dict) -> list[str]:
    """Every hand's first difference, and the deal passing to the next seat."""
    options = record["ruleset"]["options"]
    found = []
    for number, hand in enumerate(record["hands"]):
        if hand["dealer"] != number % PLAYERS:
            found.append(f"hand {hand['number']}: dealer {hand['dealer']}")
        difference = hand_difference(hand, options)
        if difference:
            found.append(difference)
    return found
