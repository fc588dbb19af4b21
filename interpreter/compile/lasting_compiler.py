"""Compile stage, the `lasting` section: counters, accounts, their changes and transfers.

Pipeline: part of **compile** (`tarot.compile.ruleset_compiler` calls `lasting_facts`
before compiling any expression, so that every rule can read the counters, and
`compile_lasting` with the other sections). The names were checked by
`tarot.check.lasting_checks`; here each counter becomes a fact read from the hand
state's `lasting` values, and each change and transfer a compiled rule the engine runs
(`tarot.engine.lasting`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from tarot.compile import source_text
from tarot.core.ruleset import Counter, CounterChange, Evaluator, LastingRules, Transfer
from tarot.expressions import FactFunction, Type
from tarot.expressions.builtins import Number
from tarot.expressions.numbers import exact

if TYPE_CHECKING:
    from tarot.engine.state import HandState


class _Compiles(Protocol):
    """What this module asks of the ruleset compiler."""

    def expression(
        self, parts: tuple, value: object, event: str, expected: Type | None
    ) -> Evaluator: ...

    def seats_expression(self, parts: tuple, value: str, event: str) -> Evaluator: ...


def counters_of(data: dict) -> tuple[Counter, ...]:
    """The counters and accounts a document declares, in the order written."""
    section = data.get("lasting", {})
    counters = [
        Counter(name, spec.get("per", "seat") == "seat", exact(spec.get("start", 0)))
        for name, spec in section.get("counters", {}).items()
    ]
    counters += [
        Counter(name, False, exact(spec.get("start", 0)), account=True)
        for name, spec in section.get("accounts", {}).items()
    ]
    return tuple(counters)


def lasting_facts(data: dict) -> dict[str, FactFunction]:
    """A fact for each counter: NAME(seat) per seat, NAME() for the table or an account."""
    facts = {}
    for counter in counters_of(data):
        if counter.per_seat:
            facts[counter.name] = FactFunction((Type.SEAT,), Type.NUMBER, _per_seat(counter.name))
        else:
            facts[counter.name] = FactFunction((), Type.NUMBER, _of_table(counter.name))
    return facts


def _per_seat(name: str) -> Callable[[HandState, int], Number]:
    def read(state: HandState, seat: int) -> Number:
        return state.lasting.of_seat(name, seat)

    return read


def _of_table(name: str) -> Callable[[HandState], Number]:
    def read(state: HandState) -> Number:
        return state.lasting.table[name]

    return read


def compile_lasting(compiler: _Compiles, data: dict) -> LastingRules | None:
    """The section compiled (None when the ruleset has none)."""
    section = data.get("lasting")
    if section is None:
        return None
    counters = counters_of(data)
    per_seat = {counter.name for counter in counters if counter.per_seat}
    changes = tuple(
        _change(compiler, ("lasting", "changes", i), spec, spec["counter"] in per_seat)
        for i, spec in enumerate(section.get("changes", []))
    )
    transfers = tuple(
        _transfer(compiler, ("lasting", "transfers", i), spec)
        for i, spec in enumerate(section.get("transfers", []))
    )
    return LastingRules(counters, changes, transfers)


def _change(compiler: _Compiles, where: tuple, spec: dict, per_seat: bool) -> CounterChange:
    event = "lasting_seat" if per_seat else "lasting"
    key = "add" if "add" in spec else "set"
    when = spec.get("when")
    seats = spec.get("seats")
    return CounterChange(
        id=spec["id"],
        counter=spec["counter"],
        seats=None
        if seats is None
        else compiler.seats_expression(where + ("seats",), seats, "lasting"),
        when=None
        if when is None
        else compiler.expression(where + ("when",), when, event, Type.BOOL),
        value=compiler.expression(where + (key,), spec[key], event, Type.NUMBER),
        adds=key == "add",
        source=source_text(spec.get("source")),
    )


#: by a transfer's moment, the events its seats and its own expressions are compiled at
#: (the settlement's otherwise)
_TRANSFER_EVENTS = {
    "deal": ("lasting_deal", "lasting_deal_seat"),
    "trick": ("lasting_trick", "lasting_trick_seat"),
}


def _transfer(compiler: _Compiles, where: tuple, spec: dict) -> Transfer:
    at = spec.get("at", "settlement")
    seats_event, event = _TRANSFER_EVENTS.get(at, ("lasting", "lasting_seat"))
    key = "pay_in" if "pay_in" in spec else "pay_out"
    when = spec.get("when")
    return Transfer(
        id=spec["id"],
        name=spec.get("name", spec["id"]),
        account=spec["account"],
        at=at,
        seats=compiler.seats_expression(where + (key,), spec[key], seats_event),
        pays_in=key == "pay_in",
        when=None
        if when is None
        else compiler.expression(where + ("when",), when, event, Type.BOOL),
        amount=compiler.expression(where + ("amount",), spec["amount"], event, Type.NUMBER),
        source=source_text(spec.get("source")),
    )


def _condition(compiler: _Compiles, where: tuple, spec: dict, event: str) -> Evaluator | None:
    """A rule's `when`, compiled when it is given."""
    when = spec.get("when")
    return None if when is None else compiler.expression(where + ("when",), when, event, Type.BOOL)
