"""The auction and the partner call: bids in turn, the taker and contract, the card called.

Where it sits: phases of the hand (`tarot.engine.phases`) in rulesets with `bidding`.

The auction goes in stages (`AuctionStage`): the bidding itself (each seat once, or round
and round until all but one have passed); when every seat passed, the contracts offered only
then, to each seat they are open to; then a forced contract, or the deal thrown in; once
there is a taker, the seats the contract lets join him are asked in turn. `state.auction.bidders`
holds the seats still to speak in the current stage, in order; `state.auction.taker` and
`state.auction.contract` the highest bid so far. A contract with `join_at: bidding` lets the
seats of its `join` join it in the bidding while it stands (`join:CONTRACT`), and a higher bid
makes those joins fall; one with `join_needed` counts only if a seat joins it: won without
one, the bid is void (`state.auction.voided`) and the auction ends as when all pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, NamedTuple

from tarot.core.actions import (
    PASS,
    Action,
    Bid,
    Decision,
    DecisionKind,
    Hold,
    Join,
    JoinBid,
    Pass,
    action_text,
)
from tarot.engine.events import ThrownIn
from tarot.engine.phases import deal
from tarot.engine.values import first_seat, selected_seats
from tarot.expressions import EvaluationError
from tarot.expressions.types import Value

if TYPE_CHECKING:
    from tarot.core.ruleset import Bidding, Contract
    from tarot.engine.state import HandState

UNTIL_ONE_LEFT = "until_one_left"  # `bidding.rounds`: round and round until one is left
JOIN_IN_BIDDING = "bidding"  # a contract's `join_at`: its bid may be joined in the bidding
# Bids, holds and passes an auction may hold: without holds each bid raises the contract, so
# only holds answered by holds (where `hold` and `must_bid` allow it) can go on without end.
MAX_AUCTION_WORDS = 1000
_JOIN_ANSWERS: list[Action] = [Join(True), Join(False)]


class AuctionStage(IntEnum):
    BIDDING = 0
    ALL_PASSED = 1  # every seat passed: the contracts offered only then
    JOINING = 2  # a taker: the seats that may join him are asked
    OVER = 3


class AuctionEntry(NamedTuple):
    """One word of the auction, for the facts that read its history."""

    seat: int
    bid: bool  # a bid or a hold (False: a pass)
    jump: int  # how many bids it leapt over (0 for the lowest the seat might make)
    standing: str  # the highest bid before it, as records write it ('' if none)


@dataclass(slots=True)
class AuctionState:
    """The auction's and the call's part of a hand's state (`state.auction`): the stage, the
    seats still to speak, every word said, the highest bid and its bidder (once the auction
    is over, the contract and its taker), the seats that joined him, the card called and its
    holder. `bid_jumps` is replaced whole at each bid asked for, so a copy shares it."""

    stage: AuctionStage
    bid_order: tuple[int, ...]  # the seats in the order they bid
    bidders: list[int]  # the seats still to speak in the current stage, in order
    bids_made: list[int]  # bids and holds each seat has made
    bid_held: bool  # whether the highest bid so far was a hold
    bid_jumps: dict[str, int]  # the jump of each contract the bidder may bid
    last_word_spoken: bool  # the seat left has spoken its last word
    log: list[AuctionEntry]  # every bid, hold and pass, in order
    compulsory: bool  # the contract was compulsory: no auction was held
    taker: int | None
    contract: str | None
    joined: list[int]  # seats that joined the taker's side
    called_card: int | None
    partner: int | None  # the called card's holder, when not the taker
    needs_partner: bool  # the winning bid counts only if a seat joins it (`join_needed`)
    voided: str | None  # a bid won that nobody joined, and that did not count
    # once the auction is over, the definitions that read its words alone, by name (and
    # seat), shared by the copies (`HandState.remember_after_auction`)
    kept: dict[object, Value]

    @classmethod
    def new(cls, players: int) -> AuctionState:
        """Before anyone speaks (`start` gives the order they speak in)."""
        return cls(
            AuctionStage.BIDDING,
            (),
            [],
            [0] * players,
            False,
            {},
            False,
            [],
            False,
            None,
            None,
            [],
            None,
            None,
            False,
            None,
            {},
        )

    def copy(self) -> AuctionState:
        return AuctionState(
            self.stage,
            self.bid_order,
            list(self.bidders),
            list(self.bids_made),
            self.bid_held,
            self.bid_jumps,
            self.last_word_spoken,
            list(self.log),
            self.compulsory,
            self.taker,
            self.contract,
            list(self.joined),
            self.called_card,
            self.partner,
            self.needs_partner,
            self.voided,
            self.kept if self.stage == AuctionStage.OVER else {},
        )


def start(state: HandState, provisional: bool = False) -> None:
    """The order the seats speak in, all of them still to speak. `provisional` (at the
    hand's start, worked out again on reaching the `bid` step): a `first` that gives nobody
    yet, as one reading an `ask` step's answers, stands for the dealer's next."""
    order = state.auction.bid_order = tuple(bid_order(state, provisional))
    state.auction.bidders = list(order) if state.ruleset.bidding else []


def bid_order(state: HandState, provisional: bool = False) -> list[int]:
    """The seats in the order they first speak: from the ruleset's `first`, or the dealer's
    next, in order of play."""
    bidding = state.ruleset.bidding
    if bidding is None or bidding.first is None:
        return list(state.seat_order)
    if provisional and not selected_seats(bidding.first(state._scope({}))):
        return list(state.seat_order)
    first = first_seat(state, bidding.first, "the auction's `first`")
    return list(state.seating.rounds[first])


def enter(state: HandState) -> None:
    """The order of speaking worked out again on reaching the auction, so that `first` sees
    what the steps before it decided (an `ask` step's answers); then a compulsory contract
    whose condition holds is played without an auction."""
    bidding = state.ruleset.bidding
    assert bidding is not None  # only a ruleset with an auction has this phase
    before = state.auction.bid_order
    start(state)
    if state.auction.bid_order != before:
        state._changed()
    bidders = state.ruleset.flow[state.step].bidders
    if bidders is not None:  # only these seats take part (e.g. those who answered yes)
        taking_part = selected_seats(state.evaluate(bidders))
        state.auction.bidders = [seat for seat in state.auction.bidders if seat in taking_part]
        state._changed()
    scope = state._scope({})
    forced = next((entry for entry in bidding.compulsory if entry.when(scope)), None)
    if forced is None:
        return
    state.auction.bidders.clear()
    state.auction.contract = forced.contract
    if forced.taker is not None:
        state.auction.taker = first_seat(state, forced.taker, "the compulsory contract's `taker`")
    state.auction.compulsory = True
    state._changed()


def decide_bid(state: HandState) -> bool:
    """The next bidder's choice of a higher contract, a hold or a pass; then the seats asked
    to join. Once all have spoken, the deal is thrown in if nobody bid (or the forced
    contract is played); else the taker leads where the ruleset says so."""
    bidding = state.ruleset.bidding
    assert bidding is not None  # only a ruleset with an auction has this phase
    if state.auction.stage == AuctionStage.JOINING:
        return _decide_join(state)
    if state.auction.bidders and not _won(state, bidding):
        if len(state.auction.log) >= MAX_AUCTION_WORDS:
            raise state._reported(_endless(bidding))
        seat = state.auction.bidders[0]
        bids = _legal_bids(state, bidding, seat)
        choices = [action_text(b, state.ruleset.deck) for b in bids]
        state.decision = Decision(seat, DecisionKind.BID, bids, choices)
        return True
    state.auction.bidders.clear()
    if state.auction.contract is None:
        if state.auction.stage == AuctionStage.BIDDING and bidding.after_all_passed:
            state.auction.stage = AuctionStage.ALL_PASSED
            state.auction.bidders = [
                seat
                for seat in state.auction.bid_order
                if any(_open(state, c, seat) for c in bidding.after_all_passed)
            ]
            return decide_bid(state)
        if bidding.all_passed is None:
            deal.throw_in(state, ThrownIn.ALL_PASSED)
            return True
        _force(state, bidding)
    if state.auction.taker is not None and state.auction.stage < AuctionStage.JOINING:
        won = bidding.contract(state.auction.contract)  # type: ignore[arg-type]
        state.auction.needs_partner = (
            won.join_needed
            and state.auction.stage == AuctionStage.BIDDING
            and state.auction.bids_made[state.auction.taker] > 0  # bid, not forced
        )
        state.auction.stage = AuctionStage.JOINING
        join = won.join
        if join is not None and won.join_at != JOIN_IN_BIDDING:
            asked = selected_seats(join(state._scope({})))
            state.auction.bidders = [
                s for s in state.auction.bid_order if s in asked and s != state.auction.taker
            ]
        return _decide_join(state)
    return False


def _endless(bidding: Bidding) -> EvaluationError:
    """The error for an auction that has not ended after MAX_AUCTION_WORDS words, placed at
    the `hold` that lets it stand still."""
    error = EvaluationError(
        f"the auction has not ended after {MAX_AUCTION_WORDS:,} bids, holds and passes: "
        "`hold` lets seats hold each other's bid over and over"
        + (" and `must_bid` keeps them from passing" if bidding.must_bid is not None else "")
        + "; let a seat hold only a bid that is not itself a hold (e.g. `not bid_held()`)"
    )
    error.where = getattr(bidding.hold or bidding.must_bid, "where", "")
    return error


def _decide_join(state: HandState) -> bool:
    if state.auction.bidders:
        seat = state.auction.bidders[0]
        choices = [action_text(a, state.ruleset.deck) for a in _JOIN_ANSWERS]
        state.decision = Decision(seat, DecisionKind.JOIN, _JOIN_ANSWERS, choices)
        return True
    if state.auction.needs_partner and not state.auction.joined:
        return _void(state)
    state.auction.stage = AuctionStage.OVER
    return False


def _void(state: HandState) -> bool:
    """The winning bid needed a seat to join it and none did: it does not count, and the
    auction ends as when every seat passes."""
    auction = state.auction
    auction.voided, auction.needs_partner = auction.contract, False
    auction.taker = auction.contract = None
    auction.bid_held = False
    auction.stage = AuctionStage.BIDDING
    auction.bidders.clear()
    state._changed()
    return decide_bid(state)


def _won(state: HandState, bidding: Bidding) -> bool:
    """Whether the bidding is over before its next seat speaks: round and round, when the
    only seat left is the highest bidder."""
    return (
        bidding.rounds == UNTIL_ONE_LEFT
        and len(state.auction.bidders) == 1
        and state.auction.bidders[0] == state.auction.taker
        and (state.auction.last_word_spoken or not bidding.winner_may_raise)
    )


def _last_word(state: HandState, bidding: Bidding, seat: int) -> bool:
    """Whether `seat`, the highest bidder and the only seat left, is asked to keep or raise
    its bid (`winner_may_raise`)."""
    return (
        bidding.winner_may_raise and len(state.auction.bidders) == 1 and seat == state.auction.taker
    )


def _last_word_at_once(state: HandState, bidding: Bidding) -> bool:
    """Whether the seat about to speak has the last word at once: every other seat has
    passed with no bid standing (`winner_may_raise`), and a pass would throw the deal in,
    the ruleset naming nothing to play when all pass (`all_passed`, contracts offered only
    then), so that it must name a contract open to it."""
    return (
        bidding.winner_may_raise
        and bidding.rounds == UNTIL_ONE_LEFT
        and state.auction.stage == AuctionStage.BIDDING
        and state.auction.contract is None
        and len(state.auction.bidders) == 1
        and bidding.all_passed is None
        and not bidding.after_all_passed
    )


def _legal_bids(state: HandState, bidding: Bidding, seat: int) -> list[Action]:
    """Every contract above the highest bid that is open to `seat` (in the stage after all
    passed, those offered only then), a hold of the highest bid where `seat` may hold it,
    and a pass unless `must_bid` keeps `seat` from it. Each contract's `jump` counts the bids
    it leaps over: 0 for the lowest `seat` may make (the hold, where it may hold)."""
    contracts = bidding.contracts
    if state.auction.stage == AuctionStage.ALL_PASSED:
        offered = bidding.after_all_passed
    elif bidding.after_all_passed:
        offered = tuple(c for c in contracts if not c.only_when_all_passed)
    else:
        offered = contracts
    bids: list[Action] = []
    last_word = False
    if state.auction.contract is not None:
        ranks = bidding.ranks
        lowest = ranks[state.auction.contract] + 1
        offered = tuple(c for c in offered if ranks[c.id] >= lowest)
        last_word = _last_word(state, bidding, seat)
        if last_word:  # keep the bid or raise it; no pass
            bids.append(Hold(state.auction.contract))
        elif bidding.hold is not None and seat != state.auction.taker:
            holders = selected_seats(bidding.hold(state._scope(_highest(state))))
            if seat in holders and _open(state, bidding.contract(state.auction.contract), seat):
                bids.append(Hold(state.auction.contract))
    start = len(bids)  # a hold is the lowest bid: it leaps over nothing
    state.auction.bid_jumps = {c.id: start + i for i, c in enumerate(offered)}
    bids += [Bid(c.id) for i, c in enumerate(offered) if _open(state, c, seat, start + i)]
    if last_word or (bids and _last_word_at_once(state, bidding)):
        return bids
    if _may_join(state, bidding, seat):
        bids.append(JoinBid(state.auction.contract))  # type: ignore[arg-type]
    if bids and bidding.must_bid is not None:
        if seat in selected_seats(bidding.must_bid(state._scope(_highest(state)))):
            return bids
    bids.append(PASS)
    return bids


def _may_join(state: HandState, bidding: Bidding, seat: int) -> bool:
    """Whether `seat` may join the standing bid at its rank: its contract lets the seats of
    its `join` do so in the bidding, and `seat` is one of them, not the bidder nor joined."""
    auction = state.auction
    if auction.stage != AuctionStage.BIDDING or auction.contract is None:
        return False
    standing = bidding.contract(auction.contract)
    if standing.join is None or standing.join_at != JOIN_IN_BIDDING:
        return False
    if seat == auction.taker or seat in auction.joined:
        return False
    return seat in selected_seats(standing.join(state._scope({})))


def _highest(state: HandState) -> dict:
    """The names the hold and `must_bid` see: the highest bid and its bidder."""
    return {"highest_bidder": state.auction.taker, "highest_bid": state.auction.contract}


def _open(state: HandState, contract: Contract, seat: int, jump: int = 0) -> bool:
    if contract.open_to is None:
        return True
    taker = state.auction.taker
    bidder = -1 if taker is None else taker  # no seat before any bid
    scope = {"player": seat, "jump": jump, "highest_bidder": bidder}
    return bool(contract.open_to(state._scope(scope)))


def _force(state: HandState, bidding: Bidding) -> None:
    """The contract played when every seat passed, with its taker if it names one."""
    forced = bidding.all_passed
    assert forced is not None  # asked for only where the ruleset names one
    state.auction.contract = forced.contract
    if forced.taker is not None:
        state.auction.taker = first_seat(state, forced.taker, "the forced contract's `taker`")
    state._changed()


def bid(state: HandState, decision: Decision, action: Bid | Hold | JoinBid | Pass) -> None:
    bidding = state.ruleset.bidding
    assert bidding is not None  # only a ruleset with an auction asks for bids
    if len(state.auction.bidders) == 1 and bidding.rounds == UNTIL_ONE_LEFT:
        state.auction.last_word_spoken = True  # the only seat left has spoken
    seat = state.auction.bidders.pop(0)
    standing = (
        ""
        if state.auction.contract is None
        else action_text(
            Hold(state.auction.contract) if state.auction.bid_held else Bid(state.auction.contract),
            state.ruleset.deck,
        )
    )
    jump = state.auction.bid_jumps.get(action.contract, 0) if isinstance(action, Bid) else 0
    state.auction.log.append(AuctionEntry(seat, not isinstance(action, Pass), jump, standing))
    if isinstance(action, Pass):
        return  # a seat that passed does not speak again
    if isinstance(action, JoinBid):  # on the bidder's side; it speaks no more
        state.auction.joined.append(seat)
        state._changed()
        return
    if state.auction.joined:  # the joins to the bid passed fall with it
        state.auction.joined.clear()
        state._changed()
    state.auction.taker, state.auction.contract = decision.seat, action.contract
    state.auction.bids_made[seat] += 1
    state.auction.bid_held = isinstance(action, Hold)
    if state.auction.stage == AuctionStage.ALL_PASSED:
        state.auction.bidders.clear()  # the first to take a contract offered then has it
    elif bidding.rounds == UNTIL_ONE_LEFT:
        state.auction.bidders.append(seat)


def join(state: HandState, decision: Decision, answer: Join) -> None:
    state.auction.bidders.pop(0)
    if answer.joins:
        state.auction.joined.append(decision.seat)
        state._changed()


def decide_call(state: HandState) -> bool:
    """The taker's call of a card whose holder becomes the partner, when the ruleset has one
    and its condition holds."""
    call = state.ruleset.partner_call
    if call is None or state.auction.called_card is not None or state.auction.taker is None:
        return False
    scope = state._scope({})
    if not call.when(scope):
        return False
    callable_cards = sorted(call.cards(scope))
    if not callable_cards:
        return False
    cards = state.ruleset.deck.cards
    choices = [cards[c].id for c in callable_cards]
    state.decision = Decision(state.auction.taker, DecisionKind.CALL, callable_cards, choices)
    return True


def call(state: HandState, _decision: Decision, card: int) -> None:
    state.auction.called_card = card
    state.auction.partner = state.called_card_holder()
