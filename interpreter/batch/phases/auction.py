"""Before the talon: the deal thrown in by a redeal rule, the auction and the partner call,
for every hand of a batch at once.

Where it sits: batch phases (`tarot.batch.phases`) between the deal and the talon; the
scalar engine's are `tarot.engine.phases.deal` (the redeal requests) and
`tarot.engine.phases.auction`. A hand whose deal is thrown in is over (`thrown`): the
runner plays the rest of the hand for the others only. A deal thrown in is dealt again by
the next dealer, in the next hand; the batch back end runs no deal dealt again by the same
dealer within the hand (`support` refuses it).
"""

from __future__ import annotations

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.masks import Ints, any_card
from tarot.batch.players import choose_card, choose_index, log_texts
from tarot.batch.program import THROWN_IN, Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, per_row, seat_mask
from tarot.core.actions import PASS_TEXT, PLAY_ON_TEXT, REDEAL_TEXT, DecisionKind
from tarot.engine.events import ThrownIn


def throw_in(program: Program, state: BatchState, rows: Ints, reason: str) -> None:
    """The deals of `rows` are thrown in for `reason`: those hands are over."""
    if len(rows):
        state.fired[rows, program.keys[f"{THROWN_IN}:{reason}"]] += 1
        state.thrown[rows] = True


def redeal(program: Program, state: BatchState) -> None:
    """Each seat in dealing order, each redeal rule in turn: worked out at the deal, then
    asked (or, for a rule without a choice, the deal thrown in) while the deal stands."""
    rules = program.hand.redeals
    if not rules:
        return
    n, rows = state.players, np.arange(state.size)
    queue = []
    for position in range(n):
        seats = (state.dealer + 1 + position) % n
        ctx = Ctx(state, rows, {**state.names(rows), "player": seats})
        for index, (rule, when) in enumerate(rules):
            queue.append((seats, index, rule, per_row(when.fn(ctx), state.size).astype(np.bool_)))
    for seats, index, rule, holds in queue:
        asked = np.flatnonzero(holds & ~state.thrown)
        if not rule.choice:
            throw_in(program, state, asked, rule.id)
            continue
        if not len(asked):
            continue
        counts = np.full(len(asked), 2, dtype=np.int64)
        redeals = choose_index(state, asked, counts) == 0  # the choices: redeal, play on
        answers = [f"{rule.id}:{REDEAL_TEXT if r else PLAY_ON_TEXT}" for r in redeals.tolist()]
        log_texts(state, asked, seats[asked], DecisionKind.REDEAL.value, answers)
        playing_on = asked[~redeals]
        state.declared_redeals[playing_on, seats[playing_on], index] = True
        state.decided(asked, counts)
        throw_in(program, state, asked[redeals], rule.id)


def bid(program: Program, state: BatchState, bidders: Node | None = None) -> None:
    """One round of bids from the dealer's right (among `bidders` only, where the flow's
    step names them), each a higher contract or a pass; the deal thrown in where all
    passed, and the taker to lead where the ruleset says so."""
    bidding = state.ruleset.bidding
    if bidding is None:
        return
    ids = [contract.id for contract in bidding.contracts]
    n = state.players
    taking_part = np.ones((state.size, n), dtype=np.bool_)
    if bidders is not None:
        every = np.arange(state.size)
        taking_part = seat_mask(bidders.fn(Ctx(state, every, state.names(every))), state.size, n)
    for position in range(n):
        rows = np.flatnonzero(~state.thrown)
        seats = (state.dealer[rows] + 1 + position) % n
        speaking = taking_part[rows, seats]
        rows, seats = rows[speaking], seats[speaking]
        lowest = state.contract[rows] + 1
        counts = len(ids) - lowest + 1  # the contracts above the highest bid, and a pass
        chosen = lowest + choose_index(state, rows, counts)
        bids = chosen < len(ids)
        texts = [
            ids[c] if b else PASS_TEXT for c, b in zip(chosen.tolist(), bids.tolist(), strict=True)
        ]
        log_texts(state, rows, seats, DecisionKind.BID.value, texts)
        state.taker[rows[bids]] = seats[bids]
        state.contract[rows[bids]] = chosen[bids]
        state.decided(rows, counts)
    throw_in(program, state, np.flatnonzero(~state.thrown & (state.taker < 0)), ThrownIn.ALL_PASSED)
    if state.ruleset.play.first_leader == "taker":
        state.leader = np.where(state.taker >= 0, state.taker, state.leader)


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
    state.decided(rows, counts)
