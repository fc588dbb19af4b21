"""The seat's view (`tarot.engine.seat_view`) tells a seat nothing it may not see.

Random hands of built-in rulesets chosen for what they show: a cut card and declarations
(Marolles), piles with face-up tops (two-handed French Tarot), shown cards and a talon set
aside (three-handed), a called partner (five-handed), a stock drawn from (le mort), a talon.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import pytest

from tarot.compile.loader import load_ruleset
from tarot.core.actions import DecisionKind
from tarot.engine.game import deal_hand
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState
from tarot.players.random_agent import RandomAgent
from tarot.presentation.seat_screen import sides_line

RULESETS = [
    "marolles-1637",
    "french-tarot-2",
    "french-tarot-3",
    "french-tarot-5",
    "marolles-1637-wickson-2p-le-mort",
    "early-french-5",
    "jeu-de-tarot",
]
SEEDS = (1, 2)


@cache
def ruleset(name: str):
    return load_ruleset(name)


def moments(name: str, seed: int) -> Iterator[HandState]:
    """Every decision of a random hand, and its end."""
    rules = ruleset(name)
    state = deal_hand(rules, seed, 1)
    agents = [RandomAgent(f"{seed}/{s}") for s in range(rules.players)]
    while not state.is_terminal():
        yield state
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, seat))
    yield state


def may_see(state: HandState, seat: int) -> set[int]:
    """The cards `seat` may see, from the state itself: its own cards, every pile's top, the
    cut card, the cards shown and the cards played."""
    seen = set(state.hands[seat]) | set(state.discards[seat])
    seen |= {pile[-1] for piles in state.piles for pile in piles if pile}
    seen |= {card for _seat, _what, cards in state.shown for card in cards}
    seen |= {card for played in state.played for card in played}
    seen |= {card for _seat, card in state.trick}
    if state.deal.cut_card is not None:
        seen.add(state.deal.cut_card)
    return seen


def cards_in(view: SeatView) -> set[int]:
    """Every card the view names as a card that lies somewhere (not as one of the unseen, nor
    a card called, which names a card not held)."""
    by_id = view.ruleset.deck.by_id
    moved = {DecisionKind.PLAY, DecisionKind.DISCARD, DecisionKind.SHOW, DecisionKind.GIVE}
    cards = set(view.hand) | set(view.playable) | set(view.discards)
    cards |= {card for tops in view.pile_tops for card in tops}
    cards |= {card for _seat, _what, shown in view.shown for card in shown}
    cards |= {card for trick in view.tricks for _seat, card in trick.plays}
    cards |= {card for _seat, card in view.trick}
    cards |= {by_id[d.choice] for d in view.decisions if d.kind in moved and d.choice is not None}
    if view.facing is not None and view.facing.kind in moved:
        cards |= {by_id[c] for c in view.facing.choices if c in by_id}
    if view.cut_card is not None:
        cards.add(view.cut_card)
    return cards


def hidden_swapped(state: HandState, seat: int, rng: random.Random) -> HandState | None:
    """A copy of `state` in which two cards `seat` cannot see, lying in two different places
    hidden from it, trade places (None if there are no two such cards)."""
    view = SeatView(state, seat)
    fixed = set(view.known_holders)
    other = state.clone()
    spots = []  # (list, position) of each card free to move
    for place in view.hidden:
        pile = getattr(other, place.pile)
        if place.owner is not None:
            pile = pile[place.owner]
        if place.index is not None:
            pile = pile[place.index]
        spots += [(pile, i, place) for i in range(place.size) if pile[i] not in fixed]
    rng.shuffle(spots)
    for (a, i, place_a), (b, j, place_b) in zip(spots, spots[1:], strict=False):
        if place_a != place_b:
            a[i], b[j] = b[j], a[i]
            if other.auction.called_card is not None and other.play.partner_shown_at is None:
                other.auction.partner = other.called_card_holder()
            return other
    return None


@pytest.mark.parametrize("name", RULESETS)
def test_the_view_names_only_cards_the_seat_may_see(name: str) -> None:
    checked = 0
    for seed in SEEDS:
        for state in moments(name, seed):
            for seat in range(state.ruleset.players):
                view = SeatView(state, seat)
                assert cards_in(view) <= may_see(state, seat), (name, seed, seat)
                assert view.unseen.isdisjoint(
                    set(state.hands[seat]) | set(state.discards[seat]) | set(view.played())
                )
                others = {
                    card
                    for pile in (state.hands, state.discards)
                    for s, cards in enumerate(pile)
                    if s != seat
                    for card in cards
                }
                assert others <= view.unseen
                assert sum(place.size for place in view.hidden) == len(view.unseen)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", RULESETS)
def test_states_differing_only_in_hidden_cards_give_equal_views(name: str) -> None:
    rng = random.Random(name)
    swapped = 0
    for seed in SEEDS:
        for step, state in enumerate(moments(name, seed)):
            for seat in range(state.ruleset.players):
                other = hidden_swapped(state, seat, rng)
                if other is None:
                    continue
                assert other.zones != state.zones
                view, view_of_other = SeatView(state, seat), SeatView(other, seat)
                assert view == view_of_other, (name, seed, step, seat)
                if step % 9 == 0:  # the voids take longer to work out
                    assert view.voids == view_of_other.voids
                swapped += 1
    assert swapped > 50


def test_a_seat_is_not_told_another_seats_private_choice() -> None:
    rules = ruleset("marolles-1637")
    for state in moments("marolles-1637", 3):
        if state.phase.name == "PLAY":
            break
    discarded = [d for d in state.decisions if d["kind"] == "discard"]
    assert discarded
    for seat in range(rules.players):
        seen = SeatView(state, seat).decisions
        for d, told in zip(state.decisions, seen, strict=True):
            if d["kind"] != "discard":
                assert told.choice == d["choice"]
            elif d["seat"] == seat:
                assert told.choice == d["choice"]
            else:
                assert told.choice is None


def test_a_called_partner_is_unknown_even_to_the_taker_until_the_card_falls() -> None:
    found = 0
    for seed in range(1, 12):
        for state in moments("french-tarot-5", seed):
            partner = state.auction.partner
            if partner is None or state.auction.taker is None:
                continue
            taker_view, partner_view = (
                SeatView(state, state.auction.taker),
                SeatView(state, partner),
            )
            if state.play.partner_shown_at is None:
                assert (taker_view.partner, taker_view.partner_known) == (None, False)
                assert "with the holder of the" in (sides_line(taker_view) or "")
                assert (partner_view.partner, partner_view.partner_known) == (partner, True)
                found += 1
            else:
                assert taker_view.partner == partner
    assert found


def test_the_outcome_is_in_the_view_only_once_the_hand_is_over() -> None:
    for state in moments("french-tarot", 4):
        view = SeatView(state, 0)
        if state.is_terminal():
            assert view.card_points == tuple(state.card_points())
        else:
            assert view.card_points is None


def test_inferred_voids_are_every_unseen_card_the_trick_rules_rule_out() -> None:
    """The voids, read through a memo of what each play rules out (shared by rulesets whose
    trick rules differ, read in turns), and through the hand's own memo as a view reads them,
    against the trick rules asked card by card."""
    from tarot.engine import tricks
    from tarot.engine.seat_view import inferred_voids

    names = ("marolles-1637", "french-tarot", "minchiate", "hungarian-tarokk")
    checked = voids = 0
    shared: dict = {}
    for step in range(0, 60, 7):
        for name in names:
            states = list(moments(name, 5))
            if step >= len(states):
                continue
            state = states[step]
            seat = state.current_player() or 0
            view = SeatView(state, seat)
            excuses = view.trick_pack.fools
            expected: dict[int, set[int]] = {}
            for played_by, card, before in view.plays():
                if played_by == seat:
                    continue
                ruled_out = expected.setdefault(played_by, set())
                for other in view.unseen:
                    legal = tricks.legal_cards(
                        view.play_rules, view.trick_pack, [card, other], list(before), excuses
                    )
                    if card not in legal:
                        ruled_out.add(other)
            found = inferred_voids(
                view.play_rules, view.trick_pack, view.plays(), view.unseen, seat, shared
            )
            assert {s: set(v) for s, v in found.items()} == expected, (name, step)
            assert {s: set(v) for s, v in view.voids.items()} == expected, (name, step)
            # the view read and filled its hand's memo, which the hand's clones share
            assert bool(state.ruled_out_seen) == any(p[0] != seat for p in view.plays())
            assert state.clone().ruled_out_seen is state.ruled_out_seen
            checked += bool(view.plays())
            voids += sum(map(len, found.values()))
    assert checked > 10 and voids > 100
