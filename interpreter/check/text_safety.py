"""Check stage, beside the schema: no text of a ruleset holds a control character or one that
changes the direction of the text around it.

Pipeline: yaml_source -> inheritance (load) -> schema_check, **text_safety** -> options ->
semantic_checks (check) -> compile. Every name, title, description and label of a ruleset
reaches a terminal (`tarot play`, `explain`, `simulate`, `diff`) or the web page as it is
written: an escape sequence there can move the cursor, rewrite or hide a payment line, ring
the bell or retitle the window, and a right-to-left override can make one name read as
another. So every text of the merged document, keys as well as values, is checked, and a
character other than the line break and the tab below U+0020, DEL, the C1 controls
(U+0080 to U+009F), the line and paragraph separators, and the marks, embeddings, overrides
and isolates of the Unicode bidirectional algorithm is refused where it is written, named by
its code point (a problem's message never prints such a character: `errors.shown_text`).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from tarot.errors import UNSAFE_TEXT as UNSAFE
from tarot.errors import Problem, json_path
from tarot.load.inheritance import MergedDocument

MAX_PROBLEMS = 20  # a file full of them gets this many messages, not one per character


def text_problems(merged: MergedDocument) -> list[Problem]:
    """A problem for each text of the document that holds an unsafe character."""
    problems: list[Problem] = []

    def visit(value: Any, path: tuple) -> None:
        if len(problems) >= MAX_PROBLEMS:
            return
        if isinstance(value, str):
            found = UNSAFE.search(value)
            if found is not None:
                problems.append(_problem(merged, path, value, found.start(), "text"))
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and (found := UNSAFE.search(key)) is not None:
                    problems.append(_problem(merged, (*path, key), key, found.start(), "key"))
                visit(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                visit(item, (*path, index))

    visit(merged.data, ())
    return problems


def _problem(merged: MergedDocument, path: tuple, text: str, at: int, what: str) -> Problem:
    character = text[at]
    name = unicodedata.name(character, "") or _CONTROL_NAMES.get(ord(character), "a control")
    message = (
        f"the {what} holds U+{ord(character):04X} ({name}) at character {at + 1}: a ruleset's "
        "texts may not hold control characters or characters that change the text's direction"
    )
    return Problem(merged.position(path), json_path(path), message)


_CONTROL_NAMES = {
    0x07: "BELL",
    0x08: "BACKSPACE",
    0x0D: "CARRIAGE RETURN",
    0x1B: "ESCAPE",
    0x7F: "DELETE",
    0x9B: "CONTROL SEQUENCE INTRODUCER",
}
