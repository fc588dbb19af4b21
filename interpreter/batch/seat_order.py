"""The order the scalar engine pays a rule's payers and payees in, for the batch back end's
payment log.

Where it sits: read when a payment rule is compiled (`tarot.batch.program`). The batch keeps
a group of seats as a mask, in no order, and pays in seat order; the scalar engine pays the
seats of a group in the order the expression gives them: ascending for most, but the taker's
side (`attackers`, and `side(s)` of one of its seats) begins with the taker, then his
partner, then the seats that joined him. Each payment is the same either way; only the
order of a hand's payments, which its record keeps, depends on it.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from tarot.batch.array_exprs import typed_tree
from tarot.batch.masks import Ints
from tarot.batch.state import BatchState
from tarot.expressions.typed_tree import Typed


def attack_ordered(tree: Typed | None, definitions: Mapping[str, object]) -> bool:
    """Whether the scalar engine may give this group of seats in the taker's side's order:
    the side itself, a choice between it and another group, a filter of it, or a definition
    of one of these."""
    if tree is None:
        return False
    if tree.op == "var":
        return tree.name == "attackers"
    if tree.op == "call":
        return tree.name == "side"
    if tree.op == "definition" and tree.name in definitions:
        body = typed_tree(getattr(definitions[tree.name], "expression", None))
        return attack_ordered(body, definitions)
    if tree.op == "cond":
        return any(attack_ordered(branch, definitions) for branch in tree.args[1:])
    if tree.op == "filter":
        return attack_ordered(tree.args[0], definitions)
    return False


def attack_order(state: BatchState, rows: Ints) -> Ints:
    """[hands, seats]: the seats of each hand of `rows` in the taker's side's order: the
    taker, his partner, the seats that joined him in the order they joined, then the others
    from seat 0 (in seat order without a taker)."""
    n = state.players
    seats = np.arange(n)[None, :]
    taker, partner = state.taker[rows, None], state.partner[rows, None]
    rank = np.broadcast_to(seats, (len(rows), n))
    if state.joined.shape[:1] == (state.size,):  # joined: -n - 1 + its place, from 1
        joined = state.joined[rows]
        rank = np.where((joined > 0) & (taker >= 0), joined - n - 1, rank)
    rank = np.where((seats == partner) & (taker >= 0), -2 * n, rank)
    rank = np.where(seats == taker, -3 * n, rank)
    return np.argsort(rank, axis=1, kind="stable")
