"""Declarations: each seat's declarations at their time (before play, or before its own first
card), cards shown for them, and cards handed over and given back. A compulsory declaration
is made by the rules at the seat's turn, without asking (`state.declare.by_rule`).

Where it sits: a phase of the hand (`tarot.engine.phases`) before play; play asks for
the declarations made before a seat's first card (`next_declaration`). Cards still to be
shown or given back after a declaration are asked for before anything else
(`decide_card_choice`), in whatever phase they arise.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from tarot.compile.contexts import own_cards
from tarot.core.actions import (
    Action,
    Decision,
    DecisionKind,
    Declare,
    NoDeclaration,
    action_text,
)
from tarot.core.ruleset import Declaration
from tarot.engine.events import AT_DECLARATIONS
from tarot.expressions import Scope
from tarot.expressions.builtins import Number

if TYPE_CHECKING:
    from tarot.engine.state import HandState

HANDED_OVER = "handed_over"  # what `shown` calls a card handed to a declarer
BEFORE_PLAY, BEFORE_OWN_FIRST_CARD = "before_play", "before_own_first_card"  # timings


@dataclass
class CardChoice:
    """Cards a seat is still to pick after a declaration: `count` of `candidates` to show,
    one to give back to `to` for a card handed over, or one to name for whoever holds it to
    hand over. For a card given back, `candidates` are the cards `in_return` offers, and
    `received` the cards the declaration handed him: what he may give is worked out when he
    gives it (`give_back_choices`)."""

    seat: int
    kind: DecisionKind  # SHOW, GIVE or NAME
    declaration: str
    candidates: tuple[int, ...]
    count: int
    to: int | None = None
    chosen: list[int] = field(default_factory=list)
    received: tuple[int, ...] = ()

    def copy(self) -> CardChoice:
        return replace(self, chosen=list(self.chosen))


@dataclass(slots=True)
class DeclareState:
    """The declarations' part of a hand's state (`state.declare`): per seat what it declared
    (with the answers to questions and redeals turned down, which rules read alike) and the
    value of each, those the rules made for it, the declaration decisions still to ask, the
    cards still to pick for a declaration, the (seat, timing) already worked out, the cards
    named for their holders to hand over (with who held each: None for nobody), and the
    cards handed over unseen by the others (a `hands_over` not `told`). The decisions queued
    are never changed, so a copy shares them."""

    declared: list[set[str]]
    values: list[dict[str, Number]]
    by_rule: list[tuple[int, str]]  # (seat, `id:level`), compulsory, in order
    queue: list[Decision]
    card_choices: list[CardChoice]  # shows, gives and names still to pick
    asked: set[tuple[int, str]]
    named: list[tuple[int, str, int, int | None]]  # (declarer, declaration, card, holder)
    handed_unseen: list[tuple[int, int, str, int]]  # (declarer, holder, declaration, card)

    @classmethod
    def new(cls, players: int) -> DeclareState:
        return cls(
            [set() for _ in range(players)], [{} for _ in range(players)], [], [], [], set(), [], []
        )

    def copy(self) -> DeclareState:
        return DeclareState(
            [set(made) for made in self.declared],
            [dict(values) for values in self.values],
            list(self.by_rule),
            list(self.queue),
            [choice.copy() for choice in self.card_choices],
            set(self.asked),
            list(self.named),
            list(self.handed_unseen),
        )


def decide(state: HandState) -> bool:
    """The next declaration before play, seats in order from the leader."""
    order = state.seating.rounds[state.play.leader]
    return any(next_declaration(state, seat, BEFORE_PLAY) for seat in order)


def decide_card_choice(state: HandState) -> bool:
    """The next card to show, give back or name, if a declaration left one to pick."""
    while state.declare.card_choices:
        pending = state.declare.card_choices[0]
        if pending.kind in (DecisionKind.SHOW, DecisionKind.NAME):
            left = [c for c in pending.candidates if c not in pending.chosen]
        else:
            left = give_back_choices(state, pending)
        if left:
            break
        state.declare.card_choices.pop(0)  # nothing left to give back: he keeps the card
    else:
        return False
    ids = state.ruleset.deck.cards.ids
    choices = [ids[c] for c in left]
    state.decision = Decision(pending.seat, pending.kind, left, choices)
    return True


def next_declaration(state: HandState, seat: int, timing: str) -> bool:
    """Set the next declaration decision of `timing` for `seat`; False when it has none
    left. The cards to show or give back for a declaration the rules made for it are asked
    first, before its next declaration or any card played."""
    if (seat, timing) not in state.declare.asked:
        state.declare.asked.add((seat, timing))
        state.declare.queue = _declarations_for(state, seat, timing)
    if decide_card_choice(state):  # cards to show or give back for one made by the rules
        return True
    if state.declare.queue and state.declare.queue[0].seat == seat:
        state.decision = state.declare.queue.pop(0)
        return True
    return False


def _declarations_for(state: HandState, seat: int, timing: str) -> list[Decision]:
    """The declaration decisions of `timing` open to `seat` (those made by the rules made
    at once). Where they depend on the seat's own cards alone
    (`Ruleset.reused_declarations`), they are worked out once for a seat and its cards, and
    reused by the hand's states and their clones (the search player's play-outs)."""
    if timing not in state.ruleset.reused_declarations:
        return _work_out(state, seat, timing)
    key = (seat, timing, own_cards(state, seat))
    known = state.declarations_seen.get(key)
    if known is None:
        known = state.declarations_seen[key] = tuple(_work_out(state, seat, timing))
    return list(known)


def _work_out(state: HandState, seat: int, timing: str) -> list[Decision]:
    ruleset = state.ruleset
    scope = state._scope({"player": seat})
    pending = []
    for declaration in ruleset.declarations:
        if (declaration.timing or ruleset.declaration_timing) != timing:
            continue
        values = {lvl.id: lvl.value(scope) for lvl in declaration.levels if lvl.when(scope)}
        if not values:
            continue
        if ruleset.declarations_maximal:
            best = max(values.values())
            top = [lvl for lvl, v in values.items() if v == best][-1]
            values = {top: best}
        answers: list[Action] = [Declare(declaration.id, lvl) for lvl in values]
        answers.append(NoDeclaration(declaration.id))
        choices = [action_text(a, ruleset.deck) for a in answers]
        decision = Decision(seat, DecisionKind.DECLARE, answers, choices, declaration, values)
        if declaration.compulsory:  # declared by the rules: the level of most value
            best = max(values.values())
            level = [lvl for lvl, v in values.items() if v == best][-1]
            state.declare.by_rule.append((seat, f"{declaration.id}:{level}"))
            declare(state, decision, Declare(declaration.id, level))
        else:
            pending.append(decision)
    return pending


def declare(state: HandState, decision: Decision, action: Declare | NoDeclaration) -> None:
    if isinstance(action, NoDeclaration):
        return
    declaration, level = decision.declaration, action.level
    assert declaration is not None  # a DECLARE decision is about a declaration
    seat = decision.seat
    state.declare.declared[seat].add(declaration.id)
    value = decision.level_values[level]
    state.declare.values[seat][declaration.id] = value
    scope = state._scope({"player": seat})
    _show(state, decision, level, state._scope({"player": seat, "level": level}))
    key = action_text(action, state.ruleset.deck)
    if not declaration.paid_when_declared:  # the ruleset's own rules use its value
        state.fired[key] = state.fired.get(key, 0) + 1
    else:
        state._pay(
            key,
            declaration.payers(scope),
            declaration.payees(scope),
            lambda _scope: value,
            scope,
            AT_DECLARATIONS,
        )
    if declaration.hands_over is not None:
        _hand_over(state, seat, declaration, scope)
    state._changed()


def _show(state: HandState, decision: Decision, level_id: str, scope: Scope) -> None:
    """Show the declared level's cards, or queue the declarer's pick of some of them."""
    declaration, seat = decision.declaration, decision.seat
    assert declaration is not None  # a DECLARE decision is about a declaration
    level = next(lvl for lvl in declaration.levels if lvl.id == level_id)
    shows = declaration.shows if level.shows is None else level.shows
    if shows is None:
        return
    cards = list(shows(scope))
    count = len(cards) if level.show_count is None else int(level.show_count(scope))
    if count >= len(cards):
        state.shown.append((seat, declaration.id, cards))
    elif count > 0:
        state.declare.card_choices.append(
            CardChoice(seat, DecisionKind.SHOW, declaration.id, tuple(cards), count)
        )


def _hand_over(state: HandState, seat: int, declaration: Declaration, scope: Scope) -> None:
    """Move each card asked for from another player's hand to the declarer's, and queue the
    declarer's choice of a card to give back for each."""
    rule = declaration.hands_over
    assert rule is not None  # called only for a declaration that hands cards over
    asked = [card for card in rule.cards(scope) if card not in state.zones.hands[seat]]
    if rule.named:  # he names one of them: whoever holds it hands it over once it is named
        if asked:
            state.declare.card_choices.append(
                CardChoice(seat, DecisionKind.NAME, declaration.id, tuple(asked), 1)
            )
        return
    _take_from_holders(state, seat, declaration, asked, scope)


def _take_from_holders(
    state: HandState, seat: int, declaration: Declaration, asked: list[int], scope: Scope
) -> None:
    """Move each card asked for from another player's hand to the declarer's (shown to all
    unless the rule keeps it between the two), and queue his choice of a card to give back
    for each."""
    rule = declaration.hands_over
    assert rule is not None  # called only for a declaration that hands cards over
    hands = state.zones.hands
    received: list[tuple[int, int]] = []  # (card, who handed it)
    for card in asked:
        holder = state.zones.holder(card, leaving_out=seat)
        if holder is None:
            continue
        hands[holder].remove(card)
        hands[seat].append(card)
        if rule.told:
            state.shown.append((seat, f"{declaration.id}:{HANDED_OVER}", [card]))
        else:
            state.declare.handed_unseen.append((seat, holder, declaration.id, card))
        received.append((card, holder))
    if not received:
        return
    offered = tuple(rule.in_return(scope))
    cards = tuple(card for card, _holder in received)
    for _card, holder in received:
        state.declare.card_choices.append(
            CardChoice(seat, DecisionKind.GIVE, declaration.id, offered, 1, holder, received=cards)
        )


def give_back_choices(state: HandState, pending: CardChoice) -> list[int]:
    """The cards the declarer may give back for a card handed over: those of `in_return` in
    his hand, or any card of his hand when he has none of them; never a card the declaration
    handed him. Empty when he has no other card (he keeps the one handed over)."""
    kept = [c for c in state.zones.hands[pending.seat] if c not in pending.received]
    offered = [c for c in kept if c in pending.candidates]
    return offered or kept


def pick_card(state: HandState, _decision: Decision, card: int) -> None:
    """A card picked to show, given back for one handed over, or named for its holder to
    hand over."""
    pending = state.declare.card_choices[0]
    if pending.kind == DecisionKind.NAME:
        state.declare.card_choices.pop(0)
        declaration = state.ruleset.declaration(pending.declaration)
        scope = state._scope({"player": pending.seat})
        holder = state.zones.holder(card, leaving_out=pending.seat)
        state.declare.named.append((pending.seat, declaration.id, card, holder))
        _take_from_holders(state, pending.seat, declaration, [card], scope)
        state._changed()
        return
    pending.chosen.append(card)
    if pending.kind == DecisionKind.GIVE:
        assert pending.to is not None  # a card given back goes to whom it was taken from
        state.zones.hands[pending.seat].remove(card)
        state.zones.hands[pending.to].append(card)
    if len(pending.chosen) < pending.count:
        return
    state.declare.card_choices.pop(0)
    if pending.kind == DecisionKind.SHOW:
        state.shown.append((pending.seat, pending.declaration, list(pending.chosen)))
    state._changed()
