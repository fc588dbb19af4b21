"""Determinization: one guess at the cards a seat cannot see, consistent with what it has seen.

Where it sits: under the search agent (`tarot.players.search_agent`), which plays each
legal action out on many such guesses. `determinize(state, seat, rng)` returns a clone of
the hand state in which every card hidden from `seat` has been dealt again at random into
the hidden zones, each zone keeping its size.

What the seat sees, and so what may be guessed, is its `SeatView`
(`tarot.engine.seat_view`): the places it cannot look into (another seat's hand or
discards, a talon not yet taken, a talon set aside unseen by everyone, the face-down cards
under the tops of the piles) with their sizes, the cards lying there as a whole, and the
constraints. The state is only cloned and the guess laid into the clone. A called partner
is whoever holds the called card in the sample, as long as that card is unseen.

Constraints come from the rules, never from a named game (the view works them out):
  - a card seen going to one seat stays with that seat: a shown card that is not yet played
    is in its holder's hand; the cut card is in its holder's hand or discards;
  - voids are inferred from the trick rules: a seat that played card c to a trick whose
    earlier cards were P cannot have held an unseen card x if, with c and x in hand,
    `legal_cards` would not have allowed c (not following suit, not trumping, not
    overtrumping: whatever the ruleset's play rules say);
  - where the rules told how many cards of a kind each seat laid away (`discard.told`), each
    other seat's discards hold that many of them: its discards are guessed as two parts, one
    of that many told cards, one of the rest.
Cards are placed most-constrained first; a failed attempt is retried a bounded number of
times, then the inferred voids are dropped, then every constraint but the zone sizes and
what was told, so a sample is always produced."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

from tarot.engine.draws import below
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState

VOIDS_APPLY_TO = "hands"  # the pile a seat played its cards from
ATTEMPTS = 20  # tries at a deal before relaxing the constraints


@dataclass(frozen=True)
class Zone:
    """A pile of cards hidden from the deciding seat. `pile` names the HandState attribute:
    a list of per-seat lists when `seat` is given, a plain list otherwise."""

    pile: str
    seat: int | None
    size: int  # how many cards it holds in the real state
    excluded: frozenset[int] = frozenset()  # cards it cannot hold, inferred from play
    index: int | None = None  # for the piles on the table: which of the seat's piles
    kept_out: frozenset[int] = frozenset()  # cards it cannot hold by what was told: never relaxed

    def put(self, state: HandState, cards: list[int]) -> None:
        """Lay `cards` in this zone of `state` (a clone being made into a sample)."""
        if self.index is not None:  # under the face-up top of a pile on the table
            pile = getattr(state, self.pile)[self.seat][self.index]
            pile[:-1] = cards
        elif self.seat is None:
            setattr(state, self.pile, cards)
        else:
            getattr(state, self.pile)[self.seat] = cards


def determinize(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A clone of `state` with every card hidden from `seat` dealt again at random,
    consistently with what `seat` has seen. `state` itself is not changed."""
    return Sampler(state, seat).sample(rng)


class Sampler:
    """The constraints on what `seat` cannot see, worked out once for many samples of the
    same decision from the seat's view (`SeatView`): the state is read only to be cloned."""

    def __init__(self, state: HandState, seat: int, view: SeatView | None = None) -> None:
        self.state = state
        self.view = view if view is not None else SeatView(state, seat)
        self.zones, self.holders = told_zones(
            self.view, hidden_zones(self.view), self.view.known_holders
        )
        self.cards = sorted(self.view.unseen)
        self.places = Places(self.cards, self.zones, self.holders)

    def sample(self, rng: random.Random) -> HandState:
        placed = deal_zones(self.cards, self.zones, self.holders, rng, self.places)
        sample = self.state.clone()
        # a seat's discards guessed in two parts (what was told) are laid back as one pile
        piles: dict[tuple, tuple[Zone, list[int]]] = {}
        for zone, cards in zip(self.zones, placed, strict=True):
            key = (zone.pile, zone.seat, zone.index)
            if key in piles:
                piles[key][1].extend(cards)
            else:
                piles[key] = (zone, cards)
        for zone, cards in piles.values():
            zone.put(sample, cards)
        _rebind_partner(sample)
        sample.forget_future_deals()
        return sample


def _rebind_partner(sample: HandState) -> None:
    """The called card's holder in the sample is the taker's partner (None if the card lies
    where no other player holds it)."""
    if sample.auction.called_card is not None and sample.play.partner_shown_at is None:
        sample.auction.partner = sample.called_card_holder()


def hidden_zones(view: SeatView) -> list[Zone]:
    """Every pile the view's seat cannot see, with what each may not hold."""
    voids = view.voids
    return [
        Zone(
            place.pile,
            place.owner,
            place.size,
            voids.get(place.owner, frozenset())
            if place.pile == VOIDS_APPLY_TO and place.owner is not None
            else frozenset(),
            place.index,
        )
        for place in view.hidden
    ]


def told_zones(
    view: SeatView, zones: list[Zone], holders: Mapping[int, tuple[int, ...]]
) -> tuple[list[Zone], Mapping[int, tuple[int, ...]]]:
    """The zones with each other seat's discards split in two where the rules told how many
    cards of a kind it laid away (`discard.told`): a part of that many, holding only such
    cards, and a part for the rest, holding none; a card known to lie in those discards may
    lie in either part. Unchanged when nothing was told."""
    if not view.told_left:
        return zones, holders
    told = view.told_cards & view.unseen
    split = list(zones)
    others = view.unseen - told
    parts: dict[int, int] = {}  # the index of a seat's discards -> that of its second part
    for i, zone in enumerate(zones):
        if zone.pile != "discards" or zone.seat is None or not zone.size:
            continue
        count = min(view.told_left[zone.seat], zone.size)
        split[i] = replace(zone, size=count, kept_out=others)
        parts[i] = len(split)
        split.append(replace(zone, size=zone.size - count, kept_out=told))
    if not parts:
        return zones, holders
    where = {
        card: tuple(place for i in places for place in (i, parts.get(i)) if place is not None)
        for card, places in holders.items()
    }
    return split, where


def deal_zones(
    cards: list[int],
    zones: list[Zone],
    holders: Mapping[int, tuple[int, ...]],
    rng: random.Random,
    places: Places | None = None,
) -> list[list[int]]:
    """The hidden `cards` (sorted) dealt into the zones: with every constraint if a deal is
    found in `ATTEMPTS` tries, else without the inferred voids, else with zone sizes only
    (and, at every try, what was told: see `told_zones`). `places`: `Places(cards, zones,
    holders)` made once for many deals."""
    places = places or Places(cards, zones, holders)
    for _ in range(ATTEMPTS):
        placed = _try_deal(cards, zones, places.strict, rng)
        if placed is not None:
            return placed
    for _ in range(ATTEMPTS):
        placed = _try_deal(cards, zones, places.relaxed(), rng)
        if placed is not None:
            return placed
    placed = _try_deal(cards, zones, None, rng)
    assert placed is not None  # a deal by sizes alone cannot fail
    return placed


class Places:
    """Where each hidden card may be dealt: with every constraint (`strict`), or without
    the inferred voids (`relaxed`, made only when a strict deal fails: it rarely does)."""

    def __init__(
        self, cards: list[int], zones: list[Zone], holders: Mapping[int, tuple[int, ...]]
    ) -> None:
        if any(zone.kept_out for zone in zones):
            # what was told is kept at every try: a card goes only where it may lie
            holders = {
                card: tuple(i for i in places if card not in zones[i].kept_out)
                for card, places in holders.items()
            }
        self.cards, self.zones, self.holders = cards, zones, holders
        self.strict = {
            card: holders.get(card)
            or tuple(
                i for i, z in enumerate(zones) if card not in z.excluded and card not in z.kept_out
            )
            for card in cards
        }
        self._relaxed: dict[int, tuple[int, ...]] | None = None

    def relaxed(self) -> dict[int, tuple[int, ...]]:
        if self._relaxed is None:
            zones, holders = self.zones, self.holders
            self._relaxed = {
                card: holders.get(
                    card, tuple(i for i, z in enumerate(zones) if card not in z.kept_out)
                )
                for card in self.cards
            }
        return self._relaxed


def _try_deal(
    cards: list[int],
    zones: list[Zone],
    allowed: dict[int, tuple[int, ...]] | None,
    rng: random.Random,
) -> list[list[int]] | None:
    """One attempt: most-constrained cards first, each to an allowed zone with room, chosen
    with odds in proportion to the room left (which a uniform deal would give)."""
    room = [zone.size for zone in zones]
    placed: list[list[int]] = [[] for _ in zones]
    if allowed is None:
        shuffled = list(cards)
        rng.shuffle(shuffled)
        told = [i for i, zone in enumerate(zones) if zone.kept_out]
        for i in told:  # the parts of what was told first, from the cards each may hold
            placed[i] = [card for card in shuffled if card not in zones[i].kept_out][: room[i]]
            taken = set(placed[i])
            shuffled = [card for card in shuffled if card not in taken]
        start = 0
        for i, size in enumerate(room):
            if i not in told:
                placed[i] = shuffled[start : start + size]
                start += size
        return placed
    # a draw per card in the order of `cards`, as a sort key would draw them; `cards` is
    # sorted, so a card breaks a tie as the sort's stability would
    draws = [rng.random() for _ in cards]
    ranked = sorted(zip([len(allowed[card]) for card in cards], draws, cards, strict=True))
    for _count, _draw, card in ranked:
        options = []
        total = 0
        for i in allowed[card]:
            if room[i]:
                options.append(i)
                total += room[i]
        if not options:
            return None
        pick = below(rng, total)
        for i in options:
            pick -= room[i]
            if pick < 0:
                break
        placed[i].append(card)
        room[i] -= 1
    return placed
