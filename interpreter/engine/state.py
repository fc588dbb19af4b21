"""One hand of a game, in the Game/State manner: current player, legal actions, apply, returns.

`HandState` deals a given pack under a compiled `Ruleset`, then asks for decisions in order
(discards, declarations, cards), fires the ruleset's payment rules at each event and settles
the card points at the end. Nothing here knows a particular game: every number, card set and
payment comes from the ruleset's tables and compiled expressions.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

from interpreter.engine import tricks as trick_rules
from interpreter.expressions import Scope
from interpreter.ruleset import Declaration, PaymentRule, Ruleset

DISCARD, DECLARE, PLAY, DONE = "discard", "declare", "play", "done"


class IllegalAction(ValueError):
    """An action that is not among the legal ones; the state is left unchanged."""


@dataclass
class Decision:
    seat: int
    kind: str  # "discard", "declare" or "play"
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


class HandState:
    """A hand from the deal to the settlement."""

    def __init__(self, ruleset: Ruleset, dealer: int, pack: Sequence[int], number: int = 1):
        self.ruleset = ruleset
        self.number = number
        self.dealer = dealer
        self.pack = list(pack)
        n = ruleset.players
        self.seat_order = [(dealer + 1 + i) % n for i in range(n)]  # dealing and discard order
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.declared: list[set[str]] = [set() for _ in range(n)]
        self.shown: list[tuple[int, str, list[int]]] = []  # (seat, declaration, cards shown)
        self.decisions: list[dict] = []
        self.payments: list[Payment] = []
        self.fired: dict[str, int] = {}  # rule (or `declaration:level`) -> times it paid
        self.tricks: list[dict] = []
        self.trick: list[tuple[int, int]] = []
        self.trick_number = 0
        self.total_tricks = 0
        self.leader = dealer if ruleset.play.first_leader == "dealer" else (dealer + 1) % n
        self.cut_card: int | None = self.pack[-1] if ruleset.cut_shown and self.pack else None
        self._points: list[float] | None = None
        self._base_vars = {"seats": tuple(range(n)), "dealer": dealer, "players": n}
        self._discard_left = {s: ruleset.discard_count(s, dealer) for s in self.seat_order}
        self._declare_queue: list[Decision] = []
        self._declared_seats: set[int] = set()
        self.phase = DISCARD
        self.decision: Decision | None = None
        self._deal()
        self._advance()

    # --- dealing -------------------------------------------------------------------------

    def _deal(self) -> None:
        position = 0
        for step in self.ruleset.packets:
            for _ in range(step.rounds):
                for seat in self.seat_order:
                    count = step.dealer if seat == self.dealer else step.others
                    self.hands[seat].extend(self.pack[position : position + count])
                    position += count
        self.hands_dealt = [list(hand) for hand in self.hands]
        if self.cut_card is not None:
            self._fire("cut", {"cut_card": self.cut_card}, "cut")

    # --- the Game/State interface --------------------------------------------------------

    def clone(self) -> HandState:
        """An independent copy to try actions on (the ruleset and the dealt pack are shared,
        being never changed)."""
        other = copy.copy(self)
        other.hands = [list(h) for h in self.hands]
        other.discards = [list(d) for d in self.discards]
        other.won = [list(w) for w in self.won]
        other.declared = [set(d) for d in self.declared]
        other.shown = list(self.shown)
        other.decisions = list(self.decisions)
        other.payments = list(self.payments)
        other.fired = dict(self.fired)
        other.tricks = list(self.tricks)
        other.trick = list(self.trick)
        other._discard_left = dict(self._discard_left)
        other._declare_queue = list(self._declare_queue)
        other._declared_seats = set(self._declared_seats)
        return other

    def current_player(self) -> int | None:
        return None if self.decision is None else self.decision.seat

    def legal_actions(self) -> list[str]:
        return [] if self.decision is None else list(self.decision.choices)

    def is_terminal(self) -> bool:
        return self.phase == DONE

    def returns(self) -> list[float]:
        """Net marques per seat so far (final once terminal)."""
        net = [0.0] * self.ruleset.players
        for payment in self.payments:
            net[payment.payer] -= payment.amount
            net[payment.payee] += payment.amount
        return [int(x) if float(x).is_integer() else x for x in net]

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
        if decision.kind == DISCARD:
            self._discard(decision.seat, self.ruleset.deck.by_id[action])
        elif decision.kind == DECLARE:
            self._declare(decision, action)
        else:
            self._play(decision.seat, self.ruleset.deck.by_id[action])
        self._advance()

    # --- moving from decision to decision ------------------------------------------------

    def _advance(self) -> None:
        if self.phase == DISCARD:
            for seat in self.seat_order:
                if self._discard_left[seat] > 0:
                    self.decision = Decision(seat, DISCARD, self._discard_choices(seat))
                    return
            self.phase = DECLARE
        if self.phase == DECLARE:
            if self.ruleset.declaration_timing == "before_play":
                order = [
                    (self.leader + i) % self.ruleset.players for i in range(self.ruleset.players)
                ]
                for seat in order:
                    if self._next_declaration(seat):
                        return
            self.phase = PLAY
            self.total_tricks = len(self.hands[self.leader])
            self.trick_number = 1
        if self.phase == PLAY:
            if not any(self.hands):
                self._finish()
                return
            seat = self._to_play()
            if (
                self.ruleset.declaration_timing == "before_own_first_card"
                and self.trick_number == 1
            ):
                if self._next_declaration(seat):
                    return
            cards = self.ruleset.deck.cards
            legal = trick_rules.legal_cards(self.ruleset.play, cards, self.hands[seat], self.trick)
            self.decision = Decision(seat, PLAY, [cards[c].id for c in legal])
            return
        self.decision = None

    def _to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.ruleset.players

    # --- discards ------------------------------------------------------------------------

    def _discard_choices(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        cards = self.ruleset.deck.cards
        forbidden = self.ruleset.discard_forbidden
        allowed = hand
        if forbidden is not None:
            scope = self._scope({"player": seat})
            allowed = []
            for card in hand:
                scope.vars["card"] = card
                if not forbidden(scope):
                    allowed.append(card)
            if not allowed:  # only protected cards are left: they must go after all
                allowed = hand
        return [cards[c].id for c in allowed]

    def _discard(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.discards[seat].append(card)
        self._discard_left[seat] -= 1
        self._fire("discard", {"player": seat, "card": card}, "discard")
        if self._discard_left[seat] == 0:
            self._fire("discards_done", {"player": seat}, "discard")

    # --- declarations --------------------------------------------------------------------

    def _next_declaration(self, seat: int) -> bool:
        """Set the next declaration decision for `seat`; False when it has none left."""
        if seat not in self._declared_seats:
            self._declared_seats.add(seat)
            self._declare_queue = self._declarations_for(seat)
        if self._declare_queue and self._declare_queue[0].seat == seat:
            self.decision = self._declare_queue.pop(0)
            return True
        return False

    def _declarations_for(self, seat: int) -> list[Decision]:
        scope = self._scope({"player": seat})
        pending = []
        for declaration in self.ruleset.declarations:
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
        scope = self._scope({"player": seat})
        if declaration.shows is not None:
            self.shown.append((seat, declaration.id, list(declaration.shows(scope))))
        value = decision.level_values[level]
        self._pay(
            f"{declaration.id}:{level}",
            declaration.payers(scope),
            declaration.payees(scope),
            lambda _scope: value,
            scope,
            "declarations",
        )

    # --- play ----------------------------------------------------------------------------

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        trick_vars = self._trick_vars(seat, card)
        self._fire("card_played", trick_vars, f"trick {self.trick_number}")
        if len(self.trick) == self.ruleset.players:
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
        winner = trick_rules.trick_winner(cards, self.trick)
        last = self.trick_number == self.total_tricks
        fool_kept = not last or self.ruleset.play.fool_in_last_trick == "kept"
        record = {
            "number": self.trick_number,
            "leader": self.leader,
            "cards": [{"seat": s, "card": cards[c].id} for s, c in self.trick],
            "winner": winner,
        }
        for seat, card in self.trick:
            keeper = seat if cards[card].fool and fool_kept else winner
            self.won[keeper].append(card)
            trick_vars = self._trick_vars(seat, card)
            trick_vars.update(winner=winner, keeper=keeper)
            self._fire("trick_end", trick_vars, f"trick {self.trick_number}")
        self.tricks.append(record)
        self.trick = []
        self.leader = winner
        self.trick_number += 1

    # --- the end of the hand -------------------------------------------------------------

    def card_points(self) -> list[float]:
        """Card points of each seat's scoring pile as it stands (fixed once the hand is over)."""
        if self._points is not None:
            return self._points
        counting = self.ruleset.counting
        points = [
            count_points(
                counting.values,
                counting.group_size,
                counting.partial_group_credit,
                self.won[s] + self.discards[s],
            )
            for s in range(self.ruleset.players)
        ]
        if self.phase == DONE:
            self._points = points
        return points

    def settlement_for(self, points: Sequence[float]) -> list[Payment]:
        """The settlement payments the ruleset makes for these card points (for checking a
        settlement table without playing a hand to reach each row)."""
        saved = self._points, self.payments, self.fired
        self._points, self.payments, self.fired = list(points), [], {}
        try:
            self._fire_rules(self.ruleset.settlement, {}, "settlement")
            return self.payments
        finally:
            self._points, self.payments, self.fired = saved

    def _finish(self) -> None:
        self.phase = DONE
        self.decision = None
        self._fire_rules(self.ruleset.settlement, {}, "settlement")

    # --- payments ------------------------------------------------------------------------

    def _scope(self, variables: dict) -> Scope:
        return Scope(self, {**self._base_vars, **variables})

    def _fire(self, event: str, variables: dict, at: str) -> None:
        rules = self.ruleset.payments.get(event)
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
                value = amount(scope)
                if value:
                    self.payments.append(Payment(rule_id, payer, payee, value, at))
                    paid = True
        if paid:
            self.fired[rule_id] = self.fired.get(rule_id, 0) + 1


def _seats(value) -> Sequence[int]:
    return (value,) if isinstance(value, int) else value


def count_points(
    values: Sequence[float], group_size: int, credit: Sequence[float], pile: Sequence[int]
) -> float:
    """Card points of a pile counted in groups: each group scores the values of its counting
    cards less one for each counting card, plus one; a partial group of r cards scores the
    same with `credit[r-1]` in place of the one."""
    counting = [values[c] for c in pile if values[c]]
    whole, leftover = divmod(len(pile), group_size)
    total = sum(counting) - len(counting) + whole + (credit[leftover - 1] if leftover else 0)
    return int(total) if float(total).is_integer() else total
