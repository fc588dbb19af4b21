"""Determinization: one guess at the cards a seat cannot see, consistent with what it has seen.

Where it sits: under the search agent (`interpreter.agents.search_agent`), which plays each
legal action out on many such guesses. `determinize(state, seat, rng)` returns a clone of
the hand state in which every card hidden from `seat` has been dealt again at random into
the hidden zones, each zone keeping its size.

What a seat sees: its own hand and discards, every card played to a trick, the cut card
(when the ruleset shows it), the cards shown (in declarations, a talon turned up, discards
that must be shown) and the face-up tops of the piles on the table. A hidden zone is a pile
the seat cannot look into: another seat's hand or discards, a talon not yet taken, a talon
set aside to count for a side (unseen by everyone), the face-down cards under the tops of
the piles (unseen by their owner too). A called partner is whoever holds the called card in
the sample, as long as that card is unseen.

Constraints come from the rules, never from a named game:
  - a card seen going to one seat stays with that seat: a shown card that is not yet played
    is in its holder's hand; the cut card is in its holder's hand or discards;
  - voids are inferred from the trick rules: a seat that played card c to a trick whose
    earlier cards were P cannot have held an unseen card x if, with c and x in hand,
    `legal_cards` would not have allowed c (not following suit, not trumping, not
    overtrumping: whatever the ruleset's play rules say).
Cards are placed most-constrained first; a failed attempt is retried a bounded number of
times, then the inferred voids are dropped, then every constraint but the zone sizes, so a
sample is always produced.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from interpreter.engine import tricks as trick_rules
from interpreter.engine.state import HandState

HIDDEN_PILES = ("hands", "discards")  # per-seat piles no other seat looks into
UNSEEN_PILES = ("set_aside",)  # per-seat piles nobody looks into, their owner included
VOIDS_APPLY_TO = "hands"  # the pile a seat played its cards from
ATTEMPTS = 20  # tries at a deal before relaxing the constraints


@dataclass(frozen=True)
class Zone:
    """A pile of cards hidden from the deciding seat. `pile` names the HandState attribute:
    a list of per-seat lists when `seat` is given, a plain list otherwise."""

    pile: str
    seat: int | None
    cards: tuple[int, ...]  # what it holds in the real state (only its size is used)
    excluded: frozenset[int] = frozenset()  # cards it cannot hold, inferred from play
    index: int | None = None  # for the piles on the table: which of the seat's piles

    def put(self, state: HandState, cards: list[int]) -> None:
        """Lay `cards` in this zone of `state` (a clone being made into a sample)."""
        if self.index is not None:  # under the face-up top of a pile on the table
            pile = getattr(state, self.pile)[self.seat][self.index]
            pile[:-1] = cards
        elif self.seat is None:
            setattr(state, self.pile, cards)
        else:
            getattr(state, self.pile)[self.seat] = cards

    @property
    def size(self) -> int:
        return len(self.cards)


def determinize(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A clone of `state` with every card hidden from `seat` dealt again at random,
    consistently with what `seat` has seen. `state` itself is not changed."""
    return Sampler(state, seat).sample(rng)


class Sampler:
    """The constraints on what `seat` cannot see, worked out once for many samples of the
    same decision."""

    def __init__(self, state: HandState, seat: int) -> None:
        self.state = state
        self.zones = hidden_zones(state, seat)
        self.holders = known_holders(state, self.zones)

    def sample(self, rng: random.Random) -> HandState:
        placed = deal_zones(self.zones, self.holders, rng)
        sample = self.state.clone()
        for zone, cards in zip(self.zones, placed, strict=True):
            zone.put(sample, cards)
        _rebind_partner(sample)
        sample.forget_future_deals()
        return sample


def _rebind_partner(sample: HandState) -> None:
    """The called card's holder in the sample is the taker's partner (None if the card lies
    where no other player holds it)."""
    if sample.called_card is not None and sample.partner_shown_at is None:
        sample.partner = sample.called_card_holder()


def hidden_zones(state: HandState, seat: int) -> list[Zone]:
    """Every pile `seat` cannot see, with what each may not hold."""
    zones = [
        Zone(pile, other, tuple(cards))
        for pile in HIDDEN_PILES
        for other, cards in enumerate(getattr(state, pile))
        if other != seat
    ]
    zones += [
        Zone(pile, other, tuple(cards))
        for pile in UNSEEN_PILES
        for other, cards in enumerate(getattr(state, pile))
        if cards
    ]
    if state.talon:
        zones.append(Zone("talon", None, tuple(state.talon)))
    zones += [
        Zone("piles", other, tuple(pile[:-1]), index=index)
        for other, piles in enumerate(state.piles)
        for index, pile in enumerate(piles)
        if len(pile) > 1
    ]
    pool = {card for zone in zones for card in zone.cards}
    # a void seen in play says nothing of a card drawn from a stock since
    voids = {} if state.drawing else inferred_voids(state, pool, skip=seat)
    return [
        Zone(z.pile, z.seat, z.cards, voids.get(z.seat, frozenset()), z.index)
        if z.pile == VOIDS_APPLY_TO
        else z
        for z in zones
    ]


def past_plays(state: HandState) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """Every card played so far as (seat, card, the cards before it in its trick)."""
    by_id = state.ruleset.deck.by_id
    tricks = [[(play["seat"], by_id[play["card"]]) for play in t["cards"]] for t in state.tricks]
    tricks.append(list(state.trick))
    return [
        (played_by, card, trick[:position])
        for trick in tricks
        for position, (played_by, card) in enumerate(trick)
    ]


def inferred_voids(
    state: HandState, unseen: Iterable[int], skip: int | None = None
) -> dict[int, frozenset[int]]:
    """For each seat (but `skip`), the unseen cards it cannot hold: with one of them beside
    the card it played, the trick rules would not have allowed that card."""
    unseen = list(unseen)
    rules, cards = state.ruleset.play, state.ruleset.deck.cards
    voids: dict[int, set[int]] = {}
    for played_by, card, before in past_plays(state):
        if played_by == skip:
            continue
        ruled_out = voids.setdefault(played_by, set())
        for other in unseen:
            if other not in ruled_out and card not in trick_rules.legal_cards(
                rules, cards, [card, other], before, state.excuses
            ):
                ruled_out.add(other)
    return {s: frozenset(v) for s, v in voids.items()}


def known_holders(state: HandState, zones: list[Zone]) -> dict[int, tuple[int, ...]]:
    """Hidden cards whose holder everyone saw: card -> the zones (indexes) it may be in."""
    where: dict[int, tuple[int, ...]] = {}
    hidden = {card for zone in zones for card in zone.cards}

    def zones_of(holder: int, piles: tuple[str, ...]) -> tuple[int, ...]:
        return tuple(i for i, z in enumerate(zones) if z.seat == holder and z.pile in piles)

    cut = state.cut_card
    if cut is not None and cut in hidden:
        holder = next((s for s, hand in enumerate(state.hands_dealt) if cut in hand), None)
        if holder is not None:
            where[cut] = zones_of(holder, HIDDEN_PILES)
    for holder, what, cards in state.shown:
        # a talon turned up went into the hand, and may since have been laid away
        piles = {"talon": HIDDEN_PILES, "discard": ("discards",)}.get(what, ("hands",))
        for card in cards:
            if card in hidden:
                where[card] = zones_of(holder, piles)
    return where


def deal_zones(
    zones: list[Zone], holders: dict[int, tuple[int, ...]], rng: random.Random
) -> list[list[int]]:
    """The hidden cards dealt into the zones: with every constraint if a deal is found in
    `ATTEMPTS` tries, else without the inferred voids, else with zone sizes only."""
    cards = sorted(card for zone in zones for card in zone.cards)
    everywhere = tuple(range(len(zones)))
    strict = {
        card: holders.get(card) or tuple(i for i, z in enumerate(zones) if card not in z.excluded)
        for card in cards
    }
    relaxed = {card: holders.get(card, everywhere) for card in cards}
    for allowed, attempts in ((strict, ATTEMPTS), (relaxed, ATTEMPTS), (None, 1)):
        for _ in range(attempts):
            placed = _try_deal(cards, zones, allowed, rng)
            if placed is not None:
                return placed
    raise AssertionError("a deal by sizes alone cannot fail")  # pragma: no cover


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
        start = 0
        for i, size in enumerate(room):
            placed[i] = shuffled[start : start + size]
            start += size
        return placed
    order = sorted(cards, key=lambda card: (len(allowed[card]), rng.random()))
    for card in order:
        options = [i for i in allowed[card] if room[i]]
        if not options:
            return None
        total = sum(room[i] for i in options)
        pick = rng.randrange(total)
        for i in options:
            pick -= room[i]
            if pick < 0:
                break
        placed[i].append(card)
        room[i] -= 1
    return placed
