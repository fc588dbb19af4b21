"""One hand of Droggn replayed from a game record's pack and decisions, for the checker: the
deal, the auction, the talon and the discard, the doubling, every card's legality, the trick
winners, the Gstiess's payment, the card points counted in threes, and each seat's net.
`hand_difference` returns the first thing the record says that the reading in `__init__`
does not, or None."""

from __future__ import annotations

from .cards import PAGAT, Card, cards_of, counted_in_threes

BIDS = ["spiel", "solo", "mord", "super_mord"]
VALUE = {"spiel": 10, "solo": 20, "mord": 40, "super_mord": 80}
TAKES_TALON = {"spiel", "mord", "super_mord"}
EVERY_TRICK = {"mord", "super_mord"}
HALF, MATSCH = 37, 37
NEEDED = {"half": 37, "more_than_half": 38}
TALON, ROUNDS, EACH = 6, 4, 5


class Broken(Exception):
    """The record does something the reading forbids."""


def hand_difference(hand: dict, options: dict[str, str]) -> str | None:
    """The first difference from the reading, or None."""
    try:
        return _check(hand, options)
    except Broken as broken:
        return f"the reading forbids it: {broken}"


def _check(hand: dict, options: dict[str, str]) -> str | None:
    cards = cards_of(hand["deck"])
    table, dealer = len(hand["hands_dealt"]), hand["dealer"]
    seating = Seating(table, dealer)
    players = table
    _check_deal(hand, seating)
    if seating.out is not None:
        if hand.get("sat_out") != [seating.out]:
            return f"sat out: record {hand.get('sat_out')}, reading [{seating.out}]"
        if any(d["seat"] == seating.out for d in hand["decisions"]):
            raise Broken(f"the dealer, seat {seating.out}, sitting out, is asked a decision")
    held = [[cards[c] for c in h] for h in hand["hands_dealt"]]
    talon = [cards[c] for c in hand["talon"]]
    decisions = list(hand["decisions"])
    declarer, contract = _auction(decisions, seating)
    if contract == "super_mord" and not any(c.fool for c in held[declarer]):
        raise Broken(f"a Super Mord bid by seat {declarer}, who lacks the Gstiess")
    if declarer is None:
        if hand["thrown_in"] != "all_passed":
            return f"thrown in: record {hand['thrown_in']!r}, reading all_passed"
        if decisions:
            raise Broken(f"decisions after all passed: {decisions[0]}")
        return None if hand["net"] == [0] * players else f"net {hand['net']} after all passed"
    if hand["thrown_in"] is not None:
        return f"thrown in: record {hand['thrown_in']!r}, reading {contract} by seat {declarer}"
    said = (hand["sides"]["taker"], hand["sides"]["contract"])
    if said != (declarer, contract):
        return f"declarer and bid: record {said}, reading {(declarer, contract)}"
    defenders = seating.after(declarer)[:-1]
    won: list[list[Card]] = [[] for _ in range(players)]
    later: list[Card] = []  # a talon counted for the defenders joins their pile at the end
    if contract in TAKES_TALON:
        held[declarer] += talon
        won[declarer] += _discard(decisions, declarer, contract, held[declarer])
    else:
        later = talon
    factor = _doubling(decisions, seating, declarer)
    exchanges = list(hand["excuse_exchanges"])
    side = {s: {declarer} if s == declarer else set(defenders) for s in range(players)}
    winners, debts = _play(
        hand["tricks"], decisions, cards, held, won, (declarer, contract, side), exchanges, seating
    )
    won[defenders[0]] += later
    _pay_debts(debts, exchanges, len(winners), won, side)
    if exchanges:
        raise Broken(f"a payment for the Gstiess the reading does not owe: {exchanges[0]}")
    if decisions:
        raise Broken(f"decisions left over: {decisions[0]}")
    declarer_points = counted_in_threes(won[declarer])
    defence_points = counted_in_threes([c for s in defenders for c in won[s]])
    recorded = hand["card_points"][declarer]
    if recorded != declarer_points:
        return f"declarer's card points: record {recorded}, reading {declarer_points}"
    recorded_defence = sum(hand["card_points"][s] for s in defenders)
    if declarer_points + defence_points != 74 or recorded_defence != defence_points:
        return f"defenders' card points: record {recorded_defence}, reading {defence_points}"
    every_trick = all(w == declarer for w in winners)
    if contract in EVERY_TRICK:
        won_game, amount = every_trick, VALUE[contract]
    else:
        won_game = declarer_points >= NEEDED[options["needed"]]
        amount = VALUE[contract]
        if every_trick:
            amount += MATSCH
        elif options["margin"] == "card_points":
            amount += abs(declarer_points - HALF)
    amount *= factor
    sign = 1 if won_game else -1
    net = [
        0
        if s == seating.out
        else sign * amount * len(defenders)
        if s == declarer
        else -sign * amount
        for s in range(players)
    ]
    if hand["net"] != net:
        return f"net per seat: record {hand['net']}, reading {net}"
    return None


class Seating:
    """The seats at the table, the dealer sitting out when there are four, and the order of
    play among the three who play."""

    def __init__(self, table: int, dealer: int) -> None:
        self.table, self.dealer = table, dealer
        self.out = dealer if table == 4 else None

    def after(self, seat: int) -> list[int]:
        """The seats in play after `seat` in order of play, round to `seat` itself (when it
        plays)."""
        around = [(seat + i) % self.table for i in range(1, self.table + 1)]
        return [s for s in around if s != self.out]


def _check_deal(hand: dict, seating: Seating) -> None:
    """The talon from the top of the pack, then four rounds of five from the dealer's next,
    the dealer dealt nothing when he sits out."""
    pack = hand["pack"]
    if hand["talon"] != pack[:TALON]:
        raise Broken("the talon is not the pack's first six cards")
    dealt: list[list[str]] = [[] for _ in range(seating.table)]
    at = TALON
    for _ in range(ROUNDS):
        for seat in seating.after(seating.dealer):
            dealt[seat] += pack[at : at + EACH]
            at += EACH
    if dealt != hand["hands_dealt"] or at != len(pack):
        raise Broken("the hands are not dealt from the pack in fives")


def _auction(decisions: list, seating: Seating) -> tuple[int | None, str | None]:
    """Round and round from the dealer's next until one is left; a pass is for good."""
    active = seating.after(seating.dealer)
    best, declarer, seat = -1, None, active[0]
    while active and not (len(active) == 1 and declarer is not None):
        bid = decisions.pop(0) if decisions else None
        if bid is None or bid["kind"] != "bid" or bid["seat"] != seat:
            raise Broken(f"seat {seat} should bid, not {bid}")
        following = next((s for s in seating.after(seat) if s in active and s != seat), None)
        if bid["choice"] == "pass":
            active.remove(seat)
        else:
            rank = BIDS.index(bid["choice"]) if bid["choice"] in BIDS else -1
            if rank <= best:
                raise Broken(f"{bid['choice']} by seat {seat} does not overcall")
            best, declarer = rank, seat
        seat = following if following is not None else seat
    return declarer, (BIDS[best] if declarer is not None else None)


def _discard(decisions: list, declarer: int, contract: str, hand: list[Card]) -> list[Card]:
    """Six cards laid away, never a King or a trull card (the Pagat and the Gstiess may go
    in a Mord)."""
    laid = []
    for _ in range(TALON):
        if not decisions or decisions[0]["kind"] != "discard":
            raise Broken(f"{len(laid)} cards laid away, not {TALON}")
        d = decisions.pop(0)
        card = next((c for c in hand if c.id == d["choice"]), None)
        if d["seat"] != declarer or card is None:
            raise Broken(f"seat {d['seat']} lays away {d['choice']}")
        may_go = contract == "mord" and (card.fool or card.trump == PAGAT)
        if card.is_king or (card.is_trull and not may_go):
            raise Broken(f"{card.id} laid away in a {contract}")
        hand.remove(card)
        laid.append(card)
    return laid


def _doubling(decisions: list, seating: Seating, declarer: int) -> int:
    """Each defender in turn may double; once one has, the declarer may redouble."""
    factor = 1
    askers = [s for s in seating.after(seating.dealer) if s != declarer]
    for seat in askers:
        d = decisions.pop(0)
        if d["kind"] != "double" or d["seat"] != seat:
            raise Broken(f"seat {seat} is not asked to double: {d}")
        if d["choice"] == "double:game":
            factor = 2
            answer = decisions.pop(0)
            if answer["seat"] != declarer or answer["kind"] != "double":
                raise Broken(f"the declarer is not asked to redouble: {answer}")
            if answer["choice"] == "redouble:game":
                factor = 4
            elif answer["choice"] != "pass:game":
                raise Broken(f"the declarer answers {answer['choice']}")
            break
        if d["choice"] != "pass:game":
            raise Broken(f"seat {seat} answers {d['choice']}")
    return factor


def legality_problem(card: Card, held: list[Card], trick: list[Card]) -> str | None:
    """Why the reading forbids `card` from `held` on `trick`."""
    if card not in held:
        return f"{card.id} is not in the player's hand"
    led = next((c for c in trick if not c.fool), None)
    if card.fool or led is None:
        return None
    others = [c for c in held if not c.fool]
    if led.is_trump:
        if card.is_trump or not any(c.is_trump for c in others):
            return None
        return f"{card.id} played on a tarock led while holding a tarock"
    if any(c.suit == led.suit and not c.is_trump for c in others):
        return None if card.suit == led.suit and not card.is_trump else f"{card.id} on {led.suit}"
    if any(c.is_trump for c in others) and not card.is_trump:
        return f"{card.id} played without {led.suit} while holding a tarock"
    return None


def trick_winner(played: list[tuple[int, Card]]) -> int | None:
    live = [(seat, c) for seat, c in played if not c.fool]
    if not live:
        return None
    trumps = [(seat, c) for seat, c in live if c.is_trump]
    if trumps:
        return max(trumps, key=lambda sc: sc[1].trump or 0)[0]
    suit = live[0][1].suit
    return max(((s, c) for s, c in live if c.suit == suit), key=lambda sc: sc[1].order_in_suit)[0]


def _play(tricks, decisions, cards, held, won, taken, exchanges, seating):
    """Every trick in turn: (the trick winners, the Gstiess's debts still unpaid)."""
    declarer, contract, side = taken
    leader, winners = seating.after(seating.dealer)[0], []
    debts: list[tuple[int, int]] = []  # (the Gstiess's holder, the trick's winner)
    for number in range(1, len(held[leader]) + 1):
        played: list[tuple[int, Card]] = []
        for seat in [leader, *seating.after(leader)[:-1]]:
            d = decisions.pop(0) if decisions else None
            if d is None or d["kind"] != "play" or d["seat"] != seat:
                raise Broken(f"trick {number}: seat {seat} does not play: {d}")
            card = cards[d["choice"]]
            problem = legality_problem(card, held[seat], [c for _, c in played])
            if problem:
                raise Broken(f"trick {number}, seat {seat}: {problem}")
            held[seat].remove(card)
            played.append((seat, card))
        last = number == len(tricks)
        winner = trick_winner(played)
        if (
            contract == "super_mord"
            and last
            and played[0][1].fool
            and played[0][0] == declarer
            and all(w == declarer for w in winners)
        ):
            winner = declarer
        recorded = tricks[number - 1]
        if [(c["seat"], c["card"]) for c in recorded["cards"]] != [(s, c.id) for s, c in played]:
            raise Broken(f"trick {number} is not the cards played")
        if recorded["winner"] != winner:
            raise Broken(f"trick {number}: record seat {recorded['winner']}, reading {winner}")
        winners.append(winner)
        for seat, card in played:
            if card.fool and not last and seat != winner:
                won[seat].append(card)
                if winner not in side[seat]:
                    debts.append((seat, winner))
            else:
                won[winner].append(card)
        debts = _pay_debts(debts, exchanges, number, won, side)
        leader = winner
    return winners, debts


def _pay_debts(debts, exchanges, number, won, side) -> list[tuple[int, int]]:
    """A side that owes for the Gstiess gives a one-point card from its tricks as soon as it
    has one; the record says which card and which seat of the side gives it."""
    unpaid = []
    for holder, winner in debts:
        owing = side[holder]
        if not any(c.one_point for s in owing for c in won[s]):
            unpaid.append((holder, winner))
            continue
        if not exchanges or exchanges[0]["after_trick"] != number:
            raise Broken(f"the Gstiess is not paid for after trick {number}")
        paid = exchanges.pop(0)
        card = next((c for c in won[paid["from"]] if c.id == paid["card"]), None)
        if paid["from"] not in owing or paid["to"] != winner or card is None or not card.one_point:
            raise Broken(f"the Gstiess paid for with {paid}")
        won[paid["from"]].remove(card)
        won[winner].append(card)
    return unpaid
