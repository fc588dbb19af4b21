"""The hand's own card rules (`play.forced`, `play.lead_forbidden`, `play.held_back`), each
narrowing the legal cards of every hand of a batch at once.

Where it sits: called by the batch's trick play (`tarot.batch.phases.play`) after the
trick rules have given each hand's legal cards (`play.legal`), before the cards kept back by
announcements; the scalar engine's is `tarot.engine.phases.play.restricted`: of the legal
cards, those `forced` must be played when there are any; then of those left, the cards
`lead_forbidden` (when leading) and `held_back` are played only when nothing else may be.
"""

from __future__ import annotations

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.contract_play import TrickPlay
from tarot.batch.masks import Masks, any_card
from tarot.batch.values import Ctx


def restricted(play: TrickPlay, ctx: Ctx, legal: Masks, leading: bool) -> Masks:
    """The legal cards of each hand of `ctx` (its `player` the seat to play) narrowed by
    the card rules of `play`."""
    if play.forced is not None:
        forced = legal & _cards(play.forced, ctx)
        legal = np.where(any_card(forced)[:, None], forced, legal)
    for rule in (play.lead_forbidden if leading else None, play.held_back):
        if rule is not None:
            left = legal & ~_cards(rule, ctx)
            legal = np.where(any_card(left)[:, None], left, legal)
    return legal


def _cards(rule: Node, ctx: Ctx) -> Masks:
    """The cards the rule gives for each hand, as [hands, words]."""
    words = ctx.state.tables.layout.words
    return np.broadcast_to(rule.fn(ctx).union(), (ctx.size, words))
