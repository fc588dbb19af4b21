"""State that lasts between hands, in words: transfers into and out of the accounts, and the
counters as a hand found and left them.

Where it sits: beside `tarot.presentation.transcript` (the account of a finished hand) and the
human seat's screen (`tarot.presentation.seat_screen`), which both print these lines for rulesets
with a `lasting` section; a ruleset without one gets none.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarot.core.ruleset import Ruleset
from tarot.engine.lasting import LastingValues, TransferMade
from tarot.expressions.builtins import magnitude
from tarot.expressions.numbers import shown


def transfer_lines(
    ruleset: Ruleset, transfers: Sequence[TransferMade], at: str, trick: int = 0
) -> list[str]:
    """Each transfer made at `at` (at a trick: after trick number `trick`), as
    `    pay: seat 0 -> pot  1 point  Ante [source]`."""
    lasting = ruleset.lasting
    if lasting is None:
        return []
    rules = {transfer.id: transfer for transfer in lasting.transfers}
    lines = []
    for move in transfers:
        if move.at != at or move.trick != trick:
            continue
        rule = rules[move.rule]
        amount = magnitude(move.amount)
        paid = f"{shown(amount)} {ruleset.unit.of(amount)}"
        route = (
            f"seat {move.seat} -> {move.account}"
            if move.amount > 0
            else f"{move.account} -> seat {move.seat}"
        )
        cite = f" [{rule.source}]" if rule.source else ""
        lines.append(f"    pay: {route}  {paid}  {rule.name}{cite}")
    return lines


def values_line(ruleset: Ruleset, values: LastingValues, when: str) -> list[str]:
    """The counters and accounts in one line (`when`: "before the hand", "after the hand")."""
    if ruleset.lasting is None:
        return []
    parts = []
    for counter in ruleset.lasting.counters:
        if counter.per_seat:
            each = ", ".join(
                f"seat {s} {shown(v)}" for s, v in enumerate(values.seats[counter.name])
            )
            parts.append(f"{counter.name}: {each}")
        else:
            parts.append(f"{counter.name} {shown(values.table[counter.name])}")
    return [f"Lasting {when}: " + "; ".join(parts)]
