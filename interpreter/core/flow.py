"""The hand's flow: the phases a hand goes through, as a ruleset's `flow` lists them.

Where it sits: a shared noun (`tarot.core`). The compiler (`tarot.compile.flow`) turns a
ruleset's `flow` (or, where it writes none, the order its sections imply) into a tuple of
`FlowStep`; the engine (`tarot.engine.phases`) walks that tuple, one step after another,
each step handled by the module of its phase; `tarot explain` prints it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

Evaluator = Callable[..., Any]  # a compiled expression: called with a Scope


class Phase(StrEnum):
    """The kinds of step a hand's flow is made of (the value is the word a ruleset's `flow`
    writes), and DONE, the hand settled or thrown in."""

    DEAL = "deal"  # packets of the deal handed out
    REDEAL = "redeal"  # requests to have the deal thrown in
    ASK = "ask"  # a yes-or-no question put to seats in turn
    BID = "bid"  # the auction
    CALL = "call"  # the partner call
    TALON = "talon"  # the talon taken, shared, set aside or laid out
    DISCARD = "discard"  # cards laid away
    DECLARE = "declare"
    ANNOUNCE = "announce"  # bonuses announced before play
    DOUBLE = "double"  # doublings before play
    PLAY = "play"
    DONE = "done"  # settled, or thrown in


#: the kinds of step a flow may list, in the order a hand without a `flow` goes through them
STEP_KINDS = tuple(phase for phase in Phase if phase is not Phase.DONE)


@dataclass(frozen=True)
class Question:
    """An `ask` step's question: each seat of `seats` in turn answers yes or no; a yes is
    recorded as the seat's declaration `id` (read with `declared(seat, 'id')`)."""

    id: str
    name: str
    seats: Evaluator | None  # who is asked (None: every seat), in order of play


@dataclass(frozen=True)
class FlowStep:
    """One step of a hand's flow. Only the settings of the step's own phase are set."""

    phase: Phase
    when: Evaluator | None = None  # the step is skipped when this is false on reaching it
    packets: tuple[int, ...] = ()  # deal: which of the deal's packet steps it hands out
    completes_deal: bool = False  # deal: its packets are the deal's last
    rules: tuple[str, ...] | None = None  # redeal: the ids of the rules asked (None: all)
    question: Question | None = None  # ask
    bidders: Evaluator | None = None  # bid: the seats that take part (None: all)
    count: Evaluator | None = None  # discard: how many `player` lays away here
    owes_discards: bool = True  # talon: cards taken into a hand are laid away after
    settles_play: bool = False  # the hand's play rules are settled on reaching this step
    source: str = ""

    @property
    def word(self) -> str:
        """The step as a ruleset's `flow` writes it."""
        return self.phase.value
