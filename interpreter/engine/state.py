"""One hand of a game, in the Game/State manner: current player, legal actions, apply, returns.

`HandState` deals a given pack under a compiled `Ruleset`, then asks for decisions in order
(redeal requests, bids, a partner call, discards, declarations, cards), fires the ruleset's
payment rules at each event and settles at the end. Nothing here knows a particular game:
every number, card set, contract and payment comes from the ruleset's tables and compiled
expressions. Sides (a taker and partner against defenders) come from the auction; without
one, every player is a side alone.

The ruleset's definitions (and each seat's `total()`) are computed once per state and kept in
`memo` until the state changes: every change below calls `_changed()`, which forgets them.
An expression that fails while it runs (a number out of range) stops the hand with an
EvaluationError naming the rule, the hand and the moment.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter

from interpreter.engine import tricks as trick_rules
from interpreter.engine.actions import (
    PASS,
    Action,
    Bid,
    DecisionKind,
    Declare,
    IllegalAction,
    NoDeclaration,
    Pass,
    Redeal,
    action_text,
)
from interpreter.engine.contexts import MAX_REDEALS
from interpreter.engine.dealing import deal_packets
from interpreter.engine.events import (
    AT_CUT,
    AT_DECLARATIONS,
    AT_DISCARD,
    AT_SETTLEMENT,
    At,
    Payment,
    PaymentTime,
    ThrownIn,
)
from interpreter.engine.zones import Zones
from interpreter.expressions import EvaluationError, Scope
from interpreter.ruleset import Declaration, PaymentRule, Ruleset, TalonUse

__all__ = ["MAX_REDEALS", "Decision", "HandState", "IllegalAction", "Payment", "Phase"]

HANDED_OVER = "handed_over"  # what `shown` calls a card handed to a declarer


class Phase(StrEnum):
    """Where the hand stands; the value is the word tests and views use."""

    REDEAL = "redeal"
    BID = "bid"
    CALL = "call"
    DISCARD = "discard"
    DECLARE = "declare"
    PLAY = "play"
    DONE = "done"


_MOMENTS = {
    Phase.REDEAL: "at the deal",
    Phase.BID: "during the auction",
    Phase.CALL: "at the call",
    Phase.DISCARD: "during the discard",
    Phase.DECLARE: "during the declarations",
    Phase.DONE: "at the end of the hand",
}


class Decision:
    """A seat to choose one of `actions`; `choices` are their texts, in the same order (what
    agents are handed and records hold)."""

    __slots__ = ("seat", "kind", "actions", "choices", "declaration", "level_values")

    def __init__(
        self,
        seat: int,
        kind: DecisionKind,
        actions: list[Action],
        choices: list[str],
        declaration: Declaration | None = None,
        level_values: dict[str, float] | None = None,
    ) -> None:
        self.seat = seat
        self.kind = kind
        self.actions = actions
        self.choices = choices
        self.declaration = declaration
        self.level_values = {} if level_values is None else level_values


@dataclass
class CardChoice:
    """Cards a seat is still to pick after a declaration: `count` of `candidates` to show,
    or one to give back to `to` for a card handed over."""

    seat: int
    kind: DecisionKind  # SHOW or GIVE
    declaration: str
    candidates: list[int]
    count: int
    to: int | None = None
    chosen: list[int] = field(default_factory=list)


def _zone(name: str) -> property:
    """A zone of `Zones`, read and replaced as an attribute of the state."""
    return property(
        attrgetter(f"zones.{name}"),
        lambda state, cards: setattr(state.zones, name, cards),
        doc=f"The state's `zones.{name}`.",
    )


class HandState:
    """A hand from the deal to the settlement."""

    hands = _zone("hands")
    discards = _zone("discards")
    won = _zone("won")
    played = _zone("played")
    set_aside = _zone("set_aside")
    piles = _zone("piles")
    talon = _zone("talon")
    trick = _zone("trick")
    trick_cards = _zone("trick_cards")

    def __init__(
        self,
        ruleset: Ruleset,
        dealer: int,
        pack: Sequence[int],
        number: int = 1,
        totals_before: Sequence[float] | None = None,
        repack: Callable[[int], Sequence[int]] | None = None,
    ):
        """`repack(k)` gives the pack for the k-th new deal by the same dealer, in rulesets
        where a thrown-in deal is dealt again within the hand."""
        self.ruleset = ruleset
        self.number = number
        self.dealer = dealer
        n = ruleset.players
        self.totals_before = list(totals_before or [0] * n)  # game totals before this hand
        self._repack = repack
        self.abandoned: list[dict] = []  # deals thrown in and dealt again by the same dealer
        self.fired: dict[str, int] = {}  # rule (or `declaration:level`) -> times it paid
        self.memo: dict = {}  # definitions' values in the state as it stands
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
        self.seat_order = [(dealer + 1 + i) % n for i in range(n)]  # dealing and bidding order
        self.zones = Zones.empty(n)
        self.drawing = False  # the talon is a stock drawn from after each trick
        self.declared: list[set[str]] = [set() for _ in range(n)]
        self.declared_values: list[dict[str, float]] = [{} for _ in range(n)]
        self.shown: list[tuple[int, str, list[int]]] = []  # (seat, what, cards shown)
        self.decisions: list[dict] = []
        self.payments: list[Payment] = []
        self.tricks: list[dict] = []
        self.trick_number = 0
        self.total_tricks = 0
        self.leader = dealer if ruleset.play.first_leader == "dealer" else (dealer + 1) % n
        self.cut_card: int | None = self.pack[-1] if ruleset.cut_shown and self.pack else None
        self.taker: int | None = None
        self.contract: str | None = None
        self.called_card: int | None = None
        self.partner: int | None = None  # the called card's holder, when not the taker
        self.partner_shown_at: int | None = None  # the trick in which the called card fell
        self.thrown_in: str | None = None  # why the deal was abandoned, if it was
        self.excuse_debts: list[tuple[int, int]] = []  # (the Fool's holder, the trick's winner)
        self.exchanges: list[dict] = []  # cards handed over for the Fool
        self.scores: list[float] = [0] * n  # points scored in the hand (rulesets that score)
        self.claimed: tuple[int, ...] = ()  # seats that claimed the game during play
        self._points: list[float] | None = None
        self._base_vars = {"seats": tuple(range(n)), "dealer": dealer, "players": n}
        self._discard_left = {s: ruleset.discard_count(s, dealer) for s in self.seat_order}
        self._declare_queue: list[Decision] = []
        self._card_choices: list[CardChoice] = []  # shows and gives still to pick
        self._declared_seats: set[tuple[int, str]] = set()
        self._redeal_queue: list[tuple[int, object]] = []
        self._bidders = list(self.seat_order) if ruleset.bidding else []
        self.phase = Phase.REDEAL
        self.excuses = ruleset.deck.fools
        self.decision: Decision | None = None
        self._deal()

    # --- dealing -------------------------------------------------------------------------

    def _deal(self) -> None:
        dealt = deal_packets(self.ruleset.packets, self.pack, self.seat_order, self.dealer)
        self.packets_dealt = dealt.packets
        for seat, packets in enumerate(dealt.packets):
            self.zones.hands[seat] = [card for packet in packets for card in packet]
        self.zones.piles = dealt.piles  # face-down piles whose top card is face up and playable
        self.piles_dealt = [[list(p) for p in piles] for piles in dealt.piles]
        self.zones.talon = list(dealt.talon)
        self.talon_dealt = list(dealt.talon)
        self.hands_dealt = [list(hand) for hand in self.zones.hands]
        if self.cut_card is not None:
            self._fire("cut", {"cut_card": self.cut_card}, AT_CUT)
        for seat in self.seat_order:
            scope = self._scope({"player": seat})
            for rule in self.ruleset.redeals:
                if rule.when(scope):
                    self._redeal_queue.append((seat, rule))

    # --- the Game/State interface --------------------------------------------------------

    def clone(self) -> HandState:
        """An independent copy to try actions on (the ruleset and the dealt pack are shared,
        being never changed)."""
        other = copy.copy(self)
        other.zones = self.zones.copy()
        other.declared = [set(d) for d in self.declared]
        other.declared_values = [dict(d) for d in self.declared_values]
        other.scores = list(self.scores)
        for name in (
            "shown",
            "decisions",
            "payments",
            "tricks",
            "excuse_debts",
            "exchanges",
            "abandoned",
            "_declare_queue",
            "_redeal_queue",
            "_bidders",
        ):
            setattr(other, name, list(getattr(self, name)))
        other.fired = dict(self.fired)
        other._card_choices = [
            CardChoice(**{**vars(c), "chosen": list(c.chosen)}) for c in self._card_choices
        ]
        other.memo = {}
        other._discard_left = dict(self._discard_left)
        other._declared_seats = set(self._declared_seats)
        return other

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

    def returns(self) -> list[float]:
        """Net result per seat so far, final once terminal: marques paid and received, plus
        the points scored in rulesets that score hands."""
        net = list(self.scores)
        for payment in self.payments:
            net[payment.payer] -= payment.amount
            net[payment.payee] += payment.amount
        return [_tidy(x) for x in net]

    def apply_action(self, action: Action | str) -> None:
        """Take one of the legal actions, typed or as its text; IllegalAction (and the state
        unchanged) for any other."""
        decision = self.decision
        if decision is None:
            raise IllegalAction("the hand is over; no more decisions are taken")
        legal = decision.choices if isinstance(action, str) else decision.actions
        try:
            index = legal.index(action)
        except ValueError:
            shown = ", ".join(decision.choices[:30])
            raise IllegalAction(
                f"seat {decision.seat} may not {decision.kind} {action!r}; legal: {shown}"
            ) from None
        self.decisions.append(
            {"seat": decision.seat, "kind": decision.kind.value, "choice": decision.choices[index]}
        )
        self._changed()
        try:
            _APPLY[decision.kind](self, decision, decision.actions[index])
            self._advance()
        except EvaluationError as error:
            raise self._reported(error) from None

    def remember(self, key: object, compute: Callable[[], object]) -> object:
        """`compute()`, worked out once for the state as it stands (for definitions)."""
        memo = self.memo
        if key in memo:
            return memo[key]
        value = memo[key] = compute()
        return value

    def _changed(self) -> None:
        """The state changed: forget every remembered definition."""
        self.memo.clear()

    def _reported(self, error: EvaluationError) -> EvaluationError:
        """An expression that failed while the hand ran, told with the hand and the moment."""
        if error.hand is None:
            error.hand = self.number
            if self.phase == Phase.PLAY:
                error.moment = f"during trick {self.trick_number}"
            else:
                error.moment = _MOMENTS[self.phase]
        return error

    # --- sides ---------------------------------------------------------------------------

    def attackers(self) -> tuple[int, ...]:
        """The taker and his partner (when there is one); empty without an auction."""
        if self.taker is None:
            return ()
        return (self.taker,) if self.partner is None else (self.taker, self.partner)

    def defenders(self) -> tuple[int, ...]:
        attack = self.attackers()
        if not attack:
            return ()
        return tuple(s for s in range(self.ruleset.players) if s not in attack)

    def side_of(self, seat: int) -> tuple[int, ...]:
        """The seats that share `seat`'s tricks: its side, or the seat alone."""
        attack = self.attackers()
        if not attack:
            return (seat,)
        return attack if seat in attack else self.defenders()

    def contract_value(self, name: str) -> float:
        bidding = self.ruleset.bidding
        if bidding is None or self.contract is None:
            return 0
        return bidding.contract(self.contract).values.get(name, 0)

    # --- moving from decision to decision ------------------------------------------------

    def _advance(self) -> None:
        if self._card_choices:
            pending = self._card_choices[0]
            cards = self.ruleset.deck.cards
            left = [c for c in pending.candidates if c not in pending.chosen]
            choices = [cards[c].id for c in left]
            self.decision = Decision(pending.seat, pending.kind, left, choices)
            return
        if self.phase == Phase.REDEAL:
            if self._next_redeal():
                return
            if self.phase == Phase.DONE:
                return
            self.phase = Phase.BID if self.ruleset.bidding else Phase.DISCARD
            if self.phase == Phase.DISCARD:
                self._place_talon(self.ruleset.talon)
        if self.phase == Phase.BID:
            if self._next_bid():
                return
            if self.phase == Phase.DONE:
                return
            if self.ruleset.play.first_leader == "taker":
                self.leader = self.taker
            self.phase = Phase.CALL
        if self.phase == Phase.CALL:
            if self._call_due():
                return
            self.phase = Phase.DISCARD
            self._place_talon(self.ruleset.bidding.contract(self.contract).talon)
        if self.phase == Phase.DISCARD:
            for seat in self.seat_order:
                if self._discard_left[seat] > 0:
                    allowed = self._discard_choices(seat)
                    cards = self.ruleset.deck.cards
                    choices = [cards[c].id for c in allowed]
                    self.decision = Decision(seat, DecisionKind.DISCARD, allowed, choices)
                    return
            self.phase = Phase.DECLARE
        if self.phase == Phase.DECLARE:
            order = [(self.leader + i) % self.ruleset.players for i in range(self.ruleset.players)]
            for seat in order:
                if self._next_declaration(seat, "before_play"):
                    return
            self.phase = Phase.PLAY
            self.excuses = self._excuse_cards()
            self.total_tricks = (
                len(self.zones.hands[self.leader])
                + sum(map(len, self.zones.piles[self.leader]))
                + len(self._stock()) // self.ruleset.players
            )
            self.trick_number = 1
        if self.phase == Phase.PLAY:
            if not self._cards_left():
                self._finish()
                return
            seat = self._to_play()
            if self.trick_number == 1 and self._next_declaration(seat, "before_own_first_card"):
                return
            cards = self.ruleset.deck.cards
            playable = self.playable(seat)
            legal = trick_rules.legal_cards(
                self.ruleset.play, cards, playable, self.zones.trick, self.excuses
            )
            self.decision = Decision(seat, DecisionKind.PLAY, legal, [cards[c].id for c in legal])
            return
        self.decision = None

    def _to_play(self) -> int:
        return (self.leader + len(self.zones.trick)) % self.ruleset.players

    def _throw_in(self, reason: str | ThrownIn) -> bool:
        """Abandon the deal. True when the same dealer deals again at once (the state is
        then at the start of the new deal), False when the hand is over."""
        key = f"thrown_in:{reason}"
        self.fired[key] = self.fired.get(key, 0) + 1
        if (
            self.ruleset.redeal_by == "same_dealer"
            and self._repack is not None
            and len(self.abandoned) < MAX_REDEALS
        ):
            cards = self.ruleset.deck.cards
            self.abandoned.append(
                {
                    "pack": [cards[c].id for c in self.pack],
                    "thrown_in": str(reason),
                    "decisions": list(self.decisions),
                }
            )
            self._start(self._repack(len(self.abandoned)))
            return True
        self.thrown_in = str(reason)
        self.phase = Phase.DONE
        self.decision = None
        self._changed()
        return False

    # --- redeals -------------------------------------------------------------------------

    def _next_redeal(self) -> bool:
        """Ask the next player who may have the deal cancelled; throw it in when a rule
        cancels it by itself. False when nobody is left to ask."""
        if not self._redeal_queue:
            return False
        seat, rule = self._redeal_queue[0]
        if not rule.choice:
            if self._throw_in(rule.id):
                self._advance()
                return True
            return False
        answers: list[Action] = [Redeal(rule.id, True), Redeal(rule.id, False)]
        deck = self.ruleset.deck
        self.decision = Decision(
            seat, DecisionKind.REDEAL, answers, [action_text(a, deck) for a in answers]
        )
        return True

    def _answer_redeal(self, seat: int, answer: Redeal) -> None:
        self._redeal_queue.pop(0)
        if answer.redeal:
            self._throw_in(answer.rule)
        else:  # playing on is itself declared: rules may ask declared(seat, 'rule id')
            self.declared[seat].add(answer.rule)

    # --- the auction and the call --------------------------------------------------------

    def _next_bid(self) -> bool:
        if self._bidders:
            seat = self._bidders[0]
            contracts = self.ruleset.bidding.contracts
            lowest = 0 if self.contract is None else self.ruleset.bidding.rank(self.contract) + 1
            bids: list[Action] = [Bid(c.id) for c in contracts[lowest:]]
            bids.append(PASS)
            deck = self.ruleset.deck
            self.decision = Decision(
                seat, DecisionKind.BID, bids, [action_text(b, deck) for b in bids]
            )
            return True
        if self.taker is None and self._throw_in(ThrownIn.ALL_PASSED):
            self._advance()
            return True
        return False

    def _bid(self, seat: int, action: Bid | Pass) -> None:
        self._bidders.pop(0)
        if isinstance(action, Bid):
            self.taker, self.contract = seat, action.contract

    def _call_due(self) -> bool:
        call = self.ruleset.partner_call
        if call is None or self.called_card is not None:
            return False
        scope = self._scope({})
        if not call.when(scope):
            return False
        cards = self.ruleset.deck.cards
        callable_cards = sorted(call.cards(scope))
        if not callable_cards:
            return False
        choices = [cards[c].id for c in callable_cards]
        self.decision = Decision(self.taker, DecisionKind.CALL, callable_cards, choices)
        return True

    def _call(self, card: int) -> None:
        self.called_card = card
        self.partner = self.called_card_holder()

    def called_card_holder(self) -> int | None:
        """The player other than the taker holding the called card in hand, if any."""
        return self.zones.holder(self.called_card, leaving_out=self.taker)

    # --- the talon -----------------------------------------------------------------------

    def _place_talon(self, use: TalonUse | None) -> None:
        if not self.zones.talon or use is None or use.to == "out_of_play":
            return
        if use.to == "stock":
            self.drawing = True
            return
        seats = _seats(use.seat(self._scope({})))
        if not seats:
            error = EvaluationError("the talon's `seat` selects nobody; it must give a seat")
            error.where = getattr(use.seat, "where", "")
            raise error
        seat = seats[0]
        if use.shown:
            self.shown.append((seat, "talon", list(self.zones.talon)))
        if use.to == "hand":
            self.zones.hands[seat].extend(self.zones.talon)
            self._discard_left[seat] = self._discard_left.get(seat, 0) + len(self.zones.talon)
        else:
            self.zones.set_aside[seat].extend(self.zones.talon)
        self.zones.talon = []
        self._changed()

    # --- discards ------------------------------------------------------------------------

    def _discard_choices(self, seat: int) -> list[int]:
        hand = self.zones.hands[seat]
        scope = self._scope({"player": seat})
        allowed = hand
        for rule in (self.ruleset.discard_never, self.ruleset.discard_forbidden):
            if rule is None:
                continue
            kept = []
            for card in allowed:
                scope.vars["card"] = card
                if not rule(scope):
                    kept.append(card)
            if kept:  # when only protected cards are left, they must go after all
                allowed = kept
        return list(allowed)

    def _discard(self, seat: int, card: int) -> None:
        self.zones.hands[seat].remove(card)
        self.zones.discards[seat].append(card)
        self._discard_left[seat] -= 1
        shown = self.ruleset.discard_shown
        if shown is not None and shown(self._scope({"player": seat, "card": card})):
            self.shown.append((seat, "discard", [card]))
        self._fire("discard", {"player": seat, "card": card}, AT_DISCARD)
        if self._discard_left[seat] == 0:
            self._fire("discards_done", {"player": seat}, AT_DISCARD)

    # --- declarations --------------------------------------------------------------------

    def _next_declaration(self, seat: int, timing: str) -> bool:
        """Set the next declaration decision of `timing` for `seat`; False when it has none
        left."""
        if (seat, timing) not in self._declared_seats:
            self._declared_seats.add((seat, timing))
            self._declare_queue = self._declarations_for(seat, timing)
        if self._declare_queue and self._declare_queue[0].seat == seat:
            self.decision = self._declare_queue.pop(0)
            return True
        return False

    def _declarations_for(self, seat: int, timing: str) -> list[Decision]:
        scope = self._scope({"player": seat})
        pending = []
        for declaration in self.ruleset.declarations:
            if (declaration.timing or self.ruleset.declaration_timing) != timing:
                continue
            values = {lvl.id: lvl.value(scope) for lvl in declaration.levels if lvl.when(scope)}
            if not values:
                continue
            if self.ruleset.declarations_maximal:
                best = max(values.values())
                top = [lvl for lvl, v in values.items() if v == best][-1]
                values = {top: best}
            answers: list[Action] = [Declare(declaration.id, lvl) for lvl in values]
            answers.append(NoDeclaration(declaration.id))
            deck = self.ruleset.deck
            choices = [action_text(a, deck) for a in answers]
            pending.append(
                Decision(seat, DecisionKind.DECLARE, answers, choices, declaration, values)
            )
        return pending

    def _declare(self, decision: Decision, action: Declare | NoDeclaration) -> None:
        if isinstance(action, NoDeclaration):
            return
        declaration, level = decision.declaration, action.level
        seat = decision.seat
        self.declared[seat].add(declaration.id)
        value = decision.level_values[level]
        self.declared_values[seat][declaration.id] = value
        scope = self._scope({"player": seat})
        self._show(decision, level, self._scope({"player": seat, "level": level}))
        if not declaration.paid_when_declared:  # the ruleset's own rules use its value
            key = action_text(action, self.ruleset.deck)
            self.fired[key] = self.fired.get(key, 0) + 1
        else:
            self._pay(
                action_text(action, self.ruleset.deck),
                declaration.payers(scope),
                declaration.payees(scope),
                lambda _scope: value,
                scope,
                AT_DECLARATIONS,
            )
        if declaration.hands_over is not None:
            self._hand_over(seat, declaration, scope)
        self._changed()

    def _show(self, decision: Decision, level_id: str, scope: Scope) -> None:
        """Show the declared level's cards, or queue the declarer's pick of some of them."""
        declaration, seat = decision.declaration, decision.seat
        level = next(lvl for lvl in declaration.levels if lvl.id == level_id)
        shows = declaration.shows if level.shows is None else level.shows
        if shows is None:
            return
        cards = list(shows(scope))
        count = len(cards) if level.show_count is None else int(level.show_count(scope))
        if count >= len(cards):
            self.shown.append((seat, declaration.id, cards))
        elif count > 0:
            self._card_choices.append(
                CardChoice(seat, DecisionKind.SHOW, declaration.id, cards, count)
            )

    def _hand_over(self, seat: int, declaration: Declaration, scope: Scope) -> None:
        """Move each card asked for from another player's hand to the declarer's, and queue
        the declarer's choice of a card to give back for it."""
        rule = declaration.hands_over
        for card in rule.cards(scope):
            holder = self.zones.holder(card, leaving_out=seat)
            if holder is None:
                continue
            self.zones.hands[holder].remove(card)
            self.zones.hands[seat].append(card)
            self.shown.append((seat, f"{declaration.id}:{HANDED_OVER}", [card]))
            offered = set(rule.in_return(scope))
            candidates = [c for c in self.zones.hands[seat] if c != card and c in offered]
            if not candidates:
                candidates = [c for c in self.zones.hands[seat] if c != card]
            if candidates:  # a declarer with no other card keeps it and gives nothing back
                self._card_choices.append(
                    CardChoice(seat, DecisionKind.GIVE, declaration.id, candidates, 1, holder)
                )

    def _pick_card(self, card: int) -> None:
        pending = self._card_choices[0]
        pending.chosen.append(card)
        if pending.kind == DecisionKind.GIVE:
            self.zones.hands[pending.seat].remove(card)
            self.zones.hands[pending.to].append(card)
        if len(pending.chosen) < pending.count:
            return
        self._card_choices.pop(0)
        if pending.kind == DecisionKind.SHOW:
            self.shown.append((pending.seat, pending.declaration, list(pending.chosen)))
        self._changed()

    # --- play ----------------------------------------------------------------------------

    def _excuse_cards(self) -> frozenset[int]:
        """The cards that play as the Fool in this hand: the Fool, unless the ruleset's
        `play.excuse.cards` says otherwise for the hand as dealt and declared."""
        rule = self.ruleset.play.excuse_cards
        return self.ruleset.deck.fools if rule is None else frozenset(self.evaluate(rule))

    def _cards_left(self) -> bool:
        """Whether any card is still to be played, from a hand or a pile on the table."""
        return any(self.zones.hands) or any(map(any, self.zones.piles))

    def playable(self, seat: int) -> list[int]:
        """The cards `seat` may play from: its hand and the face-up tops of its piles."""
        return self.hands[seat] + [pile[-1] for pile in self.piles[seat] if pile]

    def _play(self, seat: int, card: int) -> None:
        if card in self.zones.hands[seat]:
            self.zones.hands[seat].remove(card)
        else:  # the top of one of its piles; the card beneath is now the face-up top
            next(pile for pile in self.zones.piles[seat] if pile and pile[-1] == card).pop()
        self.zones.trick.append((seat, card))
        self.zones.played[seat].append(card)
        if card == self.called_card and self.partner_shown_at is None:
            self.partner_shown_at = self.trick_number
        trick_vars = self._trick_vars(seat, card)
        self._fire("card_played", trick_vars, At(PaymentTime.TRICK, self.trick_number))
        if len(self.zones.trick) == self.ruleset.players:
            self._end_trick()

    def _trick_vars(self, seat: int, card: int) -> dict:
        return {
            "player": seat,
            "card": card,
            "trick": tuple(c for _s, c in self.trick),
            "trick_number": self.trick_number,
            "last_trick": self.trick_number == self.total_tricks,
            "leader": self.leader,
        }

    def _end_trick(self) -> None:
        cards = self.ruleset.deck.cards
        play = self.ruleset.play
        last = self.trick_number == self.total_tricks
        winner = trick_rules.trick_winner(cards, self.zones.trick, self.excuses)
        first_seat, first_card = self.zones.trick[0]
        if (
            last
            and play.fool_wins_last_trick_after_all
            and first_card in self.excuses
            and all(w in self.side_of(first_seat) for w, _c in self.zones.trick_cards)
        ):
            winner = first_seat
        fool_kept = not last or play.fool_in_last_trick == "kept"
        record = {
            "number": self.trick_number,
            "leader": self.leader,
            "cards": [{"seat": s, "card": cards[c].id} for s, c in self.zones.trick],
            "winner": winner,
        }
        at = At(PaymentTime.TRICK, self.trick_number)
        for seat, card in self.zones.trick:
            keeper = seat if card in self.excuses and fool_kept else winner
            self.zones.won[keeper].append(card)
            self._changed()
            if keeper != winner and play.excuse_exchange and winner not in self.side_of(keeper):
                self.excuse_debts.append((keeper, winner))
            trick_vars = self._trick_vars(seat, card)
            trick_vars.update(winner=winner, keeper=keeper)
            self._fire("trick_end", trick_vars, at)
        self.tricks.append(record)
        self.zones.trick_cards.append((winner, [c for _s, c in self.zones.trick]))
        self.zones.trick = []
        self.leader = winner
        self._draw(winner)
        self._changed()
        self._pay_excuse_debts()
        self._changed()
        self.trick_number += 1
        game = self.ruleset.game
        if game is not None and game.claim is not None and self._cards_left():
            self.claimed = tuple(_seats(game.claim(self._scope({}))))
            if self.claimed:
                self._finish()

    def _stock(self) -> list[int]:
        """The cards still to be drawn, when the talon is a stock."""
        return self.zones.talon if self.drawing else []

    def _draw(self, winner: int) -> None:
        """After a trick: each player, the winner first, draws the top card of the stock,
        while it has a card for each."""
        n = self.ruleset.players
        if self.drawing and len(self.zones.talon) >= n:
            for i in range(n):
                self.zones.hands[(winner + i) % n].append(self.zones.talon.pop(0))

    def _pay_excuse_debts(self, at_the_end: bool = False) -> None:
        """Hand over a card for each excused Fool as soon as its side has one to give. A talon
        set aside for a side is unseen until the hand is over, so it pays only `at_the_end`."""
        exchange = self.ruleset.play.excuse_exchange
        if exchange is None or not self.excuse_debts:
            return
        after_trick = self.trick_number - 1 if at_the_end else self.trick_number
        eligible = set(exchange.cards(self._scope({})))
        values = self.ruleset.counting.values
        still_owed = []
        for debtor, creditor in self.excuse_debts:
            # the side's least valuable eligible card, from its tricks before its discards
            offers = [
                (values[c], order, c, member, zone)
                for member in self.side_of(debtor)
                for order, zone in enumerate(
                    (self.zones.won[member], self.zones.discards[member])
                    + ((self.zones.set_aside[member],) if at_the_end else ())
                    if exchange.taken_from == "pile"
                    else (self.zones.won[member],)
                )
                for c in zone
                if c in eligible
            ]
            if not offers:
                still_owed.append((debtor, creditor))
                continue
            *_rank, card, giver, zone = min(offers, key=lambda offer: offer[:3])
            zone.remove(card)
            self.zones.won[creditor].append(card)
            self.exchanges.append(
                {
                    "from": giver,
                    "to": creditor,
                    "card": self.ruleset.deck.cards[card].id,
                    "after_trick": after_trick,
                }
            )
        self.excuse_debts = still_owed

    # --- the end of the hand -------------------------------------------------------------

    def pile(self, seat: int) -> list[int]:
        """The cards that score for `seat`: tricks won, own discards, any talon set aside."""
        return self.zones.won[seat] + self.zones.discards[seat] + self.zones.set_aside[seat]

    def card_points(self) -> list[float]:
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

    def side_points(self, seat: int) -> float:
        """Card points of the pooled piles of `seat`'s side."""
        if self._points is not None and len(self.side_of(seat)) == 1:
            return self._points[seat]
        return self.count(self.side_pile(seat))

    def count(self, pile: Sequence[int]) -> float:
        counting = self.ruleset.counting
        if counting.method == "sum":
            return _tidy(sum(counting.values[c] for c in pile))
        return count_points(
            counting.values, counting.group_size, counting.partial_group_credit, pile
        )

    def settlement_for(self, points: Sequence[float] | None = None) -> list[Payment]:
        """The settlement payments the ruleset makes for the hand as it stands, or for these
        card points (for checking a settlement table without playing a hand to each row)."""
        saved = self._points, self.payments, self.fired
        self._points = None if points is None else list(points)
        self.payments, self.fired = [], {}
        self._changed()
        try:
            self._fire_rules(self.ruleset.settlement, {}, AT_SETTLEMENT)
            return self.payments
        except EvaluationError as error:
            raise self._reported(error) from None
        finally:
            self._points, self.payments, self.fired = saved
            self._changed()

    def _finish(self) -> None:
        self._pay_excuse_debts(at_the_end=True)
        exchange = self.ruleset.play.excuse_exchange
        if exchange is not None and exchange.unpaid == "fool_surrendered":
            for debtor, creditor in self.excuse_debts:
                for card in [c for c in self.zones.won[debtor] if c in self.excuses]:
                    self.zones.won[debtor].remove(card)
                    self.zones.won[creditor].append(card)
        self.phase = Phase.DONE
        self.decision = None
        self._changed()
        self._fire_rules(self.ruleset.settlement, {}, AT_SETTLEMENT)
        self.scores = [_tidy(self.hand_score(seat)) for seat in range(self.ruleset.players)]
        self._changed()

    def hand_score(self, seat: int) -> float:
        """The points `seat` scores in this hand as it stands (0 in rulesets that pay)."""
        score = self.ruleset.hand_score
        return 0 if score is None else score(self._scope({"player": seat}))

    def total(self, seat: int) -> float:
        """The seat's game total counting this hand as it stands."""
        if self.phase == Phase.DONE:
            return self.totals_before[seat] + self.returns()[seat]
        return self.totals_before[seat] + self.returns()[seat] + self.hand_score(seat)

    # --- payments ------------------------------------------------------------------------

    def evaluate(self, expression, variables: dict | None = None) -> object:
        """A compiled ruleset expression evaluated on this hand as it stands."""
        try:
            return expression(self._scope(variables or {}))
        except EvaluationError as error:
            raise self._reported(error) from None

    def _scope(self, variables: dict) -> Scope:
        base = self._base_vars
        if self.taker is not None:
            base = {
                **base,
                "taker": self.taker,
                "contract": self.contract,
                "attackers": self.attackers(),
                "defenders": self.defenders(),
            }
        return Scope(self, {**base, **variables})

    def _fire(self, event: str, variables: dict, at: At) -> None:
        rules = self.ruleset.payments.get(event)
        if rules:
            self._fire_rules(rules, variables, at)

    def _fire_rules(self, rules: Sequence[PaymentRule], variables: dict, at: At) -> None:
        scope = self._scope(variables)
        for rule in rules:
            if rule.when is not None and not rule.when(scope):
                continue
            self._pay(rule.id, rule.payers(scope), rule.payees(scope), rule.amount, scope, at)

    def _pay(self, rule_id, payers, payees, amount, scope: Scope, at: At) -> None:
        paid = False
        for payer in _seats(payers):
            for payee in _seats(payees):
                if payer == payee:
                    continue
                scope.vars["payer"], scope.vars["payee"] = payer, payee
                value = _tidy(amount(scope))
                if value:
                    # a negative amount is paid the other way
                    giver, taker = (payer, payee) if value > 0 else (payee, payer)
                    self.payments.append(Payment(rule_id, giver, taker, abs(value), at))
                    self._changed()
                    paid = True
        if paid:
            self.fired[rule_id] = self.fired.get(rule_id, 0) + 1


def _seats(value) -> Sequence[int]:
    """The seats a seat expression gives, leaving out the -1 that stands for no seat (as
    `last_trick_winner()` before any trick): from or to nobody, a rule pays nothing."""
    if isinstance(value, int):
        return (value,) if value >= 0 else ()
    return value if min(value, default=0) >= 0 else [s for s in value if s >= 0]


def _tidy(number: float) -> float:
    """Whole numbers as ints, so records and reports read 3 rather than 3.0."""
    return int(number) if float(number).is_integer() else number


def count_points(
    values: Sequence[float], group_size: int, credit: Sequence[float], pile: Sequence[int]
) -> float:
    """Card points of a pile counted in groups: each group scores the values of its counting
    cards less one for each counting card, plus one; a partial group of r cards scores the
    same with `credit[r-1]` in place of the one."""
    counting = [values[c] for c in pile if values[c]]
    whole, leftover = divmod(len(pile), group_size)
    total = sum(counting) - len(counting) + whole + (credit[leftover - 1] if leftover else 0)
    return _tidy(total)


#: how each kind of decision is applied (built once, not per action)
_APPLY: dict[DecisionKind, Callable[[HandState, Decision, Action], None]] = {
    DecisionKind.REDEAL: lambda state, decision, it: state._answer_redeal(decision.seat, it),
    DecisionKind.BID: lambda state, decision, bid: state._bid(decision.seat, bid),
    DecisionKind.CALL: lambda state, _decision, card: state._call(card),
    DecisionKind.DISCARD: lambda state, decision, card: state._discard(decision.seat, card),
    DecisionKind.DECLARE: lambda state, decision, answer: state._declare(decision, answer),
    DecisionKind.SHOW: lambda state, _decision, card: state._pick_card(card),
    DecisionKind.GIVE: lambda state, _decision, card: state._pick_card(card),
    DecisionKind.PLAY: lambda state, decision, card: state._play(decision.seat, card),
}
