"""`--option NAME=READING` on `tarot diff A B`: readings chosen for B, checked as a usage.

Where it sits: called by `interpreter.cli` before B is loaded with the readings. A name or
reading that B does not have is a mistake typed on the command line, not in a file:
`OptionFlagError` (exit 2), naming B's options or the option's readings, with the closest
one when there is one.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from interpreter.ruleset import Ruleset


class OptionFlagError(ValueError):
    """An --option value that is not NAME=READING, or names an option or a reading the
    ruleset does not have."""


MAX_SHOWN = 40  # characters of a typed name or reading repeated in a message


def _shown(text: str) -> str:
    """What was typed, quoted with its control characters escaped, and cut if long."""
    return repr(text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "...")


def _close(word: str, known: Sequence[str]) -> str:
    found = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f"did you mean {found[0]!r}? " if found else ""


def chosen_readings(pairs: Sequence[str], ruleset: Ruleset, side: str) -> dict[str, str]:
    """The readings `--option NAME=READING` (repeated) chooses for `ruleset` (loaded with
    its defaults), which the command line calls `side`; OptionFlagError if one is wrong."""
    options: dict = ruleset.document.get("options", {})
    chosen: dict[str, str] = {}
    for pair in pairs:
        name, sep, reading = pair.partition("=")
        if not sep or not name or not reading:
            raise OptionFlagError(
                f"--option {_shown(pair)}: write NAME=READING, an option of {side} and one "
                "of its readings"
            )
        if name not in options:
            listed = ", ".join(options) if options else "none"
            raise OptionFlagError(
                f"--option: {side} ({ruleset.id}) has no option {_shown(name)}; "
                f"{_close(name, list(options))}options: {listed}"
            )
        readings = list(options[name].get("readings", {}))
        if reading not in readings:
            raise OptionFlagError(
                f"--option {name}: {side} ({ruleset.id}) has no reading {_shown(reading)}; "
                f"{_close(reading, readings)}readings: {', '.join(readings)}"
            )
        if chosen.get(name, reading) != reading:
            raise OptionFlagError(
                f"--option {name}: already chosen as {chosen[name]!r}, not also {reading!r}"
            )
        chosen[name] = reading
    return chosen
