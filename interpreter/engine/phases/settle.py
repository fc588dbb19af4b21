"""The end of the hand: the Fool's last debts, the settlement payments and the hand's scores.

Where it sits: the last phase of the hand (`tarot.engine.phases`), entered once every
card is played, or from play when a seat claims the game. A deal thrown in ends the hand
without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tarot.engine.events import AT_SETTLEMENT, Payment
from tarot.engine.lasting import close_hand
from tarot.engine.phases.phase import Phase
from tarot.engine.seating import pay_as_defenders
from tarot.engine.values import selected_seats, tidy
from tarot.expressions import EvaluationError
from tarot.expressions.builtins import Number
from tarot.expressions.numbers import ratio

if TYPE_CHECKING:
    from tarot.core.ruleset import Counting, Evaluator
    from tarot.engine.state import HandState


def enter(state: HandState) -> None:
    finish(state)


def decide(state: HandState) -> bool:
    """Nothing is asked once the hand is over."""
    state.decision = None
    return True


def finish(state: HandState) -> None:
    from tarot.engine.phases import play  # play calls this on a claim

    play.pay_excuse_debts(state, at_the_end=True)
    exchange = state.play.rules.excuse_exchange
    won = state.zones.won
    if exchange is not None and exchange.unpaid == "fool_surrendered":
        for debtor, creditor in state.play.excuse_debts:
            for card in [c for c in won[debtor] if c in state.play.excuses]:
                won[debtor].remove(card)
                won[creditor].append(card)
    _name_who_scores_what_is_left(state)
    state.phase = Phase.DONE
    state.decision = None
    state._changed()
    state._fire_rules(state.ruleset.settlement, {}, AT_SETTLEMENT)
    sit_out = state.ruleset.sit_out
    if sit_out is not None and sit_out.as_defender:
        pay_as_defenders(state)
    out = state.seating.out  # a seat sitting the hand out scores nothing in it
    state.scores = [
        0 if seat in out else tidy(state.hand_score(seat)) for seat in range(state.ruleset.players)
    ]
    state._changed()
    close_hand(state)


def _name_who_scores_what_is_left(state: HandState) -> None:
    """Once play is over: the seat the discards score for and the seat the talon still on
    the table scores for, where the ruleset names them only then (`scored_by`: the first
    seat given, or nobody when it gives none)."""
    from tarot.engine.phases.talon import talon_scored_by  # the talon phase ends hands here

    if state.ruleset.discard_scored_by is not None:
        state.play.discards_to = _first_or_none(state, state.ruleset.discard_scored_by)
    talon_rule = talon_scored_by(state)
    if talon_rule is not None:
        state.play.talon_to = _first_or_none(state, talon_rule)


def _first_or_none(state: HandState, rule: Evaluator) -> int | None:
    seats = selected_seats(state.evaluate(rule))
    return seats[0] if seats else None


def settlement_with(state: HandState, points: Sequence[Number] | None = None) -> list[Payment]:
    """The settlement payments the ruleset makes on this hand, with `points` as each seat's
    card points in place of its piles' (a settlement table checked row by row without a hand
    played to each row); worked out on a copy, the hand left as it was. The payments made
    earlier in the hand are not counted (the settlement alone is asked)."""
    trial = state.clone()
    trial._points = None if points is None else list(points)
    trial.payments, trial.fired = [], {}
    trial._changed()
    try:
        trial._fire_rules(trial.ruleset.settlement, {}, AT_SETTLEMENT)
    except EvaluationError as error:
        raise trial._reported(error) from None
    return trial.payments


def count_points(counting: Counting, pile: Sequence[int]) -> Number:
    """Card points of a pile counted in groups: each group scores the values of its counting
    cards less one for each counting card, plus one; a partial group of r cards scores the
    same with `credit[r-1]` in place of the one. Counted in `counting.scale`ths, as ints."""
    values, scale = counting.scaled_values, counting.scale
    counted = [values[c] for c in pile if values[c]]
    whole, leftover = divmod(len(pile), counting.group_size)
    credit = counting.scaled_credit[leftover - 1] if leftover else 0
    return ratio(sum(counted) + (whole - len(counted)) * scale + credit, scale)
