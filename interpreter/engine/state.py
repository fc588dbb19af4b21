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

from interpreter.engine import tricks as trick_rules
from interpreter.engine.contexts import MAX_REDEALS
from interpreter.engine.dealing import deal_packets
from interpreter.expressions import EvaluationError, Scope
from interpreter.ruleset import Declaration, PaymentRule, Ruleset, TalonUse

REDEAL, BID, CALL, DISCARD, DECLARE, PLAY, DONE = (
    "redeal",
    "bid",
    "call",
    "discard",
    "declare",
    "play",
    "done",
)
SHOW, GIVE = "show", "give"  # cards picked one at a time after a declaration
HANDED_OVER = "handed_over"  # what `shown` calls a card handed to a declarer
PASS = "pass"
ALL_PASSED = "all_passed"
_TRICK_EVENTS = ("card_played", "trick_end")
_MOMENTS = {
    REDEAL: "at the deal",
    BID: "during the auction",
    CALL: "at the call",
    DISCARD: "during the discard",
    DECLARE: "during the declarations",
    DONE: "at the end of the hand",
}


class IllegalAction(ValueError):
    """An action that is not among the legal ones; the state is left unchanged."""


@dataclass
class Decision:
    seat: int
    kind: str  # "redeal", "bid", "call", "discard", "declare", "show", "give" or "play"
    choices: list[str]
    declaration: Declaration | None = None
    level_values: dict[str, float] = field(default_factory=dict)


@dataclass
class Payment:
    rule: str
    payer: int
    payee: int
    amount: float
    at: str

    def as_record(self) -> dict:
        return {
            "rule": self.rule,
            "from": self.payer,
            "to": self.payee,
            "amount": self.amount,
            "at": self.at,
        }


@dataclass
class CardChoice:
    """Cards a seat is still to pick after a declaration: `count` of `candidates` to show,
    or one to give back to `to` for a card handed over."""

    seat: int
    kind: str  # SHOW or GIVE
    declaration: str
    candidates: list[int]
    count: int
    to: int | None = None
    chosen: list[int] = field(default_factory=list)


class HandState:
    """A hand from the deal to the settlement."""

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
        self._sides_vars: tuple = (None, {})  # (taker, partner, contract), their variables
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
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]  # cards each seat played
        self.set_aside: list[list[int]] = [[] for _ in range(n)]  # talon cards scoring for a seat
        self.talon: list[int] = []
        self.drawing = False  # the talon is a stock drawn from after each trick
        self.declared: list[set[str]] = [set() for _ in range(n)]
        self.declared_values: list[dict[str, float]] = [{} for _ in range(n)]
        self.shown: list[tuple[int, str, list[int]]] = []  # (seat, what, cards shown)
        self.decisions: list[dict] = []
        self.payments: list[Payment] = []
        self.tricks: list[dict] = []
        self.trick_cards: list[tuple[int, list[int]]] = []  # (winner, cards) per finished trick
        self.trick: list[tuple[int, int]] = []
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
        self.phase = REDEAL
        self.excuses = ruleset.deck.fools
        self.decision: Decision | None = None
        self._deal()

    # --- dealing -------------------------------------------------------------------------

    def _deal(self) -> None:
        dealt = deal_packets(self.ruleset.packets, self.pack, self.seat_order, self.dealer)
        self.packets_dealt = dealt.packets
        for seat, packets in enumerate(dealt.packets):
            self.hands[seat] = [card for packet in packets for card in packet]
        self.piles = dealt.piles  # face-down piles whose top card is face up and playable
        self.piles_dealt = [[list(p) for p in piles] for piles in dealt.piles]
        self.talon = list(dealt.talon)
        self.talon_dealt = list(dealt.talon)
        self.hands_dealt = [list(hand) for hand in self.hands]
        if self.cut_card is not None:
            self._fire("cut", {"cut_card": self.cut_card}, "cut")
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
        per_seat = ("hands", "discards", "won", "played", "set_aside", "declared_values", "scores")
        for name in per_seat:
            setattr(other, name, [type(x)(x) for x in getattr(self, name)])
        other.declared = [set(d) for d in self.declared]
        other.piles = [[list(p) for p in piles] for piles in self.piles]
        for name in (
            "talon",
            "shown",
            "decisions",
            "payments",
            "tricks",
            "trick_cards",
            "trick",
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
        return [] if self.decision is None else list(self.decision.choices)

    def is_terminal(self) -> bool:
        return self.phase == DONE

    def returns(self) -> list[float]:
        """Net result per seat so far, final once terminal: marques paid and received, plus
        the points scored in rulesets that score hands."""
        net = list(self.scores)
        for payment in self.payments:
            net[payment.payer] -= payment.amount
            net[payment.payee] += payment.amount
        return [_tidy(x) for x in net]

    def apply_action(self, action: str) -> None:
        decision = self.decision
        if decision is None:
            raise IllegalAction("the hand is over; no more decisions are taken")
        if action not in decision.choices:
            shown = ", ".join(decision.choices[:30])
            raise IllegalAction(
                f"seat {decision.seat} may not {decision.kind} {action!r}; legal: {shown}"
            )
        self.decisions.append({"seat": decision.seat, "kind": decision.kind, "choice": action})
        self._changed()
        handler = {
            REDEAL: self._answer_redeal,
            BID: self._bid,
            CALL: self._call,
            DISCARD: lambda seat, choice: self._discard(seat, self.ruleset.deck.by_id[choice]),
            DECLARE: lambda _seat, choice: self._declare(decision, choice),
            SHOW: lambda _seat, choice: self._pick_card(self.ruleset.deck.by_id[choice]),
            GIVE: lambda _seat, choice: self._pick_card(self.ruleset.deck.by_id[choice]),
            PLAY: lambda seat, choice: self._play(seat, self.ruleset.deck.by_id[choice]),
        }[decision.kind]
        try:
            handler(decision.seat, action)
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
            if self.phase == PLAY:
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
            choices = [cards[c].id for c in pending.candidates if c not in pending.chosen]
            self.decision = Decision(pending.seat, pending.kind, choices)
            return
        if self.phase == REDEAL:
            if self._next_redeal():
                return
            if self.phase == DONE:
                return
            self.phase = BID if self.ruleset.bidding else DISCARD
            if self.phase == DISCARD:
                self._place_talon(self.ruleset.talon)
        if self.phase == BID:
            if self._next_bid():
                return
            if self.phase == DONE:
                return
            if self.ruleset.play.first_leader == "taker":
                self.leader = self.taker
            self.phase = CALL
        if self.phase == CALL:
            if self._call_due():
                return
            self.phase = DISCARD
            self._place_talon(self.ruleset.bidding.contract(self.contract).talon)
        if self.phase == DISCARD:
            for seat in self.seat_order:
                if self._discard_left[seat] > 0:
                    self.decision = Decision(seat, DISCARD, self._discard_choices(seat))
                    return
            self.phase = DECLARE
        if self.phase == DECLARE:
            order = [(self.leader + i) % self.ruleset.players for i in range(self.ruleset.players)]
            for seat in order:
                if self._next_declaration(seat, "before_play"):
                    return
            self.phase = PLAY
            self.excuses = self._excuse_cards()
            self.total_tricks = (
                len(self.hands[self.leader])
                + sum(map(len, self.piles[self.leader]))
                + len(self._stock()) // self.ruleset.players
            )
            self.trick_number = 1
        if self.phase == PLAY:
            if not self._cards_left():
                self._finish()
                return
            seat = self._to_play()
            if self.trick_number == 1 and self._next_declaration(seat, "before_own_first_card"):
                return
            cards = self.ruleset.deck.cards
            playable = self.playable(seat)
            legal = trick_rules.legal_cards(
                self.ruleset.play, cards, playable, self.trick, self.excuses
            )
            self.decision = Decision(seat, PLAY, [cards[c].id for c in legal])
            return
        self.decision = None

    def _to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.ruleset.players

    def _throw_in(self, reason: str) -> bool:
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
                    "thrown_in": reason,
                    "decisions": list(self.decisions),
                }
            )
            self._start(self._repack(len(self.abandoned)))
            return True
        self.thrown_in = reason
        self.phase = DONE
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
        self.decision = Decision(seat, REDEAL, [f"{rule.id}:redeal", f"{rule.id}:play_on"])
        return True

    def _answer_redeal(self, seat: int, action: str) -> None:
        self._redeal_queue.pop(0)
        rule_id, _, answer = action.partition(":")
        if answer == "redeal":
            self._throw_in(rule_id)
        else:  # playing on is itself declared: rules may ask declared(seat, 'rule id')
            self.declared[seat].add(rule_id)

    # --- the auction and the call --------------------------------------------------------

    def _next_bid(self) -> bool:
        if self._bidders:
            seat = self._bidders[0]
            contracts = self.ruleset.bidding.contracts
            lowest = 0 if self.contract is None else self.ruleset.bidding.rank(self.contract) + 1
            choices = [c.id for c in contracts[lowest:]] + [PASS]
            self.decision = Decision(seat, BID, choices)
            return True
        if self.taker is None and self._throw_in(ALL_PASSED):
            self._advance()
            return True
        return False

    def _bid(self, seat: int, action: str) -> None:
        self._bidders.pop(0)
        if action != PASS:
            self.taker, self.contract = seat, action

    def _call_due(self) -> bool:
        call = self.ruleset.partner_call
        if call is None or self.called_card is not None:
            return False
        scope = self._scope({})
        if not call.when(scope):
            return False
        cards = self.ruleset.deck.cards
        choices = [cards[c].id for c in sorted(call.cards(scope))]
        if not choices:
            return False
        self.decision = Decision(self.taker, CALL, choices)
        return True

    def _call(self, _seat: int, action: str) -> None:
        self.called_card = self.ruleset.deck.by_id[action]
        self.partner = self.called_card_holder()

    def called_card_holder(self) -> int | None:
        """The player other than the taker holding the called card in hand, if any."""
        holders = [
            s for s, hand in enumerate(self.hands) if s != self.taker and self.called_card in hand
        ]
        return holders[0] if holders else None

    # --- the talon -----------------------------------------------------------------------

    def _place_talon(self, use: TalonUse | None) -> None:
        if not self.talon or use is None or use.to == "out_of_play":
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
            self.shown.append((seat, "talon", list(self.talon)))
        if use.to == "hand":
            self.hands[seat].extend(self.talon)
            self._discard_left[seat] = self._discard_left.get(seat, 0) + len(self.talon)
        else:
            self.set_aside[seat].extend(self.talon)
        self.talon = []
        self._changed()

    # --- discards ------------------------------------------------------------------------

    def _discard_choices(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        cards = self.ruleset.deck.cards
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
        return [cards[c].id for c in allowed]

    def _discard(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.discards[seat].append(card)
        self._discard_left[seat] -= 1
        shown = self.ruleset.discard_shown
        if shown is not None and shown(self._scope({"player": seat, "card": card})):
            self.shown.append((seat, "discard", [card]))
        self._fire("discard", {"player": seat, "card": card}, "discard")
        if self._discard_left[seat] == 0:
            self._fire("discards_done", {"player": seat}, "discard")

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
            choices = [f"{declaration.id}:{lvl}" for lvl in values] + [f"{declaration.id}:none"]
            pending.append(Decision(seat, DECLARE, choices, declaration, values))
        return pending

    def _declare(self, decision: Decision, action: str) -> None:
        declaration = decision.declaration
        level = action.split(":", 1)[1]
        if level == "none":
            return
        seat = decision.seat
        self.declared[seat].add(declaration.id)
        value = decision.level_values[level]
        self.declared_values[seat][declaration.id] = value
        scope = self._scope({"player": seat})
        self._show(decision, level, self._scope({"player": seat, "level": level}))
        if not declaration.paid_when_declared:  # the ruleset's own rules use its value
            self.fired[action] = self.fired.get(action, 0) + 1
        else:
            self._pay(
                f"{declaration.id}:{level}",
                declaration.payers(scope),
                declaration.payees(scope),
                lambda _scope: value,
                scope,
                "declarations",
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
            self._card_choices.append(CardChoice(seat, SHOW, declaration.id, cards, count))

    def _hand_over(self, seat: int, declaration: Declaration, scope: Scope) -> None:
        """Move each card asked for from another player's hand to the declarer's, and queue
        the declarer's choice of a card to give back for it."""
        rule = declaration.hands_over
        for card in rule.cards(scope):
            holder = next(
                (s for s, hand in enumerate(self.hands) if s != seat and card in hand), None
            )
            if holder is None:
                continue
            self.hands[holder].remove(card)
            self.hands[seat].append(card)
            self.shown.append((seat, f"{declaration.id}:{HANDED_OVER}", [card]))
            offered = set(rule.in_return(scope))
            candidates = [c for c in self.hands[seat] if c != card and c in offered]
            if not candidates:
                candidates = [c for c in self.hands[seat] if c != card]
            if candidates:  # a declarer with no other card keeps it and gives nothing back
                self._card_choices.append(
                    CardChoice(seat, GIVE, declaration.id, candidates, 1, holder)
                )

    def _pick_card(self, card: int) -> None:
        pending = self._card_choices[0]
        pending.chosen.append(card)
        if pending.kind == GIVE:
            self.hands[pending.seat].remove(card)
            self.hands[pending.to].append(card)
        if len(pending.chosen) < pending.count:
            return
        self._card_choices.pop(0)
        if pending.kind == SHOW:
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
        return any(self.hands) or any(map(any, self.piles))

    def playable(self, seat: int) -> list[int]:
        """The cards `seat` may play from: its hand and the face-up tops of its piles."""
        piles = self.piles[seat]
        return (
            self.hands[seat] + [pile[-1] for pile in piles if pile]
            if piles
            else list(self.hands[seat])
        )

    def _play(self, seat: int, card: int) -> None:
        if card in self.hands[seat]:
            self.hands[seat].remove(card)
        else:  # the top of one of its piles; the card beneath is now the face-up top
            next(pile for pile in self.piles[seat] if pile and pile[-1] == card).pop()
        self.trick.append((seat, card))
        self.played[seat].append(card)
        if card == self.called_card and self.partner_shown_at is None:
            self.partner_shown_at = self.trick_number
        trick_vars = self._trick_vars(seat, card)
        self._fire("card_played", trick_vars, f"trick {self.trick_number}")
        if len(self.trick) == self.ruleset.players:
            self._end_trick()

    def _trick_vars(self, seat: int, card: int) -> dict:
        if not self.ruleset.rule_index.any_for(_TRICK_EVENTS, card):
            return {"card": card}  # no rule can fire for it: the variables are never read
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
        winner = trick_rules.trick_winner(cards, self.trick, self.excuses)
        first_seat, first_card = self.trick[0]
        if (
            last
            and play.fool_wins_last_trick_after_all
            and first_card in self.excuses
            and all(w in self.side_of(first_seat) for w, _c in self.trick_cards)
        ):
            winner = first_seat
        fool_kept = not last or play.fool_in_last_trick == "kept"
        record = {
            "number": self.trick_number,
            "leader": self.leader,
            "cards": [{"seat": s, "card": cards[c].id} for s, c in self.trick],
            "winner": winner,
        }
        for seat, card in self.trick:
            keeper = seat if card in self.excuses and fool_kept else winner
            self.won[keeper].append(card)
            self._changed()
            if keeper != winner and play.excuse_exchange and winner not in self.side_of(keeper):
                self.excuse_debts.append((keeper, winner))
            trick_vars = self._trick_vars(seat, card)
            trick_vars.update(winner=winner, keeper=keeper)
            self._fire("trick_end", trick_vars, f"trick {self.trick_number}")
        self.tricks.append(record)
        self.trick_cards.append((winner, [c for _s, c in self.trick]))
        self.trick = []
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
        return self.talon if self.drawing else []

    def _draw(self, winner: int) -> None:
        """After a trick: each player, the winner first, draws the top card of the stock,
        while it has a card for each."""
        n = self.ruleset.players
        if self.drawing and len(self.talon) >= n:
            for i in range(n):
                self.hands[(winner + i) % n].append(self.talon.pop(0))

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
                    (self.won[member], self.discards[member])
                    + ((self.set_aside[member],) if at_the_end else ())
                    if exchange.taken_from == "pile"
                    else (self.won[member],)
                )
                for c in zone
                if c in eligible
            ]
            if not offers:
                still_owed.append((debtor, creditor))
                continue
            *_rank, card, giver, zone = min(offers, key=lambda offer: offer[:3])
            zone.remove(card)
            self.won[creditor].append(card)
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
        return self.won[seat] + self.discards[seat] + self.set_aside[seat]

    def card_points(self) -> list[float]:
        """Card points of each seat's scoring pile as it stands (fixed once the hand is over)."""
        if self._points is not None:
            return self._points
        points = [self.count(self.pile(s)) for s in range(self.ruleset.players)]
        if self.phase == DONE:
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
            self._fire_rules(self.ruleset.settlement, {}, "settlement")
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
                for card in [c for c in self.won[debtor] if c in self.excuses]:
                    self.won[debtor].remove(card)
                    self.won[creditor].append(card)
        self.phase = DONE
        self.decision = None
        self._changed()
        self._fire_rules(self.ruleset.settlement, {}, "settlement")
        self.scores = [_tidy(self.hand_score(seat)) for seat in range(self.ruleset.players)]
        self._changed()

    def hand_score(self, seat: int) -> float:
        """The points `seat` scores in this hand as it stands (0 in rulesets that pay)."""
        score = self.ruleset.hand_score
        return 0 if score is None else score(self._scope({"player": seat}))

    def total(self, seat: int) -> float:
        """The seat's game total counting this hand as it stands."""
        if self.phase == DONE:
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
            sides = (self.taker, self.partner, self.contract)
            if self._sides_vars[0] != sides:  # worked out again only when the sides change
                self._sides_vars = (
                    sides,
                    {
                        **base,
                        "taker": self.taker,
                        "contract": self.contract,
                        "attackers": self.attackers(),
                        "defenders": self.defenders(),
                    },
                )
            base = self._sides_vars[1]
        return Scope(self, {**base, **variables})

    def _fire(self, event: str, variables: dict, at: str) -> None:
        rules = self.ruleset.rule_index.rules(event, variables)
        if rules:
            self._fire_rules(rules, variables, at)

    def _fire_rules(self, rules: Sequence[PaymentRule], variables: dict, at: str) -> None:
        scope = self._scope(variables)
        for rule in rules:
            if rule.when is not None and not rule.when(scope):
                continue
            self._pay(rule.id, rule.payers(scope), rule.payees(scope), rule.amount, scope, at)

    def _pay(self, rule_id, payers, payees, amount, scope: Scope, at: str) -> None:
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
