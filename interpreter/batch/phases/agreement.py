"""A redeal the other seats must agree to (`redeal[].agreed_by`), for every hand of a batch
at once: once a rule calls for a redeal (or, with `choice`, its player asks for one), the
seats the rule's `agreed_by` gives, the player left out, are asked in turn from his next
seat (`RULE:redeal` to agree, `RULE:play_on` to refuse); one refusal and the deal stands,
else it is thrown in.

Where it sits: called by the batch's redeal phase (`tarot.batch.phases.auction.redeal`)
for each rule and seat in turn; the scalar engine's is `tarot.engine.phases.deal`
(`_put_to_agreement`, `answer_redeal`), followed word for word.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.masks import Ints
from tarot.batch.players import choose_first
from tarot.batch.state import BatchState
from tarot.batch.values import Ctx, seat_mask
from tarot.core.actions import PLAY_ON_TEXT, REDEAL_TEXT, DecisionKind


def agreed(state: BatchState, rule_id: str, agreed_by: Node, rows: Ints, seats: Ints) -> Ints:
    """The hands of `rows` whose redeal, called for by `seats` (one per hand), every seat of
    `agreed_by` agreed to (all of them, where it gives none but the player); each asked in
    order of play from the player's next, until one refuses."""
    if not len(rows):
        return rows
    ctx = Ctx(state, rows, {**state.names(rows), "player": seats})
    asked = seat_mask(agreed_by.fn(ctx), len(rows), state.players)
    following = state.round_from(rows, seats)[:, 1:]  # the player is in play: first
    every = np.arange(len(rows))
    standing = np.ones(len(rows), dtype=np.bool_)  # nobody has refused yet
    for position in range(following.shape[1]):
        agreeing = following[:, position]
        ask = standing & asked[every, agreeing]
        if not ask.any():
            continue
        these, by = rows[ask], agreeing[ask]
        redeal, play_on = f"{rule_id}:{REDEAL_TEXT}", f"{rule_id}:{PLAY_ON_TEXT}"
        agrees = choose_first(state, these, by, DecisionKind.REDEAL.value, redeal, play_on)
        standing[np.flatnonzero(ask)[~agrees]] = False
    return rows[standing]
