"""The end of every hand: the Fool's last debts, then the settlement rules paid once all
cards are played.

Where it sits: the last batch phase (`tarot.batch.phases`); the scalar engine's is
`tarot.engine.phases.settle`.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.defender_share import pay_as_defenders
from tarot.batch.lasting import close_hands
from tarot.batch.masks import Ints
from tarot.batch.phases import exchange
from tarot.batch.program import Program
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, Value, per_row, seat_mask
from tarot.core.ruleset import HAND_SCORE
from tarot.engine.events import AT_SETTLEMENT


def settle(program: Program, state: BatchState, names: dict[str, Value]) -> None:
    """The settlement of every hand of `state`, then each seat's score in rulesets that
    score hands (added to its net, and counted under `HAND_SCORE` for each seat that
    scored, as `measure.hand_summary` counts it)."""
    state.settled = True
    # past the last trick played: the last of the hand, or the one after which play ended
    state.trick_number = min(state.trick_number, state.total_tricks) + 1
    rules = state.ruleset.play.excuse_exchange
    if rules is not None and (state.debtors[:, :1] >= 0).any():
        exchange.pay_debts(program, state, names, at_the_end=True)
        if rules.unpaid == "fool_surrendered":
            exchange.surrender(state)
    ctx = Ctx(state, np.arange(state.size), names)
    _name_who_scores_what_is_left(program, state, ctx)
    with program.compiler.remembering():  # the cards lie still: definitions are worked out once
        program.fire_rules(state, program.settlement, ctx, AT_SETTLEMENT)
        if state.flows is not None:  # a seat sitting out settles as a defender
            pay_as_defenders(state)
        if program.hand_score is not None:  # every seat's score worked out before any is added
            _score(program.hand_score, state, names)
    if program.lasting is not None:
        close_hands(program.lasting, state, names)


def _name_who_scores_what_is_left(program: Program, state: BatchState, ctx: Ctx) -> None:
    """Once play is over: the seat the discards score for and the seat the talon still on
    the table scores for, where the ruleset names them only then (`scored_by`: the first
    seat given, or nobody when it gives none), as the scalar engine's `settle`."""
    if program.discard_scored_by is not None:
        state.discards_to[:] = _first_or_none(program.discard_scored_by, ctx, state.players)
    talons = program.hand.talons
    for index, use in enumerate(talons):
        if use is None or use.scored_by is None:
            continue
        taking = np.ones(state.size, dtype=np.bool_)
        if state.ruleset.bidding is not None:
            taking = state.contract == index
        if taking.any():
            sub = ctx.subset(taking)
            state.talon_to[taking] = _first_or_none(use.scored_by, sub, state.players)


def _first_or_none(rule: Node, ctx: Ctx, players: int) -> Ints:
    """The first seat the seat expression gives in each hand, -1 where it gives none."""
    chosen = seat_mask(rule.fn(ctx), ctx.size, players)
    return np.where(chosen.any(axis=1), np.argmax(chosen, axis=1), -1)


def _score(rule: Node, state: BatchState, names: dict[str, Value]) -> None:
    rows = np.arange(state.size)
    scores = np.stack(
        [
            per_row(
                rule.fn(Ctx(state, rows, {**names, "player": np.full(state.size, seat)})),
                state.size,
            )
            for seat in range(state.players)
        ],
        axis=1,
    )
    if state.tables.seating.sits_out:  # a seat sitting the hand out scores nothing in it
        scores = np.where(state.in_play(rows), scores, 0)
    scores = scores * state.scale  # counted as the payments are
    state.net += scores
    if state.scored.shape[:1] == (state.size,):
        state.scored += scores
    key = state.rule_keys[HAND_SCORE]
    state.fired[:, key] += (scores != 0).sum(axis=1).astype(state.fired.dtype)
    state.paid[:, key] += np.abs(scores).sum(axis=1)
