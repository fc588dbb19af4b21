"""Seats joining the taker's side (`bidding.contracts[].join`), for every hand of a batch at
once: in the bidding, a join of the standing bid at its rank (`join_at: bidding`, the word
`join:CONTRACT`); once the auction is won, the seats of the contract's `join` asked in turn
whether they join (`join` or `stay_out`); and a bid that counts only if a seat joins it
(`join_needed`) void where none did.

Where it sits: called by the batch's auction (`tarot.batch.phases.bidding`), which offers the
join among the bids and asks the seats once each stage of the auction is over; the scalar
engine's is `tarot.engine.phases.auction` (`_may_join`, `_decide_join`, `_void`), followed
word for word. The seats that joined are `BatchState.joined` (each with its place among the
joins), on the taker's side in `attackers` (`BatchState.attackers`).
"""

from __future__ import annotations

import numpy as np

from tarot.batch.masks import Bools, Ints, distinct
from tarot.batch.players import choose_first
from tarot.batch.program import Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, seat_mask
from tarot.core.actions import JOIN_TEXT, STAY_OUT_TEXT, DecisionKind
from tarot.engine.phases.auction import JOIN_IN_BIDDING


def in_bidding(state: BatchState) -> Bools:
    """By contract rank: whether its bid may be joined in the bidding (`join_at: bidding`)."""
    bidding = state.ruleset.bidding
    assert bidding is not None  # only an auction has contracts to join
    return np.array(
        [c.join is not None and c.join_at == JOIN_IN_BIDDING for c in bidding.contracts],
        dtype=np.bool_,
    )


def needed(state: BatchState) -> Bools:
    """By contract rank: whether its bid counts only if a seat joins it (`join_needed`)."""
    bidding = state.ruleset.bidding
    assert bidding is not None  # only an auction has contracts to join
    return np.array([c.join_needed for c in bidding.contracts], dtype=np.bool_)


def may_join(program: Program, state: BatchState, rows: Ints, seats: Ints, asked: Bools) -> Bools:
    """Whether each hand's `seat`, about to speak, may join the standing bid at its rank
    (for the hands `asked`, False for the others): the bid's contract may be joined in the
    bidding, and `seat` is among its `join`, neither the bidder nor joined already."""
    ranks = np.maximum(state.contract[rows], 0)
    asked = (
        asked
        & (state.contract[rows] >= 0)
        & in_bidding(state)[ranks]
        & (seats != state.taker[rows])
        & (state.joined[rows, seats] == 0)
    )
    chosen = _join_seats(program, state, rows, ranks, asked)
    return asked & chosen[np.arange(len(rows)), seats]


def join_bid(state: BatchState, rows: Ints, seats: Ints) -> None:
    """The seats `seats` of the hands `rows` joined the standing bid: on the bidder's side,
    speaking no more."""
    if len(rows):
        state.joined[rows, seats] = state.joined[rows].max(axis=1) + 1


def asked_once_won(
    program: Program, state: BatchState, rows: Ints, order: Ints, needs: Bools
) -> Ints:
    """The auction of the hands `rows` is won: the seats of the contract's `join` (where it
    is not joined in the bidding) asked in turn, in the order they bid (`order`, [rows,
    seats]), whether they join the taker; then the bids of `needs` that nobody joined are
    void, the hands left as when every seat passes. Gives the hands whose bid is void."""
    if not len(rows):
        return rows
    ranks = state.contract[rows]
    takers = state.taker[rows]
    later = ~in_bidding(state)[ranks]
    chosen = _join_seats(program, state, rows, ranks, later)
    every = np.arange(len(rows))
    for position in range(order.shape[1]):
        seats = order[:, position]
        ask = chosen[every, seats] & (seats != takers)
        if not ask.any():
            continue
        asked, asked_seats = rows[ask], seats[ask]
        kind = DecisionKind.JOIN.value
        joins = choose_first(state, asked, asked_seats, kind, JOIN_TEXT, STAY_OUT_TEXT)
        join_bid(state, asked[joins], asked_seats[joins])
    void = rows[needs & (state.joined[rows] == 0).all(axis=1)]
    state.contract[void] = -1
    state.taker[void] = -1
    state.bid_held[void] = False
    return void


def bid_needs(state: BatchState, rows: Ints, bidding_stage: bool) -> Bools:
    """Whether the bid won in each hand of `rows` counts only if a seat joins it: its
    contract needs one, won in the bidding itself (`bidding_stage`, not among the contracts
    offered once all passed), its taker having bid (not forced on him)."""
    if not bidding_stage or not len(rows):
        return np.zeros(len(rows), dtype=np.bool_)
    bid = state.bids_made[rows, state.taker[rows]] > 0
    return needed(state)[state.contract[rows]] & bid


def _join_seats(
    program: Program, state: BatchState, rows: Ints, ranks: Ints, asked: Bools
) -> Bools:
    """[rows, seats]: the seats each hand's contract (of rank `ranks`) lets join its taker,
    worked out for the hands `asked` only, as the contract's `join` sees the hand."""
    rules = program.bidding
    assert rules is not None  # only an auction has contracts to join
    found = np.zeros((len(rows), state.players), dtype=np.bool_)
    for rank in distinct(ranks[asked]):
        node = rules.join[rank]
        these = np.flatnonzero(asked & (ranks == rank))
        if node is None or not len(these):
            continue
        sub = rows[these]
        value = node.fn(Ctx(state, sub, state.names(sub)))
        found[these] = seat_mask(value, len(sub), state.players)
    return found
