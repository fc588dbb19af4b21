"""Cards shown to all by the ruleset's `show` rules: after the deal, when play begins (trick
0), or after a given trick.

Where it sits: called by the hand state once the deal is made (`HandState._start`) and by
trick play when it begins and once a trick is finished (`engine.phases.play`). A card shown
is kept in the state's `shown` list under the rule's id, as its holder's, like the cards of
a declaration: every seat's view (`engine.seat_view`) then knows where it lies until it is
played, the human seat sees it on the screen, and the search player's guesses keep it with
its holder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tarot.engine.state import HandState


def show_cards(state: HandState, after_trick: int | None) -> None:
    """Show what the rules for this moment show (`after_trick`: None right after the deal, 0
    when play begins)."""
    rules = [rule for rule in state.ruleset.shows if rule.after_trick == after_trick]
    if not rules:
        return
    hands = state.zones.hands
    for rule in rules:
        scope = state._scope({})
        if rule.when is not None and not rule.when(scope):
            continue
        cards = set(rule.cards(scope))
        for seat, hand in enumerate(hands):
            held = [card for card in hand if card in cards]
            if held:
                state.shown.append((seat, rule.id, held))
