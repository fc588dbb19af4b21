"""One hand of Jeu de Tarot replayed by 004 from a game record's deal and decisions, for the
checker: the auction, the discard, the declarations, every card's legality, the trick
winners, the card points counted in pairs, and each seat's net. `hand_difference` returns the
first thing the record says that 004 does not, or None."""

from __future__ import annotations

from .cards import MAGICIAN, Card, cards_of, counted_in_pairs

BIDS = ["ill_play", "solo", "solo_with_stock", "solo_against_stock"]
# 004's multiplier table was lost; rules-facts.md gives these by analogy (an assumption).
MULTIPLIER = {"ill_play": 1, "solo": 2, "solo_with_stock": 4, "solo_against_stock": 6}
DECLARER_TAKES_STOCK = {"ill_play", "solo"}
TARGET_BY_HONOURS = {0: 56, 1: 51, 2: 41, 3: 36}
GAME_POINTS = 25
SPARROW = {"announced": 20, "unannounced": 10}
SLAM = {"announced": 400, "unannounced": 200}
# 004's Abundance table was lost: thresholds from rules-facts.md, values assumed (20/30/40).
ABUNDANCE = {
    3: {"single": 13, "double": 15, "triple": 18},
    4: {"single": 10, "double": 13, "triple": 15},
    5: {"single": 8, "double": 10, "triple": 13},
}
ABUNDANCE_VALUE = {"single": 20, "double": 30, "triple": 40}


class Broken(Exception):
    """The record does something 004 forbids."""


def hand_difference(hand: dict, options: dict[str, str], fool_side: bool = False) -> str | None:
    """The first difference from 004, or None. `fool_side` reads "if they have taken no tricks"
    of the Fool's owner as his side (the record's reading) instead of the player himself."""
    try:
        return _check(hand, dict(options, fool_side=fool_side))
    except Broken as broken:
        return f"004 forbids it: {broken}"


def legality_problem(card: Card, held: list[Card], trick: list[Card], free: set[str]) -> str | None:
    """Why 004 forbids `card` from `held` on `trick`; `free` are cards played at any time (the
    Fool, and the Magician of a player with Brass Balls)."""
    if card not in held:
        return f"{card.id} is not in the player's hand"
    led = next((c for c in trick if c.id not in free), None)
    if card.id in free or led is None:
        return None
    others = [c for c in held if c.id not in free]
    if not led.is_trump and any(not c.is_trump and c.suit == led.suit for c in others):
        if card.is_trump or card.suit != led.suit:
            return f"{card.id} played while holding {led.suit}"
        return None
    trumps = [c for c in others if c.is_trump]
    if not trumps:
        return None
    if not card.is_trump:
        return f"{card.id} played while holding a trump"
    highest = max((c.trump for c in trick if c.is_trump and c.id not in free), default=0)
    if card.trump < highest and any(c.trump > highest for c in trumps):
        return f"trump {card.trump} played under {highest} while holding a higher one"
    return None


def trick_winner(cards: list[tuple[int, Card]], free: set[str]) -> int:
    live = [(seat, c) for seat, c in cards if c.id not in free]
    trumps = [(seat, c) for seat, c in live if c.is_trump]
    if trumps:
        return max(trumps, key=lambda sc: sc[1].trump)[0]
    suit = live[0][1].suit
    return max(((s, c) for s, c in live if c.suit == suit), key=lambda sc: sc[1].order_in_suit)[0]


def _auction(decisions: list[dict], dealer: int, players: int) -> tuple[int | None, str | None]:
    bids = [d for d in decisions if d["kind"] == "bid"]
    best, declarer = -1, None
    for turn, bid in enumerate(bids):
        if bid["seat"] != (dealer + 1 + turn) % players:
            raise Broken(f"bid {turn + 1} by seat {bid['seat']} out of turn")
        if bid["choice"] == "pass":
            continue
        rank = BIDS.index(bid["choice"])
        if rank <= best:
            raise Broken(f"{bid['choice']} by seat {bid['seat']} does not overcall")
        best, declarer = rank, bid["seat"]
    return declarer, (BIDS[best] if declarer is not None else None)


def _check(hand: dict, options: dict[str, str]) -> str | None:
    cards = cards_of(hand["deck"])
    players = len(hand["hands_dealt"])
    dealt = [[cards[c] for c in h] for h in hand["hands_dealt"]]
    stock = [cards[c] for c in hand["talon"]]
    if sorted([c.id for h in dealt for c in h] + hand["talon"]) != sorted(hand["pack"]):
        raise Broken("the hands and the stock are not the pack")
    declarer, contract = _auction(hand["decisions"], hand["dealer"], players)
    if declarer is None:
        if hand["thrown_in"] != "all_passed":
            return f"thrown in: record {hand['thrown_in']!r}, 004 all_passed"
        return None if hand["net"] == [0] * players else f"net {hand['net']} after all passed"
    if hand["thrown_in"] is not None:
        return f"thrown in: record {hand['thrown_in']!r}, 004 {contract} by seat {declarer}"
    said = (hand["sides"]["taker"], hand["sides"]["contract"])
    if said != (declarer, contract):
        return f"declarer and bid: record {said}, 004 {(declarer, contract)}"
    held = [list(h) for h in dealt]
    discard = _discard(hand, declarer, contract, held, stock)
    free = {c.id for c in cards.values() if c.fool}
    announced: dict[str, set[int]] = {"sparrow": set(), "slam": set()}
    abundance: list[tuple[int, str]] = []
    for d in hand["decisions"]:
        if d["kind"] not in ("declare", "redeal"):
            continue
        what, _, choice = d["choice"].partition(":")
        if d["kind"] == "redeal" and (what, choice) != ("brass_balls", "play_on"):
            continue
        if what in announced and choice == "announced":
            announced[what].add(d["seat"])
        elif what == "brass_balls" and choice not in ("none", "no"):
            if [c.trump for c in held[d["seat"]] if c.is_trump] != [MAGICIAN]:
                raise Broken(f"seat {d['seat']} declares Brass Balls holding other trumps")
            free.add(next(c.id for c in held[d["seat"]] if c.trump == MAGICIAN))
        elif what == "abundance" and choice != "none":
            trumps = sum(c.is_trump for c in held[d["seat"]])
            if trumps < ABUNDANCE[players][choice]:
                raise Broken(f"seat {d['seat']} declares a {choice} Abundance with {trumps}")
            abundance.append((d["seat"], choice))
        elif what not in announced and choice not in ("none", "no"):
            return f"a declaration 004 does not have: {d['choice']} by seat {d['seat']}"
    if announced["slam"] - {declarer} and options.get("slam_by", "declarer") == "declarer":
        raise Broken(f"a Slam announced by seat(s) {announced['slam'] - {declarer}}")
    return _play_and_score(
        hand, cards, held, declarer, contract, discard, stock, free, announced, abundance, options
    )


def _discard(hand: dict, declarer: int, contract: str, held: list, stock: list) -> list[Card]:
    """I'll Play and Solo: the declarer takes the stock and discards as many cards, never a
    King or an Honour, and a trump only when nothing else is left to discard."""
    chosen = [d["choice"] for d in hand["decisions"] if d["kind"] == "discard"]
    if contract not in DECLARER_TAKES_STOCK:
        if chosen:
            raise Broken(f"a discard under {contract}")
        return []
    held[declarer] += stock
    by_id = {c.id: c for c in held[declarer]}
    if len(chosen) != len(stock) or any(c not in by_id for c in chosen):
        raise Broken(f"discard {chosen} is not {len(stock)} cards of the declarer's")
    plain = [c for c in held[declarer] if not (c.is_trump or c.is_honour or c.rank == "King")]
    for card_id in chosen:
        card = by_id[card_id]
        if card.is_honour or card.rank == "King":
            raise Broken(f"{card_id} discarded")
        if card.is_trump and len(plain) >= len(stock):
            raise Broken(f"trump {card_id} discarded with {len(plain)} other cards to discard")
    held[declarer] = [c for c in held[declarer] if c.id not in chosen]
    return [by_id[c] for c in chosen]


def _play_and_score(
    hand, cards, held, declarer, contract, discard, stock, free, announced, abundance, options
) -> str | None:
    players = len(held)
    leader = declarer
    won: list[list[Card]] = [[] for _ in range(players)]
    winners = []
    excused = []  # (owner, trick winner) for each free card that went to another's trick
    for trick in hand["tricks"]:
        seats = [(leader + i) % players for i in range(players)]
        if [c["seat"] for c in trick["cards"]] != seats:
            raise Broken(f"trick {trick['number']} not played in turn from seat {leader}")
        played: list[tuple[int, Card]] = []
        for entry in trick["cards"]:
            card = cards[entry["card"]]
            problem = legality_problem(card, held[entry["seat"]], [c for _, c in played], free)
            if problem:
                raise Broken(f"trick {trick['number']}, seat {entry['seat']}: {problem}")
            held[entry["seat"]].remove(card)
            played.append((entry["seat"], card))
        winner = trick_winner(played, free)
        if trick["winner"] != winner:
            return f"trick {trick['number']}: record seat {trick['winner']}, 004 seat {winner}"
        winners.append(winner)
        for seat, card in played:
            if card.id in free and seat != winner:
                won[seat].append(card)
                excused.append((seat, winner))
            else:
                won[winner].append(card)
        leader = winner
    if any(held):
        return f"cards left unplayed: {[[c.id for c in h] for h in held]}"
    side = [seat == declarer for seat in range(players)]
    took_trick = declarer in winners
    extra = discard or stock
    if (contract in DECLARER_TAKES_STOCK or contract == "solo_with_stock") and took_trick:
        won[declarer] += extra
    else:
        defender_pile = next(s for s in range(players) if s != declarer)
        won[defender_pile] += extra
    for owner, winner in excused:
        if side[owner] != side[winner]:
            _pay_for_free_card(won, owner, winner, side, winners, free, options["fool_side"])
    points = counted_in_pairs(won[declarer])
    recorded = hand["card_points"][declarer]
    if recorded != points:
        return f"declarer's card points: record {recorded}, 004 {points}"
    honours = sum(c.is_honour for c in won[declarer])
    target = TARGET_BY_HONOURS[honours]
    sign = 1 if points >= target else -1
    score = sign * (GAME_POINTS + abs(points - target))
    last = hand["tricks"][-1]
    magician_won = [e["seat"] for e in last["cards"] if cards[e["card"]].trump == MAGICIAN]
    sparrow_by = magician_won[0] if magician_won and last["winner"] == magician_won[0] else None
    for seat in announced["sparrow"]:
        towards = 1 if side[seat] else -1
        score += towards * (SPARROW["announced"] if sparrow_by == seat else -SPARROW["announced"])
    if sparrow_by is not None and sparrow_by not in announced["sparrow"]:
        score += (1 if side[sparrow_by] else -1) * SPARROW["unannounced"]
    score *= MULTIPLIER[contract]
    all_declarer = all(w == declarer for w in winners)
    none_declarer = not took_trick
    for seat in announced["slam"]:
        made = all_declarer if side[seat] else none_declarer
        score += (1 if side[seat] else -1) * (SLAM["announced"] if made else -SLAM["announced"])
    if not announced["slam"]:
        score += SLAM["unannounced"] * (int(all_declarer) - int(none_declarer))
    for seat, level in abundance:
        if options.get("abundance_to", "declarers_side") == "declarers_side":
            towards = 1 if side[seat] else -1
        else:
            towards = sign
        score += towards * ABUNDANCE_VALUE[level]
    net = [score * (players - 1) if s == declarer else -score for s in range(players)]
    if hand["net"] != net:
        return f"net per seat: record {hand['net']}, 004 {net}"
    return None


def _pay_for_free_card(won, owner, winner, side, winners, free, fool_side: bool) -> None:
    """The Fool's owner (or his side, under `fool_side`) pays the trick's winner his lowest
    card; with no trick taken he gives up the Fool itself. A declarer's discard or stock
    joins his pile only once he has a trick, so it never pays a debt on its own."""
    payers = [s for s in range(len(won)) if side[s] == side[owner]] if fool_side else [owner]
    freed = next(c for c in won[owner] if c.id in free)
    if not any(w in payers for w in winners):
        won[owner].remove(freed)
        won[winner].append(freed)
        return
    pile, paid = min(
        ((won[s], c) for s in payers for c in won[s] if c.id not in free),
        key=lambda pc: pc[1].points,
    )
    pile.remove(paid)
    won[winner].append(paid)
