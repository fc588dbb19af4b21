"""The talon and the discard: cards of a kind taken from it by seats, then the talon taken
into a hand (or shared out into several), set aside, made a stock, given a card at a time to
trick winners, or laid out face up in packets of which a seat takes some; then each seat that
must lays cards away, and how many cards of a kind each laid away may be told to all.

Where it sits: a phase of the hand (`tarot.engine.phases`), after the auction and the
call in rulesets that have them, else right after the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import takewhile
from typing import TYPE_CHECKING

from tarot.core.actions import Action, Decision, DecisionKind, TakePacket, action_text
from tarot.core.rule_index import card_guard, may_hold_for
from tarot.engine.events import AT_DISCARD
from tarot.engine.phases import settle
from tarot.engine.values import first_seat

if TYPE_CHECKING:
    from tarot.core.ruleset import Evaluator, Ruleset, TalonPackets, TalonTake, TalonUse
    from tarot.engine.state import HandState

#: how `shown` names packets taken, by where they went: in hand, or onto a pile unseen
TAKEN_SHOWN = {"hand": "talon", "pile": "talon_pile"}
REST_SHOWN = "talon_rest"  # how `shown` names the packets left, put to a seat's tricks
TO_TRICK_WINNERS = "trick_winners"  # the talon's top cards to each trick's winner
TAKEN_BY_KIND = "talon_taken"  # how `shown` names cards of a kind taken from the talon


@dataclass(slots=True)
class TalonState:
    """The talon's part of a hand's state (`state.talon_phase`; the cards themselves lie in
    the zone `state.talon`): what became of the talon and the packets still to take.
    `shared` is replaced whole when it grows, so a copy shares it."""

    drawing: bool  # the talon is a stock drawn from after each trick
    per_trick: int  # the talon's top cards each trick's winner takes
    shared: list[tuple[int, list[int]]]  # (seat, cards) of a talon shared or taken by kind
    ended_hand: bool  # the talon's `ends_hand` ended the hand before play
    packet_taker: int | None  # the seat taking packets of a talon laid out in packets
    packets_to_take: int  # how many more it takes

    @classmethod
    def new(cls) -> TalonState:
        return cls(False, 0, [], False, None, 0)

    def copy(self) -> TalonState:
        return TalonState(
            self.drawing,
            self.per_trick,
            self.shared,
            self.ended_hand,
            self.packet_taker,
            self.packets_to_take,
        )


@dataclass(slots=True)
class DiscardState:
    """The discard's part of a hand's state (`state.discard`): how many cards each seat has
    still to lay away and, once the discards are done (`discard.told`), the cards told of and
    per seat how many of them it laid away (empty before)."""

    left: dict[int, int]
    told_cards: frozenset[int]
    told: tuple[int, ...]

    @classmethod
    def new(cls, left: dict[int, int]) -> DiscardState:
        return cls(left, frozenset(), ())

    def copy(self) -> DiscardState:
        return DiscardState(dict(self.left), self.told_cards, self.told)


def talon_use(state: HandState) -> TalonUse | None:
    """What becomes of the talon: the contract's word, or without an auction the ruleset's."""
    bidding, contract = state.ruleset.bidding, state.auction.contract
    # with an auction, the talon is placed once a contract is won
    return state.ruleset.talon if bidding is None else bidding.contract(contract).talon  # type: ignore[arg-type]


def talon_scored_by(state: HandState) -> Evaluator | None:
    """The rule naming, once play is over, the seat the talon left on the table scores for
    (`scored_by` of the hand's talon; None without one, or with no contract won)."""
    if state.ruleset.bidding is not None and state.auction.contract is None:
        return None
    use = talon_use(state)
    return None if use is None else use.scored_by


def enter(state: HandState) -> None:
    """Place the talon as the contract (or, without an auction, the ruleset) says; end the
    hand there if the talon's `ends_hand` holds once its seat has its cards."""
    use = talon_use(state)
    _place(state, use)
    if use is not None and not state.talon_phase.packets_to_take:
        _end_if_over(state, use)


def _place(state: HandState, use: TalonUse | None) -> None:
    zones = state.zones
    if use is not None and use.takes and zones.talon:
        _take_by_kind(state, use.takes)
    if not zones.talon or use is None or use.to == "out_of_play":
        return
    if use.to == "stock":
        state.talon_phase.drawing = True
        return
    if use.to == TO_TRICK_WINNERS:
        state.talon_phase.per_trick = use.per_trick
        return
    assert use.seat is not None  # the schema asks for a seat where the talon goes to one
    seat = first_seat(state, use.seat, "the talon's `seat`")
    if use.packets is not None:
        _lay_out(state, seat, use.packets)
        return
    if use.shares is not None:
        _share_out(state, seat, use)
        return
    _show(state, seat, use)
    if use.to == "hand":
        state.talon_phase.shared = [
            *state.talon_phase.shared,
            (seat, list(zones.talon)),
        ]  # a new list
        zones.hands[seat].extend(zones.talon)
        _owe(state, seat, len(zones.talon))
    else:
        zones.set_aside[seat].extend(zones.talon)
    zones.talon = []
    state._changed()


def _owe(state: HandState, seat: int, cards: int) -> None:
    """`seat` has taken `cards` from the talon into its hand: as many to lay away, unless
    the flow's talon step says they were laid away before (`owes_discards: false`)."""
    if state.ruleset.flow[state.step].owes_discards:
        state.discard.left[seat] = state.discard.left.get(seat, 0) + cards


def _end_if_over(state: HandState, use: TalonUse) -> None:
    """The hand ends at once, before any discard, when the talon's `ends_hand` holds: it is
    settled as it stands (no trick played)."""
    if use.ends_hand is not None and state.evaluate(use.ends_hand):
        state.talon_phase.ended_hand = True
        state.discard.left = dict.fromkeys(state.discard.left, 0)
        settle.finish(state)


def _take_by_kind(state: HandState, takes: tuple[TalonTake, ...]) -> None:
    """Each take in turn: its seat takes the talon's cards of the take's kind (from one end,
    or only those in a row there) into its hand, to lay away as many."""
    zones = state.zones
    for take in takes:
        seat = first_seat(state, take.seat, "a talon take's `seat`")
        kind = frozenset(state.evaluate(take.cards))
        looked_at = zones.talon if take.end == "top" else zones.talon[::-1]
        if take.in_a_row:
            taken = list(takewhile(kind.__contains__, looked_at))
        else:
            taken = [card for card in looked_at if card in kind]
        if not taken:
            continue
        gone = set(taken)
        zones.talon = [card for card in zones.talon if card not in gone]
        zones.hands[seat].extend(taken)
        _owe(state, seat, len(taken))
        state.talon_phase.shared = [
            *state.talon_phase.shared,
            (seat, taken),
        ]  # a new list: clones share it
        if take.shown:
            state.shown.append((seat, TAKEN_BY_KIND, list(taken)))
        state._changed()


def _show(state: HandState, seat: int, use: TalonUse) -> None:
    """Where the rules say so, every seat sees the whole talon before `seat` takes it."""
    if use.shown:
        state.shown.append((seat, "talon", list(state.zones.talon)))


def _share_out(state: HandState, seat: int, use: TalonUse) -> None:
    """The talon into hands: `first` cards to `seat`, then `others` at a time to each other
    seat in turn, from its next, until none is left; each then lays away as many. With
    `shown`, every seat sees which cards go to whom. When `ends_hand` holds once `seat` has
    its cards, the others take none."""
    shares = use.shares
    assert shares is not None  # shared out only where the talon says so
    talon = state.zones.talon
    first = max(0, int(state.evaluate(shares.first)))
    receivers = state.seating.after(seat)
    given = [(seat, talon[:first])]
    rest = talon[first:]
    _give(state, given, use.shown)
    state.zones.talon = rest
    if use.ends_hand is not None and state.evaluate(use.ends_hand):
        return  # `enter` ends the hand: the rest stays in the talon
    given = []
    for turn, start in enumerate(range(0, len(rest), shares.others)):
        given.append((receivers[turn % len(receivers)], rest[start : start + shares.others]))
    _give(state, given, use.shown)
    state.zones.talon = []
    state._changed()


def _give(state: HandState, given: list[tuple[int, list[int]]], shown: bool) -> None:
    """Each seat's cards of a talon shared out into its hand, to lay away as many."""
    for receiver, cards in given:
        if not cards:
            continue
        state.talon_phase.shared = [
            *state.talon_phase.shared,
            (receiver, cards),
        ]  # clones share the list
        state.zones.hands[receiver].extend(cards)
        _owe(state, receiver, len(cards))
        if shown:
            state.shown.append((receiver, "talon", list(cards)))
    state._changed()


def give_to_winner(state: HandState, winner: int) -> None:
    """After a trick, the talon's top cards onto its winner's tricks, face up, while any
    are left."""
    talon = state.zones.talon
    cards = talon[: state.talon_phase.per_trick]
    if cards:
        del talon[: len(cards)]
        state.zones.won[winner].extend(cards)
        state.shown.append((winner, TO_TRICK_WINNERS, cards))


def _lay_out(state: HandState, seat: int, packets: TalonPackets) -> None:
    """The talon laid out face up in packets of equal size, for `seat` to take from."""
    zones = state.zones
    size = len(zones.talon) // packets.count
    zones.packets = [zones.talon[i * size : (i + 1) * size] for i in range(packets.count)]
    zones.talon = []
    state.talon_phase.packet_taker, state.talon_phase.packets_to_take = seat, packets.choose
    if not packets.choose:
        _leave_rest(state, packets)
    state._changed()


def take_packet(state: HandState, decision: Decision, action: TakePacket) -> None:
    seat, zones = decision.seat, state.zones
    use = talon_use(state)
    assert use is not None and use.packets is not None  # packets are laid out only then
    cards = zones.packets[action.number - 1]
    zones.packets[action.number - 1] = []
    state.shown.append((seat, TAKEN_SHOWN[use.to], list(cards)))
    if use.to == "hand":
        zones.hands[seat].extend(cards)
        _owe(state, seat, len(cards))
    else:
        zones.set_aside[seat].extend(cards)
    state.talon_phase.packets_to_take -= 1
    if not state.talon_phase.packets_to_take:
        _leave_rest(state, use.packets)
    state._changed()
    if not state.talon_phase.packets_to_take:
        _end_if_over(state, use)


def _leave_rest(state: HandState, packets: TalonPackets) -> None:
    """The packets not taken go to a seat's tricks, or stay face up on the table."""
    if packets.rest_to != "tricks":
        return
    assert packets.rest_seat is not None  # the checks ask for a seat for tricks
    seat = first_seat(state, packets.rest_seat, "the talon packets' `rest.seat`")
    zones = state.zones
    rest = [card for packet in zones.packets for card in packet]
    if rest:
        zones.won[seat].extend(rest)
        state.shown.append((seat, REST_SHOWN, rest))
    zones.packets = [[] for _ in zones.packets]


def decide_packet(state: HandState) -> bool:
    """The next packet the talon's seat takes, while it has packets to take."""
    return bool(state.talon_phase.packets_to_take) and _decide_packet(state)


def enter_discard(state: HandState) -> None:
    """A discard step that says how many cards each seat lays away here (`count`): that
    many, at most the cards it holds, in place of what it owed."""
    count = state.ruleset.flow[state.step].count
    if count is None:
        return
    for seat in state.seat_order:
        wanted = int(state.evaluate(count, {"player": seat}))
        state.discard.left[seat] = max(0, min(wanted, len(state.zones.hands[seat])))
    state._changed()


def decide(state: HandState) -> bool:
    """The discard of the first seat, in dealing order, with cards still to lay away."""
    for seat in state.seat_order:
        if state.discard.left[seat] > 0:
            allowed = discard_choices(state, seat)
            ids = state.ruleset.deck.cards.ids
            choices = [ids[c] for c in allowed]
            state.decision = Decision(seat, DecisionKind.DISCARD, allowed, choices)
            return True
    _tell(state)
    return False


def told_counts(cards: frozenset[int], discards: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Per seat, how many of `cards` lie among its discards."""
    return tuple(sum(1 for card in pile if card in cards) for pile in discards)


def told_text(ruleset: Ruleset, counts: Sequence[tuple[str, int]]) -> str:
    """What the transcript and a seat's screen say of `discard.told`: each seat named (as
    each says it) with how many it laid away, the cards named after the first count (a card
    set by its name as prose, another expression as written)."""
    told = str(ruleset.document.get("discard", {}).get("told", ""))
    name = told.replace("_", " ") if told.isidentifier() else f"`{told}`"
    said = [f"{seat} laid away {count}" for seat, count in counts]
    said[0] += f" of {name}"
    return "Told to all: " + ", ".join(said)


def _tell(state: HandState) -> None:
    """Every discard is made: where the ruleset says so (`discard.told`), how many cards of
    its kind each seat laid away becomes known to all."""
    rule = state.ruleset.discard_told
    if rule is None:
        return
    cards = frozenset(state.evaluate(rule))
    state.discard.told_cards = cards
    state.discard.told = told_counts(cards, state.zones.discards)
    state._changed()


def _decide_packet(state: HandState) -> bool:
    packets = state.zones.packets
    seat = state.talon_phase.packet_taker
    assert seat is not None  # set with the packets to take
    offered = [i for i, packet in enumerate(packets) if packet]
    allowed = [i for i in offered if not _packet_forbidden(state, seat, packets[i])]
    actions: list[Action] = [TakePacket(i + 1) for i in (allowed or offered)]
    choices = [action_text(a, state.ruleset.deck) for a in actions]
    state.decision = Decision(seat, DecisionKind.PACKET, actions, choices)
    return True


def _packet_forbidden(state: HandState, seat: int, packet: list[int]) -> bool:
    """Whether the talon's packets rule (`talon.packets.forbidden`) keeps `seat` from taking
    this packet; every packet forbidden, the rule gives way (the caller offers them all)."""
    use = talon_use(state)
    rule = None if use is None or use.packets is None else use.packets.forbidden
    if rule is None:
        return False
    return bool(state.evaluate(rule, {"player": seat, "packet_cards": tuple(packet)}))


def discard_choices(state: HandState, seat: int) -> list[int]:
    """The cards `seat` may lay away, in hand order: none the ruleset protects, unless only
    protected cards are left."""
    hand = state.zones.hands[seat]
    scope = state._scope({"player": seat})
    allowed = hand
    for rule in (state.ruleset.discard_never, state.ruleset.discard_forbidden):
        if rule is None:
            continue
        guard = card_guard(rule)  # the rule is false for a card outside it
        if guard is not None and guard.isdisjoint(allowed):
            continue
        kept = []
        for card in allowed:
            if guard is not None and card not in guard:
                kept.append(card)
                continue
            scope.vars["card"] = card
            if not rule(scope):
                kept.append(card)
        if kept:  # when only protected cards are left, they must go after all
            allowed = kept
    if state.ruleset.discard_all_or_none is not None:
        allowed = _all_or_none(state, seat, allowed, state.ruleset.discard_all_or_none)
    return list(allowed)


def _all_or_none(state: HandState, seat: int, allowed: list[int], rule: Evaluator) -> list[int]:
    """`allowed` as the whole discard needs it: once a card of the rule's group is laid
    away, the rest of the group must follow; none of it may go while the cards still to lay
    away are fewer than the group's cards in hand. When that would leave nothing, `allowed`."""
    group = set(rule(state._scope({"player": seat})))
    held = sum(1 for card in state.zones.hands[seat] if card in group)
    if not held:
        return allowed
    if any(card in group for card in state.zones.discards[seat]):
        narrowed = [card for card in allowed if card in group]
    elif held > state.discard.left[seat]:
        narrowed = [card for card in allowed if card not in group]
    else:
        return allowed
    return narrowed or allowed


def discard(state: HandState, decision: Decision, card: int) -> None:
    seat, zones = decision.seat, state.zones
    zones.hands[seat].remove(card)
    zones.discards[seat].append(card)
    state.discard.left[seat] -= 1
    shown = state.ruleset.discard_shown
    if (
        shown is not None
        and may_hold_for(shown, card)
        and shown(state._scope({"player": seat, "card": card}))
    ):
        state.shown.append((seat, "discard", [card]))
    state._fire("discard", {"player": seat, "card": card}, AT_DISCARD)
    if state.discard.left[seat] == 0:
        state._fire("discards_done", {"player": seat}, AT_DISCARD)
