"""What a hand keeps of what happened in it: payments with the moment they were made, and why
a deal was thrown in.

Where it sits: written by the hand state (`tarot.engine.state`) and its phases, read by
records (`tarot.records.record`), the transcript and the table views. The moments and reasons
are enums whose values are the words records use.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from tarot.expressions.builtins import Number


class PaymentTime(StrEnum):
    """When in the hand a payment was made."""

    CUT = "cut"
    DISCARD = "discard"
    DECLARATIONS = "declarations"
    TRICK = "trick"
    SETTLEMENT = "settlement"


class At(NamedTuple):
    """The moment of a payment: a time, and the trick's number during play."""

    time: PaymentTime
    trick: int | None = None

    @property
    def text(self) -> str:
        """As records write it: `trick 3`, `settlement`..."""
        return self.time.value if self.trick is None else f"{self.time.value} {self.trick}"


AT_CUT = At(PaymentTime.CUT)
AT_DISCARD = At(PaymentTime.DISCARD)
AT_DECLARATIONS = At(PaymentTime.DECLARATIONS)
AT_SETTLEMENT = At(PaymentTime.SETTLEMENT)
_AT_TRICKS: list[At] = []  # trick n's moment at index n, made once


def at_trick(number: int) -> At:
    """The moment of trick `number` (made once per number, not once per trick played)."""
    while len(_AT_TRICKS) <= number:
        _AT_TRICKS.append(At(PaymentTime.TRICK, len(_AT_TRICKS)))
    return _AT_TRICKS[number]


class ThrownIn(StrEnum):
    """A reason for throwing a deal in that is not a redeal rule of the ruleset (those are
    named by the rule's id)."""

    ALL_PASSED = "all_passed"


@dataclass
class Payment:
    rule: str
    payer: int
    payee: int
    amount: Number
    when: At

    @property
    def at(self) -> str:
        """The moment as records write it."""
        return self.when.text

    def as_record(self) -> dict:
        return {
            "rule": self.rule,
            "from": self.payer,
            "to": self.payee,
            "amount": self.amount,
            "at": self.at,
        }
