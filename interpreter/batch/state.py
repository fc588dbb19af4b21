"""Many hands of one ruleset at once: every zone an array over the hands.

Where it sits: the state the batch back end's phases (`tarot.batch.phases`) change and
its expressions (`tarot.batch.array_exprs`) read. Zones are masks of shape
[hands, seats, words]; a hand's results, the rules that paid and the decisions taken are
arrays over the hands too. When the run keeps a log (`BatchState.logging`), each decision
and payment is noted per hand for the replay through the scalar engine (`agree.py`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from tarot.batch.masks import Bools, Ints, Masks
from tarot.batch.tables import DeckTables
from tarot.core.ruleset import Ruleset

Floats = npt.NDArray[np.float64]

THROWN_IN = "thrown_in"  # what `fired` calls a deal thrown in, before the reason


@dataclass
class Logged:
    """One batched decision or payment, for the hands `rows`."""

    rows: Ints
    what: tuple[
        object, ...
    ]  # (kind, seat array, choice...) or (rule key, payer, payee, amount, at)


class Flows:
    """What each rule paid in each hand at each moment, from each seat to each other (in
    1/scale; paid the other way: negative), kept where a seat sitting out settles as a
    defender (`tarot.batch.defender_share`), by rule column and moment."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.paid: dict[tuple[int, str], Floats] = {}  # [hands, payer, payee] sums
        #: with a log kept, the payments each hand made before the log it is played with
        #: began (a hand taken up from the scalar engine by the play-outs, or from a bigger
        #: state by `BatchState.take`), as `BatchState.payments_of` gives them
        self.earlier: list[list[tuple[str, int, int, float, str]]] | None = None

    def add(
        self,
        size: int,
        column: int,
        moment: str,
        rows: Ints,
        payers: Ints | Bools,
        payees: Ints | Bools,
        amounts: Floats,
    ) -> None:
        """Payments of the hands `rows` of a state of `size` hands: from the seat `payers`
        to the seat `payees` (one each per row), or, given as [rows, seats] masks, from every
        payer to every payee but himself (each `amounts` per row)."""
        sums = self.paid.get((column, moment))
        if sums is None:
            sums = self.paid[(column, moment)] = np.zeros((size, self.players, self.players))
        if np.ndim(payers) == 2:
            givers, takers = np.asarray(payers, dtype=np.bool_), np.asarray(payees, dtype=np.bool_)
            pairs = givers[:, :, None] & takers[:, None, :] & ~np.eye(self.players, dtype=bool)
            sums[rows] += pairs * np.asarray(amounts, dtype=np.float64)[:, None, None]
        else:
            at = (rows, np.asarray(payers, dtype=np.int64), np.asarray(payees, dtype=np.int64))
            np.add.at(sums, at, amounts)

    def take(self, rows: Ints) -> Flows:
        """The sums of the hands `rows` alone (`BatchState.take`)."""
        part = Flows(self.players)
        part.paid = {key: sums[rows] for key, sums in self.paid.items()}
        if self.earlier is not None:
            part.earlier = [self.earlier[row] for row in rows.tolist()]
        return part

    def put(self, rows: Ints, part: Flows, size: int) -> None:
        """Write back the sums of the hands `rows` as `part` (made by `take`) has them."""
        for key, sums in part.paid.items():
            mine = self.paid.get(key)
            if mine is None:
                mine = self.paid[key] = np.zeros((size, self.players, self.players))
            mine[rows] = sums


@dataclass
class BatchState:
    ruleset: Ruleset
    tables: DeckTables
    seed: int
    numbers: Ints  # each hand's number
    dealer: Ints
    packs: Ints  # [hands, cards]: each hand's pack, top card first
    hands: Masks
    discards: Masks
    won: Masks
    played: Masks
    net: Floats  # [hands, seats]: payments received less paid (in 1/scale, below)
    declared: Bools  # [hands, seats, declarations]
    declared_values: Floats
    fired: npt.NDArray[np.int32]  # [hands, rule keys]: times each rule paid
    paid: Floats  # [hands, rule keys]: the sum of the amounts each rule paid (in 1/scale)
    rule_keys: dict[str, int]
    leader: Ints
    tricks_won: Ints  # [hands, seats]
    last_trick: Masks  # [hands, words]: the cards of the last finished trick
    last_winner: Ints  # -1 before any trick
    talon: Masks  # [hands, words]: the talon as it lies (empty once placed)
    talon_dealt: Masks  # [hands, words]: the talon as dealt
    set_aside: Masks  # [hands, seats, words]: talon cards scoring for a seat
    discard_left: Ints  # [hands, seats]: cards each seat is still to lay away
    told: Ints  # [hands, seats]: cards of `discard.told` each laid away, told once all are done
    declared_redeals: Bools  # [hands, seats, redeal rules]: played on (a choice declared)
    answered: Bools  # [hands, seats, the flow's steps]: answered yes to the step's question
    winning_cards: Ints  # [hands, tricks]: the card that won each finished trick
    # [hands, seats]: the trick being played, its cards in the order played (-1 past them,
    # and between tricks)
    trick_cards: Ints
    # [hands, cards]: where each card fell in the finished tricks, as trick number x seats +
    # its place in the trick (0: not fallen), and the seat that played it (-1: none)
    fell_at: Ints
    fell_by: Ints
    debtors: Ints  # [hands, slots]: seats owing a card for an excused Fool (-1: none)
    creditors: Ints  # [hands, slots]: whom each is owed to
    taker: Ints  # -1: no auction, or nobody took
    partner: Ints  # -1: no partner (none called, or the taker called his own card)
    contract: Ints  # the contract's rank in the bidding order; -1 without one
    bid_first: Ints  # the seat that speaks first in the auction
    bids_made: Ints  # [hands, seats]: bids and holds each seat made in the auction
    bid_held: Bools  # the highest bid so far is a hold
    # the auction's history: words said so far, each seat's latest bid or hold (its place
    # in the auction from 1, 0: none; its jump) and latest pass (its place; the highest bid
    # it passed over, as its rank, -2 - rank for a hold, -1 for none)
    said: Ints
    bid_at: Ints
    bid_jumps: Ints
    passed_at: Ints
    passed_over: Ints
    called: Ints  # the card the taker called (-1: none)
    # [hands, seats, bonuses]: when each seat announced each bonus, counted from 1 in the
    # hand (0: it did not)
    announced: Ints
    kept_back: Masks  # [hands, seats, words]: cards each announcer keeps for the last trick
    announce_passes: Ints  # [hands, seats]: each seat's passes in the announcements so far
    doubled: Ints  # [hands, doubling targets]: how many times each was doubled
    thrown: Bools  # the deal was thrown in: the hand is over
    ended: Bools  # the talon ended the hand before play (`talon.ends_hand`): it is settled
    deals: Ints  # deals of the hand: more than one where the same dealer dealt again
    excuses: Masks  # [hands, words]: the cards that play as the Fool in each hand
    side_table: Bools  # [hands, seats, seats]: each seat's side set by rule (none: all False)
    piles: Ints  # [hands, seats, piles, depth]: piles on the table, bottom first (`phases.piles`)
    stock: Ints  # [hands, cards]: the talon as a stock, top first, -1 once drawn (`phases.stock`)
    # the seat every discard, and the seat the talon left on the table, score for where the
    # ruleset names them once play is over (`scored_by`); -1: nobody (or not named yet)
    discards_to: Ints
    talon_to: Ints
    trick_number: int = 0
    total_tricks: int = 0
    decisions: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    choices: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    leaders: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int8))
    leading: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    logging: bool = False
    #: the points each `player` scores in a hand, in rulesets that score hands (`hand_score`)
    hand_score: Callable[[Any], Any] | None = None  # a `Ctx` -> each hand's points
    settled: bool = False  # the settlement has begun: a hand's score is counted in its net
    summarised: bool = True  # False: who leads after each decision is not kept (play-outs)
    decision_log: list[Logged] = field(default_factory=list)
    payment_log: list[Logged] = field(default_factory=list)
    # hands of a sitting (`tarot.batch.sittings`): each hand's own game seed, its draws' (none:
    # the batch's `seed`), its lasting values as they stand and as the hand began, flattened as
    # `lasting_values.LastingLayout` says, the game totals before it, and whether the sitting
    # ended with it (worked out where the sitting's end pays)
    seeds: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    lasting: Floats = field(default_factory=lambda: np.zeros((0, 0)))
    lasting_before: Floats = field(default_factory=lambda: np.zeros((0, 0)))
    totals_before: Floats = field(default_factory=lambda: np.zeros((0, 0)))
    # [hands, seats]: the hand scores in the running result (in a sitting, the hands' before
    # it too), which the summaries' leaders leave out, as the scalar summary does
    scored: Floats = field(default_factory=lambda: np.zeros((0, 0)))
    sitting_over: Bools = field(default_factory=lambda: np.zeros(0, dtype=np.bool_))
    transfer_log: list[Logged] = field(default_factory=list)
    # [hands]: how many tricks each hand played, once its play is over (0: not over, or no
    # trick play), for the settlement of hands whose play ended at different tricks
    played_tricks: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    # [hands, seats]: the seats that joined the taker's side (`bidding.contracts[].join`), each
    # with its place among the joins, from 1 (0: not joined); empty in a play-out's state
    joined: Ints = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    # [hands, questions]: the seat that asked each question during play (-1: not asked), and
    # [hands, questions, seats] the seats found holding its cards (`phases.questions`)
    asker: Ints = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    answers: Bools = field(default_factory=lambda: np.zeros((0, 0, 0), dtype=np.bool_))
    # `net`, `paid`, `scored` and `totals_before` are counted in 1/scale: the payments' common
    # denominator (`tarot.batch.scaled_amounts`), 1 where every amount is held as it is
    scale: int = 1
    # where a seat sitting out settles as a defender: each rule's payments, seat to seat
    flows: Flows | None = None
    # what the array code keeps for these hands from one evaluation to the next, checked
    # against what it read (`tarot.batch.kept_definitions`)
    kept: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def take(self, rows: Ints) -> BatchState:
        """The hands `rows` as a state of their own (the hands left after some finished:
        each hand's draws are keyed by its own number, so it plays on as it would have)."""
        size = self.size
        values = {}
        for name in _PER_HAND:
            value = getattr(self, name)
            values[name] = value[rows] if value.shape[:1] == (size,) else value
        flows = None if self.flows is None else self.flows.take(rows)
        if flows is not None and self.logging:  # the log the part starts leaves these out
            before = flows.earlier or [[] for _ in range(len(rows))]
            made = zip(before, rows.tolist(), strict=True)
            flows.earlier = [[*old, *self.payments_of(row)] for old, row in made]
        logs: dict = {"decision_log": [], "payment_log": [], "transfer_log": []}
        return dataclasses.replace(self, **values, **logs, flows=flows, kept={})

    def put(self, rows: Ints, part: BatchState) -> None:
        """Write back what the hands `rows` did as the state `part` (made by `take`)."""
        for name in _PER_HAND:
            value = getattr(self, name)
            if value.shape[:1] == (self.size,):
                other = getattr(part, name)
                if other.shape[1:] != value.shape[1:]:  # grown while `part` played
                    wider = np.full((self.size, *other.shape[1:]), -1, dtype=value.dtype)
                    wider[:, : value.shape[1]] = value
                    value = wider
                    setattr(self, name, value)
                value[rows] = other
        self.decision_log += [Logged(rows[e.rows], e.what) for e in part.decision_log]
        self.payment_log += [Logged(rows[e.rows], e.what) for e in part.payment_log]
        self.transfer_log += [Logged(rows[e.rows], e.what) for e in part.transfer_log]
        self.trick_number, self.total_tricks = part.trick_number, part.total_tricks
        if self.flows is not None and part.flows is not None:
            self.flows.put(rows, part.flows, self.size)

    def payments_of(self, row: int) -> list[tuple[str, int, int, float, str]]:
        """The payments of hand `row` in the payment log, in order, as (rule, payer, payee,
        amount in 1/scale, moment)."""
        found = []
        for entry in self.payment_log:
            at = np.flatnonzero(entry.rows == row)
            if len(at):
                key, givers, takers, amounts, moment = entry.what
                i = int(at[0])
                paid = (int(givers[i]), int(takers[i]), float(amounts[i]))  # type: ignore[index]
                found.append((str(key), *paid, str(moment)))
        return found

    def names(self, rows: Ints) -> dict[str, object]:
        """The names every evaluation of the hands `rows` has: the dealer, and once an
        auction has a taker, the taker and the sides (as the scalar engine's `_scope`)."""
        found: dict[str, object] = {"dealer": self.dealer[rows]}
        if self.ruleset.bidding is not None:
            attack = self.attackers(rows)
            found.update(taker=self.taker[rows], attackers=attack, defenders=self.defenders(rows))
        return found

    def attackers(self, rows: Ints) -> Bools:
        """The taker, his partner and the seats that joined him, as [hands, seats]; nobody
        where nobody took."""
        seats = np.arange(self.players)[None, :]
        taker, partner = self.taker[rows, None], self.partner[rows, None]
        attack = (seats == taker) | (seats == partner)
        if self.joined.shape[:1] == (self.size,):
            attack |= self.joined[rows] > 0
        return attack & (taker >= 0)

    def defenders(self, rows: Ints) -> Bools:
        found = ~self.attackers(rows) & (self.taker[rows, None] >= 0)
        return found & self.in_play(rows) if self.tables.seating.sits_out else found

    def in_play(self, rows: Ints) -> Bools:
        """[hands, seats]: the seats that play each hand of `rows` (all but those sitting
        it out, `tarot.batch.seating`)."""
        return self.tables.seating.in_play[self.dealer[rows]]

    def round_from(self, rows: Ints, seats: Ints) -> Ints:
        """[hands, seats in play]: every seat in play in order of play from each hand's
        seat (from the next one in play, for a seat sitting out)."""
        return self.tables.seating.rounds[self.dealer[rows], seats]

    def next_seat(self, rows: Ints, seats: Ints) -> Ints:
        """Each hand's next seat in play after its seat."""
        return self.tables.seating.next_seats[self.dealer[rows], seats]

    def seat_order(self, rows: Ints) -> Ints:
        """[hands, seats in play]: the order each hand is dealt and bid in: every seat in
        play from the dealer's next."""
        dealer = self.dealer[rows]
        return self.round_from(rows, self.tables.seating.next_seats[dealer, dealer])

    def sides(self, rows: Ints, seats: Ints) -> Bools:
        """The seats that share each seat's tricks: its side set by rule, else the taker's
        side or the defenders' after an auction, else the seat alone (`HandState.side_of`)."""
        set_by_rule: Bools | None = None
        if sets_sides(self.ruleset):
            set_by_rule = self.side_table[rows, seats]
            if set_by_rule.any(axis=1).all():
                return set_by_rule
        own = seats[:, None] == np.arange(self.players)[None, :]
        attack = self.attackers(rows)
        in_attack = attack[np.arange(len(rows)), seats]
        side = np.where(in_attack[:, None], attack, self.defenders(rows))
        found = np.where((self.taker[rows] >= 0)[:, None], side, own)
        if self.tables.seating.sits_out:  # one sitting the hand out is alone
            out = ~self.in_play(rows)[np.arange(len(rows)), seats]
            found = np.where(out[:, None], own, found)
        if set_by_rule is None:
            return found
        return np.where(set_by_rule.any(axis=1, keepdims=True), set_by_rule, found)

    @property
    def size(self) -> int:
        return len(self.numbers)

    @property
    def players(self) -> int:
        return self.ruleset.players

    def note_leaders(self, rows: Ints) -> None:
        """After a decision of `rows`: the sole leader of each one's running result (-1 when
        the best is shared), as the scalar summary notes it."""
        if not self.summarised:
            return
        at = self.decisions[rows]
        if at.size and int(at.max()) >= self.leaders.shape[1]:
            wider = np.full((self.size, 2 * self.leaders.shape[1] + 8), -1, dtype=np.int8)
            wider[:, : self.leaders.shape[1]] = self.leaders
            self.leaders = wider
        self.leaders[rows, at] = self.leading[rows]

    def lead_changed(self, rows: Ints) -> None:
        """Payments were made in `rows`: their sole leaders again."""
        if self.summarised:
            table = self.side_table[rows] if sets_sides(self.ruleset) else None
            self.leading[rows] = sole_leaders(self.running(rows), table)

    def running(self, rows: Ints) -> Floats:
        """The running result of `rows`: the hand's net, and in a sitting the game before."""
        running = self.net[rows]
        if self.totals_before.shape[:1] == (self.size,):
            running = running + self.totals_before[rows]
        if self.scored.shape[:1] == (self.size,):  # scores are not payments: left out
            running = running - self.scored[rows]
        return running

    def seed_of(self, rows: Ints) -> int | Ints:
        """The seed the draws of the hands `rows` are keyed by (with their numbers): the
        batch's, or in sittings each hand's own (`seeds`)."""
        return self.seed if self.seeds.shape[:1] != (self.size,) else self.seeds[rows]

    def decided(self, rows: Ints, counts: Ints) -> None:
        """`rows` took one decision each, among `counts` legal choices."""
        self.decisions[rows] += 1
        self.choices[rows] += counts
        self.note_leaders(rows)


#: the fields that hold one entry per hand
_PER_HAND = tuple(
    f.name
    for f in dataclasses.fields(BatchState)
    if f.name not in ("ruleset", "tables", "seed", "rule_keys", "trick_number", "total_tricks")
    and f.name not in ("logging", "summarised", "decision_log", "payment_log", "transfer_log")
    and f.name not in ("hand_score", "settled", "scale", "flows", "kept")
)


def sets_sides(ruleset: Ruleset) -> bool:
    """Whether the ruleset's play rules, or a contract's own, set the sides by rule (worked
    out once per ruleset)."""
    known = getattr(ruleset, "_batch_sets_sides", None)
    if known is None:
        contracts = () if ruleset.bidding is None else ruleset.bidding.contracts
        plays = [ruleset.play, *(c.play for c in contracts if c.play is not None)]
        known = any(play.sides is not None for play in plays)
        object.__setattr__(ruleset, "_batch_sets_sides", known)
    return bool(known)


def sole_leaders(net: Floats, table: Bools | None = None) -> npt.NDArray[np.int8]:
    """Each hand's seat alone in the lead (-1: the best is shared); where sides are set by
    rule (`table`, [hands, seats, seats], all False where not yet), the first seat of the
    side that holds every best seat (`core.summary.leading_side`)."""
    best = net.max(axis=1, keepdims=True)
    at_best = net == best
    alone = at_best.sum(axis=1) == 1
    leaders = np.where(alone, np.argmax(at_best, axis=1), -1)
    if table is not None:
        side = table[np.arange(len(net)), np.argmax(at_best, axis=1)]  # the first best's
        whole = ~(at_best & ~side).any(axis=1)
        by_side = np.where(whole, np.argmax(side, axis=1), -1)
        leaders = np.where(side.any(axis=1), by_side, leaders)
    return leaders.astype(np.int8)
