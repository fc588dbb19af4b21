"""The score sheet of a finished hand, built from the ruleset's own settlement, and the running
totals of a sitting.

Where it sits: in the engine beside `seat_view`, read by everything that tells a hand's end
(`tarot.presentation.seat_screen.result_lines` for `tarot play --human`,
`tarot.presentation.transcript` for `tarot play`, `tarot.web.view` for the browser). Nothing here
knows a game. The sheet's terms are what the ruleset's settlement and hand score read, found in
their expressions: the contract played, each parameter (`param.NAME`) and contract value
(`contract.NAME`) they use, and every definition they reach, itself or through others, in the
ruleset's order, each with its description and its value on the finished hand (a definition of cards
is left out: what a rule counts of them is the term). Then what each rule paid (the payments, and
the transfers into and out of the accounts), net for each seat, and the net.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tarot.core.ruleset import Ruleset
from tarot.engine.state import HandState
from tarot.expressions import EvaluationError
from tarot.expressions.builtins import Number
from tarot.expressions.numbers import shown
from tarot.expressions.types import CompiledExpression, Type

PARAM = re.compile(r"\bparam\.([A-Za-z_]\w*)")
CONTRACT_VALUE = re.compile(r"\bcontract\.([A-Za-z_]\w*)")


@dataclass(frozen=True)
class Term:
    """One line of the sheet: a name, what it is, and its value (one per seat for a definition
    of a seat)."""

    name: str
    description: str
    value: str | None = None
    per_seat: tuple[str, ...] | None = None
    kind: str = "definition"  # or "contract", "parameter", "contract value"


@dataclass(frozen=True)
class Sheet:
    """A finished hand's score sheet."""

    number: int
    thrown_in: str | None  # the reason a deal was thrown in (then nothing else is scored)
    terms: tuple[Term, ...]
    card_points: tuple[Number, ...] | None
    paid: tuple[tuple[str, tuple[Number, ...]], ...]  # per rule's label, the net for each seat
    net: tuple[Number, ...]


def score_sheet(state: HandState) -> Sheet:
    """The sheet of a finished hand. Its terms are read from the whole hand: what the
    settlement counted, which every seat is told once the hand is over."""
    ruleset = state.ruleset
    if state.thrown_in is not None:
        reason = ruleset.rule_label("thrown_in:" + state.thrown_in)
        return Sheet(state.number, reason, (), None, _paid(state), tuple(state.returns()))
    return Sheet(
        state.number,
        None,
        tuple(_terms(state)),
        tuple(state.card_points()),
        _paid(state),
        tuple(state.returns()),
    )


def _paid(state: HandState) -> tuple[tuple[str, tuple[Number, ...]], ...]:
    """What each rule paid, net for each seat: the settlement's payments, then the hand's
    transfers into and out of the ruleset's accounts (a pot fed at the deal, paid out at the
    settlement), which count in the net too."""
    ruleset = state.ruleset
    by_rule: dict[str, list[Number]] = {}
    for payment in state.payments:
        net = by_rule.setdefault(ruleset.rule_label(payment.rule), [0] * ruleset.players)
        net[payment.payer] -= payment.amount
        net[payment.payee] += payment.amount
    for move in state.transfers:
        net = by_rule.setdefault(ruleset.rule_label(move.rule), [0] * ruleset.players)
        net[move.seat] -= move.amount
    return tuple((label, tuple(net)) for label, net in by_rule.items())


def _scoring_expressions(ruleset: Ruleset) -> list[CompiledExpression]:
    """The expressions of the settlement and the hand score."""
    found = []
    for rule in ruleset.settlement:
        found += [rule.when, rule.payers, rule.payees, rule.amount]
    found.append(ruleset.hand_score)
    return [e for e in found if isinstance(e, CompiledExpression)]


def _terms(state: HandState) -> Iterable[Term]:
    ruleset = state.ruleset
    expressions = _scoring_expressions(ruleset)
    reached = set().union(*(e.calls for e in expressions)) if expressions else set()
    definitions = [d for d in ruleset.definitions if d.name in reached]
    texts = [e.source for e in expressions] + [d.expression.source for d in definitions]
    described = ruleset.document.get("definitions", {})
    bidding = ruleset.bidding
    contract = (
        bidding.contract(state.auction.contract)
        if bidding is not None and state.auction.contract in {c.id for c in bidding.contracts}
        else None
    )
    if contract is not None:
        taker = "" if state.auction.taker is None else f", taken by seat {state.auction.taker}"
        yield Term("contract", "The contract played.", contract.name + taker, kind="contract")
    params = ruleset.document.get("parameters", {})
    for name in _names_in(PARAM, texts):
        if name in ruleset.params:
            about = params.get(name, {}).get("description", "") if isinstance(params, dict) else ""
            value = _shown(ruleset.params[name], None)
            yield Term(_spaced(name), about, value, kind="parameter")
    if contract is not None:
        for name in _names_in(CONTRACT_VALUE, texts):
            if name in contract.values:
                about = f"The {_spaced(name)} of the contract played."
                value = _shown(contract.values[name], None)
                yield Term(f"contract {_spaced(name)}", about, value, kind="contract value")
    for definition in definitions:
        if definition.expression.type in (Type.CARDS, Type.CARD):
            continue  # the cards a rule reads are not a score: what it counts of them is
        about = described.get(definition.name, {}).get("description", "")
        compiled = definition.expression
        try:
            if definition.of_seat is None:
                value = state.evaluate(compiled)
                yield Term(_spaced(definition.name), about, _shown(value, compiled.type))
            else:
                values = tuple(
                    _shown(state.evaluate(compiled, {definition.of_seat: seat}), compiled.type)
                    for seat in range(ruleset.players)
                )
                yield Term(_spaced(definition.name), about, per_seat=values)
        except EvaluationError:
            continue  # a term the finished hand gives no value (no taker, say): left out


def _names_in(pattern: re.Pattern[str], texts: Sequence[str]) -> list[str]:
    """The names the pattern finds in the texts, once each, in the order first met."""
    seen: dict[str, None] = {}
    for text in texts:
        for name in pattern.findall(text):
            seen.setdefault(name, None)
    return list(seen)


def _spaced(name: str) -> str:
    return name.replace("_", " ")


def _shown(value: object, kind: Type | None) -> str:
    """A term's value as the sheet writes it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if kind == Type.SEAT and isinstance(value, int):
        return f"seat {value}"
    if kind == Type.SEATS and isinstance(value, Iterable):
        return ", ".join(f"seat {s}" for s in value) or "none"
    if kind in (Type.CARDS, Type.CARD):
        count = len(list(value)) if isinstance(value, Iterable) else 1
        return f"{count} card{'s' if count != 1 else ''}"
    if isinstance(value, int | float | Fraction):
        return shown(value)
    return str(value)


def _number(value: Number) -> str:
    text = shown(value)
    return "+" + text if value > 0 else text


def sheet_lines(sheet: Sheet, names: Sequence[str], unit: str) -> list[str]:
    """The sheet as lines of text, seats called by `names`."""
    if sheet.thrown_in is not None:
        return [f"Score sheet, hand {sheet.number}: thrown in ({sheet.thrown_in}); nothing paid."]
    lines = [f"Score sheet, hand {sheet.number}:"]
    width = max(
        (len(term.name) + 13 * (term.kind == "parameter") for term in sheet.terms), default=0
    )
    for term in sheet.terms:
        name = f"{term.name} (rule value)" if term.kind == "parameter" else term.name
        if term.per_seat is not None:
            text = ", ".join(f"{n} {v}" for n, v in zip(names, term.per_seat, strict=True))
        else:
            text = term.value or ""
        lines.append(f"  {name:<{width}}  {text}")
    column = max(8, *(len(name) + 1 for name in names))
    label_width = min(max([len(label) for label, _net in sheet.paid] + [14]), 48)
    lines.append(f"  {'':<{label_width}}" + "".join(f"{n:>{column}}" for n in names))
    rows: list[tuple[str, Sequence[Number]]] = []
    if sheet.card_points is not None:
        rows.append(("card points", sheet.card_points))
    rows += list(sheet.paid)
    rows.append((f"net ({unit})", sheet.net))
    for label, values in rows:
        signed = label != "card points"
        cells = "".join(
            f"{(_number(v) if signed else _number(v).lstrip('+')):>{column}}" for v in values
        )
        if len(label) > label_width:
            lines.append(f"  {label}")
            label = ""
        lines.append(f"  {label:<{label_width}}{cells}")
    return lines


def running_lines(hands: Sequence[Sequence[Number]], names: Sequence[str], unit: str) -> list[str]:
    """The sitting so far: each hand's net for each seat, and the running totals."""
    column = max(8, *(len(name) + 1 for name in names))
    lines = [f"The sitting, in {unit}:", "  hand    " + "".join(f"{n:>{column}}" for n in names)]
    totals: list[Number] = [0] * len(names)
    for number, net in enumerate(hands, 1):
        totals = [t + n for t, n in zip(totals, net, strict=True)]
        lines.append(f"  {number:<8}" + "".join(f"{_number(v):>{column}}" for v in net))
    lines.append("  total   " + "".join(f"{_number(v):>{column}}" for v in totals))
    return lines
