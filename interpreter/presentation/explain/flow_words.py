"""The steps of a hand's flow in words, one line each, for `tarot explain`.

Where it sits: read by the page builder (`tarot.presentation.explain.page`) for its section "The
order of the hand"; it reads the compiled flow (`Ruleset.flow`) and the document's own text of each
step's expressions, so that a reader sees what the author wrote.
"""

from __future__ import annotations

from collections.abc import Mapping

from tarot.core.flow import FlowStep, Phase
from tarot.core.ruleset import Ruleset
from tarot.presentation.explain.words import code

_PLAIN = {
    Phase.BID: "The auction.",
    Phase.CALL: "The taker calls a partner.",
    Phase.TALON: "The talon is placed as the contract (or the ruleset) says.",
    Phase.DECLARE: "The declarations made before play.",
    Phase.ANNOUNCE: "The announcements.",
    Phase.DOUBLE: "The doublings.",
    Phase.PLAY: "The play of the cards.",
}


def step_line(step: FlowStep, ruleset: Ruleset, index: int) -> str:
    """Step `index` of the flow in words: what happens, then under what condition."""
    settings = _written_settings(ruleset, index)
    line = _what(step, ruleset, settings)
    if "when" in settings:
        line += f" Only when {code(settings['when'])} holds."
    return line


def _written_settings(ruleset: Ruleset, index: int) -> Mapping:
    written = ruleset.document.get("flow")
    if written is None or index >= len(written):
        return {}
    entry = written[index]
    if isinstance(entry, Mapping):
        return next(iter(entry.values())) or {}
    return {}


def _what(step: FlowStep, ruleset: Ruleset, settings: Mapping) -> str:
    phase = step.phase
    if phase == Phase.DEAL:
        return _deal(step, ruleset)
    if phase == Phase.REDEAL:
        asked = step.rules or tuple(rule.id for rule in ruleset.redeals)
        names = [rule.name for rule in ruleset.redeals if rule.id in asked]
        return "Each player in turn may have the deal thrown in: " + "; ".join(names) + "."
    if phase == Phase.ASK:
        assert step.question is not None  # an ask step has its question
        who = f"each of {code(settings['seats'])}" if "seats" in settings else "each player"
        return (
            f"{who.capitalize()} in turn answers yes or no: {step.question.name} "
            f"(a yes is read as `declared(seat, '{step.question.id}')`)."
        )
    if phase == Phase.BID and "bidders" in settings:
        return f"The auction, among {code(settings['bidders'])} only."
    if phase == Phase.TALON and not step.owes_discards:
        return (
            "The talon is placed as the contract (or the ruleset) says; cards taken into a "
            "hand were laid away before it was seen."
        )
    if phase == Phase.DISCARD:
        if "count" in settings:
            return f"Each player lays away {code(settings['count'])} cards."
        return "Each player lays away the cards he owes."
    return _PLAIN[phase]


def _deal(step: FlowStep, ruleset: Ruleset) -> str:
    every = len(ruleset.packets)
    if list(step.packets) == list(range(every)):
        return "The deal."
    numbers = ", ".join(str(i + 1) for i in step.packets)
    plural = "s" if len(step.packets) > 1 else ""
    return f"The deal, packet step{plural} {numbers} of {every}."
