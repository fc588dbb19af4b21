"""`--option NAME=READING` (on `tarot play`, `explain`, `simulate` and `diff A B`; `--levels`
on `tarot study`): readings chosen on the command line, checked as a usage.

Where it sits: called by `tarot.cli` and the commands before the ruleset is loaded with
the readings. A name or reading that the ruleset does not have is a mistake typed on the
command line, not in a file: `OptionFlagError` (exit 2), naming the ruleset's options or the
option's readings, with the closest one when there is one.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarot.core.ruleset import Ruleset
from tarot.errors import RulesetError, UsageError, did_you_mean


class OptionFlagError(UsageError):
    """An --option value that is not NAME=READING, or names an option or a reading the
    ruleset does not have."""


MAX_SHOWN = 40  # characters of a typed name or reading repeated in a message


def shown(text: str) -> str:
    """What was typed, quoted with its control characters escaped, and cut if long."""
    return repr(text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "...")


def chosen_readings(
    pairs: Sequence[str], ruleset: Ruleset, side: str, flag: str = "--option"
) -> dict[str, str]:
    """The readings `--option NAME=READING` (repeated; or the `flag` named) chooses for
    `ruleset` (loaded with its defaults), which the command line calls `side`;
    OptionFlagError if one is wrong."""
    options: dict = ruleset.document.get("options", {})
    return _chosen(pairs, options, f"{side} ({ruleset.id})", flag)


def readings_for(pairs: Sequence[str], target: str) -> dict[str, str]:
    """The readings `--option NAME=READING` chooses for the ruleset `target` (a name or a
    file) before it is loaded, checked against the options its files (merged along
    `extends`) give; OptionFlagError if one is wrong. A ruleset whose files do not give
    its options in a form to check against is left to the loader to report."""
    from tarot.compile.loader import locate
    from tarot.load import paths
    from tarot.load.inheritance import resolve

    try:
        merged = resolve(locate(target), paths.find_named, paths.list_named).data
    except RulesetError:
        merged = None
    options = merged.get("options", {}) if isinstance(merged, dict) else None
    if not isinstance(options, dict) or not all(
        isinstance(option, dict) and isinstance(option.get("readings", {}), dict)
        for option in options.values()
    ):
        return _chosen(pairs, None, target, "--option")
    return _chosen(pairs, options, target, "--option")


def _chosen(pairs: Sequence[str], options: dict | None, ruleset: str, flag: str) -> dict[str, str]:
    """The readings chosen by `pairs` among `options` of the ruleset called `ruleset` (only
    their form checked when `options` is None)."""
    chosen: dict[str, str] = {}
    for pair in pairs:
        name, sep, reading = pair.partition("=")
        if not sep or not name or not reading:
            raise OptionFlagError(
                f"{flag} {shown(pair)}: write NAME=READING, an option of {ruleset} and one "
                "of its readings"
            )
        if options is not None and name not in options:
            listed = ", ".join(options) if options else "none"
            raise OptionFlagError(
                f"{flag}: {ruleset} has no option {shown(name)}; "
                f"{did_you_mean(name, list(options))}options: {listed}"
            )
        readings = list(options[name].get("readings", {})) if options is not None else [reading]
        if reading not in readings:
            raise OptionFlagError(
                f"{flag} {name}: {ruleset} has no reading {shown(reading)}; "
                f"{did_you_mean(reading, readings)}readings: {', '.join(readings)}"
            )
        if chosen.get(name, reading) != reading:
            raise OptionFlagError(
                f"{flag} {name}: already chosen as {chosen[name]!r}, not also {reading!r}"
            )
        chosen[name] = reading
    return chosen
