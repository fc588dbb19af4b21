"""Before the talon: the deal thrown in by a redeal rule and the partner call, for every
hand of a batch at once (the auction between them: `tarot.batch.phases.bidding`).

Where it sits: batch phases (`tarot.batch.phases`) between the deal and the talon; the
scalar engine's are `tarot.engine.phases.deal` (the redeal requests) and
`tarot.engine.phases.auction` (the call). A hand whose deal is thrown in is over (`thrown`): the
runner plays the rest of the hand for the others only. A deal thrown in is dealt again by
the next dealer, in the next hand, or (`deal.redeal_by: same_dealer`) by the same dealer
within the hand (`tarot.batch.run`), the deals thrown in counted among the rules fired.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.masks import Ints, any_card
from tarot.batch.phases.agreement import agreed
from tarot.batch.players import choose_card, choose_first
from tarot.batch.program import THROWN_IN, Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, per_row
from tarot.core.actions import PLAY_ON_TEXT, REDEAL_TEXT, DecisionKind


def throw_in(program: Program, state: BatchState, rows: Ints, reason: str) -> None:
    """The deals of `rows` are thrown in for `reason`: those hands are over."""
    if len(rows):
        state.fired[rows, program.keys[f"{THROWN_IN}:{reason}"]] += 1
        state.thrown[rows] = True


def redeal(program: Program, state: BatchState) -> None:
    """Each seat in dealing order, each redeal rule in turn: worked out at the deal, then
    asked (or, for a rule without a choice, the deal thrown in) while the deal stands; a
    redeal the other seats must agree to put to them first (`phases.agreement`)."""
    rules = program.hand.redeals
    if not rules:
        return
    rows = np.arange(state.size)
    order = state.seat_order(rows)  # the seats in play, from the dealer's next
    queue = []
    for position in range(order.shape[1]):
        seats = order[:, position]
        ctx = Ctx(state, rows, {**state.names(rows), "player": seats})
        for index, (rule, when) in enumerate(rules):
            queue.append((seats, index, rule, per_row(when.fn(ctx), state.size).astype(np.bool_)))
    agreement = program.hand.agreed_by
    for seats, index, rule, holds in queue:
        asked = np.flatnonzero(holds & ~state.thrown)
        if rule.choice and len(asked):
            redeal, play_on = f"{rule.id}:{REDEAL_TEXT}", f"{rule.id}:{PLAY_ON_TEXT}"
            kind = DecisionKind.REDEAL.value
            redeals = choose_first(state, asked, seats[asked], kind, redeal, play_on)
            playing_on = asked[~redeals]
            state.declared_redeals[playing_on, seats[playing_on], index] = True
            asked = asked[redeals]
        agreed_by = agreement[index] if agreement else None
        if agreed_by is not None:  # the others asked to agree: one refusal and it stands
            asked = agreed(state, rule.id, agreed_by, asked, seats[asked])
        throw_in(program, state, asked, rule.id)


def call(program: Program, state: BatchState) -> None:
    """The taker's call of a card, where the ruleset has one and its condition holds; the
    card's holder (other than the taker, in hand) becomes his partner."""
    when, cards = program.hand.call_when, program.hand.call_cards
    if when is None or cards is None:
        return
    rows = np.arange(state.size)
    ctx = Ctx(state, rows, state.names(rows))
    callable_cards = np.broadcast_to(cards.fn(ctx).union(), (state.size, state.tables.layout.words))
    asked = per_row(when.fn(ctx), state.size).astype(np.bool_) & any_card(callable_cards)
    rows = np.flatnonzero(asked)
    if not len(rows):
        return
    takers = state.taker[rows]
    card, counts = choose_card(state, rows, takers, callable_cards[rows], DecisionKind.CALL.value)
    every_seat = np.broadcast_to(card[:, None], (len(rows), state.players))
    holds = state.tables.layout.contains(state.hands[rows], every_seat)  # [rows, seats]
    holds[np.arange(len(rows)), takers] = False
    state.partner[rows] = np.where(holds.any(axis=1), np.argmax(holds, axis=1), -1)
    state.called[rows] = card
    state.decided(rows, counts)
