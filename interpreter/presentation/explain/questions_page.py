"""The rules page's words for the questions a player may ask during play (`questions`).

Where it sits: called by `tarot.presentation.explain.page`, which turns each (title, lines,
path, node) given here into one rule of its page, with its source and assumption.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from tarot.presentation.explain.lasting_page import Written
from tarot.presentation.explain.words import code


def question_rules(doc: Mapping) -> Iterator[Written]:
    """Each question: when, who may ask it, what it asks, and that all hear the answer."""
    for i, spec in enumerate(doc.get("questions", [])):
        when = f", if {code(spec['when'])}" if "when" in spec else ""
        lines = [
            f"Before trick {spec['before_trick']} is led, each of {code(spec['by'])} in turn"
            f" from the leader may ask who holds {code(spec['cards'])}{when}; once one asks,"
            " every player is told who holds them, and those cards are shown as their"
            " holders'."
        ]
        yield spec.get("name", spec["id"]), lines, ("questions", i), spec
