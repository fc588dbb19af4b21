"""The rules page's words for state that lasts between hands (`lasting`) and for cards shown
to all (`show`).

Where it sits: called by `tarot.presentation.explain.page`, which turns each (title, lines, path,
node) given here into one rule of its page, with its source and assumption.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from tarot.presentation.explain.words import code

Written = tuple[str, list[str], tuple, Mapping]  # a rule's title, lines, path and node


def lasting_rules(doc: Mapping) -> Iterator[Written]:
    """Each counter, account, change and transfer, in plain words."""
    section = doc.get("lasting", {})
    for name, spec in section.get("counters", {}).items():
        per = "one number for each seat" if spec.get("per", "seat") == "seat" else "one number"
        read = f"{name}(seat)" if spec.get("per", "seat") == "seat" else f"{name}()"
        lines = [
            f"A counter kept from hand to hand: {per}, read as {code(read)}, starting at"
            f" {spec.get('start', 0)}."
        ]
        yield f"Counter {name}", lines, ("lasting", "counters", name), spec
    for name, spec in section.get("accounts", {}).items():
        lines = [
            f"An account of no seat, read as {code(name + '()')}, starting at"
            f" {spec.get('start', 0)}."
        ]
        yield f"Account {name}", lines, ("lasting", "accounts", name), spec
    for i, spec in enumerate(section.get("changes", [])):
        whose = f" of each of {code(spec['seats'])}" if "seats" in spec else ""
        when = f", if {code(spec['when'])}" if "when" in spec else ""
        counter = f"{spec['counter']}{whose}"
        change = (
            f"adds {code(spec['add'])} to {counter}"
            if "add" in spec
            else f"sets {counter} to {code(spec['set'])}"
        )
        lines = [f"After each hand played out, {change}{when}."]
        yield spec.get("name", spec["id"]), lines, ("lasting", "changes", i), spec
    moments = {
        "deal": "After the deal",
        "trick": "After each trick, once it is taken",
        "settlement": "At the settlement",
        "sitting_end": "When the sitting ends",
    }
    for i, spec in enumerate(section.get("transfers", [])):
        key = "pay_in" if "pay_in" in spec else "pay_out"
        way = "pays into" if key == "pay_in" else "receives out of"
        when = f", if {code(spec['when'])}" if "when" in spec else ""
        lines = [
            f"{moments[spec.get('at', 'settlement')]}, each of {code(spec[key])} {way}"
            f" {spec['account']} {code(spec['amount'])}{when}."
        ]
        yield spec.get("name", spec["id"]), lines, ("lasting", "transfers", i), spec


def show_rules(doc: Mapping) -> Iterator[Written]:
    """Each rule that shows cards to all, in plain words."""
    for i, spec in enumerate(doc.get("show", [])):
        trick = spec.get("after_trick")
        moment = {None: "After the deal", 0: "When play begins"}.get(trick, f"After trick {trick}")
        when = f", if {code(spec['when'])}" if "when" in spec else ""
        lines = [f"{moment}, {code(spec['cards'])} are shown to all{when}."]
        yield spec.get("name", spec["id"]), lines, ("show", i), spec
