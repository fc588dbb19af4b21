"""The auction, for every hand of a batch at once: the seats in the order they bid, each in
turn bidding a higher contract open to it, holding the highest bid or passing, once each or
round and round until one is left; a compulsory contract played without an auction, the
contract played when all passed, or the deal thrown in; the seats that join the taker
(`tarot.batch.phases.joining`) once each stage of it is won.

Where it sits: a batch phase (`tarot.batch.phases`) after the deal, its rules compiled by
`tarot.batch.auction_rules`; the scalar engine's is `tarot.engine.phases.auction`, whose
stages it follows word for word: each hand keeps the seats still to speak as a queue
(`SeatQueue`), and each pass of the loop asks the seat at the head of every hand's queue at
once, until no hand has a seat left to ask.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.masks import Bools, Ints, distinct
from tarot.batch.phases import joining
from tarot.batch.phases.auction import throw_in
from tarot.batch.players import choose_index, log_texts
from tarot.batch.program import Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, seat_mask
from tarot.core.actions import HOLD_TEXT, JOIN_TEXT, PASS_TEXT, DecisionKind
from tarot.engine.events import ThrownIn
from tarot.engine.phases.auction import MAX_AUCTION_WORDS, UNTIL_ONE_LEFT
from tarot.expressions import EvaluationError


def first_bidders(program: Program, state: BatchState, provisional: bool = False) -> None:
    """The seat that speaks first in each hand (`bidding.first`): worked out as the hand
    begins (`provisional`: where it gives nobody yet, as one reading an `ask` step's answers,
    the dealer's next stays) and again on reaching the auction, as the scalar engine does."""
    rules = program.bidding
    if rules is None or rules.first is None:
        return
    rows = np.arange(state.size)
    if provisional:
        chosen = _chosen(state, rules.first, rows)
        given = chosen.any(axis=1)
        state.bid_first = np.where(given, np.argmax(chosen, axis=1), state.bid_first)
        return
    rows = rows[~state.thrown]
    if len(rows):
        state.bid_first[rows] = first_seat(state, rules.first, rows, "the auction's `first`")


def first_seat(state: BatchState, node: Node, rows: Ints, what: str) -> Ints:
    """The first seat a seat expression gives in each hand of `rows` (`first_seat`)."""
    chosen = _chosen(state, node, rows)
    if not chosen.any(axis=1).all():
        raise EvaluationError(f"{what} selects nobody; it must give a seat")
    return np.argmax(chosen, axis=1)


def _chosen(state: BatchState, node: Node, rows: Ints) -> Bools:
    """The seats a seat expression gives in each hand of `rows`: [rows, seats]."""
    return seat_mask(node.fn(Ctx(state, rows, state.names(rows))), len(rows), state.players)


class SeatQueue:
    """The seats still to speak in each hand, in order: `seats[h, :length[h]]`."""

    def __init__(self, order: Ints, speaking: Bools) -> None:
        # the speaking seats first, in order (a stable sort keeps it)
        ranked = np.argsort(~speaking, axis=1, kind="stable")
        self.seats = np.take_along_axis(order, ranked, axis=1)
        self.length = speaking.sum(axis=1)

    def pop(self, rows: Ints) -> None:
        self.seats[rows, :-1] = self.seats[rows, 1:]
        self.length[rows] -= 1

    def append(self, rows: Ints, seats: Ints) -> None:
        self.seats[rows, self.length[rows]] = seats
        self.length[rows] += 1


def bid(program: Program, state: BatchState, bidders: Node | None = None) -> None:
    """The auction of every hand (among `bidders` only, where the flow's step names them);
    then the contract played when all passed or the deal thrown in, and the taker to lead
    where the ruleset says so."""
    bidding, rules = state.ruleset.bidding, program.bidding
    if bidding is None or rules is None:
        return
    first_bidders(program, state)
    n, every = state.players, np.arange(state.size)
    order = state.round_from(every, state.bid_first)  # the seats in play, from the first
    speaking = ~state.thrown[:, None] & np.ones(order.shape, dtype=np.bool_)
    if bidders is not None:
        chosen = seat_mask(bidders.fn(Ctx(state, every, state.names(every))), state.size, n)
        speaking &= np.take_along_axis(chosen, order, axis=1)
    queue = SeatQueue(order, speaking)
    for forced in rules.compulsory:
        assert forced.when is not None  # a compulsory contract has its condition
        open_ = np.flatnonzero(~state.thrown & (state.contract < 0))
        holds = np.asarray(forced.when.fn(Ctx(state, open_, state.names(open_))), dtype=bool)
        rows = open_[np.broadcast_to(holds, open_.shape)]
        _force(state, forced.rank, forced.taker, rows, "the compulsory contract's `taker`")
        queue.length[rows] = 0
    only_then = np.array([c.only_when_all_passed for c in bidding.contracts], dtype=np.bool_)
    _bids(program, state, queue, ~only_then)
    _joins(program, state, order, _won(state, every), bidding_stage=True)
    if only_then.any():  # every seat passed: the contracts offered only then
        asked = _offered_only_then(program, state, order, only_then)
        before = state.contract.copy()
        _bids(program, state, asked, only_then, all_passed=True)
        _joins(program, state, order, _won(state, every) & (before < 0), bidding_stage=False)
    passed = np.flatnonzero(~state.thrown & (state.contract < 0))
    if rules.all_passed is None:
        throw_in(program, state, passed, ThrownIn.ALL_PASSED)
    else:
        every_pass, what = rules.all_passed, "the forced contract's `taker`"
        for _again in range(MAX_AUCTION_WORDS):  # forced again while the bid is void
            _force(state, every_pass.rank, every_pass.taker, passed, what)
            won = np.zeros(state.size, dtype=np.bool_)
            won[passed] = _won(state, passed)
            passed = _joins(program, state, order, won, bidding_stage=not only_then.any())
            if not len(passed):
                break
        else:
            raise EvaluationError(
                "bidding.all_passed: the contract forced when all pass needs a seat to join "
                f"it, and none has after {MAX_AUCTION_WORDS:,} tries"
            )
    if state.ruleset.play.first_leader == "taker":
        state.leader = np.where(state.taker >= 0, state.taker, state.leader)


def _won(state: BatchState, rows: Ints) -> Bools:
    """Whether each hand of `rows` has a contract with a taker, the deal standing."""
    return ~state.thrown[rows] & (state.contract[rows] >= 0) & (state.taker[rows] >= 0)


def _joins(
    program: Program, state: BatchState, order: Ints, won: Bools, bidding_stage: bool
) -> Ints:
    """The seats asked to join the taker in the hands `won` ([hands]), whose auction was
    won in the bidding itself (`bidding_stage`) or after it; a bid that needed a seat to join
    it and got none is void. Gives the hands whose bid is void."""
    rules = program.bidding
    assert rules is not None  # asked only in rulesets with an auction
    if not any(node is not None for node in rules.join):
        return np.zeros(0, dtype=np.int64)
    rows = np.flatnonzero(won)
    needs = joining.bid_needs(state, rows, bidding_stage)
    return joining.asked_once_won(program, state, rows, order[rows], needs)


def _force(state: BatchState, rank: int, taker: Node | None, rows: Ints, what: str) -> None:
    """The contract of rank `rank` played in `rows`, by the seat `taker` gives (if any)."""
    if not len(rows):
        return
    state.contract[rows] = rank
    if taker is not None:
        state.taker[rows] = first_seat(state, taker, rows, what)


def _offered_only_then(
    program: Program, state: BatchState, order: Ints, only_then: Bools
) -> SeatQueue:
    """The seats asked once every seat passed, in the order they bid: those to whom a
    contract offered only then is open."""
    rules = program.bidding
    assert rules is not None  # asked only in rulesets with an auction
    passed = ~state.thrown & (state.contract < 0)
    speaking = np.zeros(order.shape, dtype=np.bool_)
    rows = np.flatnonzero(passed)
    for position in range(order.shape[1]):
        names = {**state.names(rows), "player": order[rows, position]}
        ctx = Ctx(state, rows, {**names, "highest_bidder": state.taker[rows]})  # -1: no bid
        for rank in np.flatnonzero(only_then).tolist():
            asked = ~speaking[rows, position]
            speaking[rows, position] |= _open_to(rules.open_to, ctx, rank, 0, asked)
    return SeatQueue(order, speaking)


def _bids(
    program: Program, state: BatchState, queue: SeatQueue, offers: Bools, all_passed: bool = False
) -> None:
    """Every word of the auction, the seat at the head of each hand's queue at a time,
    bidding among the contracts `offers` (by rank) marks; once every seat passed
    (`all_passed`: the contracts offered only then), the first to bid has his contract."""
    bidding, rules = state.ruleset.bidding, program.bidding
    assert bidding is not None and rules is not None
    n, contracts = state.players, len(bidding.contracts)
    ids = [c.id for c in bidding.contracts]
    rounds = bidding.rounds == UNTIL_ONE_LEFT
    raise_ = bidding.winner_may_raise
    spoken = np.zeros(state.size, dtype=np.bool_)  # the seat left has spoken its last word
    joinable = bool(joining.in_bidding(state).any())
    for _word in range(MAX_AUCTION_WORDS):
        head = queue.seats[:, 0]
        won = rounds & (queue.length == 1) & (head == state.taker) & (spoken | (not raise_))
        rows = np.flatnonzero(~state.thrown & (queue.length > 0) & ~won)
        if not len(rows):
            return
        seats, length = head[rows], queue.length[rows]
        taker, contract = state.taker[rows], state.contract[rows]
        standing = contract >= 0
        names = {**state.names(rows), "player": seats, "highest_bidder": taker}
        ctx = Ctx(state, rows, {**names, "highest_bid": _ids(ids)[contract]})
        last_word = standing & (length == 1) & (seats == taker) & raise_
        holding = last_word.copy()
        if rules.hold is not None:
            asked = standing & ~last_word & (seats != taker)
            may = _seat_in(rules.hold, ctx, asked, n)
            held = np.maximum(contract, 0)
            holding |= may & _open_to(rules.open_to, ctx, held, 0, may)
        start = holding.astype(np.int64)
        lowest = np.where(standing, contract + 1, 0)
        # each contract's jump: the bids it leaps over among those it may make
        eligible = offers[None, :] & (np.arange(contracts)[None, :] >= lowest[:, None])
        jumps = start[:, None] + np.cumsum(eligible, axis=1) - 1
        offered = np.zeros((len(rows), contracts), dtype=np.bool_)
        for rank in range(contracts):
            offered[:, rank] = _open_to(rules.open_to, ctx, rank, jumps[:, rank], eligible[:, rank])
        count = start + offered.sum(axis=1)
        may_join = np.zeros(len(rows), dtype=np.bool_)
        if joinable and not all_passed:  # the standing bid joined at its rank, after the bids
            may_join = joining.may_join(program, state, rows, seats, standing & ~last_word)
        join_at = count
        count = count + may_join
        no_pass = last_word
        if raise_ and rounds and bidding.all_passed is None and not bidding.after_all_passed:
            no_pass = no_pass | ((count > 0) & ~standing & (length == 1))
        if rules.must_bid is not None:
            no_pass = no_pass | _seat_in(rules.must_bid, ctx, count > 0, n)
        counts = count + ~no_pass
        chosen = choose_index(state, rows, counts)
        held = chosen < start
        joins = may_join & (chosen == join_at)
        passes = chosen >= count
        # the chosen contract: the (chosen - start)th offered one
        nth = np.cumsum(offered, axis=1) == (chosen - start + 1)[:, None]
        ranks = np.where(held | joins, contract, np.argmax(offered & nth, axis=1))
        if state.logging:
            texts = [
                PASS_TEXT
                if p
                else (f"{HOLD_TEXT}:{ids[r]}" if h else f"{JOIN_TEXT}:{ids[r]}" if j else ids[r])
                for p, h, j, r in zip(
                    passes.tolist(), held.tolist(), joins.tolist(), ranks.tolist(), strict=True
                )
            ]
            log_texts(state, rows, seats, DecisionKind.BID.value, texts)
        if rounds:
            spoken[rows] |= length == 1
        queue.pop(rows)
        at_rank = held | joins  # a hold or a join leaps over nothing
        _log(state, rows, seats, passes, np.where(at_rank, 0, jumps[np.arange(len(rows)), ranks]))
        joining.join_bid(state, rows[joins], seats[joins])  # on the bidder's side, speaking no more
        said = ~passes & ~joins
        bidders, said_rows = seats[said], rows[said]
        state.joined[said_rows] = 0  # the joins to the bid passed fall with it
        state.taker[said_rows] = bidders
        state.contract[said_rows] = ranks[said]
        state.bids_made[said_rows, bidders] += 1
        state.bid_held[said_rows] = held[said]
        if all_passed:
            queue.length[said_rows] = 0
        elif rounds:
            queue.append(said_rows, bidders)
        state.decided(rows, counts)
    raise EvaluationError(
        f"the auction has not ended after {MAX_AUCTION_WORDS:,} bids, holds and passes: "
        "`hold` lets seats hold each other's bid over and over"
    )


def _ids(ids: list[str]) -> np.ndarray:
    """The contracts' names by rank, and '' at [-1] (no bid), for `highest_bid`."""
    return np.array([*ids, ""], dtype=object)


def _log(state: BatchState, rows: Ints, seats: Ints, passes: Bools, jumps: Ints) -> None:
    """One more word of the auction in `rows`, for the facts of its history: each seat's
    latest bid or hold (its place in the auction, from 1, and its jump) or latest pass (its
    place, and the highest bid it passed over). Before the word is applied."""
    place = state.said[rows] + 1
    state.said[rows] = place
    bid_rows, pass_rows = rows[~passes], rows[passes]
    state.bid_at[bid_rows, seats[~passes]] = place[~passes]
    state.bid_jumps[bid_rows, seats[~passes]] = jumps[~passes]
    state.passed_at[pass_rows, seats[passes]] = place[passes]
    state.passed_over[pass_rows, seats[passes]] = np.where(
        state.bid_held[pass_rows], -2 - state.contract[pass_rows], state.contract[pass_rows]
    )


def _seat_in(node: Node, ctx: Ctx, asked: Bools, players: int) -> Bools:
    """Whether each hand's `player` is among the seats `node` gives, worked out for the
    hands `asked` only (False for the others)."""
    found = np.zeros(ctx.size, dtype=np.bool_)
    if asked.any():
        sub = ctx.subset(asked)
        chosen = seat_mask(node.fn(sub), sub.size, players)
        found[asked] = chosen[np.arange(sub.size), np.asarray(sub.vars["player"])]
    return found


def _open_to(
    open_to: tuple[Node | None, ...], ctx: Ctx, rank: int | Ints, jump: int | Ints, asked: Bools
) -> Bools:
    """Whether the contract of `rank` (one, or one per hand) is open to each hand's
    `player`, bid leaping over `jump` bids, worked out for the hands `asked` only (False
    for the others)."""
    size = ctx.size
    ranks = np.broadcast_to(np.asarray(rank), (size,))
    jumps = np.broadcast_to(np.asarray(jump), (size,))
    result = asked.copy()
    for each in distinct(ranks[asked]):
        node = open_to[each]
        these = asked & (ranks == each)
        if node is None:
            continue
        sub = ctx.subset(these).with_vars(jump=jumps[these])
        result[these] = np.broadcast_to(np.asarray(node.fn(sub), dtype=np.bool_), (sub.size,))
    return result
