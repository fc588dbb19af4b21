"""One hand of a game, in the Game/State manner: current player, legal actions, apply, returns.

`HandState` deals a given pack under a compiled `Ruleset`, then asks for decisions in order
(redeal requests, bids, a partner call, discards, declarations, cards), fires the ruleset's
payment rules at each event and settles at the end. Nothing here knows a particular game:
every number, card set, contract and payment comes from the ruleset's tables and compiled
expressions. Sides (a taker and partner against defenders) come from the auction; without
one, every player is a side alone.

This module keeps the state, its public surface and the firing of payment rules; each phase
of the hand (the deal, the auction, the talon, the declarations, play, the settlement) is a
module of `tarot.engine.phases`, which also dispatches decisions and moves the hand
from phase to phase in the order the ruleset gives (`phases`).

The state is the cards (`zones`), one small object per kind of phase, kept by its module
(`deal`, `ask`, `auction`, `talon_phase`, `discard`, `declare`, `announce`, `double`,
`play`: the auction's taker and contract are `state.auction.taker` and
`state.auction.contract`, the one trick history `state.play.trick_log`), and the values of
the whole hand (the game before it, the pack, the step of the flow, the decision asked, what
was shown, decided, paid and scored). `clone()` copies the zones and each phase's object by
their own `copy()`, and names every hand-wide value it copies or shares.

The ruleset's definitions (and each seat's `total()`) are computed once per state and kept in
`memo` until the state changes: every change calls `_changed()`, which forgets them.
An expression that fails while it runs (a number out of range) stops the hand with an
EvaluationError naming the rule, the hand and the moment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tarot.core.actions import Action, Decision, DecisionKind, IllegalAction
from tarot.core.ruleset import Evaluator, PaymentRule, Ruleset
from tarot.core.vocabulary import MAX_REDEALS, TOTAL_MEMO
from tarot.engine.events import At, Payment
from tarot.engine.lasting import (
    LastingValues,
    TransferMade,
    starting_values,
)
from tarot.engine.phases import APPLY, Phase, advance, announce, auction, doubling, enter_first_step
from tarot.engine.phases.announce import AnnounceState
from tarot.engine.phases.ask import AskState
from tarot.engine.phases.auction import AuctionStage, AuctionState
from tarot.engine.phases.deal import DealState
from tarot.engine.phases.declare import HANDED_OVER, DeclareState
from tarot.engine.phases.doubling import DoubleState
from tarot.engine.phases.phase import MOMENTS
from tarot.engine.phases.play import PlayState
from tarot.engine.phases.settle import count_points
from tarot.engine.phases.talon import DiscardState, TalonState
from tarot.engine.seating import first_leader, seating_of
from tarot.engine.values import magnitude as _magnitude
from tarot.engine.values import selected_seats as _seats
from tarot.engine.values import tidy as _tidy
from tarot.engine.zone_attributes import ZoneAttributes
from tarot.engine.zones import Zones
from tarot.expressions import EvaluationError, Scope
from tarot.expressions.builtins import Number
from tarot.expressions.compiler import HAND_BUDGET
from tarot.expressions.numbers import ratio
from tarot.expressions.types import StepMeter, Value

__all__ = [
    "HANDED_OVER",
    "MAX_REDEALS",
    "Decision",
    "HandState",
    "IllegalAction",
    "Payment",
    "Phase",
    "count_points",
]
_TRICK_EVENTS = ("card_played", "trick_end")
_KIND_TEXT = {kind: kind.value for kind in DecisionKind}  # as records write each kind
#: the decisions whose round `pass_round` passes whole, and how
_PASSED_WHOLE: dict[DecisionKind, Callable[[HandState], None]] = {
    DecisionKind.ANNOUNCE: announce.all_pass,
    DecisionKind.DOUBLE: doubling.all_decline,
}
#: what a clone shares with its state, each set afresh and never changed in place: the game before
#: the hand, the deal as dealt, values worked out once a deal or a decision, the decision asked (and
#: those queued); and, inside the lists `clone` copies, the log entries, never changed once written
#: (`tests/test_clone.py` fails on anything else a clone shares)
SHARED_WITH_CLONES = (
    "totals_before",
    "lasting_before",
    "seat_order",
    "_base_vars",
    "_sides_vars",
    "decision",
    "decisions[]",
    "payments[]",
    "shown[]",
    "abandoned[]",
    "deal.hands_dealt",
    "deal.packets_dealt",
    "deal.piles_dealt",
    "deal.talon_dealt",
    "auction.bid_order",
    "auction.bid_jumps",
    "talon_phase.shared",
    "declare.queue[]",
    "play.trick_log[]",
    "play.exchanges[]",
)


class HandState(ZoneAttributes):
    """A hand from the deal to the settlement."""

    # each phase's own part of the state, kept and copied by its phase module
    deal: DealState
    ask: AskState
    auction: AuctionState
    talon_phase: TalonState  # named so beside the zone `talon`
    discard: DiscardState
    declare: DeclareState
    announce: AnnounceState
    double: DoubleState
    play: PlayState

    def __init__(
        self,
        ruleset: Ruleset,
        dealer: int,
        pack: Sequence[int],
        number: int = 1,
        totals_before: Sequence[Number] | None = None,
        repack: Callable[[int], Sequence[int]] | None = None,
        lasting: LastingValues | None = None,
        chosen: bool = False,
    ) -> None:
        """`repack(k)` gives the pack for the k-th new deal by the same dealer, in rulesets
        where a thrown-in deal is dealt again within the hand; `lasting`, the counters as
        the hand before left them (the sitting's start values when not given); `chosen`, the
        pack was made from a chosen deal (`engine.chosen_deal`), which its record asserts."""
        self.ruleset = ruleset
        self.chosen = chosen
        self.number = number
        self.dealer = dealer
        n = ruleset.players
        self.totals_before = list(totals_before or [0] * n)  # game totals before this hand
        self._repack = repack
        self.lasting_before = starting_values(ruleset, lasting)
        self.sitting_over: bool | None = None  # worked out at the end when the sitting pays
        self.abandoned: list[dict] = []  # deals thrown in and dealt again by the same dealer
        self.fired: dict[str, int] = {}  # rule (or `declaration:level`) -> times it paid
        self.memo: dict = {}  # definitions' values in the state as it stands
        # declarations that depend on a seat's own cards alone, by (seat, timing, cards):
        # kept by the hand and shared with its clones (`phases.declare._declarations_for`)
        self.declarations_seen: dict = {}
        # what each card played rules out of its player's hand, worked out once for the hand
        # and its clones (`seat_view.ruled_out_by`: a pure function of its key)
        self.ruled_out_seen: dict = {}
        self._sides_vars: tuple = (None, {})  # (taker, partner, contract), their variables
        self.keeps_log = True  # False: `decisions` is not kept (a play-out nobody records)
        self.meter = StepMeter(HAND_BUDGET)  # the steps its expressions took, deals again too
        try:
            self._start(pack)
            self._advance()
        except EvaluationError as error:
            raise self._reported(error) from None

    def _start(self, pack: Sequence[int]) -> None:
        """Everything of one deal, from the shuffled pack to the first decision."""
        ruleset, dealer, n = self.ruleset, self.dealer, self.ruleset.players
        self._changed()
        self.pack = list(pack)
        self.phase = Phase.DEAL  # (an expression choosing who sits out may fail here)
        self.seating = seating_of(ruleset, dealer)  # who plays this deal, who sits it out
        self.seat_order = list(self.seating.from_next(dealer))  # dealing and bidding order
        self.zones = Zones.empty(n)
        self.shown: list[tuple[int, str, list[int]]] = []  # (seat, what, cards shown)
        self.decisions: list[dict] = []
        self.payments: list[Payment] = []
        self.scores: list[Number] = [0] * n  # points scored in the hand (rulesets that score)
        self._points: list[Number] | None = None
        in_play = self.seating.in_play
        self._base_vars = {"seats": in_play, "dealer": dealer, "players": len(in_play)}
        self.thrown_in: str | None = None  # why the deal was abandoned, if it was
        self.step = 0  # where the hand is in the ruleset's flow (`Ruleset.flow`)
        self.phase = Phase.DEAL  # the phase of that step
        self.decision: Decision | None = None
        self.lasting = self.lasting_before.copy()  # as it stands: a new deal starts again
        self.transfers: list[TransferMade] = []  # into and out of the accounts
        # each phase's own part of the state
        cut_card = self.pack[-1] if ruleset.cut_shown and self.pack else None
        self.deal = DealState.new(n, cut_card)
        self.ask = AskState.new()
        self.auction = AuctionState.new(n)
        self.talon_phase = TalonState.new()
        self.discard = DiscardState.new(
            {s: ruleset.discard_count(s, dealer) for s in self.seat_order}
        )
        self.declare = DeclareState.new(n)
        self.announce = AnnounceState.new()
        self.double = DoubleState.new()
        leader = first_leader(self.seating, dealer, ruleset.play.first_leader)
        self.play = PlayState.new(ruleset.play, ruleset.deck.cards, leader, ruleset.deck.fools)
        auction.start(self, provisional=True)
        enter_first_step(self)

    # --- the Game/State interface --------------------------------------------------------

    def clone(self) -> HandState:
        """An independent copy to try actions on: the zones and each phase's part copied by
        their own `copy()`, the hand-wide lists copied, the rest shared (the ruleset, the
        dealt pack, values never changed in place; see `SHARED_WITH_CLONES`). Each attribute
        is named here, so one left out is missing from the clone, never shared with it."""
        other: HandState = _Unfilled()
        # the game, the hand and the deal, as they were given or dealt
        other.ruleset = self.ruleset
        other.chosen = self.chosen
        other.number = self.number
        other.dealer = self.dealer
        other.totals_before = self.totals_before
        other._repack = self._repack
        other.lasting_before = self.lasting_before
        other.keeps_log = self.keeps_log
        other.pack = self.pack
        other.seat_order = self.seat_order
        other.seating = self.seating
        other._base_vars = self._base_vars
        other.declarations_seen = self.declarations_seen  # shared on purpose: see __init__
        other.ruled_out_seen = self.ruled_out_seen
        # where the hand stands
        other.step = self.step
        other.phase = self.phase
        other.decision = self.decision
        other.thrown_in = self.thrown_in
        other.sitting_over = self.sitting_over
        other._sides_vars = self._sides_vars
        other._points = self._points
        other.memo = {}
        other.meter = self.meter.copy()
        other.zones = self.zones.copy()
        other.deal = self.deal.copy()
        other.ask = self.ask.copy()
        other.auction = self.auction.copy()
        other.talon_phase = self.talon_phase.copy()
        other.discard = self.discard.copy()
        other.declare = self.declare.copy()
        other.announce = self.announce.copy()
        other.double = self.double.copy()
        other.play = self.play.copy()
        # what the hand has said, paid and scored so far
        other.shown = list(self.shown)
        other.decisions = list(self.decisions)
        other.payments = list(self.payments)
        other.fired = dict(self.fired)
        other.scores = list(self.scores)
        other.lasting = self.lasting.copy()
        other.transfers = list(self.transfers)
        other.abandoned = list(self.abandoned)
        return other

    @property
    def tricks(self) -> list[dict]:
        """Each finished trick as records write it (built when asked: play keeps only
        `trick_log`)."""
        ids = self.ruleset.deck.cards.ids
        return [
            {
                "number": number,
                "leader": leader,
                "cards": [{"seat": seat, "card": ids[card]} for seat, card in trick],
                "winner": winner,
            }
            for number, leader, trick, winner in self.play.trick_log
        ]

    def forget_future_deals(self) -> None:
        """Make a thrown-in deal end the hand instead of being dealt again: for a guessed
        state, which must not know how the cards would fall next time."""
        self._repack = None

    def current_player(self) -> int | None:
        return None if self.decision is None else self.decision.seat

    def legal_actions(self) -> list[str]:
        """The legal actions as text, in the order the rules give them (see `legal_moves`
        for the same as typed actions)."""
        return [] if self.decision is None else list(self.decision.choices)

    def legal_moves(self) -> list[Action]:
        """The legal actions as typed values, in the order of `legal_actions`."""
        return [] if self.decision is None else list(self.decision.actions)

    def is_terminal(self) -> bool:
        return self.phase == Phase.DONE

    def returns(self) -> list[Number]:
        """Net result per seat so far, final once terminal: amounts paid and received, plus
        the points scored in rulesets that score hands."""
        return [_tidy(x) for x in self.net()]

    def net(self) -> list[Number]:
        """`returns()` before whole numbers are written as integers."""
        net = list(self.scores)
        for payment in self.payments:
            net[payment.payer] -= payment.amount
            net[payment.payee] += payment.amount
        for move in self.transfers:
            net[move.seat] -= move.amount
        return net

    def apply_action(self, action: Action | str) -> None:
        """Take one of the legal actions, typed or as its text; IllegalAction (and the state
        unchanged) for any other."""
        decision = self.decision
        if decision is None:
            raise IllegalAction("the hand is over; no more decisions are taken")
        legal: Sequence[object] = decision.choices if isinstance(action, str) else decision.actions
        try:
            index = legal.index(action)
        except ValueError:
            shown = ", ".join(decision.choices[:30])
            raise IllegalAction(
                f"seat {decision.seat} may not {decision.kind.verb} {action!r}; legal: {shown}"
            ) from None
        kind = decision.kind
        if self.keeps_log:
            self.decisions.append(
                {"seat": decision.seat, "kind": _KIND_TEXT[kind], "choice": decision.choices[index]}
            )
        self.memo.clear()  # `_changed`
        try:
            APPLY[kind](self, decision, decision.actions[index])
            advance(self)
        except EvaluationError as error:
            raise self._reported(error) from None

    def pass_round(self) -> None:
        """At an announcement or a doubling, every seat still to speak or to be asked passes
        or declines, as each would by answering so in turn, and the hand moves on to its
        next decision; what each would have been offered is not worked out. For play-outs
        whose seats decline them all (no log kept: the decisions passed are not logged)."""
        decision = self.decision
        if decision is None or decision.kind not in _PASSED_WHOLE or self.keeps_log:
            raise IllegalAction(
                "only a round of announcements or doublings, unlogged, passes whole"
            )
        self.memo.clear()  # `_changed`
        try:
            _PASSED_WHOLE[decision.kind](self)
            advance(self)
        except EvaluationError as error:
            raise self._reported(error) from None

    def remember(self, key: object, compute: Callable[..., Value], *args: object) -> Value:
        """`compute(*args)`, worked out once for the state as it stands (for definitions)."""
        memo = self.memo
        if key in memo:
            return memo[key]
        value = memo[key] = compute(*args)
        return value

    def remember_after_auction(
        self, key: object, compute: Callable[..., Value], *args: object
    ) -> Value:
        """`compute(*args)` for a definition that reads the auction's words alone (and the
        names fixed for the deal): once the auction is over, worked out once for the deal,
        kept with the auction and so shared by this state's clones; before, as `remember`."""
        auction = self.auction
        if auction.stage != AuctionStage.OVER:
            return self.remember(key, compute, *args)
        kept = auction.kept
        if key in kept:
            return kept[key]
        value = kept[key] = compute(*args)
        return value

    def _forget_totals(self) -> None:
        """A payment was made: forget what it can change (each seat's `total()`, and every
        definition when one reads a total)."""
        memo = self.memo
        if self.ruleset.definitions_read_payments:
            memo.clear()
        elif memo:
            for seat in range(self.ruleset.players):
                memo.pop((TOTAL_MEMO, seat), None)

    def _changed(self) -> None:
        """The state changed: forget every remembered definition."""
        self.memo.clear()

    def _reported(self, error: EvaluationError) -> EvaluationError:
        """An expression that failed while the hand ran, told with the hand and the moment."""
        if error.hand is None:
            error.hand = self.number
            if self.phase == Phase.PLAY:
                error.moment = f"during trick {self.play.trick_number}"
            else:
                error.moment = MOMENTS[self.phase]
        return error

    # --- sides ---------------------------------------------------------------------------

    def attackers(self) -> tuple[int, ...]:
        """The taker, his partner (when there is one) and the seats that joined him; empty
        without an auction, or under a contract without a taker."""
        auction = self.auction
        if auction.taker is None:
            return ()
        partner = auction.partner
        attack: tuple[int, ...] = (auction.taker,) if partner is None else (auction.taker, partner)
        if auction.joined:
            attack += tuple(seat for seat in auction.joined if seat not in attack)
        return attack

    def defenders(self) -> tuple[int, ...]:
        attack = self.attackers()
        if not attack:
            return ()
        return tuple(s for s in self.seating.in_play if s not in attack)

    def side_of(self, seat: int) -> tuple[int, ...]:
        """The seats that share `seat`'s tricks: its side as the play rules' `sides` give it,
        else the taker's side or the defenders' after an auction, else the seat alone."""
        if self.play.side_table is not None:
            return self.play.side_table[seat]
        attack = self.attackers()
        if not attack or seat in self.seating.out:  # one sitting the hand out is alone
            return (seat,)
        return attack if seat in attack else self.defenders()

    def contract_value(self, name: str) -> Number:
        bidding = self.ruleset.bidding
        if bidding is None or self.auction.contract is None:
            return 0
        return bidding.contract(self.auction.contract).values.get(name, 0)

    # --- moving from decision to decision, and play --------------------------------------

    def _advance(self) -> None:
        """Move on to the next decision (None once the hand is over)."""
        advance(self)

    def called_card_holder(self) -> int | None:
        """The player other than the taker holding the called card in hand, if any."""
        return self.zones.holder(self.auction.called_card, leaving_out=self.auction.taker)

    def playable(self, seat: int) -> list[int]:
        """The cards `seat` may play from: its hand and the face-up tops of its piles."""
        piles = self.zones.piles[seat]
        return (
            self.zones.hands[seat] + [pile[-1] for pile in piles if pile]
            if piles
            else list(self.zones.hands[seat])
        )

    def _trick_vars(self, seat: int, card: int) -> dict:
        if not self.ruleset.rule_index.any_for(_TRICK_EVENTS, card):
            return {"card": card}  # no rule can fire for it: the variables are never read
        return {
            "player": seat,
            "card": card,
            "trick": tuple(c for _s, c in self.zones.trick),
            "trick_number": self.play.trick_number,
            "last_trick": self.play.trick_number == self.play.total_tricks,
            "leader": self.play.leader,
        }

    # --- the end of the hand -------------------------------------------------------------

    def pile(self, seat: int) -> list[int]:
        """The cards that score for `seat`: tricks won, own discards, any talon set aside;
        where the ruleset names a seat for them once play is over (`scored_by`), every
        discard and the talon left on the table score for that seat alone, and until then
        for nobody."""
        zones, play = self.zones, self.play
        if self.ruleset.discard_scored_by is None:
            discards = zones.discards[seat]
        else:
            discards = (
                [c for own in zones.discards for c in own] if play.discards_to == seat else []
            )
        pile = zones.won[seat] + discards + zones.set_aside[seat]
        return pile + zones.talon if play.talon_to == seat else pile

    def card_points(self) -> list[Number]:
        """Card points of each seat's scoring pile as it stands (fixed once the hand is over)."""
        if self._points is not None:
            return self._points
        points = [self.count(self.pile(s)) for s in range(self.ruleset.players)]
        if self.phase == Phase.DONE:
            self._points = points
        return points

    def side_pile(self, seat: int) -> list[int]:
        """The scoring piles of `seat`'s side, pooled."""
        return [c for member in self.side_of(seat) for c in self.pile(member)]

    def side_points(self, seat: int) -> Number:
        """Card points of the pooled piles of `seat`'s side."""
        if self._points is not None and len(self.side_of(seat)) == 1:
            return self._points[seat]
        return self.count(self.side_pile(seat))

    def count(self, pile: Sequence[int]) -> Number:
        counting = self.ruleset.counting
        if counting.method == "sum":
            if counting.scale == 1:
                return sum(counting.scaled_values[c] for c in pile)
            return ratio(sum(counting.scaled_values[c] for c in pile), counting.scale)
        return count_points(counting, pile)

    def hand_score(self, seat: int) -> Number:
        """The points `seat` scores in this hand as it stands (0 in rulesets that pay)."""
        score = self.ruleset.hand_score
        return 0 if score is None else score(self._scope({"player": seat}))

    def total(self, seat: int) -> Number:
        """The seat's game total counting this hand as it stands."""
        if self.phase == Phase.DONE:
            return self.totals_before[seat] + self.returns()[seat]
        return self.totals_before[seat] + self.returns()[seat] + self.hand_score(seat)

    # --- payments ------------------------------------------------------------------------

    def evaluate(self, expression: Evaluator, variables: dict | None = None) -> Value:
        """A compiled ruleset expression evaluated on this hand as it stands."""
        try:
            return expression(self._scope(variables or {}))
        except EvaluationError as error:
            raise self._reported(error) from None

    def _scope(self, variables: dict) -> Scope:
        base = self._base_vars
        auction = self.auction
        if auction.contract is not None:  # a contract forced on all has no taker: -1, no seat
            sides = (auction.taker, auction.partner, auction.contract, len(auction.joined))
            if self._sides_vars[0] != sides:  # worked out again only when the sides change
                self._sides_vars = (
                    sides,
                    {
                        **base,
                        "taker": -1 if auction.taker is None else auction.taker,
                        "contract": auction.contract,
                        "attackers": self.attackers(),
                        "defenders": self.defenders(),
                    },
                )
            base = self._sides_vars[1]
        return Scope(self, {**base, **variables}, self.meter)

    def _fire(self, event: str, variables: dict, at: At) -> None:
        rules = self.ruleset.rule_index.rules(event, variables)
        if rules:
            self._fire_rules(rules, variables, at)

    def _fire_rules(self, rules: Sequence[PaymentRule], variables: dict, at: At) -> None:
        scope = self._scope(variables)
        for rule in rules:
            if rule.when is not None and not rule.when(scope):
                continue
            self._pay(rule.id, rule.payers(scope), rule.payees(scope), rule.amount, scope, at)

    def _pay(
        self, rule_id: str, payers: Value, payees: Value, amount: Evaluator, scope: Scope, at: At
    ) -> None:
        paid, out = False, self.seating.out  # a seat sitting the hand out neither pays nor is paid
        for payer in _seats(payers):
            for payee in _seats(payees):
                if payer == payee or payer in out or payee in out:
                    continue
                scope.vars["payer"], scope.vars["payee"] = payer, payee
                value = _tidy(amount(scope))
                if value:
                    # a negative amount is paid the other way
                    giver, taker = (payer, payee) if value > 0 else (payee, payer)
                    self.payments.append(Payment(rule_id, giver, taker, _magnitude(value), at))
                    self._forget_totals()
                    paid = True
        if paid:
            self.fired[rule_id] = self.fired.get(rule_id, 0) + 1


class _Unfilled(HandState):
    """A state made without a deal, for `clone` to fill in."""

    def __init__(self) -> None:
        pass
