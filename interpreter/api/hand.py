"""A hand as the Python API steps it: `State`, OpenSpiel-like, over the engine's `HandState`.

Where it sits: `Ruleset.new_hand` and `tarot.play` hand one out. It asks the engine
(`tarot.engine.state.HandState`) and answers in the API's values: `Action`s to choose
from, `Card`s, `Payment`s, an `Observation` for one seat, and the hand as a game record
(`tarot.records.record`) or as the transcript `tarot play` prints (`tarot.presentation.transcript`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from tarot.api.cards import Action, Card, actions_of
from tarot.api.view import Observation, Payment, observe, payments_of
from tarot.core.actions import IllegalAction
from tarot.engine.chosen_deal import deal_of
from tarot.engine.phases.settle import settlement_with
from tarot.engine.state import HandState
from tarot.errors import TarotError
from tarot.expressions.builtins import Number
from tarot.expressions.numbers import exact, jsonable
from tarot.presentation.transcript import hand_transcript
from tarot.records.record import game_record

if TYPE_CHECKING:
    from tarot.api.rulesets import Ruleset


class HandNotOver(TarotError, ValueError):
    """What only a finished hand has (its record, its card points) was asked of one that is
    not over."""


class State:
    """One hand: `current_player`, `legal_actions()`, `apply(action)`, `is_terminal()`,
    `returns()`, `observation(seat)`, `clone()`, `record()`, `deal`, `settlement()`."""

    def __init__(
        self, ruleset: Ruleset, hand: HandState, seed: int, players: Sequence[str]
    ) -> None:
        self.ruleset = ruleset
        self.seed = seed
        self.engine = hand  # the engine's own state: every card, hidden or not
        self._players = list(players)  # each seat's player, as the record names it

    @property
    def hand_number(self) -> int:
        return self.engine.number

    @property
    def dealer(self) -> int:
        return self.engine.dealer

    @property
    def deal(self) -> dict:
        """The deal as it was dealt, in the shape `Ruleset.new_hand(deal=...)` takes (`dealer`,
        `hands`, `talon`, `piles` where the ruleset deals piles): to deal it again, under this
        ruleset or another with the same cards, or to write it to a file for `tarot play
        --deal`."""
        return deal_of(self.engine.ruleset, self.engine.dealer, self.engine.pack)

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """The seats sitting this hand out, dealt nothing and asked nothing (rulesets with
        `players.sit_out`; empty in others)."""
        return self.engine.seating.out

    @property
    def current_player(self) -> int | None:
        """The seat to decide, None once the hand is over."""
        return self.engine.current_player()

    @property
    def decision_kind(self) -> str | None:
        """What the current decision is about: `play`, `discard`, `bid`, `declare`..."""
        decision = self.engine.decision
        return None if decision is None else decision.kind.value

    def legal_actions(self) -> list[Action]:
        """The current player's legal actions, in the order the rules give them."""
        decision = self.engine.decision
        if decision is None:
            return []
        return actions_of(decision.kind, decision.actions, self.ruleset.cards, self.engine.ruleset)

    def apply(self, action: Action | Card | str) -> None:
        """Take a legal action (an `Action`, a `Card`, or the action's text); raise
        `IllegalAction`, the state unchanged, for anything else."""
        decision = self.engine.decision
        if isinstance(action, Action) and decision is not None:
            if action.kind != decision.kind.value:
                raise IllegalAction(
                    f"{action.text!r} answers a {action.kind} decision; seat {decision.seat} "
                    f"has a {decision.kind.value} decision to take"
                )
            action = action.text
        if not isinstance(action, str):
            raise IllegalAction(f"{action!r} is not an action: give an Action, a Card or a text")
        self.engine.apply_action(str.__str__(action))

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list[Number]:
        """Net result per seat so far (final once the hand is over), in the ruleset's unit: an
        int, or a `fractions.Fraction` when not whole."""
        return self.engine.returns()

    @property
    def payments(self) -> list[Payment]:
        """Every payment made so far, in order."""
        return payments_of(self.engine.ruleset, self.engine.payments)

    def card_points(self) -> list[Number]:
        """The card points of each seat's pile (the hand must be over): ints, or Fractions
        when not whole (`45.5` is `Fraction(91, 2)`)."""
        self._must_be_over("card points")
        return list(self.engine.card_points())

    def settlement(
        self, card_points: Sequence[int | float | Fraction] | None = None
    ) -> list[Payment]:
        """The settlement payments of the finished hand (those paid when the cards were
        counted), or with `card_points` (one number per seat), those the ruleset would pay on
        this hand were these each seat's card points: a settlement table checked row by row
        without a hand played to each row. The hand is left as it was."""
        self._must_be_over("the settlement")
        points = None
        if card_points is not None:
            points = list(card_points)
            if len(points) != self.ruleset.players or not all(
                isinstance(p, int | float | Fraction)
                and not isinstance(p, bool)
                and math.isfinite(p)
                for p in points
            ):
                raise ValueError(
                    f"card_points: one number per seat ({self.ruleset.players}), "
                    f"not {card_points!r}"
                )
            return payments_of(
                self.engine.ruleset,
                settlement_with(self.engine, [exact(p) for p in points]),  # 45.5 is 91/2
            )
        return payments_of(self.engine.ruleset, settlement_with(self.engine, None))

    def observation(self, seat: int) -> Observation:
        """What `seat` may know now: its own cards, what was shown and played, the decisions
        taken (another seat's discard only as made), the payments."""
        if not isinstance(seat, int) or not 0 <= seat < self.ruleset.players:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self.ruleset.players - 1}")
        return observe(self.engine, seat)

    def clone(self) -> State:
        """An independent copy (to try actions on)."""
        return State(self.ruleset, self.engine.clone(), self.seed, self._players)

    def record(self) -> dict:
        """The finished hand as a game record (the JSON `tarot replay` checks, ready for
        `json.dump`: a number that is not whole as a record writes it, `"40/3"`); a seat played
        by your own code is named `human` in it."""
        self._must_be_over("a record")
        record = jsonable(game_record(self.engine.ruleset, self.seed, self._players, [self.engine]))
        assert isinstance(record, dict)
        return record

    def transcript(self) -> str:
        """The finished hand as `tarot play` prints it: deal, discards, declarations, tricks,
        every payment with its rule and source, card points and net."""
        self._must_be_over("a transcript")
        return hand_transcript(self.engine)

    def _must_be_over(self, what: str) -> None:
        if not self.is_terminal():
            raise HandNotOver(
                f"{what} is kept for a finished hand; seat {self.current_player} is still to "
                f"take a {self.decision_kind} decision"
            )

    def __str__(self) -> str:
        if self.is_terminal():
            return self.transcript()
        return (
            f"hand {self.hand_number} of {self.ruleset.id}: seat {self.current_player} to "
            f"{self.decision_kind}"
        )

    def __repr__(self) -> str:
        where = "over" if self.is_terminal() else f"seat {self.current_player} to decide"
        return f"<tarot.State {self.ruleset.id} seed {self.seed} hand {self.hand_number}: {where}>"
