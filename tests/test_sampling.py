"""Determinization (tarot.players.sampling): a re-deal of what a seat cannot see."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hands import SEATS, agents_for, new_hand

from tarot.compile.loader import load_ruleset
from tarot.engine.seat_view import SeatView
from tarot.engine.state import Phase
from tarot.players.sampling import Zone, deal_zones, determinize, hidden_zones

MAROLLES = load_ruleset("marolles-1637")


def advanced(seed: int, decisions: int):
    """A Marolles hand after `decisions` random decisions."""
    state = new_hand(MAROLLES, seed)
    agents = agents_for(seed)
    for _ in range(decisions):
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, seat))
    return state


def view(state, seat: int) -> tuple:
    return (
        list(state.hands[seat]),
        list(state.discards[seat]),
        list(state.tricks),
        list(state.trick),
        [list(w) for w in state.won],
        state.legal_actions(),
        state.current_player(),
    )


def everything(state) -> Counter:
    piles = [*state.hands, *state.discards, *state.won, [c for _s, c in state.trick]]
    return Counter(card for pile in piles for card in pile)


@pytest.mark.parametrize("decisions", [0, 5, 12, 30, 47])
def test_sample_keeps_the_seats_view_sizes_and_pack(decisions: int) -> None:
    state = advanced(decisions + 1, decisions)
    seat = state.current_player()
    before = view(state, seat), [list(h) for h in state.hands], [list(d) for d in state.discards]
    rng = random.Random(1)
    moved = 0
    for _ in range(20):
        sample = determinize(state, seat, rng)
        assert view(sample, seat) == before[0]
        assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
        assert [len(d) for d in sample.discards] == [len(d) for d in state.discards]
        assert everything(sample) == everything(state)
        moved += sample.hands != state.hands
    assert moved, "other seats' cards are dealt again"
    assert ([list(h) for h in state.hands], [list(d) for d in state.discards]) == before[1:]
    assert view(state, seat) == before[0], "the original is untouched"


def test_sample_plays_on_to_the_end() -> None:
    state = advanced(3, 20)
    sample = determinize(state, state.current_player(), random.Random(2))
    agents = agents_for(3)
    while not sample.is_terminal():
        seat = sample.current_player()
        sample.apply_action(agents[seat].choose(sample, seat))
    assert sum(sample.returns()) == 0


def a_revoke(seed_range=range(1, 60)):
    """A hand where some seat did not follow the suit led (the Fool excused), and the seat to
    decide is another."""
    for seed in seed_range:
        state = new_hand(MAROLLES, seed)
        agents = agents_for(seed)
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(agents[seat].choose(state, seat))
            if state.phase != Phase.PLAY or not state.tricks:
                continue
            cards = MAROLLES.deck.cards
            for trick in state.tricks:
                plays = [(p["seat"], cards[MAROLLES.deck.by_id[p["card"]]]) for p in trick["cards"]]
                led = plays[0][1]
                if led.suit is None:
                    continue
                for who, card in plays[1:]:
                    revoked = not card.fool and card.suit != led.suit
                    if revoked and who != state.current_player():
                        if state.hands[who] and state.current_player() is not None:
                            return state, who, led.suit
    raise AssertionError("no revoke found")


def test_sample_respects_a_void_shown_in_play() -> None:
    state, void_seat, suit = a_revoke()
    seat = state.current_player()
    cards = MAROLLES.deck.cards
    unseen_of_suit = [
        c
        for s in range(SEATS)
        if s != seat
        for c in state.hands[s] + state.discards[s]
        if cards[c].suit == suit
    ]
    assert unseen_of_suit, "the test needs cards of the suit still hidden"
    rng = random.Random(3)
    for _ in range(30):
        sample = determinize(state, seat, rng)
        assert not [c for c in sample.hands[void_seat] if cards[c].suit == suit]


def test_shown_cards_stay_with_their_holder() -> None:
    for seed in range(1, 80):
        state = advanced(seed, 12)
        seat = state.current_player()
        held = [
            (holder, card)
            for holder, _declaration, shown in state.shown
            if holder != seat
            for card in shown
            if card in state.hands[holder]
        ]
        if held:
            break
    else:
        raise AssertionError("no declaration with shown cards found")
    rng = random.Random(4)
    for _ in range(20):
        sample = determinize(state, seat, rng)
        for holder, card in held:
            assert card in sample.hands[holder]


def test_cut_card_stays_with_its_holder() -> None:
    state = advanced(5, 0)
    seat = state.current_player()
    cut = state.deal.cut_card
    holder = next(s for s, hand in enumerate(state.deal.hands_dealt) if cut in hand)
    if holder == seat:
        seat = (seat + 1) % SEATS
    rng = random.Random(5)
    for _ in range(20):
        sample = determinize(state, seat, rng)
        assert cut in sample.hands[holder] + sample.discards[holder]


def test_zones_cover_only_other_seats() -> None:
    state = advanced(6, 10)
    seat = state.current_player()
    zones = hidden_zones(SeatView(state, seat))
    assert {zone.seat for zone in zones} == set(range(SEATS)) - {seat}
    assert {zone.pile for zone in zones} == {"hands", "discards"}


def test_impossible_constraints_are_relaxed_not_fatal() -> None:
    """Two zones of one card each, both excluding card 1: no deal fits, one is still made."""
    zones = [Zone("hands", 0, 1, frozenset({1})), Zone("hands", 1, 1, frozenset({1}))]
    placed = deal_zones([1, 2], zones, {}, random.Random(6))
    assert sorted(card for cards in placed for card in cards) == [1, 2]
    assert [len(cards) for cards in placed] == [1, 1]


def test_exclusions_and_holders_are_honoured_when_possible() -> None:
    zones = [
        Zone("hands", 0, 2, frozenset({3})),
        Zone("hands", 1, 2, frozenset()),
        Zone("discards", 1, 1, frozenset()),
    ]
    rng = random.Random(7)
    for _ in range(50):
        placed = deal_zones([1, 2, 3, 4, 5], zones, {5: (0,)}, rng)
        assert 3 not in placed[0]
        assert 5 in placed[0]
        assert [len(cards) for cards in placed] == [2, 2, 1]


# --- the zones of games with a talon, sides and piles ------------------------------------------


def _all_cards(state) -> Counter:
    found = Counter()
    for seat in range(state.ruleset.players):
        found.update(state.hands[seat] + state.discards[seat] + state.won[seat])
        found.update(state.set_aside[seat])
        found.update(c for pile in state.piles[seat] for c in pile)
    found.update(state.talon)
    found.update(c for _s, c in state.trick)
    return found


def _advanced_in(name: str, seed: int, decisions: int, **choices: str):
    from tarot.engine.game import deal_hand
    from tarot.players.random_agent import RandomAgent

    ruleset = load_ruleset(name, choices=choices)
    for number in range(1, 30):
        state = deal_hand(ruleset, seed, number)
        agents = [RandomAgent(f"s/{number}/{s}") for s in range(ruleset.players)]
        for _ in range(decisions):
            if state.is_terminal():
                break
            seat = state.current_player()
            state.apply_action(agents[seat].choose(state, seat))
        if not state.is_terminal() and state.phase == Phase.PLAY:
            return state
    raise AssertionError("no hand reached play")


@pytest.mark.parametrize("name", ["french-tarot", "french-tarot-5", "french-tarot-2"])
def test_samples_of_talon_side_and_pile_games_keep_every_zone(name):
    state = (
        _advanced_in(name, 3, 40, le_petit="not_played")
        if name != "french-tarot-2"
        else (_advanced_in(name, 3, 20))
    )
    seat = state.current_player()
    before = _all_cards(state)
    moved = False
    for draw in range(10):
        sample = determinize(state, seat, random.Random(draw))
        assert _all_cards(sample) == before
        assert sample.hands[seat] == state.hands[seat]
        assert sample.discards[seat] == state.discards[seat]
        assert [len(a) for a in sample.set_aside] == [len(a) for a in state.set_aside]
        assert [[len(p) for p in piles] for piles in sample.piles] == [
            [len(p) for p in piles] for piles in state.piles
        ]
        assert [[p[-1] for p in piles if p] for piles in sample.piles] == [
            [p[-1] for p in piles if p] for piles in state.piles
        ]  # the face-up tops are seen by all
        if state.auction.called_card is not None and state.play.partner_shown_at is None:
            holder = [
                s
                for s in range(5)
                if s != state.auction.taker and state.auction.called_card in sample.hands[s]
            ]
            assert sample.auction.partner == (holder[0] if holder else None)
        moved |= sample.hands != state.hands or sample.piles != state.piles
        assert _all_cards(state) == before and state.hands[seat] == sample.hands[seat]
    assert moved


def test_a_shown_talon_stays_with_the_taker_in_every_sample():
    from tarot.engine.game import deal_hand
    from tarot.players.random_agent import RandomAgent

    ruleset = load_ruleset("french-tarot", choices={"le_petit": "not_played"})
    state = deal_hand(ruleset, 5, 1)
    state.apply_action("garde")  # the first to speak takes; the others pass
    for _ in range(3):
        state.apply_action("pass")
    taker = state.auction.taker
    (cards,) = [cards for s, what, cards in state.shown if what == "talon" and s == taker]
    agents = [RandomAgent(f"t/{s}") for s in range(4)]
    for _ in range(6 + 10):  # the discard, then some cards
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, seat))
    seat = next(s for s in range(4) if s != taker)  # a defender, who saw the talon shown
    for draw in range(5):
        sample = determinize(state, seat, random.Random(draw))
        for card in cards:  # in the taker's hand or discards, or played where all saw it
            assert (
                card in sample.hands[taker] + sample.discards[taker]
                or any(card in w for w in sample.won)
                or any(card == c for _s, c in sample.trick)
            )
