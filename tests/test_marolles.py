"""The rules of Marolles 1637 in McLeod's reconstruction (shared seed 000), one by one.

Each test says in a comment which statement of the rules it checks.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hands import (
    SEATS,
    agents_for,
    built_pack,
    declare_all,
    discard_plainly,
    empties,
    new_hand,
    offers,
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
    return count_points(counting.values, counting.group_size, counting.partial_group_credit, pile)


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

SEAT1_HAND = ["swords-K", "batons-K", "trump-1", "trump-21", "fool"]


def example_pack(ruleset) -> list[int]:
    """A pack dealt by seat 0 so that seat 1 gets two Kings, I, XXI, the Fool and 16
    numeral cards (no other declarable combination)."""
    deck = ruleset.deck
    empties = [c.id for c in deck.cards if isinstance(c.rank, int)]
    seat1 = SEAT1_HAND + empties[:16]
    rest = [c.id for c in deck.cards if c.id not in seat1]
    # keep a numeral card at the bottom of the pack so the cut card is not a Tarot
    rest.remove(empties[16])
    rest.append(empties[16])
    # seat 1 is dealt pack[0:5], [15:20], [30:35], [45:50] and [60]
    seat1_positions = [p for r in range(4) for p in range(15 * r, 15 * r + 5)] + [60]
    pack: list[str | None] = [None] * 66
    for position, card in zip(seat1_positions, seat1, strict=True):
        pack[position] = card
    others = iter(rest)
    pack = [card if card is not None else next(others) for card in pack]
    return [deck.by_id[c] for c in pack]


def discard_empties(state: HandState, keep: tuple[str, ...] = ()) -> None:
    """Discard, deterministically, the first card offered that is not a trump or Tarot
    (nor one of `keep`)."""
    protected = state.ruleset.deck.sets["not_discardable"]
    by_id = state.ruleset.deck.by_id
    while state.phase == "discard":
        choice = next(
            c for c in state.legal_actions() if by_id[c] not in protected and c not in keep
        )
        state.apply_action(choice)


# the source's example of declarations (two Kings, the I, the XXI and the Fool: 6 marques from
# each opponent) is tests/scenarios/marolles-1637-declarations.yaml


def test_maximal_and_free_declarations(marolles):
    # Declarations are assumed maximal ("players will always try to declare the maximum
    # they are entitled to"); the free reading lets a smaller combination be declared.
    free = ruleset_with(declarations_maximal="free")
    for ruleset, expected in (
        (marolles, ["tarots:five", "tarots:none"]),
        (free, ["tarots:four", "tarots:five", "tarots:none"]),
    ):
        state = HandState(ruleset, 0, example_pack(ruleset))
        discard_empties(state)
        assert state.current_player() == 1
        assert state.legal_actions() == expected
        if ruleset is free:
            state.apply_action("tarots:four")
            assert transfers(state.payments) == Counter(
                {("tarots:four", 0, 1, 1): 1, ("tarots:four", 2, 1, 1): 1}
            )


def test_declarations_are_voluntary(marolles):
    # "The declarations are voluntary and will only be paid if declared in advance"
    state = HandState(marolles, 0, example_pack(marolles))
    discard_empties(state)
    while state.phase == "declare":
        state.apply_action(next(c for c in state.legal_actions() if c.endswith(":none")))
    assert [p for p in state.payments if p.at == "declarations"] == []


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


def test_la_belle_declared_with_seven_tarots_is_not_paid_again():
    # Marolles' 7 Tarots with la Belle for 5M (option): la Belle then is not paid when played.
    ruleset = ruleset_with(belle_declared="declared_with_tarots")
    deck = ruleset.deck
    seven = [deck.cards[c].id for c in sorted(deck.sets["tarots"])] + ["coins-1"]
    empties = [c.id for c in deck.cards if isinstance(c.rank, int) and c.id != "coins-1"]
    seat1 = seven + empties[: 21 - len(seven)]
    rest = [c.id for c in deck.cards if c.id not in seat1]
    positions = [p for r in range(4) for p in range(15 * r, 15 * r + 5)] + [60]
    pack: list[str | None] = [None] * 66
    for position, card in zip(positions, seat1, strict=True):
        pack[position] = card
    others = iter(rest)
    state = HandState(ruleset, 0, [deck.by_id[c or next(others)] for c in pack])
    discard_empties(state, keep=("coins-1",))
    assert deck.by_id["coins-1"] in state.hands[1]
    while state.phase == "declare":
        choices = state.legal_actions()
        if state.current_player() == 1 and choices[0].split(":")[0] in (
            "tarots",
            "belle_with_tarots",
        ):
            state.apply_action(choices[0])
        else:
            state.apply_action(next(c for c in choices if c.endswith(":none")))
    assert transfers([p for p in state.payments if p.at == "declarations"]) == Counter(
        {
            ("tarots:seven", 0, 1, 4): 1,
            ("tarots:seven", 2, 1, 4): 1,
            ("belle_with_tarots:belle", 0, 1, 1): 1,
            ("belle_with_tarots:belle", 2, 1, 1): 1,
        }
    )
    play_hand(state, agents_for(1))
    assert not [p for p in state.payments if p.rule == "belle_played"]


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


# --- Marolles' own figures for the Kings and the Fool (000, "Variations") ------------------

KINGS = ["swords-K", "batons-K", "cups-K", "coins-K"]


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        # "four Kings are worth 4M, (3M for four Kings plus 1M for four Tarots)": 4 in all
        (KINGS, {"kings_and_fool:four_kings": 4}),
        # "four Kings with the Fool are worth 6M (4M for Kings and Fool plus 2M for five
        # tarots)": 6 in all
        ([*KINGS, "fool"], {"kings_and_fool:four_kings_fool": 6}),
        # "he gives 2 M for 'Trois Roys & le Math'" (the four Tarots not included): 2 + 1
        (KINGS[:3] + ["fool"], {"kings_and_fool:three_kings_fool": 2, "tarots:four": 1}),
        # with the Pagat besides, the five Tarots are declared apart and the Kings are 3
        ([*KINGS, "trump-1"], {"kings_and_fool:four_kings": 3, "tarots:five": 2}),
    ],
)
def test_marolles_figures_for_kings_include_the_tarots(cards, expected):
    ruleset = ruleset_with(kings_values="marolles_figures")
    hand = cards + empties(ruleset, 21 - len(cards))
    state = HandState(ruleset, 0, built_pack(ruleset, {1: hand}))
    assert offers(state, 1) == expected
    # McLeod's table, for comparison: the Tarots always apart (four Kings 3 + four Tarots 1)
    mcleod = HandState(ruleset_with(), 0, built_pack(ruleset_with(), {1: hand}))
    offered = offers(mcleod, 1)
    assert offered.get("kings_and_fool:four_kings", 3) == 3
    assert any(k.startswith("tarots:") for k in offered)


def test_four_kings_at_marolles_figures_pay_four_in_all(marolles):
    # The hand the issue names: four Kings at Marolles' figures are paid 4 by each
    # opponent, not 4 plus the Tarots' 1.
    ruleset = ruleset_with(kings_values="marolles_figures")
    hand = KINGS + empties(ruleset, 17)
    state = HandState(ruleset, 0, built_pack(ruleset, {1: hand}))
    declare_all(state, 1)
    paid = [p for p in state.payments if p.at == "declarations"]
    assert {p.payer: sum(q.amount for q in paid if q.payer == p.payer) for p in paid} == {
        0: 4,
        2: 4,
    }


# --- "Who has the third?" when each declares before his own first card ----------------------


def test_who_has_the_third_is_not_paid_by_a_player_who_played_the_third():
    # Seat 1 leads the Pagat to the first trick; seat 2, holding the World and the Fool,
    # declares just before his own first card: seat 1 had the third (he played it), so only
    # seat 0, who never had any of the three, pays the asker.
    ruleset = ruleset_with(declaration_timing="before_own_first_card")
    hand1 = ["trump-1", *empties(ruleset, 10)]
    hand2 = ["trump-21", "fool", *empties(ruleset, 10, avoid=("coins-1", *hand1))]
    state = HandState(ruleset, 0, built_pack(ruleset, {1: hand1, 2: hand2}))
    discard_plainly(state)
    while state.current_player() == 1 and state.decision.kind == "declare":
        state.apply_action(state.legal_actions()[-1])  # seat 1 declares nothing
    assert state.phase == "play" and state.current_player() == 1
    state.apply_action("trump-1")
    asked = False
    while state.current_player() == 2 and state.decision.kind == "declare":
        choices = state.legal_actions()
        asked |= choices[0] == "who_has_the_third:two_of_three"
        state.apply_action(choices[0] if choices[0].startswith("who_has") else choices[-1])
    assert asked
    assert transfers(state.payments, "who_has_the_third:two_of_three") == Counter(
        {("who_has_the_third:two_of_three", 0, 2, 1): 1}
    )


# --- what a declarer shows ------------------------------------------------------------------


def test_triomphes_the_declarer_shows_ten_of_his_choosing():
    # "showing any 10 of 13 trumps"
    ruleset = ruleset_with()
    trumps = [f"trump-{n}" for n in range(7, 20)]  # 13 trumps, no Brizigole, no Tarot
    state = HandState(ruleset, 0, built_pack(ruleset, {1: trumps + empties(ruleset, 8)}))
    discard_plainly(state)
    assert state.legal_actions() == ["triomphes:ten", "triomphes:none"]
    state.apply_action("triomphes:ten")
    chosen = []
    while state.decision.kind == "show":
        assert state.current_player() == 1
        assert set(state.legal_actions()) == set(trumps) - set(chosen)
        chosen.append(state.legal_actions()[0])
        state.apply_action(chosen[-1])
    assert len(chosen) == 10
    shown = [ids_of(ruleset, cards) for seat, what, cards in state.shown if what == "triomphes"]
    assert shown == [chosen]
    assert transfers(state.payments, "triomphes:ten") == Counter(
        {("triomphes:ten", 0, 1, 1): 1, ("triomphes:ten", 2, 1, 1): 1}
    )


def test_brizigole_shows_only_the_sequence():
    # "An uninterrupted sequence of the four ... highest ... trumps": XXI, XX, XIX, XVIII
    # are shown, not the XVI also held (XVII missing)
    ruleset = ruleset_with()
    trumps = ["trump-21", "trump-20", "trump-19", "trump-18", "trump-16", "trump-10"]
    state = HandState(ruleset, 0, built_pack(ruleset, {1: trumps + empties(ruleset, 15)}))
    discard_plainly(state)
    while state.phase == "declare":
        choices = state.legal_actions()
        wanted = state.current_player() == 1 and choices[0] == "brizigole_top:four"
        state.apply_action(choices[0] if wanted else choices[-1])
    shown = [ids_of(ruleset, c) for s, what, c in state.shown if what == "brizigole_top"]
    assert shown == [["trump-18", "trump-19", "trump-20", "trump-21"]]


def ids_of(ruleset, cards) -> list[str]:
    return [ruleset.deck.cards[c].id for c in cards]


# --- 000's other worked example: two Imperials on the same cards ---------------------------


def test_all_the_cups_courts_and_all_the_queens_collect_two_from_each():
    # "a player who has all courts in the suit of Cups and all the Queens collects 2M from
    # each opponent"
    ruleset = ruleset_with()
    courts = ["cups-K", "cups-Q", "cups-C", "cups-J", "swords-Q", "batons-Q", "coins-Q"]
    state = HandState(ruleset, 0, built_pack(ruleset, {1: courts + empties(ruleset, 14)}))
    assert offers(state.clone(), 1) == {
        "imperial_cups:all_courts": 1,
        "imperial_queens:all_four": 1,
    }
    declare_all(state, 1)
    paid = [p for p in state.payments if p.at == "declarations"]
    for payer in (0, 2):
        assert sum(p.amount for p in paid if p.payer == payer and p.payee == 1) == 2


# --- doubts made options --------------------------------------------------------------------


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


@pytest.mark.parametrize("reading", ["not_paid", "paid_when_discarded"])
def test_a_discarded_la_belle(reading):
    ruleset = ruleset_with(belle_discarded=reading)
    state = HandState(ruleset, 0, built_pack(ruleset, {1: ["coins-1", *empties(ruleset, 20)]}))
    assert state.current_player() == 1
    state.apply_action("coins-1")
    paid = transfers(state.payments, "belle_discarded")
    if reading == "not_paid":
        assert paid == Counter()
    else:
        assert paid == Counter({("belle_discarded", 0, 1, 1): 1, ("belle_discarded", 2, 1, 1): 1})
    play_hand(state, agents_for(3))
    assert not [p for p in state.payments if p.rule == "belle_played"]
