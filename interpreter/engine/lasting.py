"""State that lasts from hand to hand: counters per seat or for the table, and accounts.

Where it sits: beside the hand state (`tarot.engine.state`). A hand starts from the
values the hand before it left (`LastingValues`, carried by `engine.game` and checked by
`tarot.records.replay`), reads them in expressions through the facts the compiler names after
each counter, and changes them in three places: transfers into or out of an account after
the deal, after each trick (`engine.phases.play` calls `pay_transfers` with the trick's names)
and at the settlement, the ruleset's counter changes once a hand is played out, and
the transfers made when the sitting ends (`engine.phases.settle` calls `close_hand`). A hand
thrown in changes no counter: only the transfers after its deal, if any, stand.

Every amount of one transfer, and every value of one change, is worked out before any is
applied, so a rule that shares an account out (`amount: pot() / count(...)`) reads the
account as it stood when the rule began.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tarot.engine.values import magnitude, selected_seats, tidy
from tarot.expressions.builtins import Number, in_range

if TYPE_CHECKING:
    from tarot.core.ruleset import LastingRules, Ruleset, Transfer
    from tarot.engine.state import HandState

#: the moments transfers are made at, as records write them
DEAL, TRICK, SETTLEMENT, SITTING_END = "deal", "trick", "settlement", "sitting_end"


@dataclass
class LastingValues:
    """Every counter's value at one moment: per seat (one number a seat) or for the table."""

    seats: dict[str, list[Number]]
    table: dict[str, Number]

    @classmethod
    def start(cls, rules: LastingRules, players: int) -> LastingValues:
        """The values a sitting starts with."""
        return cls(
            {c.name: [c.start] * players for c in rules.counters if c.per_seat},
            {c.name: c.start for c in rules.counters if not c.per_seat},
        )

    def copy(self) -> LastingValues:
        return LastingValues({k: list(v) for k, v in self.seats.items()}, dict(self.table))

    def of_seat(self, name: str, seat: int) -> Number:
        """A seat's counter (0 for a value that is no seat, as -1)."""
        values = self.seats[name]
        return values[seat] if 0 <= seat < len(values) else 0

    def as_record(self) -> dict:
        """As records write it: each counter's name with its number, or a number per seat."""
        return {**{k: list(v) for k, v in self.seats.items()}, **self.table}


@dataclass(frozen=True)
class TransferMade:
    """One seat's payment into an account (`amount` > 0) or out of it (`amount` < 0)."""

    rule: str
    seat: int
    account: str
    amount: Number
    at: str
    trick: int = 0  # at a trick: its number (from 1)

    def as_record(self) -> dict:
        into = self.amount > 0
        record = {
            "rule": self.rule,
            "from": self.seat if into else self.account,
            "to": self.account if into else self.seat,
            "amount": magnitude(self.amount),
            "at": self.at,
        }
        if self.at == TRICK:
            record["trick"] = self.trick
        return record


def starting_values(ruleset: Ruleset, before: LastingValues | None) -> LastingValues:
    """What a hand starts from: the values given, or the sitting's start values (none for
    a ruleset without lasting state)."""
    if before is not None:
        return before.copy()
    rules = ruleset.lasting
    return LastingValues({}, {}) if rules is None else LastingValues.start(rules, ruleset.players)


def pay_transfers(state: HandState, at: str, trick: Mapping[str, object] | None = None) -> None:
    """Make the ruleset's transfers of the moment `at`, in order; at a trick, `trick` gives
    the names its expressions see (`trick`, `trick_number`, `winner`...)."""
    rules = state.ruleset.lasting
    if rules is None:
        return
    for transfer in rules.transfers_at(at):
        made = _worked_out(state, transfer, trick or {})
        for move in made:
            values = state.lasting.table
            values[move.account] = tidy(in_range(values[move.account] + move.amount))
        state.transfers += made
        if made:
            state.fired[transfer.id] = state.fired.get(transfer.id, 0) + 1
            state._changed()


def _worked_out(
    state: HandState, transfer: Transfer, variables: Mapping[str, object]
) -> list[TransferMade]:
    scope = state._scope(dict(variables))
    number = state.play.trick_number if transfer.at == TRICK else 0
    moves = []
    for seat in selected_seats(transfer.seats(scope)):
        scope.vars["player"] = seat
        if transfer.when is not None and not transfer.when(scope):
            continue
        amount = tidy(transfer.amount(scope))
        if amount:
            signed = amount if transfer.pays_in else -amount
            made = TransferMade(transfer.id, seat, transfer.account, signed, transfer.at, number)
            moves.append(made)
    return moves


def apply_changes(state: HandState) -> None:
    """The ruleset's counter changes, in order, at the end of a hand played out."""
    rules = state.ruleset.lasting
    if rules is None:
        return
    values = state.lasting
    for change in rules.changes:
        scope = state._scope({})
        if change.seats is None:
            if change.when is None or change.when(scope):
                old = values.table[change.counter]
                values.table[change.counter] = _changed(old, change.value(scope), change.adds)
        else:
            new = {}
            for seat in selected_seats(change.seats(scope)):
                scope.vars["player"] = seat
                if change.when is None or change.when(scope):
                    old = values.of_seat(change.counter, seat)
                    new[seat] = _changed(old, change.value(scope), change.adds)
            for seat, value in new.items():
                values.seats[change.counter][seat] = value
        state._changed()


def _changed(old: Number, value: Number, adds: bool) -> Number:
    return tidy(in_range(old + value) if adds else value)


def close_hand(state: HandState) -> None:
    """After the settlement of a hand played out: the transfers, the counter changes, and
    when the sitting ends with this hand, its own transfers."""
    if state.ruleset.lasting is None:
        return
    pay_transfers(state, SETTLEMENT)
    apply_changes(state)
    game = state.ruleset.game
    if game is not None and state.ruleset.lasting.transfers_at(SITTING_END):
        state.sitting_over = bool(state.evaluate(game.ends_when))
        if state.sitting_over:
            pay_transfers(state, SITTING_END)


def record_of(state: HandState) -> dict:
    """The hand's lasting state as records write it: the values it started from, the
    transfers made, the values it left."""
    return {
        "before": state.lasting_before.as_record(),
        "transfers": [move.as_record() for move in state.transfers],
        "after": state.lasting.as_record(),
    }
