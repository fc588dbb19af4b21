"""Playing hands in batches: the phases in order over one `BatchState`, and each hand's
`HandSummary`, the same summary the scalar engine gives.

Where it sits: called by the runner (`tarot.measure.runner`) when the batch back end
is chosen, by `agree.py` and by the benchmarks. `play_batch` plays the given hand numbers
at once; `summaries` turns the state into one `HandSummary` per hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from tarot.batch.lasting_values import Carried
from tarot.batch.masks import Ints
from tarot.batch.phases import (
    announce,
    ask,
    auction,
    bidding,
    deal,
    declare,
    discard,
    double,
    leader,
    play,
    sides,
)
from tarot.batch.program import ArrayStep, Program
from tarot.batch.scaled_amounts import unscaled
from tarot.batch.state import BatchState, sets_sides, sole_leaders
from tarot.batch.values import Ctx, Unsupported, per_row
from tarot.core.flow import Phase
from tarot.core.ruleset import Ruleset
from tarot.core.summary import HandSummary, sole_leader
from tarot.core.vocabulary import MAX_REDEALS

Steps = list[tuple[int, ArrayStep]]  # steps of the flow, each with its index

#: hands played at once by default: large enough for numpy to pay (a batch has a fixed cost of
#: a few thousand array operations, and each array operation one of its own), small enough
#: to keep a batch's arrays to some tens of megabytes
BATCH = 8192


def program_of(ruleset: Ruleset) -> Program:
    """The ruleset compiled for the batch back end, once per ruleset object."""
    cached = getattr(ruleset, "_batch_program", None)
    if cached is None:
        cached = Program.of(ruleset)
        object.__setattr__(ruleset, "_batch_program", cached)
    return cached


def play_batch(
    ruleset: Ruleset,
    seed: int,
    numbers: Sequence[int] | Ints,
    logging: bool = False,
    carried: Carried | None = None,
) -> BatchState:
    """Hands `numbers` of the game with this seed, played at once by random players, step
    by step as the ruleset's flow goes (`Ruleset.flow`; `support` refuses a flow that skips
    steps); `carried`: hands of sittings, what each starts from (`tarot.batch.sittings`)."""
    program = program_of(ruleset)
    opening, rest = _opening(program)
    numbers = np.asarray(numbers, dtype=np.int64)
    state = deal.deal(program, seed, numbers, logging, carried=carried)
    _run(program, state, opening)
    if ruleset.redeal_by == "same_dealer":
        _deal_again(program, state, opening)
    if not state.thrown.any():
        _run(program, state, rest)
        return state
    going = np.flatnonzero(~state.thrown)  # the hands whose deal stands play on alone
    part = state.take(going)
    if part.size:
        _run(program, part, rest)
    state.put(going, part)
    return state


def _opening(program: Program) -> tuple[Steps, Steps]:
    """The flow's steps (but the deal) in two parts: those after which a deal may be thrown
    in (up to the auction, or the last redeal request), and the rest."""
    steps = list(enumerate(program.hand.steps))[1:]  # the deal is dealt by `deal.deal`
    phases = [step.step.phase for _index, step in steps]
    ends = [i for i, phase in enumerate(phases) if phase in (Phase.BID, Phase.REDEAL)]
    cut = ends[-1] + 1 if ends else 0
    return steps[:cut], steps[cut:]


def _run(program: Program, state: BatchState, steps: Steps) -> None:
    """The steps, in order, for every hand of the state still on (a step after a deal
    thrown in is taken by the other hands alone), each step with a `when` by the hands
    for which it holds as the hand comes to it."""
    for index, step in steps:
        phase = step.step.phase
        if phase not in _RUNNERS:  # `support` refuses it
            raise Unsupported(f"flow: the step {step.word!r}")
        if step.step.settles_play:
            leader.settle_leader(program, state)
        taking = ~state.thrown & ~state.ended
        if step.when is not None:
            rows = np.flatnonzero(taking)
            held = per_row(step.when.fn(Ctx(state, rows, state.names(rows))), len(rows))
            taking[rows] = held.astype(np.bool_)
        if program.plays.sets_sides and index >= sides.settles_at(program.ruleset):
            sides.settle(program.plays, state, taking)
        if taking.all() or (phase in _SKIP_THROWN and step.when is None and not state.ended.any()):
            _RUNNERS[phase](program, state, index, step)
            continue
        going = np.flatnonzero(taking)
        part = state.take(going)
        if part.size:
            _RUNNERS[phase](program, part, index, step)
        state.put(going, part)


def _discard(program: Program, state: BatchState, _index: int, step: ArrayStep) -> None:
    if step.count is not None:
        discard.set_counts(step.count, state)
    discard.discard(program, state)


Runner = Callable[[Program, BatchState, int, ArrayStep], None]
#: each kind of step of the flow, as a batch phase runs it (the first deal step: `deal.deal`)
_RUNNERS: dict[Phase, Runner] = {
    Phase.DEAL: lambda program, state, i, _step: deal.deal_more(program, state, i),
    Phase.REDEAL: lambda program, state, _i, _step: auction.redeal(program, state),
    Phase.ASK: lambda _program, state, i, step: ask.ask(step, i, state),
    Phase.BID: lambda program, state, _i, step: bidding.bid(program, state, step.bidders),
    Phase.CALL: lambda program, state, _i, _step: auction.call(program, state),
    Phase.TALON: lambda program, state, _i, step: discard.place_talon(
        program, state, step.step.owes_discards
    ),
    Phase.DISCARD: _discard,
    Phase.DECLARE: lambda program, state, _i, _step: declare.before_play(program, state),
    Phase.ANNOUNCE: lambda program, state, _i, _step: announce.announce(program, state),
    Phase.DOUBLE: lambda program, state, _i, _step: double.double(program, state),
    Phase.PLAY: lambda program, state, _i, _step: play.play(program, state),
}
#: the phases that leave the hands already thrown in alone themselves
_SKIP_THROWN = frozenset({Phase.REDEAL, Phase.ASK, Phase.BID})


def _deal_again(program: Program, state: BatchState, opening: Steps) -> None:
    """Deals thrown in dealt again by the same dealer, within the hand, up to MAX_REDEALS
    times (as `engine.phases.deal.throw_in`): the decisions taken and the rules fired go on
    counting; the payments of a deal thrown in are dropped with it."""
    for again in range(1, MAX_REDEALS + 1):
        rows = np.flatnonzero(state.thrown)
        if not len(rows):
            return
        carried = _carried(state, rows)
        fresh = deal.deal(
            program,
            state.seed,
            state.numbers[rows],
            state.logging,
            again,
            carried,
            state.fired[rows],
        )
        for name in ("decisions", "choices", "leaders", "leading"):
            setattr(fresh, name, getattr(state, name)[rows])
        _run(program, fresh, opening)
        state.put(rows, fresh)


def _carried(state: BatchState, rows: Ints) -> Carried | None:
    """What the hands `rows` started from, for a deal again (None: hands alone without
    lasting state)."""
    if state.totals_before.shape[:1] != (state.size,):
        return None
    seeds = state.seeds[rows] if state.seeds.shape[:1] == (state.size,) else state.seeds[:0]
    scored = state.scored[rows] if state.scored.shape[:1] == (state.size,) else None
    return Carried(seeds, state.lasting_before[rows], state.totals_before[rows], scored)


def play_summaries(
    ruleset: Ruleset,
    seed: int,
    numbers: Sequence[int],
) -> list[HandSummary]:
    """The summaries of hands `numbers`, played BATCH at a time (`--backend auto`'s sample
    is checked by the runner, `measure.runner._Sampled`, as the chunks come back)."""
    found: list[HandSummary] = []
    numbers = list(numbers)
    for start in range(0, len(numbers), BATCH):
        found += summaries(play_batch(ruleset, seed, numbers[start : start + BATCH]))
    return found


def summaries(state: BatchState) -> list[HandSummary]:
    """Each hand's summary, as `hand_summary.play_summarized` makes it."""
    net = unscaled(state.net, state.scale)
    decisions = state.decisions
    leaders = state.leaders
    columns = np.arange(leaders.shape[1])[None, :]
    in_hand = columns <= decisions[:, None]
    best = net.max(axis=1, keepdims=True)
    alone = (net == best).sum(axis=1) == 1
    winner = np.where(alone, np.argmax(net == best, axis=1), -1)
    by_rule = sets_sides(state.ruleset)
    if by_rule:  # read by the sides set by rule where a hand has them
        winner = sole_leaders(net, state.side_table).astype(np.int64)
    # decided at: the first decision after which the winner led for good
    other = in_hand & (columns < decisions[:, None]) & (leaders != winner[:, None])
    last_other = np.where(
        other.any(axis=1), leaders.shape[1] - 1 - np.argmax(other[:, ::-1], axis=1), -1
    )
    decided_at = last_other + 1
    changes = _lead_changes(leaders, in_hand)
    keys = list(state.rule_keys)
    fired_rows, fired_keys = np.nonzero(state.fired)
    times = state.fired[fired_rows, fired_keys].tolist()
    fired: list[dict[str, int]] = [{} for _ in range(state.size)]
    for row, key, n in zip(fired_rows.tolist(), fired_keys.tolist(), times, strict=True):
        fired[row][keys[key]] = n
    paid: list[dict[str, float]] = [{} for _ in range(state.size)]
    paid_rows, paid_keys = np.nonzero(state.paid)
    amounts = unscaled(state.paid[paid_rows, paid_keys], state.scale).tolist()
    for row, key, amount in zip(paid_rows.tolist(), paid_keys.tolist(), amounts, strict=True):
        paid[row][keys[key]] = amount
    whole = net == np.floor(net)
    # a hand whose results are all whole numbers (and exact as floats) takes them as ints
    exact = whole.all(axis=1) & (np.abs(net) < 2.0**53).all(axis=1)
    counted = np.where(exact[:, None], net, 0).astype(np.int64).tolist()
    nets = [
        tuple(ints)
        if ok
        else tuple(int(v) if w else v for v, w in zip(values, wholes, strict=True))
        for ints, ok, values, wholes in zip(
            counted, exact.tolist(), net.tolist(), whole.tolist(), strict=True
        )
    ]
    winners = [None if w < 0 else w for w in winner.tolist()]
    bidding = state.ruleset.bidding
    contracts = [] if bidding is None else [c.id for c in bidding.contracts]
    sides = [
        (None, None, None) if taker < 0 else (taker, None if p < 0 else p, contracts[c])
        for taker, p, c in zip(
            state.taker.tolist(), state.partner.tolist(), state.contract.tolist(), strict=True
        )
    ]
    every = np.arange(state.size)
    playing = state.in_play(every).tolist()  # each hand's seats in play
    attack = state.attackers(every).tolist()  # each hand's taker's side
    by_sides = [
        _side_winner(hand_net, attackers, in_play) if taker is not None else None
        for hand_net, (taker, _p, _c), attackers, in_play in zip(
            nets, sides, attack, playing, strict=True
        )
    ]
    if by_rule:
        by_sides = [
            _ruled_side(table, w) if table[0, 0] else side
            for table, w, side in zip(state.side_table, winner.tolist(), by_sides, strict=True)
        ]
    return [
        HandSummary(
            number=number,
            dealer=dealer,
            net=hand_net,
            decisions=taken,
            choices=choices,
            winner=best if side is None else side[0],
            decided_at=None if best is None or (side is not None and side[0] != best) else at,
            lead_changes=changed,
            fired=rules,
            paid=amounts_paid,
            taker=taker,
            partner=partner,
            contract=contract,
            winners=(() if best is None else (best,)) if side is None else side[1],
        )
        for (
            number,
            dealer,
            hand_net,
            taken,
            choices,
            best,
            at,
            changed,
            rules,
            amounts_paid,
            (taker, partner, contract),
            side,
        ) in zip(
            state.numbers.tolist(),
            state.dealer.tolist(),
            nets,
            decisions.tolist(),
            state.choices.tolist(),
            winners,
            decided_at.tolist(),
            changes.tolist(),
            fired,
            paid,
            sides,
            by_sides,
            strict=True,
        )
    ]


def _side_winner(
    net: Sequence[float], attacking: Sequence[bool], in_play: Sequence[bool]
) -> tuple[int | None, tuple[int, ...]]:
    """The winner and winning side of a hand with a taker, read by sides as the scalar
    engine reads them (`HandState.side_of`, `core.summary.sole_leader`): the taker's side
    (`attacking`, by seat: he, his partner and the seats that joined him) against the rest
    in play, a seat sitting the hand out alone; (None, ()) when the best result is shared
    across the sides."""
    attackers = tuple(s for s, attacks in enumerate(attacking) if attacks)
    defenders = tuple(s for s in range(len(net)) if s not in attackers and in_play[s])
    sides = [
        attackers if s in attackers else defenders if in_play[s] else (s,) for s in range(len(net))
    ]
    winner = sole_leader(net, sides)
    return (None, ()) if winner is None else (winner, sides[winner])


def _ruled_side(table: np.ndarray, winner: int) -> tuple[int | None, tuple[int, ...]]:
    """The winner and winning side of a hand whose sides are set by rule ([seats, seats])."""
    if winner < 0:
        return None, ()
    return winner, tuple(np.flatnonzero(table[winner]).tolist())


def _lead_changes(leaders: np.ndarray, in_hand: np.ndarray) -> Ints:
    """Times the sole leader changed, shared leads left out (as `play_summarized` counts)."""
    valid = in_hand & (leaders >= 0)
    index = np.where(valid, np.arange(leaders.shape[1])[None, :], -1)
    previous = np.maximum.accumulate(index, axis=1)
    before = np.concatenate([np.full((len(leaders), 1), -1), previous[:, :-1]], axis=1)
    earlier = np.take_along_axis(leaders, np.maximum(before, 0), axis=1)
    changed = valid & (before >= 0) & (earlier != leaders)
    return changed.sum(axis=1)
