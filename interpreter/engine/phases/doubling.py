"""Doublings before play: each target of the ruleset's `doubling` (the contract, a bonus...)
doubled, the doubling answered, and so on, the two sides taking turns.

Where it sits: a phase of the hand (`tarot.engine.phases`) after the declarations and before
play, in rulesets with `doubling`. The targets that may be doubled in the hand are asked
about one after the other (`state.double.targets`); for the first of them, the seats of the
side whose turn it is (`by` before an even number of doublings, `against` after an odd one)
are asked in order of play (`state.double.queue`). A doubling passes the turn to the other
side; when every seat of a side declines, or no further doubling may be made (the last of
`steps`; with `doubling.repeat`, its `limit` or the numbers' range: `next_step`), the target
is closed. `state.double.doubled` counts the doublings of each target, read by
`doublings('ID')` and `doubling_factor('ID')`. A target tied to an announcement is asked
about only once it is announced, first by the seats not on its announcer's side unless its
`by` says otherwise. With `doubling.with_announcements` there is no such phase: the round of
announcements (`tarot.engine.phases.announce`) offers each seat on its turn the doublings
open to it here (`offered_in_announcements`), by the same turns of the sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tarot.core.actions import Action, Decision, DecisionKind, Double, action_text
from tarot.core.ruleset import DoubleTarget  # at run time: the compiled build reads field types
from tarot.engine.values import selected_seats
from tarot.expressions.builtins import MAX_NUMBER

if TYPE_CHECKING:
    from tarot.engine.state import HandState
    from tarot.expressions import Scope


@dataclass(slots=True)
class DoubleState:
    """The doublings' part of a hand's state (`state.double`): per target how many times it
    was doubled, the targets still open, and the seats still to ask about the first."""

    doubled: dict[str, int]
    targets: list[DoubleTarget]
    queue: list[int]

    @classmethod
    def new(cls) -> DoubleState:
        return cls({}, [], [])

    def copy(self) -> DoubleState:
        return DoubleState(dict(self.doubled), list(self.targets), list(self.queue))


def enter(state: HandState) -> None:
    """The targets that may be doubled in this hand, the first one's askers."""
    state.double.targets = _open_targets(state)
    _ask_next(state)


def _open_targets(state: HandState, scope: Scope | None = None) -> list[DoubleTarget]:
    """The targets that may be doubled now: their `when` holds and their bonus, if any, has
    been announced (`scope`: the state's, when already made)."""
    doubling = state.ruleset.doubling
    assert doubling is not None  # asked only in rulesets with a `doubling` section
    scope = scope or state._scope({})
    said = {bonus for _seat, bonus in state.announce.announced}
    return [
        target
        for target in doubling.targets
        if (target.announcement is None or target.announcement in said) and target.when(scope)
    ]


def offered_in_announcements(state: HandState, seat: int) -> list[Double]:
    """With `doubling.with_announcements`: the doublings `seat` may make on its turn to
    speak, the next step of each open target whose turn is its side's."""
    doubling = state.ruleset.doubling
    if doubling is None or not doubling.with_announcements:
        return []
    scope = state._scope({})
    offered = []
    for target in _open_targets(state, scope):
        step = next_step(state, target.id, scope)
        if step is not None and _speaks(state, target, seat, scope):
            offered.append(Double(target.id, step))
    return offered


def decide(state: HandState) -> bool:
    """The next seat's choice to double the open target or not; False once all are closed."""
    if not state.double.queue:
        return False
    target = state.double.targets[0]
    step = next_step(state, target.id)
    assert step is not None  # a target with no doubling left is closed (`_ask_next`)
    actions: list[Action] = [Double(target.id, step), Double(target.id, None)]
    choices = [action_text(a, state.ruleset.deck) for a in actions]
    state.decision = Decision(state.double.queue[0], DecisionKind.DOUBLE, actions, choices)
    return True


def double(state: HandState, _decision: Decision, action: Double) -> None:
    if action.step is None:
        state.double.queue.pop(0)
        if not state.double.queue:  # nobody of this side doubles: the target is closed
            state.double.targets.pop(0)
            _ask_next(state)
        return
    record(state, action.target)
    _ask_next(state)


def all_decline(state: HandState) -> None:
    """Every seat asked about a doubling declines it, target after target, as each would by
    answering so in turn: every target is closed with no doubling more. Who would have been
    asked is not worked out (`HandState.pass_round`)."""
    state.double.targets = []
    state.double.queue = []


def next_step(state: HandState, target: str, scope: Scope | None = None) -> str | None:
    """The name of the target's next doubling, or None when no more may be made: past the
    last of `steps` without `repeat`, once `repeat.limit` doublings are made, or where one
    more would take the multiplier past the numbers' range (`scope`: the state's, when
    already made)."""
    doubling = state.ruleset.doubling
    assert doubling is not None  # doublings are asked about only with a `doubling` section
    made = state.double.doubled.get(target, 0)
    if doubling.limit is not None and made >= doubling.limit(scope or state._scope({})):
        return None
    if made < len(doubling.steps):
        return doubling.steps[made]
    size = doubling.factor if doubling.factor >= 0 else -doubling.factor
    if doubling.repeat is None or size ** (made + 1) > MAX_NUMBER:
        return None
    return doubling.repeat


def record(state: HandState, target: str) -> int:
    """One more doubling of `target`; how many it has had now."""
    level = state.double.doubled[target] = state.double.doubled.get(target, 0) + 1
    state._changed()
    return level


def announcers(state: HandState, bonus: str) -> tuple[int, ...]:
    """The seats that announced `bonus`, in the order they did."""
    return tuple(seat for seat, made in state.announce.announced if made == bonus)


def _ask_next(state: HandState) -> None:
    """The seats to ask next: the side whose turn it is on the first open target, skipping
    targets that side has nobody for and targets with no doubling left to make."""
    while state.double.targets:
        target = state.double.targets[0]
        if next_step(state, target.id) is not None:
            state.double.queue = _side_to_speak(state, target)
            if state.double.queue:
                return
        state.double.targets.pop(0)
    state.double.queue = []


def _speaks(state: HandState, target: DoubleTarget, seat: int, scope: Scope) -> bool:
    """Whether `seat` is among those that may make the target's next doubling."""
    return seat in state.seat_order and seat in _turn(state, target, scope)


def _side_to_speak(state: HandState, target: DoubleTarget) -> list[int]:
    """The seats that may make the target's next doubling, in order of play from the
    dealer's next: `by` before an even number of doublings, the others after an odd one."""
    side = _turn(state, target, state._scope({}))
    return [seat for seat in state.seat_order if seat in side]


def _turn(state: HandState, target: DoubleTarget, scope: Scope) -> Sequence[int]:
    """The seats whose turn it is to double the target, in no particular order."""
    if target.by is not None:
        first = selected_seats(target.by(scope))
    else:  # an announced bonus: first doubled by the seats not on its announcer's side
        assert target.announcement is not None  # the checks ask for `by` otherwise
        announcer = state.side_of(announcers(state, target.announcement)[0])
        first = [s for s in state.seating.in_play if s not in announcer]
    if state.double.doubled.get(target.id, 0) % 2 == 0:
        return first
    if target.against is not None:
        return selected_seats(target.against(scope))
    return [s for s in state.seating.in_play if s not in first]
