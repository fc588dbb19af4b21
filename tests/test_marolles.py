"""The rules of Marolles 1637 in McLeod's reconstruction (shared seed 000), one by one.

Each test says in a comment which statement of the rules it checks.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hands import (
    SEATS,
    agents_for,
    new_hand,
    played_hand,
    ruleset_with,
)

from tarot.engine.game import play_hand
from tarot.engine.phases.settle import settlement_with
from tarot.engine.state import HandState, count_points
from tarot.players.random_agent import RandomAgent


def opponents(seat: int) -> list[int]:
    return [s for s in range(SEATS) if s != seat]


def transfers(payments, rule: str | None = None) -> Counter:
    return Counter(
        (p.rule, p.payer, p.payee, p.amount) for p in payments if rule is None or p.rule == rule
    )


# --- counting card points ------------------------------------------------------------------


def points_of(ruleset, *ids: str):
    counting = ruleset.counting
    pile = [ruleset.deck.by_id[i] for i in ids]
    return count_points(counting, pile)


def test_counting_values(marolles):
    # Counting cards: the Tarots 5, Queens 4, Cavaliers 3, Jacks 2; everything else is empty.
    values = marolles.counting.values
    deck = marolles.deck
    for card in deck.cards:
        if card.index in deck.sets["tarots"]:
            expected = 5
        else:
            expected = {"Queen": 4, "Cavalier": 3, "Jack": 2}.get(card.rank, 0)
        assert values[card.index] == expected, card.id
    # "there are 19 counting cards"
    assert sum(1 for v in values if v) == 19
    assert marolles.counting.group_size == 3


def test_whole_pack_counts_74(marolles):
    # "the total value of the 66-card pack is 74 points"
    ids = [card.id for card in marolles.deck.cards]
    assert points_of(marolles, *ids) == 74


def test_counting_cards_with_their_empties_71_and_nine_more_empties_3(marolles):
    # "19 counting cards which along with the 38 empty cards that go with them have a total
    # value of 71 points, plus 9 extra empty cards which are worth 3 points"
    values = marolles.counting.values
    counting = [c.id for c in marolles.deck.cards if values[c.index]]
    empty = [c.id for c in marolles.deck.cards if not values[c.index]]
    assert (len(counting), len(empty)) == (19, 47)
    assert points_of(marolles, *counting, *empty[:38]) == 71
    assert points_of(marolles, *empty[38:]) == 3


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        # a packet of three counting cards scores their total value less two
        (("swords-K", "swords-Q", "swords-C"), 5 + 4 + 3 - 2),
        (("trump-21", "trump-1", "fool"), 15 - 2),
        # a packet with two counting cards and an empty one: total value less one
        (("cups-Q", "cups-J", "cups-3"), 4 + 2 - 1),
        # a single excess counting card scores one less than its value
        (("coins-Q",), 3),
        (("trump-21",), 4),
        # a single excess empty card scores nothing
        (("batons-5",), 0),
        # two surplus cards count as if there were a third, empty card: two empties score 1
        (("batons-5", "cups-2"), 1),
        # ... and a counting card with one empty card scores its value
        (("swords-C", "swords-9"), 3),
        # a packet of one counting card and two empty cards is worth the counting card
        (("batons-C", "batons-4", "coins-6"), 3),
        (("swords-K", "batons-4", "coins-6"), 5),
        # three empty cards score one point
        (("batons-4", "coins-6", "cups-7"), 1),
        # two counting cards alone: total value less one
        (("cups-K", "coins-J"), 5 + 2 - 1),
        # nothing scores nothing
        ((), 0),
    ],
)
def test_counting_in_packets_of_three(marolles, cards, points):
    assert points_of(marolles, *cards) == points


def test_card_points_of_a_hand_total_73_or_74(marolles):
    # Discards count with the discarder's tricks; packets of three with leftovers counted as
    # above, so the three piles together make the pack's 74 less one when each pile has a
    # single leftover card (which scores one less, or nothing).
    for seed in range(100):
        state = played_hand(marolles, seed)
        points = state.card_points()
        assert sum(points) in (73, 74), f"seed {seed}: {points}"
        for seat in range(SEATS):
            assert points[seat] == points_of(
                marolles,
                *[marolles.deck.cards[c].id for c in state.won[seat] + state.discards[seat]],
            )


# --- the pack ------------------------------------------------------------------------------


def test_the_pack(marolles):
    # "an Italian-suited Tarot pack of 78 cards from which the lowest three cards of each
    # suit have been removed to make a 66-card pack": 21 trumps, the Fool, 4 courts and
    # 7 numeral cards in each suit.
    deck = marolles.deck
    cards = deck.cards
    assert len(deck) == 66
    assert sorted(c.trump for c in cards if c.is_trump) == list(range(1, 22))
    assert [c.id for c in cards if c.fool] == ["fool"]
    for suit in ("swords", "batons", "cups", "coins"):
        in_suit = [c for c in cards if c.suit == suit]
        assert len(in_suit) == 11, suit
        courts = sorted((c for c in in_suit if isinstance(c.rank, str)), key=lambda c: -c.strength)
        # courts rank King, Queen, Cavalier, Jack, all above the numeral cards
        assert [c.rank for c in courts] == ["King", "Queen", "Cavalier", "Jack"]
        pips = sorted((c for c in in_suit if isinstance(c.rank, int)), key=lambda c: -c.strength)
        assert min(c.strength for c in courts) > max(c.strength for c in pips)
        if suit in ("cups", "coins"):
            # round suits keep 1..7 and rank inversely: the 1 is the highest numeral
            assert [c.rank for c in pips] == [1, 2, 3, 4, 5, 6, 7]
        else:
            # long suits keep 4..10, the 10 highest
            assert [c.rank for c in pips] == [10, 9, 8, 7, 6, 5, 4]
    # trumps rank by number
    trumps = sorted((c for c in cards if c.is_trump), key=lambda c: c.strength)
    assert [c.trump for c in trumps] == list(range(1, 22))


def test_tarots_and_la_belle(marolles):
    # "The Kings, the Fool (Math), the Trump I (Pagat) and the Trump XXI (Monde) are called
    # Tarots"; "The Ace of Coins is called la Belle".
    deck = marolles.deck
    tarots = {deck.cards[c].id for c in deck.sets["tarots"]}
    assert tarots == {"swords-K", "batons-K", "cups-K", "coins-K", "trump-1", "trump-21", "fool"}
    assert {deck.cards[c].id for c in deck.sets["belle"]} == {"coins-1"}
    # Ultimo is won "with a King or the Pagat"
    ultimo = {deck.cards[c].id for c in deck.sets["ultimo_cards"]}
    assert ultimo == {"swords-K", "batons-K", "cups-K", "coins-K", "trump-1"}
    # "No trumps or Tarots may be discarded"
    protected = deck.sets["not_discardable"]
    assert protected == deck.sets["tarots"] | deck.sets["trumps"]


# --- the deal ------------------------------------------------------------------------------


def test_deal_in_packets(marolles):
    # "The dealer deals 4 rounds of 5 cards to each player; then one more card to each
    # other player and 4 to himself." Play (and dealing) go round from the dealer's right.
    pack = list(range(66))
    state = HandState(marolles, 0, pack)
    order = [1, 2, 0]
    expected = {seat: [] for seat in order}
    position = 0
    for _round in range(4):
        for seat in order:
            expected[seat] += pack[position : position + 5]
            position += 5
    for seat in order:
        count = 4 if seat == 0 else 1
        expected[seat] += pack[position : position + count]
        position += count
    assert position == 66
    assert [sorted(h) for h in state.deal.hands_dealt] == [sorted(expected[s]) for s in range(3)]
    # the dealer ends with 24 cards, the others with 21
    assert [len(h) for h in state.deal.hands_dealt] == [24, 21, 21]
    # "The player to dealer's right leads the first card" (the first to be dealt to)
    assert state.play.leader == 1


def test_deal_sizes_and_cut_card(marolles):
    # "The cut card, which becomes the bottom card of the pack will go to the dealer"
    for seed in range(30):
        for number in (1, 2, 3):
            state = new_hand(marolles, seed, number)
            dealer = state.dealer
            assert dealer == (number - 1) % 3
            sizes = [len(h) for h in state.deal.hands_dealt]
            assert sizes == [24 if s == dealer else 21 for s in range(3)]
            assert state.deal.cut_card == state.pack[-1]
            assert state.deal.cut_card in state.deal.hands_dealt[dealer]


def test_cut_tarot_pays_the_dealer(marolles):
    # "If it is a tarot (i.e. Monde, Bagat, Math or King), the dealer is paid one marque by
    # each opponent."
    tarots = marolles.deck.sets["tarots"]
    seen = Counter()
    for seed in range(300):
        state = new_hand(marolles, seed)
        cut = [p for p in state.payments if p.at == "cut"]
        if state.deal.cut_card in tarots:
            assert transfers(cut) == Counter(
                ("cut_tarot", other, state.dealer, 1) for other in opponents(state.dealer)
            )
            seen["tarot"] += 1
        else:
            assert cut == []
            seen["other"] += 1
    assert seen["tarot"] > 0 and seen["other"] > 0


# --- the settlement of card points ---------------------------------------------------------

# The source's table (two losers pay the winner by their shortfall from 25, two winners collect
# from the loser by their excess, 21 to 29 neither pays nor receives) and its readings are
# checked row by row in tests/scenarios/marolles-1637-settlement.yaml.


def test_settlement_at_the_end_of_a_hand_uses_the_card_points(marolles):
    # "At the end of the hand, players add their discards to the cards taken in tricks and
    # score them together"; the settlement is paid on those points.
    for seed in range(40):
        state = played_hand(marolles, seed)
        at_end = [p.as_record() for p in state.payments if p.at == "settlement"]
        again = [p.as_record() for p in settlement_with(state, state.card_points())]
        assert at_end == again, f"seed {seed}"
        points = state.card_points()
        winners = [s for s in range(3) if points[s] >= 25]
        expected = Counter()
        if len(winners) == 1:
            for s in range(3):
                if s != winners[0] and (25 - points[s]) // 5:
                    expected[(s, winners[0], (25 - points[s]) // 5)] += 1
        elif len(winners) == 2:
            (loser,) = [s for s in range(3) if s not in winners]
            for s in winners:
                if (points[s] - 25) // 5:
                    expected[(loser, s, (points[s] - 25) // 5)] += 1
        assert Counter((p["from"], p["to"], p["amount"]) for p in at_end) == expected


# --- declarations --------------------------------------------------------------------------


# the source's example of declarations (two Kings, the I, the XXI and the Fool: 6 marques from
# each opponent), and what may be declared from it: tests/scenarios/marolles-1637-declarations.yaml


# --- payments during play ------------------------------------------------------------------


def expected_trick_payments(ruleset, trick: dict, last: bool, ultimo_failure: int) -> Counter:
    """What the rules of 000 pay for one trick, from its cards and winner alone."""
    deck = ruleset.deck
    tarots, ultimo = deck.sets["tarots"], deck.sets["ultimo_cards"]
    winner = trick["winner"]
    expected: Counter = Counter()

    def pay(rule, payer, payee, amount):
        expected[(rule, payer, payee, amount)] += 1

    for entry in trick["cards"]:
        seat, card = entry["seat"], deck.by_id[entry["card"]]
        others = opponents(seat)
        if entry["card"] == "coins-1":
            # la Belle: one from each opponent when played, whoever wins
            for o in others:
                pay("belle_played", o, seat, 1)
        if card not in tarots:
            continue
        if last and entry["card"] == "fool":
            # failing to excuse before the last trick: two to each other player
            for o in others:
                pay("fool_not_excused", seat, o, 2)
        elif last and card in ultimo:
            if winner == seat:  # Ultimo won: six from each opponent
                for o in others:
                    pay("ultimo_won", o, seat, 6)
            else:  # played to the last trick but lost: six (or one) to each opponent
                for o in others:
                    pay("ultimo_lost", seat, o, ultimo_failure)
        elif winner == seat or entry["card"] == "fool":
            # a Tarot kept (won, or the Fool excused): one from each opponent
            for o in others:
                pay("tarot_kept", o, seat, 1)
        else:
            # a Tarot captured: its player pays one to each opponent
            for o in others:
                pay("tarot_captured", seat, o, 1)
    return expected


@pytest.mark.parametrize("ultimo_failure", ["mcleod", "literal"])
def test_payments_during_play_match_the_trick_contents(marolles, ultimo_failure):
    ruleset = ruleset_with(ultimo_failure=ultimo_failure)
    amount = {"mcleod": 6, "literal": 1}[ultimo_failure]
    seen: Counter = Counter()
    for seed in range(400):
        state = played_hand(ruleset, seed)
        for trick in state.tricks:
            last = trick["number"] == 20
            expected = expected_trick_payments(ruleset, trick, last, amount)
            actual = transfers([p for p in state.payments if p.at == f"trick {trick['number']}"])
            assert actual == expected, f"seed {seed} trick {trick['number']}: {trick}"
            seen.update(rule for rule, *_ in expected.elements())
            for entry in trick["cards"]:
                if entry["card"] == "coins-1" and trick["winner"] != entry["seat"]:
                    seen["belle played and lost"] += 1
                if entry["card"] == "fool" and not last:
                    seen["fool excused"] += 1
                    # the excused Fool goes to its holder's pile, not the winner's
                    assert ruleset.deck.by_id["fool"] in state.won[entry["seat"]]
    for event in (
        "belle_played",
        "belle played and lost",
        "fool excused",
        "tarot_kept",
        "tarot_captured",
        "ultimo_won",
        "ultimo_lost",
    ):
        assert seen[event] > 0, f"no hand under 400 seeds shows {event}"


def test_illegal_discard_costs_two_per_card(marolles):
    # "No trumps or Tarots may be discarded, on penalty of paying two marques to each
    # opponent" - per card discarded (McLeod's presumption).
    protected = marolles.deck.sets["not_discardable"]
    several = 0
    for seed in range(200):
        state = played_hand(marolles, seed)
        expected = Counter()
        for seat in range(SEATS):
            bad = sum(1 for c in state.discards[seat] if c in protected)
            several += bad > 1
            for o in opponents(seat):
                if bad:
                    expected[("illegal_discard", seat, o, 2)] += bad
        assert transfers([p for p in state.payments if p.at == "discard"]) == expected
    assert several > 0


def test_illegal_discard_per_discard_reading(marolles):
    # The alternative reading: two marques to each opponent once, however many cards.
    once = ruleset_with(illegal_discard="per_discard")
    protected = once.deck.sets["not_discardable"]
    for seed in range(100):
        state = played_hand(once, seed)
        expected = Counter()
        for seat in range(SEATS):
            if any(c in protected for c in state.discards[seat]):
                for o in opponents(seat):
                    expected[("illegal_discard_once", seat, o, 2)] += 1
        assert transfers([p for p in state.payments if p.at == "discard"]) == expected


class FoolHoarder(RandomAgent):
    """A random player who never plays the Fool until it is his last card."""

    def choose(self, state, seat: int) -> str:
        legal = state.legal_actions()
        kept = [c for c in legal if c != "fool"]
        return self.rng.choice(kept or legal)


def hands_with_the_fool_kept(ruleset, seeds: int = 30):
    """Hands played by FoolHoarders in which the Fool's holder kept it to the last trick:
    (state, holder)."""
    fool = ruleset.deck.by_id["fool"]
    for seed in range(seeds):
        state = new_hand(ruleset, seed)
        holder = next((s for s in range(SEATS) if fool in state.hands[s]), None)
        play_hand(state, [FoolHoarder(f"{seed}/{s}") for s in range(SEATS)])
        if holder is not None and fool not in state.discards[holder]:
            yield state, holder


@pytest.mark.parametrize("where", ["captured", "kept"])
def test_fool_not_excused_before_the_last_trick(where):
    # "A player who fails to excuse before the last trick pays two marques to each of the
    # other players"; the Fool then brings no ordinary Tarot payment. Where the card goes is
    # an option (to the winner of the trick, or kept by its holder).
    ruleset = ruleset_with(fool_in_last_trick=where)
    fool = ruleset.deck.by_id["fool"]
    checked = 0
    for state, holder in hands_with_the_fool_kept(ruleset):
        last = state.tricks[-1]
        assert {"seat": holder, "card": "fool"} in last["cards"]
        assert Counter(
            (p.payer, p.payee, p.amount) for p in state.payments if p.rule == "fool_not_excused"
        ) == Counter((holder, o, 2) for o in opponents(holder))
        assert not [
            p
            for p in state.payments
            if p.at == "trick 20"
            and p.rule.startswith("tarot_")
            and holder in (p.payer, p.payee)
            and {"seat": p.payee if p.rule == "tarot_kept" else p.payer, "card": "fool"}
            in last["cards"]
        ]
        keeper = last["winner"] if where == "captured" else holder
        assert fool in state.won[keeper]
        checked += 1
    assert checked > 10


def expected_declarations(deck, hand: set[str], discards: set[str]) -> list[list[str]]:
    """The maximal declarations open to a hand, in the ruleset's table order, by 000."""
    cards = [deck.cards[deck.by_id[c]] for c in hand]
    tarots = {deck.cards[c].id for c in deck.sets["tarots"]}
    offers = []

    def offer(decl: str, level: str | None) -> None:
        if level is not None:
            offers.append([f"{decl}:{level}", f"{decl}:none"])

    # Tarots: four are worth 1M, each further one 1M more
    n = len(hand & tarots)
    offer("tarots", {4: "four", 5: "five", 6: "six", 7: "seven"}.get(n))
    # Kings and Fool: at least three cards; 2K+F 1, 3K 1, 3K+F 2, 4K 3, 4K+F 4
    kings = sum(1 for c in cards if c.rank == "King")
    fool = "fool" in hand
    level = None
    if kings == 4:
        level = "four_kings_fool" if fool else "four_kings"
    elif kings == 3:
        level = "three_kings_fool" if fool else "three_kings"
    elif kings == 2 and fool:
        level = "two_kings_fool"
    offer("kings_and_fool", level)
    # Triomphes: ten or more trumps, the Fool counting as one; 10, 15, 20
    t = sum(1 for c in cards if c.is_trump or c.fool)
    offer(
        "triomphes", "twenty" if t >= 20 else "fifteen" if t >= 15 else "ten" if t >= 10 else None
    )
    # Imperials: all four courts of a suit; all four Queens, Cavaliers or Jacks
    for suit in ("swords", "batons", "cups", "coins"):
        courts = {f"{suit}-{r}" for r in "KQCJ"}
        offer(f"imperial_{suit}", "all_courts" if courts <= hand else None)
    for name, letter in (("queens", "Q"), ("cavaliers", "C"), ("jacks", "J")):
        four = {f"{s}-{letter}" for s in ("swords", "batons", "cups", "coins")}
        offer(f"imperial_{name}", "all_four" if four <= hand else None)
    # Brizigole: the four, five or six highest or lowest trumps in sequence
    for name, numbers in (("top", range(21, 15, -1)), ("bottom", range(1, 7))):
        run = 0
        for number in numbers:
            if f"trump-{number}" not in hand:
                break
            run += 1
        offer(f"brizigole_{name}", {4: "four", 5: "five", 6: "six"}.get(min(run, 6)))
    # All three (XXI, I, Fool) 3M; two of them: "who has the third?"
    three = {"trump-21", "trump-1", "fool"}
    offer("all_three", "all_three" if three <= hand else None)
    two = len(hand & three) == 2 and not (discards & three)
    offer("who_has_the_third", "two_of_three" if two else None)
    return offers


def test_declarations_offered_in_random_hands(marolles):
    # The declarable combinations of 000 (Tarots, Kings and Fool, Triomphes, Imperials,
    # Brizigole, all three / who has the third), each offered at its largest level, paid by
    # each opponent - or, for "who has the third?", by the player who has none of them.
    deck = marolles.deck
    triumph = {deck.by_id[c] for c in ("trump-21", "trump-1", "fool")}
    seen = Counter()
    for seed in range(300):
        state = new_hand(marolles, seed)
        agents = agents_for(seed)
        offered: dict[int, list[list[str]]] = {s: [] for s in range(SEATS)}
        while not state.is_terminal():
            seat = state.current_player()
            if state.decision.kind == "declare":
                offered[seat].append(state.legal_actions())
            elif state.phase == "play":
                break
            state.apply_action(agents[seat].choose(state, seat))
        for seat in range(SEATS):
            hand = {deck.cards[c].id for c in state.hands[seat]}
            discards = {deck.cards[c].id for c in state.discards[seat]}
            assert offered[seat] == expected_declarations(deck, hand, discards), f"seed {seed}"
            seen.update(o[0].split(":")[0] for o in offered[seat])
        for p in state.payments:
            if p.at != "declarations":
                continue
            decl = p.rule.split(":")[0]
            if decl == "who_has_the_third":
                assert not triumph & set(state.hands[p.payer] + state.discards[p.payer])
            assert p.payer != p.payee
        # a declaration is paid by each opponent (or the one without a triumph tarot)
        for d in state.decisions:
            if d["kind"] == "declare" and not d["choice"].endswith(":none"):
                paid = [p for p in state.payments if p.rule == d["choice"] and p.payee == d["seat"]]
                expected = 1 if d["choice"].startswith("who_has_the_third") else 2
                assert len(paid) == expected, f"seed {seed}: {d}"
    assert seen["tarots"] and seen["kings_and_fool"] and seen["triomphes"]
    assert seen["who_has_the_third"] and seen["all_three"]


# --- doubts made options --------------------------------------------------------------------
# (hands built for one declaration or one doubt each: tests/scenarios/marolles-1637-*.yaml)


@pytest.mark.parametrize(("reading", "extra"), [("penalty_only", 0), ("penalty_and_capture", 1)])
def test_unexcused_fool_taken_in_the_last_trick(reading, extra):
    # "pays two marques to each of the other players"; with the capture reading, one more
    # marque to each opponent, as "When a Tarot is captured"
    ruleset = ruleset_with(fool_last_trick_payment=reading)
    checked = 0
    for state, holder in hands_with_the_fool_kept(ruleset):
        assert state.tricks[-1]["winner"] != holder  # the Fool cannot win
        paid = Counter((p.rule, p.payer, p.payee, p.amount) for p in state.payments)
        for other in opponents(holder):
            assert paid[("fool_not_excused", holder, other, 2)] == 1
        # the Fool is the holder's only card in the last trick
        captured = [
            (p.payee, p.amount)
            for p in state.payments
            if p.at == "trick 20" and p.rule == "tarot_captured" and p.payer == holder
        ]
        assert sorted(captured) == [(other, 1) for other in opponents(holder)] * extra
        checked += 1
    assert checked > 10
