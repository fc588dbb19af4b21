"""A seat sitting the hand out that settles as a defender (`players.sit_out.pays:
as_defender`), in the batch back end.

Where it sits: beside `tarot.batch.seating` (who sits out), read by `tarot.batch.program.pay`,
which notes each payment in the state's `Flows`, and by the settlement
(`tarot.batch.phases.settle`), which calls `pay_as_defenders` once the settlement's rules
have paid, before the hands' scores, as the scalar engine's `engine.seating.pay_as_defenders`
does: for each rule, moment and seat of the taker's side, what that rule moved between that
seat and the defenders, divided by the number of defenders, is paid by (or to) each seat
sitting out. The payments of a hand are kept by rule and moment as [hands, payer, payee]
sums, so that every hand is worked out at once; with a log kept (a run replayed through the
scalar engine), each hand's payments are also written in the scalar engine's order, read from
the payment log. Amounts are counted in 1/`BatchState.scale`, which the program makes a
multiple of every number of defenders that is not a power of two
(`defender_divisors`), so that each share is exact.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from tarot.batch.masks import Bools
from tarot.batch.state import BatchState, Logged
from tarot.core.ruleset import Ruleset


def defender_divisors(ruleset: Ruleset) -> set[int]:
    """The numbers of defenders a share is divided by, where one may be three or more (a
    float holds every quotient by 1 or 2): 1 to all the seats in play but the taker."""
    sit_out = ruleset.sit_out
    if sit_out is None or not sit_out.as_defender or sit_out.in_hand - 1 < 3:
        return set()
    return set(range(1, sit_out.in_hand))


def pay_as_defenders(state: BatchState) -> None:
    """Each seat sitting out pays or is paid, rule by rule and moment by moment, each seat
    of the taker's side the defenders' average share of what that rule moved between that
    seat and the defenders (see the module); nothing in a hand without a taker."""
    flows = state.flows
    assert flows is not None  # made at the deal for a ruleset whose seats out pay so
    rows = np.arange(state.size)
    attackers, defenders = state.attackers(rows), state.defenders(rows)
    out = ~state.in_play(rows)
    count = defenders.sum(axis=1)
    settled = attackers.any(axis=1) & (count > 0)
    if not settled.any():
        return
    outs = out.sum(axis=1)
    divisor = np.where(settled, count, 1).astype(np.float64)
    changed = np.zeros(state.size, dtype=bool)
    for (column, _moment), sums in flows.paid.items():
        # what each seat received from the defenders, less what it paid them, net
        received = np.einsum("hd,hda->ha", defenders.astype(np.float64), sums)
        given = np.einsum("had,hd->ha", sums, defenders.astype(np.float64))
        moved = np.where(attackers & settled[:, None], received - given, 0.0)
        if not moved.any():
            continue
        share = moved / divisor[:, None]  # exact: the scale is a multiple of the divisor
        to_attackers = share.sum(axis=1)
        state.net += share * outs[:, None]
        state.net -= out * to_attackers[:, None]
        state.paid[:, column] += np.abs(share).sum(axis=1) * outs
        changed |= moved.any(axis=1)
    state.lead_changed(np.flatnonzero(changed))
    if state.logging:
        _log(state, attackers, defenders, out, settled)


def _log(state: BatchState, attackers: Bools, defenders: Bools, out: Bools, settled: Bools) -> None:
    """The payments of the seats sitting out, written hand by hand in the scalar engine's
    order: each seat out in seat order, then each (rule, moment, seat of the taker's side)
    in the order its first payment with a defender was made (read from the payment log)."""
    scale = state.scale
    assert state.flows is not None
    earlier = state.flows.earlier
    for row in np.flatnonzero(settled).tolist():
        moved: dict[tuple[str, str, int], Fraction] = {}
        for key, giver, taker, scaled, moment in [
            *([] if earlier is None else earlier[row]),
            *state.payments_of(row),
        ]:
            amount = Fraction(scaled) / scale  # the float holds the whole number of units
            if attackers[row, taker] and defenders[row, giver]:
                entry_key, signed = (str(key), str(moment), taker), amount
            elif attackers[row, giver] and defenders[row, taker]:
                entry_key, signed = (str(key), str(moment), giver), -amount
            else:
                continue
            moved[entry_key] = moved.get(entry_key, Fraction(0)) + signed
        count = int(defenders[row].sum())
        for seat in np.flatnonzero(out[row]).tolist():
            for (key, moment, attacker), amount in moved.items():
                share = amount / count
                if not share:
                    continue
                payer, payee = (seat, attacker) if share > 0 else (attacker, seat)
                size = np.array([float(abs(share) * scale)])  # counted in 1/scale
                what = (key, np.array([payer]), np.array([payee]), size, moment)
                state.payment_log.append(Logged(np.array([row]), what))
