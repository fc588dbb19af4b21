"""What one seat may know at a moment of a hand, and nothing more.

Where it sits: between the engine's `HandState` (which holds every card, hidden or not) and
everything that acts or speaks for one seat: the screen and news of a person's seat
(`tarot.presentation.seat_screen`, `tarot.presentation.seat_news`) and the search player's guesses
at the hidden cards (`tarot.players.sampling`). `SeatView(state, seat)` is built once per decision
and read instead of the state, so only what the seat may see reaches them.

A seat sees its own hand, discards and the face-up tops of its piles; every card shown (a cut
card, a talon turned up or laid out in packets, discards that must be shown, the cards of a
declaration, cards picked to show, cards handed over, cards the ruleset's `show` rules lay face
up); every card played and by whom; the other seats' decisions but the choice of a private one
(a discard, a card given back), of which it learns only that it was made; the sides as far as it
may know them (a called partner stays unknown to the others until the called card falls; seats
that joined the taker); the doublings made; the bonuses announced and the declarations the
rules made; how many cards of a kind each seat laid away, where the rules tell it once the
discards are done (`discard.told`); every payment. For guessing the rest it knows how many
cards lie in each place it cannot look into, which cards those are as a whole, who holds the
shown cards still in play, how many told cards lie in each seat's discards, and the voids the
trick rules imply. The outcome of the hand (card points) is part of the view
once the hand is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from tarot.core.actions import DecisionKind
from tarot.engine import tricks as trick_rules
from tarot.engine.events import Payment
from tarot.engine.phases.talon import told_counts
from tarot.expressions.builtins import Number

if TYPE_CHECKING:
    from tarot.core.cards import Pack
    from tarot.core.ruleset import PlayRules, Ruleset
    from tarot.engine.state import HandState

PRIVATE_KINDS = frozenset({DecisionKind.DISCARD, DecisionKind.GIVE})  # seen by the chooser only
HIDDEN_PILES = ("hands", "discards")  # per-seat piles no other seat looks into
UNSEEN_PILES = ("set_aside",)  # per-seat piles nobody looks into, their owner included

#: where a shown card may lie now, by what showed it (anything else: its holder's hand); a
#: talon packet taken onto a pile stays there, unseen
SHOWN_PILES = {
    "talon": HIDDEN_PILES,
    "talon_taken": HIDDEN_PILES,
    "discard": ("discards",),
    "talon_pile": ("set_aside",),
}

Play = tuple[int, int]  # (seat, card index) of a card played to a trick

#: what `ruled_out_by` worked out, by (rules, pack, card, trick before it), with the rules
#: and the pack themselves (whose ids are the key's): a hand keeps one
#: (`HandState.ruled_out_seen`), as each of its plays is read again at every later decision
RuledOut = dict[tuple[int, int, int, tuple[Play, ...]], tuple[object, object, frozenset[int]]]


@dataclass(frozen=True)
class SeenDecision:
    """A decision taken: `choice` is None when it was private to another seat."""

    seat: int
    kind: str
    choice: str | None


@dataclass(frozen=True)
class SeenTrick:
    """A finished trick: its cards in the order played, and who won it."""

    number: int
    plays: tuple[Play, ...]
    winner: int


@dataclass(frozen=True)
class ThrownInDeal:
    """A deal thrown in and dealt again within the hand: why, and what was decided in it."""

    reason: str
    decisions: tuple[SeenDecision, ...]


@dataclass(frozen=True)
class Facing:
    """The decision the seat faces: its kind and legal choices (texts, in the rules' order)."""

    kind: DecisionKind
    choices: tuple[str, ...]
    level_values: Mapping[str, Number]  # a declaration's levels and their worth


@dataclass(frozen=True)
class HiddenPlace:
    """A place `seat` cannot look into and how many cards lie there. `pile` names the state's
    zone: per seat when `owner` is given; `index` picks one of the owner's piles on the table
    (the cards under its face-up top)."""

    pile: str
    owner: int | None
    size: int
    index: int | None = None


@dataclass(frozen=True, init=False)
class SeatView:
    """What `seat` may know of `state` now (see the module's docstring)."""

    ruleset: Ruleset
    seat: int
    number: int  # the hand's number in the game
    dealer: int
    sitting_out: tuple[int, ...]  # the seats sitting this hand out (`players.sit_out`)
    # the seat's own cards
    hand: tuple[int, ...]  # in the order the state holds them
    playable: tuple[int, ...]  # the hand, then the face-up tops of its piles
    discards: tuple[int, ...]
    to_discard: int  # the cards the seat has still to lay away (a talon taken counts)
    # the table
    pile_tops: tuple[tuple[int, ...], ...]  # per seat, the face-up top of each pile not empty
    hand_sizes: tuple[int, ...]
    discard_sizes: tuple[int, ...]
    talon_size: int
    packets: tuple[tuple[int, ...], ...]  # the talon laid out face up in packets (taken: empty)
    cut_card: int | None
    shown: tuple[tuple[int, str, tuple[int, ...]], ...]  # (seat, what, cards), in order
    # (seat, how many, cards) of the talon taken into a hand, in order; the cards only for
    # the seat's own takes and those shown to all (else empty)
    talon_taken: tuple[tuple[int, int, tuple[int, ...]], ...]
    decisions: tuple[SeenDecision, ...]  # of the deal in play
    thrown_in_deals: tuple[ThrownInDeal, ...]
    tricks: tuple[SeenTrick, ...]
    trick: tuple[Play, ...]  # on the table
    trick_number: int
    leader: int
    # sides, bids, payments
    taker: int | None
    contract: str | None
    called_card: int | None
    partner: int | None  # None when there is none or the seat may not know him yet
    partner_known: bool  # whether the seat knows who holds the called card (if one was called)
    joined: tuple[int, ...]  # seats that joined the taker's side
    doubled: Mapping[str, int]  # per target of the doublings, how many were made
    announced: tuple[tuple[int, str], ...]  # (seat, bonus) announced, in order
    declared_by_rule: tuple[tuple[int, str], ...]  # (seat, `id:level`) declared by the rules
    # once the discards are done, where the rules tell it (`discard.told`): the cards told
    # of and how many of them each seat laid away (empty before)
    told_cards: frozenset[int]
    told: tuple[int, ...]
    told_left: tuple[int, ...]  # per seat, how many of them still lie among its discards
    payments: tuple[Payment, ...]
    returns: tuple[Number, ...]  # net per seat so far
    # the decision
    to_decide: int | None  # the seat whose decision the hand waits for
    facing: Facing | None  # the decision `seat` faces, when it is its turn
    # the end of the hand
    over: bool
    thrown_in: str | None
    card_points: tuple[Number, ...] | None  # once the hand is over
    # for guessing the hidden cards
    unseen: frozenset[int]  # cards whose place the seat does not see
    hidden: tuple[HiddenPlace, ...]  # where they lie, with how many in each place
    known_holders: Mapping[int, tuple[int, ...]]  # unseen card -> the places (indexes) it may be in
    drawing: bool  # the talon is a stock drawn from after each trick
    play_rules: PlayRules  # the hand's (its contract's, once the auction is over)
    trick_pack: Pack  # the pack as they play it (trumps as a plain suit, or not)
    # not something seen: the hand's memo of what its plays rule out, read by `voids`
    ruled_out_seen: RuledOut = field(repr=False, compare=False)

    def __init__(self, state: HandState, seat: int) -> None:
        ruleset = state.ruleset
        by_id = ruleset.deck.by_id
        decision = state.decision
        done = state.is_terminal()
        hidden, unseen = _hidden_places(state, seat)
        holders = _known_holders(state, hidden, unseen)
        called = state.auction.called_card
        # the called card's holder is known once it falls, or to whoever sees where it lies
        known = (
            called is None
            or state.play.partner_shown_at is not None
            or called not in unseen
            or called in holders
        )
        fields = {
            "ruleset": ruleset,
            "seat": seat,
            "number": state.number,
            "dealer": state.dealer,
            "sitting_out": state.seating.out,
            "hand": tuple(state.hands[seat]),
            "playable": tuple(state.playable(seat)),
            "discards": tuple(state.discards[seat]),
            "to_discard": state.discard.left.get(seat, 0),
            "pile_tops": tuple(tuple(p[-1] for p in piles if p) for piles in state.piles),
            "hand_sizes": tuple(len(hand) for hand in state.hands),
            "discard_sizes": tuple(len(pile) for pile in state.discards),
            "talon_size": len(state.talon),
            "packets": tuple(tuple(packet) for packet in state.zones.packets),
            "cut_card": state.deal.cut_card,
            "shown": tuple((s, what, tuple(cards)) for s, what, cards in state.shown),
            "talon_taken": _talon_taken(state, seat),
            "decisions": _seen_decisions(state.decisions, seat),
            "thrown_in_deals": tuple(
                ThrownInDeal(deal["thrown_in"], _seen_decisions(deal["decisions"], seat))
                for deal in state.abandoned
            ),
            "tricks": tuple(
                SeenTrick(
                    t["number"],
                    tuple((c["seat"], by_id[c["card"]]) for c in t["cards"]),
                    t["winner"],
                )
                for t in state.tricks
            ),
            "trick": tuple(state.trick),
            "trick_number": state.play.trick_number,
            "leader": state.play.leader,
            "taker": state.auction.taker,
            "contract": state.auction.contract,
            "called_card": state.auction.called_card,
            "partner": state.auction.partner if known else None,
            "partner_known": known,
            "joined": tuple(state.auction.joined),
            "doubled": dict(state.double.doubled),
            "announced": tuple(state.announce.announced),
            "declared_by_rule": tuple(state.declare.by_rule),
            "told_cards": state.discard.told_cards,
            "told": state.discard.told,
            "told_left": _told_left(state),
            "payments": tuple(state.payments),
            "returns": tuple(state.returns()),
            "to_decide": None if decision is None else decision.seat,
            "facing": (
                Facing(decision.kind, tuple(decision.choices), dict(decision.level_values))
                if decision is not None and decision.seat == seat
                else None
            ),
            "over": done,
            "thrown_in": state.thrown_in,
            "card_points": tuple(state.card_points()) if done else None,
            "unseen": unseen,
            "hidden": hidden,
            "known_holders": holders,
            "drawing": state.talon_phase.drawing,
            "play_rules": state.play.rules,
            "trick_pack": state.play.trick_pack,
            "ruled_out_seen": state.ruled_out_seen,
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    # --- read from the fields above -------------------------------------------------------

    def plays(self) -> list[tuple[int, int, tuple[Play, ...]]]:
        """Every card played so far as (seat, card, the cards before it in its trick)."""
        tricks = [t.plays for t in self.tricks] + [self.trick]
        return [
            (played_by, card, trick[:position])
            for trick in tricks
            for position, (played_by, card) in enumerate(trick)
        ]

    def played(self) -> set[int]:
        """Every card played to a trick so far, the trick on the table included."""
        return {card for _seat, card, _before in self.plays()}

    @cached_property
    def voids(self) -> Mapping[int, frozenset[int]]:
        """For each other seat, the unseen cards it cannot hold: with one of them beside a card
        it played, the trick rules would not have allowed that card. None are inferred while a
        stock is drawn from (a card drawn since says nothing of a void seen before)."""
        if self.drawing:
            return {}
        return inferred_voids(
            self.play_rules,
            self.trick_pack,
            self.plays(),
            self.unseen,
            skip=self.seat,
            memo=self.ruled_out_seen,
        )


def inferred_voids(
    rules: PlayRules,
    cards: Pack,
    plays: Iterable[tuple[int, int, tuple[Play, ...]]],
    unseen: Iterable[int],
    skip: int | None = None,
    memo: RuledOut | None = None,
) -> dict[int, frozenset[int]]:
    """For each seat that played (but `skip`), the `unseen` cards the trick rules say it could
    not have held when it played. The hand's own card rules (`forced`, `held_back`...) only
    ever narrow what the trick rules allow, so what is inferred without them holds. `memo`:
    what each play ruled out, kept from one call to the next (`ruled_out_by`)."""
    unseen = frozenset(unseen)
    voids: dict[int, frozenset[int]] = {}
    for played_by, card, before in plays:
        if played_by == skip:
            continue
        ruled_out = ruled_out_by(rules, cards, card, before, memo) & unseen
        voids[played_by] = voids.get(played_by, frozenset()) | ruled_out
    return voids


def ruled_out_by(
    rules: PlayRules,
    cards: Pack,
    card: int,
    before: tuple[Play, ...],
    memo: RuledOut | None = None,
) -> frozenset[int]:
    """Every other card of the pack that a seat playing `card` after `before` cannot have
    held: with it beside `card`, the trick rules would not have allowed `card`. `memo`:
    the answers worked out before, read and added to."""
    key = (id(rules), id(cards), card, before)
    known = None if memo is None else memo.get(key)
    if known is not None and known[0] is rules and known[1] is cards:
        return known[2]
    excuses = cards.fools
    trick = list(before)
    ruled_out = frozenset(
        other
        for other in range(len(cards))
        if other != card
        and card not in trick_rules.legal_cards(rules, cards, [card, other], trick, excuses)
    )
    if memo is not None:
        memo[key] = (rules, cards, ruled_out)  # the objects kept: their ids stay theirs
    return ruled_out


def _told_left(state: HandState) -> tuple[int, ...]:
    """Per seat, how many of the cards told of (`discard.told`) still lie among its discards:
    the count told, less those since handed over from them for the Fool (an exchange every
    seat sees, from a giver whose tricks every seat saw), so the seat may know it."""
    return told_counts(state.discard.told_cards, state.discards) if state.discard.told else ()


def _seen_decisions(decisions: Iterable[dict], seat: int) -> tuple[SeenDecision, ...]:
    return tuple(
        SeenDecision(
            d["seat"],
            d["kind"],
            None if d["seat"] != seat and d["kind"] in PRIVATE_KINDS else d["choice"],
        )
        for d in decisions
    )


def _hidden_places(state: HandState, seat: int) -> tuple[tuple[HiddenPlace, ...], frozenset[int]]:
    """Every place `seat` cannot look into, and the cards lying there as a whole."""
    places: list[tuple[HiddenPlace, list[int]]] = [
        (HiddenPlace(pile, other, len(cards)), cards)
        for pile in HIDDEN_PILES
        for other, cards in enumerate(getattr(state, pile))
        if other != seat
    ]
    places += [
        (HiddenPlace(pile, other, len(cards)), cards)
        for pile in UNSEEN_PILES
        for other, cards in enumerate(getattr(state, pile))
        if cards
    ]
    if state.talon:
        places.append((HiddenPlace("talon", None, len(state.talon)), state.talon))
    places += [
        (HiddenPlace("piles", other, len(pile) - 1, index), pile[:-1])
        for other, piles in enumerate(state.piles)
        for index, pile in enumerate(piles)
        if len(pile) > 1
    ]
    unseen = frozenset(card for _place, cards in places for card in cards)
    return tuple(place for place, _cards in places), unseen


def _known_holders(
    state: HandState, hidden: tuple[HiddenPlace, ...], unseen: frozenset[int]
) -> dict[int, tuple[int, ...]]:
    """Unseen cards whose holder everyone saw: card -> the places it may be in."""
    where: dict[int, tuple[int, ...]] = {}

    def places_of(holder: int, piles: tuple[str, ...]) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(hidden) if p.owner == holder and p.pile in piles)

    cut = state.deal.cut_card
    if cut is not None and cut in unseen:
        holder = next((s for s, hand in enumerate(state.deal.hands_dealt) if cut in hand), None)
        if holder is not None:
            where[cut] = places_of(holder, HIDDEN_PILES)
    shown_by_rule = {rule.id for rule in state.ruleset.shows}
    for holder, what, cards in state.shown:
        # a talon turned up went into the hand, and may since have been laid away; so may a
        # card a `show` rule showed from a hand
        piles = SHOWN_PILES.get(what, HIDDEN_PILES if what in shown_by_rule else ("hands",))
        for card in cards:
            if card in unseen:
                where[card] = places_of(holder, piles)
    return where


def _talon_taken(state: HandState, seat: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """The talon's cards taken into hands, as `seat` may know them: its own, and those shown
    to all, by card; another seat's hidden take by its count."""
    up = [set(cards) for _s, _what, cards in state.shown]
    return tuple(
        (taker, len(cards), tuple(cards))
        if taker == seat or any(set(cards) <= shown for shown in up)
        else (taker, len(cards), ())
        for taker, cards in state.talon_phase.shared
    )
