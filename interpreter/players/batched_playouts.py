"""The search player's play-outs as one batch: many scalar hand states, all at the same
moment of trick play, played to their end at once.

Where it sits: between the search player (`tarot.players.search_agent`, which asks for
it with `batch=auto`) and the batch back end's trick play (`tarot.batch.phases.play`).
`prepare` and `finish` judge a decision as `tarot.players.judging.play_each` does (the
same guessed deals, each action applied to a clone of each by the scalar engine), but play
each trial on with the scalar play-out policy only until it reaches trick play in a state the
batch back end can take up exactly (`batchable`), then plays all such trials of the
decision at once (`play_states`) with the card habit as array code (`habits.CardHabit`).
Trials that never get there (a ruleset or a moment the batch back end does not run) are
played out by the scalar engine as before. A card decision in trick play is judged without
clones where `forces_cards` allows: each guessed deal is laid into the batch once, a row per
action, and the batch plays the action as the row's first card. The two halves are
`prepare` (the guessed deals, the actions applied, the scalar play-out up to trick play)
and `finish` (the batch), so that the decisions of many hands can share one batch
(`tarot.players.together`): each guessed deal's random stream is keyed by its decision's
own seed, so a play-out draws the same numbers whatever it is batched with.

`from_states` lays the scalar states into one `BatchState`: every zone, the trick on the
table, the sides, the declarations, the announcements and the cards they keep back for the
last trick, the Fool's debts and the payments made so far (each seat's net starts at its
game total, so that `total()` reads as in the scalar engine, and the total is taken off
again at the end). `replay_row` plays one row's batched cards through
the scalar engine from its state, to check that a play-out agrees payment by payment.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import NamedTuple, TypeVar, cast

import numpy as np

from tarot.batch import keyed_random
from tarot.batch.habits import CardHabit
from tarot.batch.lasting_values import carry_lasting
from tarot.batch.masks import Ints, Layout, Masks
from tarot.batch.phases.declare import BEFORE_OWN_FIRST_CARD
from tarot.batch.phases.play import Resume, play
from tarot.batch.program import Program
from tarot.batch.run import program_of
from tarot.batch.scaled_amounts import unscaled
from tarot.batch.state import BatchState, Flows, sole_leaders
from tarot.batch.support import supports
from tarot.core.actions import DecisionKind
from tarot.core.ruleset import Ruleset
from tarot.engine.collector import few_collections
from tarot.engine.phases.phase import Phase
from tarot.engine.state import HandState
from tarot.expressions.numbers import approximate
from tarot.players.playouts import Policy, play_out
from tarot.players.sampling import Sampler

T = TypeVar("T")

#: the scalar play-out policies that have an array form, and the share of their card
#: choices made at random (`agents.playouts.EXPLORE`, every card for the random policy)
EXPLORE = {"greedy": 0.1, "random": 1.0}
#: the seed of the batched play-outs' card habit: each row's stream carries its own key
ROW_KEYED = 0


def runs(ruleset: Ruleset) -> bool:
    """Whether the batch back end runs the ruleset's trick play (worked out once)."""
    known = getattr(ruleset, "_batch_playouts", None)
    if known is None:
        known = not supports(ruleset)
        object.__setattr__(ruleset, "_batch_playouts", known)
    return bool(known)


def batchable(state: HandState) -> bool:
    """Whether the batch back end can take up the hand from here exactly: a card to play,
    under the hand's play rules (its contract's own, or the ruleset's) with the deck's pack
    (the batched card habit reads the deck's trumps: not trumps played as a suit), with
    nothing pending that its trick play does not know (declarations still to come before a
    first card)."""
    decision = state.decision
    if decision is None or decision.kind is not DecisionKind.PLAY or state.phase != Phase.PLAY:
        return False
    ruleset = state.ruleset
    return (
        runs(ruleset)
        and state.play.rules is ruleset.play_for(state.auction.contract)
        and state.play.trick_pack is ruleset.deck.cards
        and not state.auction.joined
        and not ruleset.questions  # a play-out's state keeps no questions' answers
        and not any(state.scores)
        and not state.declare.queue
        and not (state.play.trick_number == 1 and _declares_before_first_card(ruleset))
    )


def _declares_before_first_card(ruleset: Ruleset) -> bool:
    return any(
        (d.timing or ruleset.declaration_timing) == BEFORE_OWN_FIRST_CARD
        for d in ruleset.declarations
    )


class Trial(NamedTuple):
    """A trial waiting for its batch."""

    state: HandState
    action: int  # the index of its action among those tried
    sample: int  # its guessed deal
    stream: int  # its random stream (0 until the decision's streams are drawn)
    card: int  # the card the batch plays first for it (-1: none, the action applied)


#: when a trial's batch begins: trick number, cards on its table, whether a card is forced
Moment = tuple[int, int, bool]


@dataclass
class Pending:
    """A decision's play-outs, played by the scalar engine up to the moment the batch back
    end takes them up: `results` holds what is known (per action, per guessed deal), and
    `waiting` the trials still to play, by moment (`Moment`), each with its action's index,
    its guessed deal, its random stream and the card played first for it (`Trial`)."""

    seat: int
    explore: float
    results: list[list[float]]
    waiting: dict[Moment, list[Trial]]
    #: which hand of its unit the decision is in, from 0 (a sitting's later hands count
    #: up: `agents.together.staged`), so that the earlier hands' play-outs are played first
    stage: int = 0


def prepare(
    state: HandState,
    seat: int,
    rollout: str,
    policy: Policy,
    rng: random.Random,
    samples: int,
    only: Sequence[int] | None = None,
    sampler: Sampler | None = None,
) -> Pending:
    """A decision judged as `judging.play_each` judges it, up to its batch: the guessed
    deals dealt, each action applied and played on until trick play can be batched.
    `finish` plays the rest, for one decision or for the decisions of many hands at once.
    `only`: the indexes of the actions to try (all, by default); `results` follows it.
    `sampler`: the decision's, when its deals are guessed in more than one stage."""
    decision = state.decision
    assert decision is not None  # a decision is judged only while it is open
    actions = decision.actions if only is None else [decision.actions[i] for i in only]
    sampler = sampler or Sampler(state, seat)
    results: list[list[float]] = [[0.0] * samples for _ in actions]
    waiting: dict[Moment, list[Trial]] = defaultdict(list)
    with few_collections():
        for sample in range(samples):
            guessed = sampler.sample(rng)
            playout_seed = rng.getrandbits(64)
            if forces_cards(guessed):  # each action a first card of the guessed deal's rows
                moment = (guessed.play.trick_number, len(guessed.zones.trick), True)
                cards = [cast(int, action) for action in actions]  # a card decision's
                waiting[moment] += [Trial(guessed, i, sample, 0, c) for i, c in enumerate(cards)]
                continue
            last = len(actions) - 1
            for index, action in enumerate(actions):
                # the last action is tried on the guessed deal itself, not on a clone of it
                trial = guessed.clone() if index < last else guessed
                trial.apply_action(action)
                if trial.decision is not None and not batchable(trial):
                    # (a play-out's stream is seeded only when it is drawn from)
                    play_out(trial, policy, random.Random(playout_seed), until=batchable)
                if trial.decision is None:
                    results[index][sample] = approximate(trial.returns()[seat])
                else:
                    moment = (trial.play.trick_number, len(trial.zones.trick), False)
                    waiting[moment].append(Trial(trial, index, sample, 0, -1))
    if waiting:
        # each guessed deal's random stream, shared by its actions and keyed by the
        # decision's seed: a row's draws do not depend on the rows it is batched with
        seed = rng.getrandbits(63)
        streams = keyed_random.words(seed, np.arange(samples), keyed_random.CHOICE, 0)
        stream_of = streams.view(np.int64).tolist()
        for group in waiting.values():
            group[:] = [trial._replace(stream=stream_of[trial.sample]) for trial in group]
    return Pending(seat, EXPLORE[rollout], results, waiting)


def forces_cards(state: HandState) -> bool:
    """Whether a card decision of `state` is judged by laying the state into the batch once
    and playing each action there as its first card: the state `batchable`, not in its last
    trick, and its play ended only by its last card (no claim of the game, no end of play
    by its play rules), so that after any card the hand is still in trick play, where the
    batch would have taken it up after the card applied by the scalar engine (a `batchable`
    state stays so through trick play: what it rules out is settled before the first card,
    or at the first trick)."""
    if not batchable(state) or state.play.trick_number >= state.play.total_tricks:
        return False
    game = state.ruleset.game
    return state.play.rules.ends_when is None and (game is None or game.claim is None)


def finish(pendings: Sequence[Pending]) -> None:
    """Play every waiting trial of `pendings` to its end and fill in their results: the
    trials of the same ruleset at the same moment with the same habit in one batch,
    whichever decision (and hand) they come from."""
    groups: dict[tuple[int, int, int, bool, float], list[tuple[Pending, Trial]]]
    groups = defaultdict(list)
    for pending in pendings:
        for moment, waiting in pending.waiting.items():
            key = (id(waiting[0].state.ruleset), *moment, pending.explore)
            groups[key].extend((pending, trial) for trial in waiting)
        pending.waiting = {}
    with few_collections():
        for (_ruleset, _trick, _played, forced, explore), group in groups.items():
            trials = [trial for _pending, trial in group]
            streams = np.array([trial.stream for trial in trials], dtype=np.int64)
            cards = np.array([trial.card for trial in trials], dtype=np.int64) if forced else None
            states = [trial.state for trial in trials]
            played = play_states(states, ROW_KEYED, streams, explore, forced=cards)
            net = unscaled(played.net, played.scale)
            seats = np.array([pending.seat for pending, _trial in group], dtype=np.int64)
            values = net[np.arange(len(group)), seats].tolist()
            for (pending, trial), value in zip(group, values, strict=True):
                pending.results[trial.action][trial.sample] = value


def play_states(
    states: Sequence[HandState],
    seed: int,
    streams: Ints,
    explore: float,
    logging: bool = False,
    forced: Ints | None = None,
) -> BatchState:
    """The hands `states` (each `batchable`, all in the same trick with as many cards on
    the table) played to their end at once by the card habit; the state's `net` is then
    each hand's final result per seat (`HandState.returns`), counted in 1/`scale` as the
    batch counts payments (`tarot.batch.scaled_amounts`). `forced`: the card each row plays
    first (`forces_cards`), before the habit's first choice; the same state may then stand
    for several rows, and is laid into the batch once."""
    program = program_of(states[0].ruleset)
    first = states[0]
    distinct, which = _read_once(states)
    batch = from_states(program, distinct, logging)
    if len(distinct) < len(states):
        batch = batch.take(which)
    resume = Resume(
        trick_number=first.play.trick_number,
        total_tricks=first.play.total_tricks,
        trick=_table(distinct, first.ruleset.in_hand)[which],
        played=len(first.zones.trick),
        forced=forced,
    )
    steps = sum(len(hand) for hand in first.zones.hands)
    steps += sum(len(pile) for piles in first.zones.piles for pile in piles)
    steps += len(first.zones.talon) if first.talon_phase.drawing else 0
    play(program, batch, CardHabit(program.tables, seed, streams, steps, explore), resume)
    batch.net -= np.array([s.totals_before for s in states], dtype=np.float64) * batch.scale
    return batch


def _side_tables(states: Sequence[HandState], players: int) -> np.ndarray:
    """Each state's sides set by rule as [states, seats, seats] (all False: none set)."""
    table = np.zeros((len(states), players, players), dtype=np.bool_)
    for row, state in enumerate(states):
        for seat, side in enumerate(state.play.side_table or ()):
            table[row, seat, list(side)] = True
    return table


def _piles(states: Sequence[HandState], players: int) -> Ints:
    """Each state's piles on the table, bottom first: [states, seats, piles, depth]."""
    count = max((len(piles) for s in states for piles in s.zones.piles), default=0)
    depth = max((len(p) for s in states for piles in s.zones.piles for p in piles), default=0)
    table = np.full((len(states), players, count, depth), -1, dtype=np.int64)
    for row, state in enumerate(states):
        for seat, piles in enumerate(state.zones.piles):
            for k, pile in enumerate(piles):
                table[row, seat, k, : len(pile)] = pile
    return table


def _stocks(states: Sequence[HandState]) -> Ints:
    """Each state's stock still to draw, or talon still to give the trick winners, top
    first: [states, cards], -1 past its last."""
    drawn = [
        s.zones.talon if s.talon_phase.drawing or s.talon_phase.per_trick else [] for s in states
    ]
    table = np.full((len(states), max(map(len, drawn), default=0)), -1, dtype=np.int64)
    for row, cards in enumerate(drawn):
        table[row, : len(cards)] = cards
    return table


def from_states(program: Program, states: Sequence[HandState], logging: bool = False) -> BatchState:
    """The scalar hand states (in trick play) as one batch state, one row each."""
    ruleset, tables = program.ruleset, program.tables
    layout, n, size = tables.layout, ruleset.players, len(states)
    cards = len(ruleset.deck)
    declarations = {d.id: i for i, d in enumerate(ruleset.declarations)}
    redeals = {r.id: i for i, r in enumerate(ruleset.redeals)}
    declared = np.zeros((size, n, len(declarations)), dtype=np.bool_)
    declared_values = np.zeros((size, n, len(declarations)))
    declared_redeals = np.zeros((size, n, len(redeals)), dtype=np.bool_)
    questions = {s.question.id: i for i, s in enumerate(ruleset.flow) if s.question is not None}
    answered = np.zeros((size, n, len(ruleset.flow)), dtype=np.bool_)
    contracts = [] if ruleset.bidding is None else [c.id for c in ruleset.bidding.contracts]
    slots = len(ruleset.deck.fools) if program.hand.excuse_cards is None else cards
    debtors = np.full((size, slots), -1, dtype=np.int64)
    creditors = debtors.copy()
    in_hand = ruleset.in_hand  # the seats that play (all but those sitting the hand out)
    winning_cards, tricks_won, last_winner = _trick_logs(states, cards // in_hand + 1, n)
    fell_at, fell_by = _fallen(states, n, cards)
    history = _auction_history(states, contracts)
    for row, state in enumerate(states):
        for seat, made in enumerate(state.declare.declared):
            for what in made:
                if what in declarations:
                    declared[row, seat, declarations[what]] = True
                if what in redeals:
                    declared_redeals[row, seat, redeals[what]] = True
                if what in questions:
                    answered[row, seat, questions[what]] = True
        for seat, values in enumerate(state.declare.values):
            for what, value in values.items():
                declared_values[row, seat, declarations[what]] = value
        for slot, (debtor, creditor) in enumerate(state.play.excuse_debts):
            debtors[row, slot], creditors[row, slot] = debtor, creditor
    scale = program.scale  # the batch counts payments in 1/scale (`batch.scaled_amounts`)
    net = np.array([[x * scale for x in s.net()] for s in states], dtype=np.float64)
    net += np.array([s.totals_before for s in states], dtype=np.float64) * scale
    batch = BatchState(
        ruleset=ruleset,
        tables=tables,
        seed=0,
        numbers=np.array([s.number for s in states], dtype=np.int64),
        dealer=np.array([s.dealer for s in states], dtype=np.int64),
        packs=_packs(states),
        hands=_seat_masks(layout, states, lambda s: s.zones.hands),
        discards=_seat_masks(layout, states, lambda s: s.zones.discards),
        won=_seat_masks(layout, states, lambda s: s.zones.won),
        played=_seat_masks(layout, states, lambda s: s.zones.played),
        net=net,
        declared=declared,
        declared_values=declared_values,
        fired=np.zeros((size, len(program.keys)), dtype=np.int32),
        paid=np.zeros((size, len(program.keys))),
        rule_keys=program.keys,
        leader=np.array([s.play.leader for s in states], dtype=np.int64),
        tricks_won=tricks_won,
        last_trick=_masks(
            layout,
            [[c for _s, c in s.play.trick_log[-1][2]] if s.play.trick_log else [] for s in states],
        ),
        last_winner=last_winner,
        talon=_masks(layout, [s.zones.talon for s in states]),
        talon_dealt=_masks(layout, [s.deal.talon_dealt for s in states]),
        set_aside=_seat_masks(layout, states, lambda s: s.zones.set_aside),
        discard_left=np.zeros((size, n), dtype=np.int64),
        told=np.array(
            [list(s.discard.told) if s.discard.told else [0] * n for s in states], dtype=np.int64
        ),
        declared_redeals=declared_redeals,
        answered=answered,
        winning_cards=winning_cards,
        trick_cards=_table(states, in_hand),
        fell_at=fell_at,
        fell_by=fell_by,
        debtors=debtors,
        creditors=creditors,
        taker=np.array(
            [-1 if s.auction.taker is None else s.auction.taker for s in states], dtype=np.int64
        ),
        partner=np.array(
            [-1 if s.auction.partner is None else s.auction.partner for s in states], dtype=np.int64
        ),
        contract=np.array(
            [
                -1 if s.auction.contract is None else contracts.index(s.auction.contract)
                for s in states
            ],
            dtype=np.int64,
        ),
        bid_first=np.array(
            [s.auction.bid_order[0] if s.auction.bid_order else 0 for s in states],
            dtype=np.int64,
        ),
        bids_made=np.array([s.auction.bids_made for s in states], dtype=np.int64),
        bid_held=np.array([s.auction.bid_held for s in states], dtype=np.bool_),
        said=history["said"],
        bid_at=history["bid_at"],
        bid_jumps=history["bid_jumps"],
        passed_at=history["passed_at"],
        passed_over=history["passed_over"],
        called=np.array(
            [-1 if s.auction.called_card is None else s.auction.called_card for s in states],
            dtype=np.int64,
        ),
        announced=_announced(states),
        kept_back=(
            _seat_masks(layout, states, _kept_back)
            if any(state.announce.kept_back for state in states)
            else layout.empty(size, n)
        ),
        announce_passes=np.array(
            [[s.announce.passes.count(seat) for seat in range(n)] for s in states], dtype=np.int64
        ),
        doubled=_doubled(states),
        thrown=np.zeros(size, dtype=np.bool_),
        ended=np.zeros(size, dtype=np.bool_),
        deals=np.ones(size, dtype=np.int64),
        excuses=_masks(layout, [s.play.excuses for s in states]),
        side_table=_side_tables(states, n),
        piles=_piles(states, n),
        stock=_stocks(states),
        # named once play is over (`scored_by`): never yet, in trick play
        discards_to=np.full(size, -1, dtype=np.int64),
        talon_to=np.full(size, -1, dtype=np.int64),
        decisions=np.zeros(size, dtype=np.int64),
        choices=np.zeros(size, dtype=np.int64),
        leaders=np.full((size, 1), -1, dtype=np.int8),  # not kept: `summarised` is False
        leading=sole_leaders(net),
        logging=logging,
        hand_score=None if program.hand_score is None else program.hand_score.fn,
        summarised=False,
        scale=scale,
    )
    carry_lasting(program, batch, states)
    if ruleset.sit_out is not None and ruleset.sit_out.as_defender:
        batch.flows = _flows(program, states)
    return batch


def _flows(program: Program, states: Sequence[HandState]) -> Flows:
    """The payments each state made so far, as the settlement of a seat sitting out as a
    defender reads them (`tarot.batch.defender_share`), counted in 1/scale."""
    flows, size = Flows(program.ruleset.players), len(states)
    flows.earlier = []
    for row, state in enumerate(states):
        made = [
            (p.rule, p.payer, p.payee, float(p.amount * program.scale), p.at)
            for p in state.payments
        ]
        flows.earlier.append(made)
        for rule, payer, payee, amount, at in made:
            rows, payers, payees = np.array([row]), np.array([payer]), np.array([payee])
            flows.add(size, program.keys[rule], at, rows, payers, payees, np.array([amount]))
    return flows


def _packs(states: Sequence[HandState]) -> Ints:
    """Each state's dealt pack: [rows, cards]. The states of a hand share their pack (a
    clone and a guessed deal keep the one dealt), so each is read once."""
    packs, which = _read_once([state.pack for state in states])
    return np.array(packs, dtype=np.int64)[which]


def _trick_logs(states: Sequence[HandState], tricks: int, players: int) -> tuple[Ints, Ints, Ints]:
    """From each state's finished tricks: the card each was won with ([rows, tricks], -1
    past them), the tricks each seat won ([rows, seats]) and the last trick's winner (-1:
    none). The states of one decision share most of their tricks (a clone shares the entries
    of its trick log), so each entry is read once."""
    size = len(states)
    winning_cards = np.full((size, tricks), -1, dtype=np.int64)
    tricks_won = np.zeros((size, players), dtype=np.int64)
    last_winner = np.full(size, -1, dtype=np.int64)
    logs = [state.play.trick_log for state in states]
    lengths = np.fromiter(map(len, logs), dtype=np.int64, count=size)
    entries = list(chain.from_iterable(logs))
    if not entries:
        return winning_cards, tricks_won, last_winner
    distinct, index = _read_once(entries)
    read = np.array(
        [
            (number, winner, next(c for s, c in trick if s == winner))
            for number, _leader, trick, winner in distinct
        ],
        dtype=np.int64,
    )
    which = read[index]
    rows = np.repeat(np.arange(size), lengths)
    winning_cards[rows, which[:, 0] - 1] = which[:, 2]
    np.add.at(tricks_won, (rows, which[:, 1]), 1)
    played = lengths > 0
    last_winner[played] = which[np.cumsum(lengths)[played] - 1, 1]
    return winning_cards, tricks_won, last_winner


def _read_once(items: Sequence[T]) -> tuple[list[T], Ints]:
    """The distinct objects of `items` (by identity, as first met) and, for each item, the
    index of its object among them: objects the states share are then read once."""
    ids = list(map(id, items))
    distinct = dict(zip(ids, items, strict=True))
    place = {key: i for i, key in enumerate(distinct)}
    index = np.fromiter(map(place.__getitem__, ids), dtype=np.int64, count=len(ids))
    return list(distinct.values()), index


def _masks(layout: Layout, piles: Sequence[Collection[int]]) -> Masks:
    """One mask per pile: [piles, words]."""
    held = np.zeros((len(piles), layout.cards), dtype=np.bool_)
    sizes = np.fromiter(map(len, piles), dtype=np.int64, count=len(piles))
    cards = np.fromiter(chain.from_iterable(piles), dtype=np.int64, count=int(sizes.sum()))
    held[np.repeat(np.arange(len(piles)), sizes), cards] = True
    return layout.from_bools(held)


def _seat_masks(
    layout: Layout, states: Sequence[HandState], zone: Callable[[HandState], list[list[int]]]
) -> Masks:
    """A per-seat zone of each state as masks: [rows, seats, words]."""
    piles = list(chain.from_iterable(map(zone, states)))
    return _masks(layout, piles).reshape(len(states), -1, layout.words)


def _kept_back(state: HandState) -> list[list[int]]:
    """The cards each seat keeps back for the last trick, having announced a bonus that
    keeps them (`engine.phases.announce.keep_back`)."""
    kept = state.announce.kept_back
    return [sorted(kept.get(seat, ())) for seat in range(state.ruleset.players)]


def _announced(states: Sequence[HandState]) -> Ints:
    """[rows, seats, bonuses]: when each seat announced each bonus, from 1 (0: it did not)."""
    ruleset = states[0].ruleset
    table = () if ruleset.announcements is None else ruleset.announcements.table
    index = {bonus.id: i for i, bonus in enumerate(table)}
    found = np.zeros((len(states), ruleset.players, len(table)), dtype=np.int64)
    for row, state in enumerate(states):
        for said, (seat, bonus) in enumerate(state.announce.announced, 1):
            found[row, seat, index[bonus]] = said
    return found


def _doubled(states: Sequence[HandState]) -> Ints:
    """[rows, targets]: how many times each target was doubled."""
    doubling = states[0].ruleset.doubling
    targets = () if doubling is None else doubling.targets
    return np.array(
        [[s.double.doubled.get(t.id, 0) for t in targets] for s in states], dtype=np.int64
    ).reshape(len(states), len(targets))


def _auction_history(states: Sequence[HandState], contracts: list[str]) -> dict[str, Ints]:
    """The auction's history as the batch keeps it (`BatchState.said`, `bid_at`,
    `bid_jumps`, `passed_at`, `passed_over`), from each state's log of the auction."""
    size, n = len(states), states[0].ruleset.players
    found = {name: np.zeros((size, n), dtype=np.int64) for name in ("bid_at", "bid_jumps")}
    found["passed_at"] = np.zeros((size, n), dtype=np.int64)
    found["passed_over"] = np.full((size, n), -1, dtype=np.int64)
    found["said"] = np.array([len(s.auction.log) for s in states], dtype=np.int64)
    for row, state in enumerate(states):
        for place, entry in enumerate(state.auction.log, 1):
            if entry.bid:
                found["bid_at"][row, entry.seat] = place
                found["bid_jumps"][row, entry.seat] = entry.jump
                continue
            found["passed_at"][row, entry.seat] = place
            held, _colon, name = entry.standing.rpartition(":")
            code = contracts.index(name) if name else -1
            found["passed_over"][row, entry.seat] = -2 - code if held else code
    return found


def _fallen(states: Sequence[HandState], players: int, cards: int) -> tuple[Ints, Ints]:
    """Where each card fell in each state's finished tricks (`BatchState.fell_at`) and who
    played it (`BatchState.fell_by`). The states of one decision share most of their tricks
    (as in `_trick_logs`), so each entry's cards are read once."""
    size = len(states)
    fell_at = np.zeros((size, cards), dtype=np.int64)
    fell_by = np.full((size, cards), -1, dtype=np.int64)
    logs = [state.play.trick_log for state in states]
    entries = list(chain.from_iterable(logs))
    if not entries:
        return fell_at, fell_by
    distinct, index = _read_once(entries)
    # each distinct trick's cards, laid end to end: (card, where it fell, who played it)
    fell = np.array(
        [
            (card, number * players + place, seat)
            for number, _leader, trick, _winner in distinct
            for place, (seat, card) in enumerate(trick)
        ],
        dtype=np.int64,
    ).reshape(-1, 3)
    counts = np.fromiter((len(entry[2]) for entry in distinct), dtype=np.int64)
    starts = np.cumsum(counts) - counts
    # every occurrence of a trick in a state: its row, then each of its cards
    lengths = np.fromiter(map(len, logs), dtype=np.int64, count=size)
    occurrences = counts[index]
    rows = np.repeat(np.repeat(np.arange(size), lengths), occurrences)
    offsets = np.arange(int(occurrences.sum())) - np.repeat(
        np.cumsum(occurrences) - occurrences, occurrences
    )
    which = fell[np.repeat(starts[index], occurrences) + offsets]
    fell_at[rows, which[:, 0]] = which[:, 1]
    fell_by[rows, which[:, 0]] = which[:, 2]
    return fell_at, fell_by


def _table(states: Sequence[HandState], players: int) -> Ints:
    """The cards on each state's table in the order played, -1 past them: [rows, players]."""
    trick = np.full((len(states), players), -1, dtype=np.int64)
    for row, state in enumerate(states):
        for position, (_seat, card) in enumerate(state.zones.trick):
            trick[row, position] = card
    return trick


def replay_row(state: HandState, batch: BatchState, row: int) -> HandState:
    """The cards row `row` of a logged batch played, applied to a clone of `state` (the
    scalar state that row was made from) through the scalar engine."""
    ids = state.ruleset.deck.cards.ids
    replayed = state.clone()
    for entry in batch.decision_log:
        _form, _kind, _seats, chosen = entry.what
        found = np.flatnonzero(entry.rows == row)
        if len(found):
            replayed.apply_action(ids[int(chosen[found[0]])])  # type: ignore[index]
    return replayed
