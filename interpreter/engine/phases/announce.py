"""Announcements before play: each seat in turn announces bonuses it binds itself to try for.

Where it sits: a phase of the hand (`tarot.engine.phases`) after the declarations and
before the doublings and play, in rulesets with `announcements`. The seats speak in order of
play from the section's `first` (by default the taker, or without one the dealer's next);
`state.announce.queue` holds the seats still to pass before the round ends: each seat once,
or, with `rounds: until_all_pass`, every seat again after each thing said, from the one who
said it. A seat is offered every bonus open to it (its `when` holds, the seat is among its
`by`, and nobody of the seat's side has announced it yet) and, with
`doubling.with_announcements`, the doublings open to it (`tarot.engine.phases.doubling`);
it says them one at a time (`announce:ID`, `STEP:TARGET`) and passes when done; a seat with
nothing open to it passes without being asked. Each pass is kept in `state.announce.passes`
(read by `announce_passes(seat)`). After a bonus is announced, the seats `reopen` gives speak
again once the announcer has passed (`state.announce.reopened` says when, for the
transcript). What was announced is kept in `state.announce.announced` as (seat, id); a
bonus's `keeps` cards are shown and held back by play until the last trick (`keep_back`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tarot.core.actions import (
    PASS,
    Action,
    Announce,
    Decision,
    DecisionKind,
    Double,
    Pass,
    action_text,
)
from tarot.engine.phases import doubling
from tarot.engine.values import first_seat, selected_seats

if TYPE_CHECKING:
    from tarot.core.ruleset import Announcement, Evaluator
    from tarot.engine.state import HandState

KEPT_SHOWN = "kept"  # how `shown` names the cards an announcer keeps: `kept:ID`
UNTIL_ALL_PASS = "until_all_pass"  # `rounds`: the turn comes round until all pass in a row


@dataclass(slots=True)
class AnnounceState:
    """The announcements' part of a hand's state (`state.announce`): what was announced, as
    (seat, bonus), the seats still to speak, the cards each announcer keeps back for the last
    trick, the seat of each pass in order, and each reopening as (how many bonuses were
    announced when it came, the seats it reopened to)."""

    announced: list[tuple[int, str]]
    queue: list[int]
    kept_back: dict[int, frozenset[int]]
    passes: list[int]
    reopened: list[tuple[int, tuple[int, ...]]]

    @classmethod
    def new(cls) -> AnnounceState:
        return cls([], [], {}, [], [])

    def copy(self) -> AnnounceState:
        return AnnounceState(
            list(self.announced),
            list(self.queue),
            dict(self.kept_back),
            list(self.passes),
            list(self.reopened),
        )


def enter(state: HandState) -> None:
    """The seats to speak, in order of play from the first."""
    section = state.ruleset.announcements
    assert section is not None  # the phase is in the hand only with `announcements`
    if section.first is not None:
        first = first_seat(state, section.first, "the announcements' `first`")
    elif state.auction.taker is not None:
        first = state.auction.taker
    else:
        first = state.seat_order[0]
    state.announce.queue = list(state.seating.rounds[first])


def decide(state: HandState) -> bool:
    """The next seat's choice of a bonus to announce, or its pass; False once every seat
    has spoken."""
    while state.announce.queue:
        seat = state.announce.queue[0]
        actions: list[Action] = [Announce(a.id) for a in open_to(state, seat)]
        actions += doubling.offered_in_announcements(state, seat)
        if actions:
            actions.append(PASS)
            choices = [action_text(a, state.ruleset.deck) for a in actions]
            state.decision = Decision(seat, DecisionKind.ANNOUNCE, actions, choices)
            return True
        _passes(state)  # nothing open to it: the seat passes unasked
    return False


def all_pass(state: HandState) -> None:
    """Every seat still to speak passes, in turn, as each would by answering `pass` (or by
    passing unasked): the round ends with nothing more said. What each was offered is not
    worked out (`HandState.pass_round`)."""
    state.announce.passes.extend(state.announce.queue)
    state.announce.queue = []
    state._changed()


def _passes(state: HandState) -> None:
    """The seat whose turn it is passes: its turn ends, and the pass is counted."""
    state.announce.passes.append(state.announce.queue.pop(0))
    state._changed()


def open_to(state: HandState, seat: int) -> list[Announcement]:
    """The bonuses `seat` may announce now: those whose `when` holds, that it is among the
    `by` of, and that nobody of its side has announced."""
    section = state.ruleset.announcements
    assert section is not None  # asked only in rulesets with `announcements`
    scope = state._scope({"player": seat})
    side = state.side_of(seat)
    made = {bonus for who, bonus in state.announce.announced if who in side}
    return [
        bonus
        for bonus in section.table
        if bonus.id not in made
        and (bonus.by is None or seat in selected_seats(bonus.by(scope)))
        and bonus.when(scope)
    ]


def announce(state: HandState, decision: Decision, action: Announce | Double | Pass) -> None:
    if isinstance(action, Pass):
        _passes(state)
        return
    seat = decision.seat
    section = state.ruleset.announcements
    assert section is not None  # asked only in rulesets with `announcements`
    if section.rounds == UNTIL_ALL_PASS:  # every seat, this one first, must pass again
        state.announce.queue = list(state.seating.rounds[seat])
    if isinstance(action, Double):
        doubling.record(state, action.target)
        return
    state.announce.announced.append((seat, action.announcement))
    bonus = next(b for b in section.table if b.id == action.announcement)
    if bonus.keeps is not None:
        kept = set(bonus.keeps(state._scope({"player": seat})))
        held = [card for card in state.zones.hands[seat] if card in kept]
        if held:
            state.announce.kept_back[seat] = state.announce.kept_back.get(
                seat, frozenset()
            ) | frozenset(held)
            state.shown.append((seat, f"{KEPT_SHOWN}:{bonus.id}", held))
    state._changed()
    if section.reopen is not None:
        _reopen(state, seat, section.reopen)


def _reopen(state: HandState, seat: int, reopen: Evaluator) -> None:
    """The seats `reopen` gives speak again once the announcer has passed, in order of play
    from him: those other than him not already waiting to speak."""
    chosen = set(selected_seats(reopen(state._scope({"player": seat}))))
    again = tuple(
        other
        for other in state.seating.after(seat)
        if other in chosen and other not in state.announce.queue
    )
    if again:
        state.announce.queue[1:1] = again
        state.announce.reopened.append((len(state.announce.announced), again))


def keep_back(state: HandState, seat: int, legal: list[int]) -> list[int]:
    """The legal cards without those `seat` bound itself to keep, before the last trick and
    while it has another legal card."""
    kept = state.announce.kept_back.get(seat)
    if not kept or state.play.trick_number >= state.play.total_tricks:
        return legal
    free = [card for card in legal if card not in kept]
    return free or legal
