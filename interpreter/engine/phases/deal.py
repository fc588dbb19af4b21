"""The deal and redeals: the pack dealt out, the players who may have it thrown in asked, and
a deal thrown in (dealt again by the same dealer, or the hand given up).

Where it sits: the first phase of every hand (`tarot.engine.phases`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tarot.core.actions import Action, Decision, DecisionKind, Redeal, action_text
from tarot.core.ruleset import RedealRule  # at run time: the compiled build reads field types
from tarot.core.vocabulary import MAX_REDEALS
from tarot.engine.dealing import deal_packets
from tarot.engine.events import AT_CUT, ThrownIn
from tarot.engine.lasting import DEAL, pay_transfers
from tarot.engine.phases.phase import Phase
from tarot.engine.showing import show_cards
from tarot.engine.values import selected_seats

if TYPE_CHECKING:
    from tarot.engine.state import HandState


@dataclass(slots=True)
class DealState:
    """The deal's part of a hand's state (`state.deal`): what the deal steps handed out and
    the redeals still to ask about. What was dealt is replaced whole, never changed in
    place, so a copy shares it."""

    dealt_so_far: int  # cards of the pack dealt out by the flow's deal steps so far
    cut_card: int | None  # the pack's bottom card, shown where the ruleset says so
    hands_dealt: list[list[int]]  # each seat's cards once the deal steps so far were dealt
    packets_dealt: list[list[list[int]]]  # per seat, the packets it received, in order
    piles_dealt: list[list[list[int]]]  # per seat, its piles on the table as dealt
    talon_dealt: list[int]
    redeal_queue: list[tuple[int, RedealRule]]  # (seat, rule) still to ask about
    redeal_agreement: list[int]  # seats still to agree to the redeal asked for

    @classmethod
    def new(cls, players: int, cut_card: int | None) -> DealState:
        """Nothing dealt yet."""
        return cls(
            0, cut_card, [[] for _ in range(players)], [[] for _ in range(players)], [], [], [], []
        )

    def copy(self) -> DealState:
        return DealState(
            self.dealt_so_far,
            self.cut_card,
            self.hands_dealt,
            self.packets_dealt,
            self.piles_dealt,
            self.talon_dealt,
            list(self.redeal_queue),
            list(self.redeal_agreement),
        )


def deal(state: HandState) -> None:
    """Hand out the packets of this deal step. After the deal's last packets, show the cut
    card; then queue the redeal rules a `redeal` step right after this one asks about; once
    the whole pack is out, pay the transfers made at the deal and show the cards shown then."""
    flow, zones = state.ruleset.flow, state.zones
    step = flow[state.step]
    steps = state.ruleset.packets
    packets = [steps[i] for i in step.packets]
    dealt = deal_packets(
        packets,
        state.pack,
        state.seat_order,
        state.dealer,
        state.deal.dealt_so_far,
        state.ruleset.players,
    )
    state.deal.dealt_so_far = dealt.position
    if step.packets and step.packets[0] == 0:
        state.deal.packets_dealt = dealt.packets
        zones.piles = dealt.piles  # face-down piles whose top card is face up and playable
        zones.talon = list(dealt.talon)
    else:
        # new lists: a clone made between the deal's steps shares the ones dealt before
        state.deal.packets_dealt = [
            [*before, *received]
            for before, received in zip(state.deal.packets_dealt, dealt.packets, strict=True)
        ]
        for seat, piles in enumerate(dealt.piles):
            _add_piles(zones.piles[seat], piles)
        zones.talon.extend(dealt.talon)
    for seat, received in enumerate(dealt.packets):
        zones.hands[seat].extend(card for packet in received for card in packet)
    state.deal.piles_dealt = [[list(p) for p in piles] for piles in zones.piles]
    state.deal.talon_dealt = list(zones.talon)
    state.deal.hands_dealt = [list(hand) for hand in zones.hands]
    state._changed()
    if step.completes_deal and state.deal.cut_card is not None:
        state._fire("cut", {"cut_card": state.deal.cut_card}, AT_CUT)
    following = flow[state.step + 1] if state.step + 1 < len(flow) else None
    if following is not None and following.phase == Phase.REDEAL:
        _queue_redeals(state, following.rules)
    if step.completes_deal:
        if state.ruleset.lasting is not None:
            pay_transfers(state, DEAL)
        if state.ruleset.shows:
            show_cards(state, None)


def _add_piles(piles: list[list[int]], more: list[list[int]]) -> None:
    """Cards of a later packet step laid on a seat's piles, pile by pile."""
    while len(piles) < len(more):
        piles.append([])
    for pile, cards in zip(piles, more, strict=False):
        pile.extend(cards)


def _queue_redeals(state: HandState, rules: tuple[str, ...] | None) -> None:
    """Every seat in dealing order, with each redeal rule (of `rules`, or all) that
    applies to it."""
    for seat in state.seat_order:
        scope = state._scope({"player": seat})
        for rule in state.ruleset.redeals:
            if (rules is None or rule.id in rules) and rule.when(scope):
                state.deal.redeal_queue.append((seat, rule))


def decide(state: HandState) -> bool:
    """Ask the next player who may have the deal cancelled, or the next seat whose agreement
    a redeal needs; throw the deal in when a rule cancels it by itself. False when nobody is
    left to ask."""
    if not state.deal.redeal_queue:
        return False
    seat, rule = state.deal.redeal_queue[0]
    if (
        not rule.choice
        and not state.deal.redeal_agreement
        and not _put_to_agreement(state, seat, rule)
    ):
        throw_in(state, rule.id)
        return True
    asked = state.deal.redeal_agreement[0] if state.deal.redeal_agreement else seat
    answers: list[Action] = [Redeal(rule.id, True), Redeal(rule.id, False)]
    deck = state.ruleset.deck
    state.decision = Decision(
        asked, DecisionKind.REDEAL, answers, [action_text(a, deck) for a in answers]
    )
    return True


def _put_to_agreement(state: HandState, seat: int, rule: RedealRule) -> bool:
    """Whether the redeal that `seat`'s cards call for must first be agreed to: the seats the
    rule's `agreed_by` gives, but `seat`, are then to be asked in order of play from its next."""
    if rule.agreed_by is None:
        return False
    asked = selected_seats(rule.agreed_by(state._scope({"player": seat})))
    following = state.seating.after(seat)
    state.deal.redeal_agreement = [s for s in following if s in asked]
    return bool(state.deal.redeal_agreement)


def answer_redeal(state: HandState, decision: Decision, answer: Redeal) -> None:
    seat, rule = state.deal.redeal_queue[0]
    if state.deal.redeal_agreement:  # a seat asked to agree: one refusal and the deal stands
        state.deal.redeal_agreement.pop(0)
        if not answer.redeal:
            state.deal.redeal_agreement.clear()
            state.deal.redeal_queue.pop(0)
        elif not state.deal.redeal_agreement:
            state.deal.redeal_queue.pop(0)
            throw_in(state, answer.rule)
    elif (
        not answer.redeal
    ):  # playing on is itself declared: rules may ask declared(seat, 'rule id')
        state.deal.redeal_queue.pop(0)
        state.declare.declared[decision.seat].add(answer.rule)
    elif not _put_to_agreement(state, seat, rule):
        state.deal.redeal_queue.pop(0)
        throw_in(state, answer.rule)


def throw_in(state: HandState, reason: str | ThrownIn) -> bool:
    """Abandon the deal. True when the same dealer deals again at once (the state is then at
    the start of the new deal), False when the hand is over."""
    key = f"thrown_in:{reason}"
    state.fired[key] = state.fired.get(key, 0) + 1
    if (
        state.ruleset.redeal_by == "same_dealer"
        and state._repack is not None
        and len(state.abandoned) < MAX_REDEALS
    ):
        cards = state.ruleset.deck.cards
        state.abandoned.append(
            {
                "pack": [cards[c].id for c in state.pack],
                "thrown_in": str(reason),
                "decisions": list(state.decisions),
            }
        )
        state._start(state._repack(len(state.abandoned)))
        return True
    state.thrown_in = str(reason)
    state.phase = Phase.DONE
    state.decision = None
    state._changed()
    return False
