"""Pile tops taken into the hand: the play rules' `pile_tops_to_hand` (LANGUAGE.md, "Pile tops
taken into the hand").

Where it sits: called by trick play (`engine.phases.play`) when play begins and once each
trick is taken. For each seat with piles on the table, the face-up top of a pile that the
rule's cards hold goes into the seat's hand and the card beneath turns up, until every pile
shows another card or is empty. The cards taken are shown to all, as a `show` rule shows
cards (`state.shown`, under `WHAT`), so every seat's view knows they lie in that hand; the
trick after which each was taken (0: when play began) is kept in `state.play.tops_taken`
for the transcript.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tarot.engine.state import HandState

WHAT = "pile_tops_to_hand"  # the record's `shown[].what` for cards taken so


def take_pile_tops(state: HandState, after_trick: int) -> None:
    """Every seat's pile tops that the rule names, taken into its hand (see the module), when
    play begins (`after_trick` 0) or once trick `after_trick` is taken."""
    rule = state.play.rules.pile_tops_to_hand
    zones = state.zones
    if rule is None or not any(map(any, zones.piles)):
        return
    for seat, piles in enumerate(zones.piles):
        if not any(piles):
            continue
        names = {
            "player": seat,
            "trick": (),
            "trick_number": state.play.trick_number,
            "last_trick": False,
            "leader": state.play.leader,
        }
        taken: list[int] = []
        while True:
            wanted = frozenset(state.evaluate(rule, dict(names)))
            tops = [pile for pile in piles if pile and pile[-1] in wanted]
            if not tops:
                break
            for pile in tops:
                card = pile.pop()
                zones.hands[seat].append(card)
                taken.append(card)
            state._changed()
        if taken:
            state.shown.append((seat, WHAT, taken))
            state.play.tops_taken.append((after_trick, seat, tuple(taken)))
