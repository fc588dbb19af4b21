"""The deal: each hand's pack shuffled by its own key, handed out packet by packet (and onto
the piles on the table, `tarot.batch.phases.piles`), the cut card shown and paid for.

Where it sits: the first batch phase (`tarot.batch.phases`); the scalar engine's is
`tarot.engine.phases.deal`.
"""

from __future__ import annotations

import numpy as np

from tarot.batch import keyed_random
from tarot.batch.lasting import pay_transfers
from tarot.batch.lasting_values import Carried
from tarot.batch.masks import Ints
from tarot.batch.phases import bidding, piles
from tarot.batch.program import Program
from tarot.batch.seating import dealt_by
from tarot.batch.state import BatchState, Flows, sole_leaders
from tarot.batch.values import Ctx
from tarot.core.flow import FlowStep
from tarot.core.ruleset import Ruleset
from tarot.engine.events import AT_CUT
from tarot.engine.first_dealer import first_dealer
from tarot.engine.lasting import DEAL


def owners(program: Program) -> Ints:
    """For each dealer, the seat each position of the pack is dealt to: [dealers, cards]."""
    ruleset = program.ruleset
    n, size = ruleset.players, len(ruleset.deck)
    table = np.full((n, size), -1, dtype=np.int64)
    for dealer in range(n):
        dealt = dealt_by(ruleset, dealer)
        for seat, packets in enumerate(dealt.packets):
            for packet in packets:
                table[dealer, packet] = seat
    return table


def dealt_places(ruleset: Ruleset, step: FlowStep) -> tuple[int, int]:
    """The places of the pack a deal step of the flow hands out: from, up to (not included)."""
    n = ruleset.in_hand  # with seats sitting out, the dealer is dealt as the others are
    sizes = [
        packet.rounds * (packet.dealer + (n - 1) * packet.others + packet.talon + n * packet.piles)
        for packet in ruleset.packets
    ]
    start = sum(sizes[: min(step.packets, default=0)])
    return start, start + sum(sizes[i] for i in step.packets)


def _dealt_by(program: Program, state_packs: Ints, dealer: Ints, step: FlowStep) -> tuple:
    """The cards a deal step hands out, per hand: each seat's [hands, seats, cards] and the
    talon's [hands, cards], as booleans by card."""
    n, size = program.ruleset.players, len(program.ruleset.deck)
    owner = np.empty(state_packs.shape, dtype=np.int64)
    np.put_along_axis(owner, state_packs, owners(program)[dealer], axis=1)
    start, end = dealt_places(program.ruleset, step)
    place = np.empty(state_packs.shape, dtype=np.int64)
    np.put_along_axis(place, state_packs, np.arange(size)[None, :], axis=1)
    now = (place >= start) & (place < end)
    held = (owner[:, None, :] == np.arange(n)[None, :, None]) & now[:, None, :]
    return held, (owner == -1) & now


def deal_more(program: Program, state: BatchState, index: int) -> None:
    """A later deal step of the flow: its packets added to the hands and the talon; the cut
    card shown once the deal is complete."""
    step = program.ruleset.flow[index]
    layout = program.tables.layout
    held, talon = _dealt_by(program, state.packs, state.dealer, step)
    state.hands = state.hands | layout.from_bools(held)
    if state.piles.shape[2]:
        laid = piles.lay(
            program.ruleset, state.packs, state.dealer, *dealt_places(program.ruleset, step)
        )
        state.piles = np.where(laid >= 0, laid, state.piles)
    if talon.any():
        state.talon = state.talon | layout.from_bools(talon)
        state.talon_dealt = state.talon.copy()
    if step.completes_deal:
        _dealt(program, state)


#: the first dealers kept per ruleset, at most (a run of sittings has a seed per sitting)
_KEPT = 1 << 16


def first_dealers(ruleset: Ruleset, seeds: int | Ints) -> int | Ints:
    """The seat that deals the first hand of the game of each seed: the ruleset's, or drawn
    for (`deal.first_dealer_draw`). The draw is the game's, made before any hand from the
    game's seed alone (`engine.first_dealer`): it is made by the scalar engine's function,
    once per seed (kept on the ruleset), not per hand."""
    if ruleset.first_dealer_draw is None:
        return ruleset.first_dealer
    known: dict[int, int] | None = getattr(ruleset, "_batch_first_dealers", None)
    if known is None:
        known = {}
        object.__setattr__(ruleset, "_batch_first_dealers", known)
    if np.ndim(seeds) == 0:
        return _drawn(ruleset, known, int(seeds))
    unique, inverse = np.unique(seeds, return_inverse=True)
    drawn = np.array([_drawn(ruleset, known, int(seed)) for seed in unique], dtype=np.int64)
    return drawn[inverse]


def _drawn(ruleset: Ruleset, known: dict[int, int], seed: int) -> int:
    if seed not in known:
        if len(known) >= _KEPT:
            known.clear()
        known[seed] = first_dealer(ruleset, seed)
    return known[seed]


def deal(
    program: Program,
    seed: int,
    numbers: Ints,
    logging: bool = False,
    again: int = 0,
    carried: Carried | None = None,
    fired: np.ndarray | None = None,
) -> BatchState:
    """The deal of hands `numbers` (the `again`-th deal again, after deals thrown in): the
    flow's first deal step (the whole deal, unless the flow deals in several steps);
    `carried`: in a sitting, what each hand starts from (its draws keyed by its own key);
    `fired`: for a deal again, the rules fired (deals thrown in among them) before it."""
    ruleset, tables = program.ruleset, program.tables
    layout, n = tables.layout, ruleset.players
    size, hands = len(ruleset.deck), len(numbers)
    if carried is None and program.lasting is not None:  # a hand alone: the start values
        start = program.lasting.layout.start(ruleset, hands)
        carried = Carried(np.zeros(0, dtype=np.int64), start, np.zeros((hands, n)))
    # hands of sittings draw from their own games' seeds
    own = None if carried is None or not carried.seeds.size else carried.seeds
    step = 1 if ruleset.next_dealer == "next" else 0
    dealer = (first_dealers(ruleset, seed if own is None else own) + step * (numbers - 1)) % n
    packs = keyed_random.permutations(seed if own is None else own, numbers, size, again)
    first = ruleset.flow[0]
    if first.completes_deal:
        owner = np.empty((hands, size), dtype=np.int64)
        np.put_along_axis(owner, packs, owners(program)[dealer], axis=1)
        held = owner[:, None, :] == np.arange(n)[None, :, None]
        talon_cards = np.take_along_axis(packs, tables.talon_places[dealer], axis=1)
        talon = np.bitwise_or.reduce(layout.from_cards(talon_cards), axis=1)
        laid = piles.lay(ruleset, packs, dealer, 0, size)
    else:
        held, talon_held = _dealt_by(program, packs, dealer, first)
        talon = layout.from_bools(talon_held)
        laid = piles.lay(ruleset, packs, dealer, *dealt_places(ruleset, first))
    declarations = len(ruleset.declarations)
    nobody = np.full(hands, -1, dtype=np.int64)
    # a debt for each card that may play as the Fool: the Fools, or any card the rule names
    slots = len(ruleset.deck.fools) if program.hand.excuse_cards is None else size
    state = BatchState(
        ruleset=ruleset,
        tables=tables,
        seed=seed,
        numbers=numbers,
        dealer=dealer,
        packs=packs,
        hands=layout.from_bools(held),
        discards=layout.empty(hands, n),
        won=layout.empty(hands, n),
        played=layout.empty(hands, n),
        net=np.zeros((hands, n)),
        declared=np.zeros((hands, n, declarations), dtype=np.bool_),
        declared_values=np.zeros((hands, n, declarations)),
        fired=(
            np.zeros((hands, len(program.keys)), dtype=np.int32) if fired is None else fired.copy()
        ),
        paid=np.zeros((hands, len(program.keys))),
        rule_keys=program.keys,
        leader=tables.seating.first_leader(dealer, ruleset.play.first_leader),
        tricks_won=np.zeros((hands, n), dtype=np.int64),
        last_trick=layout.empty(hands),
        last_winner=np.full(hands, -1, dtype=np.int64),
        talon=talon,
        talon_dealt=talon.copy(),
        set_aside=layout.empty(hands, n),
        discard_left=_discard_counts(ruleset, dealer) * tables.seating.in_play[dealer],
        told=np.zeros((hands, n), dtype=np.int64),
        declared_redeals=np.zeros((hands, n, len(ruleset.redeals)), dtype=np.bool_),
        answered=np.zeros((hands, n, len(ruleset.flow)), dtype=np.bool_),
        winning_cards=np.full((hands, size // tables.seating.in_hand + 1), -1, dtype=np.int64),
        trick_cards=np.full((hands, tables.seating.in_hand), -1, dtype=np.int64),
        fell_at=np.zeros((hands, size), dtype=np.int64),
        fell_by=np.full((hands, size), -1, dtype=np.int64),
        debtors=np.full((hands, slots), -1, dtype=np.int64),
        creditors=np.full((hands, slots), -1, dtype=np.int64),
        taker=nobody,
        partner=nobody.copy(),
        contract=nobody.copy(),
        bid_first=tables.seating.next_seats[dealer, dealer],
        bids_made=np.zeros((hands, n), dtype=np.int64),
        bid_held=np.zeros(hands, dtype=np.bool_),
        said=np.zeros(hands, dtype=np.int64),
        bid_at=np.zeros((hands, n), dtype=np.int64),
        bid_jumps=np.zeros((hands, n), dtype=np.int64),
        passed_at=np.zeros((hands, n), dtype=np.int64),
        passed_over=np.full((hands, n), -1, dtype=np.int64),
        called=nobody.copy(),
        announced=np.zeros((hands, n, _bonuses(ruleset)), dtype=np.int64),
        kept_back=layout.empty(hands, n),
        announce_passes=np.zeros((hands, n), dtype=np.int64),
        doubled=np.zeros((hands, _targets(ruleset)), dtype=np.int64),
        thrown=np.zeros(hands, dtype=np.bool_),
        ended=np.zeros(hands, dtype=np.bool_),
        deals=np.full(hands, again + 1, dtype=np.int64),
        excuses=np.repeat(tables.fools[None, :], hands, axis=0),
        side_table=np.zeros((hands, n, n), dtype=np.bool_),
        piles=laid,
        stock=np.full((hands, tables.talon_places.shape[1]), -1, dtype=np.int64),
        discards_to=np.full(hands, -1, dtype=np.int64),
        talon_to=np.full(hands, -1, dtype=np.int64),
        decisions=np.zeros(hands, dtype=np.int64),
        choices=np.zeros(hands, dtype=np.int64),
        leaders=np.full((hands, 2 * size), -1, dtype=np.int8),
        leading=np.full(hands, -1, dtype=np.int8),  # every seat at 0: nobody leads alone
        logging=logging,
        hand_score=None if program.hand_score is None else program.hand_score.fn,
        joined=np.zeros((hands, n), dtype=np.int64),
        asker=np.full((hands, len(ruleset.questions)), -1, dtype=np.int64),
        answers=np.zeros((hands, len(ruleset.questions), n), dtype=np.bool_),
        scale=program.scale,
    )
    if ruleset.sit_out is not None and ruleset.sit_out.as_defender:
        state.flows = Flows(n)
    if carried is not None and carried.scored is None:  # no scores carried: none yet
        state.scored = np.zeros((hands, n))
    if carried is not None:
        carried.put_into(state)
        state.leading = sole_leaders(state.running(np.arange(hands)))
    bidding.first_bidders(program, state, provisional=True)
    if first.completes_deal:
        _dealt(program, state)
    if not again:  # a deal again goes on from the decisions taken before it
        state.note_leaders(np.arange(hands))
    return state


def _dealt(program: Program, state: BatchState) -> None:
    """The deal is complete: the cut card shown and paid for, then the transfers made
    after the deal (`lasting`)."""
    _cut(program, state)
    if program.lasting is not None:
        pay_transfers(program.lasting, state, DEAL, np.arange(state.size), {})


def _cut(program: Program, state: BatchState) -> None:
    """The cut card shown and paid for, once the whole deal is out."""
    if program.ruleset.cut_shown:
        rows = np.arange(state.size)
        ctx = Ctx(state, rows, {"dealer": state.dealer, "cut_card": state.packs[:, -1]})
        program.fire(state, "cut", ctx, AT_CUT)


def _bonuses(ruleset: Ruleset) -> int:
    """How many bonuses may be announced."""
    return 0 if ruleset.announcements is None else len(ruleset.announcements.table)


def _targets(ruleset: Ruleset) -> int:
    """How many targets may be doubled."""
    return 0 if ruleset.doubling is None else len(ruleset.doubling.targets)


def _discard_counts(ruleset: Ruleset, dealer: Ints) -> Ints:
    """The cards each seat lays away before any talon is taken (`Ruleset.discard_count`)."""
    dealer_count, others_count = ruleset.discard_counts
    seats = np.arange(ruleset.players)[None, :]
    return np.where(seats == dealer[:, None], dealer_count, others_count).astype(np.int64)
