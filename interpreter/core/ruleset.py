"""The compiled form of a ruleset: what the engine runs.

Made by `tarot.compile.ruleset_compiler` once, at load time: every expression is already
a Python callable, every card set a frozenset of card indexes, every option resolved. The
engine reads these tables and never looks at YAML again.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from tarot.core.cards import Deck
from tarot.core.flow import FlowStep
from tarot.core.rule_index import RuleIndex
from tarot.core.vocabulary import PAYMENTS_READ_BY
from tarot.expressions.builtins import Number
from tarot.expressions.types import CompiledExpression

#: the key a hand score is measured under, beside the ids of the rules that pay
HAND_SCORE = "hand_score"

Evaluator = Callable[..., Any]  # a CompiledExpression: called with a Scope


@dataclass(frozen=True)
class PacketStep:
    rounds: int
    dealer: int
    others: int
    talon: int = 0  # cards laid in the talon each round
    talon_after: int = 0  # ... after this many players' packets of the round
    piles: int = 0  # each player gets one card on each of this many piles of his, per round


@dataclass(frozen=True)
class TalonPackets:
    """The talon laid out face up in `count` packets, of which the talon's seat takes
    `choose` (0: none); the packets left go to `rest_to`."""

    count: int
    choose: int
    rest_to: str  # "tricks" (those of the first seat of `rest_seat`) or "out_of_play"
    rest_seat: Evaluator | None
    # a packet `player` may not take while another may be taken (sees `packet_cards`)
    forbidden: Evaluator | None = None


@dataclass(frozen=True)
class TalonShares:
    """The talon shared out into hands: `first` cards to the talon's seat, then `others` at a
    time to each other seat in turn, from the seat's next, until it is gone."""

    first: Evaluator  # how many the talon's seat takes
    others: int


@dataclass(frozen=True)
class TalonTake:
    """Cards of a kind a seat takes from the talon into its hand, then lays away as many."""

    seat: Evaluator  # who takes (a seat or seats: the first one)
    cards: Evaluator  # the cards that may be taken
    end: str  # "top" or "bottom": the end of the talon looked at first
    in_a_row: bool  # only those at that end, up to the first card not of the kind
    shown: bool  # the cards taken are shown to all


@dataclass(frozen=True)
class TalonUse:
    """Where the talon goes once the deal (and any auction) is over."""

    to: str  # "hand", "pile", "out_of_play", "stock" (drawn from after each trick) or
    # "trick_winners" (its top cards to each trick's winner)
    seat: Evaluator | None  # whose hand or pile (a seat or seats: the first one)
    shown: bool
    packets: TalonPackets | None = None  # laid out in packets, some chosen: what `to` takes
    per_trick: int = 1  # with "trick_winners": the cards each trick's winner takes
    shares: TalonShares | None = None  # with "hand": shared out among the seats
    takes: tuple[TalonTake, ...] = ()  # cards of a kind taken first, in this order
    ends_hand: Evaluator | None = None  # once the seat has its cards: the hand ends, settled
    # the seat the talon's cards left on the table score for, named once play is over
    scored_by: Evaluator | None = None


@dataclass(frozen=True)
class Contract:
    id: str
    name: str
    values: dict[str, Number]
    talon: TalonUse | None
    source: str
    open_to: Evaluator | None = None  # whether `player` may bid it (None: every seat)
    only_when_all_passed: bool = False  # offered only once every seat has passed
    join: Evaluator | None = None  # seats asked whether they join the taker's side
    #: when they may: "auction_end" (asked once it is won) or "bidding" (the standing bid)
    join_at: str = "auction_end"
    join_needed: bool = False  # the bid counts only if another seat joins it
    play: PlayRules | None = None  # its own play rules (None: the ruleset's)


@dataclass(frozen=True)
class ForcedContract:
    """The contract played when every seat passes, and its taker (None: no taker)."""

    contract: str
    taker: Evaluator | None


@dataclass(frozen=True)
class CompulsoryContract:
    """A contract played without an auction when `when` holds at its start, with its taker
    (None: no taker)."""

    contract: str
    when: Evaluator
    taker: Evaluator | None
    source: str


@dataclass(frozen=True)
class Bidding:
    contracts: tuple[Contract, ...]  # lowest first
    source: str
    rounds: str = "once"  # "once" (each seat speaks once) or "until_one_left"
    winner_may_raise: bool = False  # until_one_left: the seat left keeps or raises its bid
    first: Evaluator | None = None  # the seat that speaks first (None: the dealer's next)
    hold: Evaluator | None = None  # seats that may take the highest bid at the same level
    must_bid: Evaluator | None = None  # seats that may not pass while they may bid or hold
    all_passed: ForcedContract | None = None  # None: a deal where all pass is thrown in
    compulsory: tuple[CompulsoryContract, ...] = ()  # looked at before the first bid

    @cached_property
    def after_all_passed(self) -> tuple[Contract, ...]:
        """The contracts offered only once every seat has passed."""
        return tuple(c for c in self.contracts if c.only_when_all_passed)

    @cached_property
    def ranks(self) -> dict[str, int]:
        """Each contract's place in the bidding order, from 0 for the lowest."""
        return {contract.id: rank for rank, contract in enumerate(self.contracts)}

    def rank(self, contract_id: str) -> int:
        """The contract's place in the bidding order, from 0 for the lowest."""
        return self.ranks[contract_id]

    def contract(self, contract_id: str) -> Contract:
        return self.contracts[self.rank(contract_id)]


@dataclass(frozen=True)
class DoubleTarget:
    """Something the sides may double and double again: the contract, a bonus..."""

    id: str
    name: str
    when: Evaluator  # whether it may be doubled in this hand
    by: Evaluator | None  # the seats that may make the first doubling (and the third...)
    against: Evaluator | None  # those that may answer it (None: every other seat)
    source: str
    #: an announcement's id: doubled only once it is announced; `by` None: the seats not on
    #: its first announcer's side
    announcement: str | None = None


@dataclass(frozen=True)
class Announcement:
    """A bonus a seat may announce before play, binding itself to try for it."""

    id: str
    name: str
    when: Evaluator  # whether it may be announced in this hand
    by: Evaluator | None  # the seats that may announce it (None: every seat)
    keeps: Evaluator | None  # cards the announcer must keep for the last trick
    source: str


@dataclass(frozen=True)
class Announcements:
    """Announcements before play: each seat in turn, from `first`, announces as many of the
    bonuses open to it as it likes, one at a time, then passes."""

    table: tuple[Announcement, ...]
    first: Evaluator | None  # the seat that speaks first (None: the taker, else the dealer's next)
    source: str
    #: `once`: each seat speaks once; `until_all_pass`: the turn comes round again until every
    #: seat has passed in turn since the last announcement or doubling
    rounds: str = "once"
    #: the seats that speak again once a bonus is announced (sees `player`, the announcer)
    reopen: Evaluator | None = None


@dataclass(frozen=True)
class Doubling:
    """Doublings before play: each target in turn, the two sides taking turns to double."""

    steps: tuple[str, ...]  # the name of each doubling in turn (the most there can be)
    factor: Number  # what each doubling multiplies by
    targets: tuple[DoubleTarget, ...]
    source: str
    #: the doublings are made in the round of announcements, not in a phase of their own
    with_announcements: bool = False
    #: `repeat.step`: the name of each doubling past the last of `steps` (None: no more)
    repeat: str | None = None
    #: `repeat.limit`: the most doublings a target may have in all (None: no cap but the
    #: numbers' range)
    limit: Evaluator | None = None


@dataclass(frozen=True)
class PartnerCall:
    """The taker names a card; its holder becomes his hidden partner."""

    when: Evaluator
    cards: Evaluator
    source: str
    after_discards: bool = False  # `after: discards`: the call follows the talon and discards


@dataclass(frozen=True)
class RedealRule:
    id: str
    name: str
    when: Evaluator
    choice: bool  # True: the player may ask for the redeal; False: it is automatic
    source: str
    agreed_by: Evaluator | None = None  # seats that must all agree to it (None: nobody asked)


@dataclass(frozen=True)
class ExcuseExchange:
    """The Fool kept from a trick the other side won is paid for with a card of `cards`."""

    cards: Evaluator
    unpaid: str  # "nothing" or "fool_surrendered"
    taken_from: str = "pile"  # "pile" (tricks, then discards, then talon) or "tricks"


@dataclass(frozen=True)
class PaymentRule:
    id: str
    name: str
    on: str  # the event that fires it, or "settlement"
    when: Evaluator | None
    payers: Evaluator
    payees: Evaluator
    amount: Evaluator
    source: str
    assumption: str | None = None
    options: tuple[str, ...] = ()  # the options its expressions read


@dataclass(frozen=True)
class DeclarationLevel:
    id: str
    when: Evaluator
    value: Evaluator
    options: tuple[str, ...] = ()  # the options its condition and value read
    shows: Evaluator | None = None  # the cards this level shows, if not the declaration's
    show_count: Evaluator | None = None  # how many of them: the declarer picks which


@dataclass(frozen=True)
class HandOver:
    """Cards another player must hand the declarer, each for one the declarer gives back."""

    cards: Evaluator  # the cards asked for (those in another player's hand are handed over)
    in_return: Evaluator  # the declarer's cards he may give back for each
    named: bool = False  # the declarer names one card of `cards` (a decision), not all of them
    told: bool = True  # the cards handed over are shown to all


@dataclass(frozen=True)
class Declaration:
    id: str
    name: str
    levels: tuple[DeclarationLevel, ...]
    shows: Evaluator | None
    payers: Evaluator
    payees: Evaluator
    source: str
    timing: str | None = None  # overrides the section's timing
    paid_when_declared: bool = True
    options: tuple[str, ...] = ()  # the options read outside its levels (shows, from, to)
    hands_over: HandOver | None = None
    compulsory: bool = False  # declared by the rules whenever a level holds, never asked
    # every level's condition and value depend on the declarer's own cards alone (his hand,
    # discards and cards played: `expressions.dependence`): the engine may reuse them
    on_own_cards: bool = False


@dataclass(frozen=True)
class Definition:
    """A named definition as compiled (before the engine's once-per-state remembering): a
    second back end compiles its expression's text again in its own way."""

    name: str
    expression: CompiledExpression  # its value
    of_seat: str | None = None  # the seat variable's name, for a definition of a seat


@dataclass(frozen=True)
class FirstDealerDraw:
    """The first dealer drawn for: each seat draws a card, `rank` numbers it (seeing `player`
    and `card`), and the highest (`lowest`: the lowest) deals; seats tied draw again."""

    rank: Evaluator
    lowest: bool
    source: str


@dataclass(frozen=True)
class SitOut:
    """More seats at the table than play a hand: `in_hand` play, and the others sit it out,
    `seats` giving them (seeing `dealer`, and `seats` and `players` of the whole table; None:
    the dealer); they take no part in the payments, or a defender's share of them."""

    in_hand: int
    seats: Evaluator | None
    source: str
    as_defender: bool = False  # it pays and is paid a defender's share (`pays: as_defender`)


@dataclass(frozen=True)
class GameRules:
    """A game of several hands, scored by running totals, and how it ends."""

    ends_when: Evaluator  # after a hand, with total(seat) counting it
    winners: Evaluator  # the seats that win once it has ended
    claim: Evaluator | None  # seats that may claim the game after any trick
    max_hands: int
    source: str


@dataclass(frozen=True)
class SideRule:
    """The play rules' `sides`: `value` gives the seats on the side of the seat `seat` names."""

    seat: str
    value: Evaluator


@dataclass(frozen=True)
class WinnerException:
    """A trick whose contents make another card win it: when `when` holds for the trick,
    the first card of `wins` played to it takes it."""

    id: str
    name: str
    when: Evaluator
    wins: Evaluator
    source: str


@dataclass(frozen=True)
class RankChange:
    """Cards that rank otherwise for one hand: `cards` (worked out when play begins) take
    the place `to` names ("highest_trump", "lowest_trump", "highest_in_suit" or
    "lowest_in_suit")."""

    cards: Evaluator
    to: str
    source: str


@dataclass(frozen=True)
class PlayRules:
    """How tricks are played: the ruleset's `play`, or a contract's own (its `play` laid over
    the ruleset's). Every field added since the first rulesets defaults to the old behaviour."""

    first_leader: str  # "after_dealer", "dealer", "taker" (the auction's winner) or "rule"
    follow_suit: bool
    trump_when_void: bool
    trump_when_trump_led: bool
    overtrump: bool
    fool_may_lead: bool
    fool_in_last_trick: str  # "captured" or "kept"
    fool_wins_last_trick_after_all: bool = False  # led to the last by a side with all others
    excuse_exchange: ExcuseExchange | None = None
    excuse_cards: Evaluator | None = None  # cards playing as the Fool in a hand (None: the Fool)
    leader: Evaluator | None = None  # who leads to the first trick, when `first_leader` is "rule"
    must_beat: bool = False  # a card that takes the lead in the trick must be played if able
    trumps_as_suit: bool = False  # trumps are a plain suit: they win only when a trump is led
    lead_forbidden: Evaluator | None = None  # cards not to be led while another may be
    held_back: Evaluator | None = None  # cards not to be played while another may be
    forced: Evaluator | None = None  # cards to be played whenever the trick rules allow one
    ends_when: Evaluator | None = None  # checked after each trick: play stops when it holds
    sides: SideRule | None = None  # the seats sharing a seat's tricks (None: from the auction)
    winner_exceptions: tuple[WinnerException, ...] = ()  # tricks another card wins
    rank_changes: tuple[RankChange, ...] = ()  # cards ranking otherwise in this hand
    pile_tops_to_hand: Evaluator | None = None  # face-up pile tops taken into the owner's hand

    @cached_property
    def restricts(self) -> bool:
        """Whether a rule of the hand narrows the legal cards beyond the trick rules."""
        return not (self.lead_forbidden is None and self.held_back is None and self.forced is None)


@dataclass(frozen=True)
class Counting:
    values: tuple[Number, ...]  # nominal value of each card index; 0 for an empty card
    group_size: int
    partial_group_credit: tuple[Number, ...]
    method: str = "groups"  # "groups" or "sum" (each card its value)
    # the values and credits times `scale`, the least common denominator of them all, as ints:
    # a pile is counted in ints and divided once (exact, and as fast as whole values)
    scale: int = 1
    scaled_values: tuple[int, ...] = ()
    scaled_credit: tuple[int, ...] = ()
    #: the values as floats, for the computer players' estimates (never for a score)
    float_values: tuple[float, ...] = ()

    @classmethod
    def of(
        cls,
        values: tuple[Number, ...],
        group_size: int,
        credit: tuple[Number, ...],
        method: str = "groups",
    ) -> Counting:
        """The counting of these values and credits, with its scaled ints worked out."""
        scale = math.lcm(*(Fraction(v).denominator for v in (*values, *credit)))
        return cls(
            values,
            group_size,
            credit,
            method,
            scale,
            tuple(int(v * scale) for v in values),
            tuple(int(v * scale) for v in credit),
            tuple(float(v) for v in values),
        )


@dataclass(frozen=True)
class ScoreUnit:
    """The unit a ruleset's results are counted in (its `unit`; points when it names none)."""

    singular: str = "point"
    plural: str = "points"

    @classmethod
    def from_spec(cls, spec: object) -> ScoreUnit:
        """The unit a ruleset's `unit` section names (the default when it names none)."""
        if not isinstance(spec, dict):
            return cls()
        return cls(str(spec.get("singular", cls.singular)), str(spec.get("plural", cls.plural)))

    def of(self, amount: Number) -> str:
        """The word for `amount` of the unit: the singular for one (or minus one)."""
        return self.singular if abs(amount) == 1 else self.plural


@dataclass(frozen=True)
class Counter:
    """A number that lasts from hand to hand: one per seat, or one for the table (an account
    is a table's counter that transfers pay into and out of)."""

    name: str
    per_seat: bool
    start: Number
    account: bool = False


@dataclass(frozen=True)
class CounterChange:
    """At the end of a hand played out, a counter set or added to (per seat: for each of
    `seats`, with `player` standing for it)."""

    id: str
    counter: str
    seats: Evaluator | None  # the seats whose counter changes (None for a table's counter)
    when: Evaluator | None
    value: Evaluator
    adds: bool  # True: the value is added; False: the counter is set to it
    source: str


@dataclass(frozen=True)
class Transfer:
    """Amounts paid by seats into an account (`pays_in`), or out of it to seats, at a moment
    of the hand: after the deal, at the settlement, or at the end of the sitting."""

    id: str
    name: str
    account: str
    at: str  # "deal", "trick", "settlement" or "sitting_end"
    seats: Evaluator
    pays_in: bool
    when: Evaluator | None
    amount: Evaluator  # worked out for each seat, `player` standing for it
    source: str


@dataclass(frozen=True)
class LastingRules:
    """State that lasts between hands: the counters, how they change, what the accounts
    receive and give."""

    counters: tuple[Counter, ...]
    changes: tuple[CounterChange, ...]
    transfers: tuple[Transfer, ...]

    def transfers_at(self, at: str) -> tuple[Transfer, ...]:
        return tuple(transfer for transfer in self.transfers if transfer.at == at)


@dataclass(frozen=True)
class ShowRule:
    """Cards laid face up for all to see, after the deal or after a trick."""

    id: str
    name: str
    after_trick: int | None  # None: right after the deal; 0: when play begins
    when: Evaluator | None
    cards: Evaluator
    source: str


@dataclass(frozen=True)
class PlayQuestion:
    """A question a seat may ask before a trick is led (who holds some cards), answered to
    all."""

    id: str
    name: str
    before_trick: int  # asked before this trick (from 1) is led
    by: Evaluator  # the seats that may ask it, in order of play from the leader
    cards: Evaluator  # the cards asked about
    when: Evaluator | None  # whether it may be asked in this hand
    source: str


@dataclass
class Ruleset:
    """Everything the engine needs, precomputed."""

    id: str
    title: str
    path: str
    content_hash: str
    players: int
    direction: str
    deck: Deck
    first_dealer: int
    next_dealer: str
    redeal_by: str  # after a deal is thrown in: "next_dealer" (next hand) or "same_dealer"
    cut_shown: bool
    packets: tuple[PacketStep, ...]
    discard_counts: tuple[int, int]  # (dealer, others)
    discard_forbidden: Evaluator | None  # allowed only when nothing else can go
    discard_never: Evaluator | None  # never allowed while another card can go
    discard_shown: Evaluator | None  # shown to all when discarded
    declarations: tuple[Declaration, ...]
    declarations_maximal: bool
    declaration_timing: str
    play: PlayRules
    payments: dict[str, tuple[PaymentRule, ...]]  # by event
    settlement: tuple[PaymentRule, ...]
    counting: Counting
    talon: TalonUse | None = None  # where the talon goes when there is no auction
    bidding: Bidding | None = None
    partner_call: PartnerCall | None = None
    doubling: Doubling | None = None
    announcements: Announcements | None = None
    discard_all_or_none: Evaluator | None = None  # cards `player` discards all together or none
    discard_told: Evaluator | None = None  # cards whose count among each seat's discards is told
    first_dealer_draw: FirstDealerDraw | None = None  # the first dealer drawn for, not fixed
    discard_scored_by: Evaluator | None = None  # the seat every discard scores for, once play ends
    redeals: tuple[RedealRule, ...] = ()
    hand_score: Evaluator | None = None  # points each `player` scores in a hand
    game: GameRules | None = None
    lasting: LastingRules | None = None  # counters and accounts carried from hand to hand
    shows: tuple[ShowRule, ...] = ()  # cards shown to all after the deal or a trick
    questions: tuple[PlayQuestion, ...] = ()  # asked during play, answered to all
    sit_out: SitOut | None = None  # more seats at the table than play a hand
    flow: tuple[FlowStep, ...] = ()  # the hand's steps in order (`tarot.compile.flow`)
    unit: ScoreUnit = ScoreUnit()  # what results are counted in
    definitions: tuple[Definition, ...] = ()  # in the ruleset's order
    option_values: dict[str, object] = field(default_factory=dict)  # option -> its value
    params: dict[str, object] = field(default_factory=dict)  # parameter -> its value
    options: dict[str, str] = field(default_factory=dict)  # option -> chosen reading
    # where in the document (path parts) -> the options read there: by the expression at that
    # place (itself or through definitions), or substituted there as `{option: NAME}`
    option_reads: dict[tuple, frozenset[str]] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # source key -> citation
    document: dict = field(default_factory=dict)  # the effective document, for diffs/records
    #: The document as read (after `extends`, before the options' readings are substituted):
    #: `ruleset_loader.build_ruleset` makes the same ruleset from it without reading a file.
    written: dict = field(default_factory=dict, repr=False)
    #: The ids of items a ruleset of the `extends` chain removed, by the list's path: with
    #: `written`, what `build_ruleset` needs to check the ids facts name as loading did.
    removed: frozenset[tuple[tuple, str]] = field(default_factory=frozenset, repr=False)

    @cached_property
    def rule_index(self) -> RuleIndex:
        """The payment rules that may fire at each event, card by card."""
        return RuleIndex(self.payments, len(self.deck))

    @cached_property
    def definitions_read_payments(self) -> bool:
        """Whether a definition's value can change with a payment (it reads a seat's
        `total()`): the engine forgets remembered definitions after a payment only then."""
        return any(PAYMENTS_READ_BY in d.expression.calls for d in self.definitions)

    @cached_property
    def reused_declarations(self) -> frozenset[str]:
        """The declaration timings whose declarations the engine may work out once for a
        seat with the same cards: each depends on the declarer's own cards alone and none
        is made by the rules (which changes the hand's state)."""
        timings: dict[str, bool] = {}
        for declaration in self.declarations:
            timing = declaration.timing or self.declaration_timing
            reusable = declaration.on_own_cards and not declaration.compulsory
            timings[timing] = timings.get(timing, True) and reusable
        return frozenset(timing for timing, reusable in timings.items() if reusable)

    @cached_property
    def _rules_by_id(self) -> dict[str, PaymentRule]:
        rules = [rule for group in self.payments.values() for rule in group]
        return {rule.id: rule for rule in (*rules, *self.settlement)}

    @cached_property
    def _declarations_by_id(self) -> dict[str, Declaration]:
        return {declaration.id: declaration for declaration in self.declarations}

    def declaration(self, declaration_id: str) -> Declaration:
        """The declaration of this id (KeyError when there is none)."""
        return self._declarations_by_id[declaration_id]

    def rule(self, payment_rule: str) -> PaymentRule | Declaration | None:
        """The rule a payment names: a payment or settlement rule's id, or `id:level` for a
        declaration."""
        declaration_id, colon, _level = payment_rule.partition(":")
        if colon:
            return self._declarations_by_id.get(declaration_id)
        return self._rules_by_id.get(payment_rule)

    def rule_label(self, payment_rule: str) -> str:
        """A readable name for what a payment names: the rule's name, or "declared NAME
        (level)" for a declaration; the bare key when the ruleset has no such rule."""
        rule = self.rule(payment_rule)
        kind, _, reason = payment_rule.partition(":")
        if rule is None and self.lasting is not None:
            transfers = {transfer.id: transfer.name for transfer in self.lasting.transfers}
            if payment_rule in transfers:
                return transfers[payment_rule]
        if rule is None and payment_rule == HAND_SCORE and self.hand_score is not None:
            return "the hand's score"
        if rule is None and kind == "thrown_in":
            names = {redeal.id: redeal.name for redeal in self.redeals}
            return names.get(reason, "every player passed" if reason == "all_passed" else reason)
        if rule is None:
            return payment_rule
        _, _, level = payment_rule.partition(":")
        return f"declared {rule.name} ({level.replace('_', ' ')})" if level else rule.name

    def rule_options(self, payment_rule: str) -> tuple[str, ...]:
        """The options read by the rule a payment names (for a declaration: by the declared
        level and by the declaration's own expressions)."""
        rule = self.rule(payment_rule)
        if isinstance(rule, Declaration):
            _, _, level_id = payment_rule.partition(":")
            level = next((lv for lv in rule.levels if lv.id == level_id), None)
            return tuple(sorted({*rule.options, *(level.options if level else ())}))
        return rule.options if rule is not None else ()

    def option_readings(self) -> dict[str, tuple[str, ...]]:
        """Every option with its readings, in the order the ruleset writes them."""
        options = self.document.get("options", {})
        return {name: tuple(option.get("readings", {})) for name, option in options.items()}

    def reading_source(self, option: str) -> str:
        """The source key(s) of the reading in force for `option` ("" when none is named)."""
        return ", ".join(self._keys(option))

    def _keys(self, option: str) -> list[str]:
        reading = self.options.get(option)
        readings = self.document.get("options", {}).get(option, {}).get("readings", {})
        source = readings.get(reading, {}).get("source", [])
        return [source] if isinstance(source, str) else list(source)

    def citation(self, payment_rule: str) -> str:
        """Where a payment's rule comes from: the source of each option reading in force that
        the rule reads (`option=reading: source`), then the rule's own source when no reading
        already names it; "" when neither names one."""
        rule = self.rule(payment_rule)
        own = rule.source if rule is not None else ""
        parts = [
            f"{name}={self.options[name]}: {self.reading_source(name)}"
            for name in self.rule_options(payment_rule)
            if name in self.options
        ]
        named = {key for name in self.rule_options(payment_rule) for key in self._keys(name)}
        if own and parts and not set(own.split(", ")) <= named:
            parts.append(f"rule: {own}")
        return "; ".join(parts) if parts else own

    def play_for(self, contract: str | None) -> PlayRules:
        """The play rules of a hand under `contract` (the ruleset's when it has none of its
        own, or when no contract was won)."""
        if contract is None or self.bidding is None:
            return self.play
        own = self.bidding.contract(contract).play
        return self.play if own is None else own

    @property
    def in_hand(self) -> int:
        """How many seats play each hand: all at the table but those sitting it out."""
        return self.players if self.sit_out is None else self.sit_out.in_hand

    def discard_count(self, seat: int, dealer: int) -> int:
        return self.discard_counts[0] if seat == dealer else self.discard_counts[1]
