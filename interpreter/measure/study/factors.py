"""The factors of a study: each option studied at two levels, its default reading (low) and
one other reading (high).

Where it sits: first step of `tarot study`, after the base ruleset is loaded. `--options A,B`
names the options to study (all of them without it); `--levels NAME=READING` picks the high
reading of an option, which is otherwise the first reading after the default in the file's
order. An option with several other readings is still one factor, at the reading chosen: two
of its readings cannot both be in force in one run, so a two-level design cannot hold them
as separate factors; the readings left out are listed in the report with the `--levels` that
studies them. A name or reading the ruleset does not have is a usage mistake
(`OptionFlagError`, exit 2), with the closest name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tarot.compile.option_flags import OptionFlagError, chosen_readings, shown
from tarot.core.ruleset import Ruleset
from tarot.errors import did_you_mean


@dataclass(frozen=True)
class Factor:
    option: str
    low: str  # the default reading
    high: str  # the reading studied against it
    left_out: tuple[str, ...] = ()  # the option's other readings, not in this study


def option_names(text: str | None, ruleset: Ruleset) -> list[str]:
    """The options `--options A,B,...` names, in the ruleset's order (every option with
    readings to choose from when `text` is None)."""
    options: dict = ruleset.document.get("options", {})
    if text is None:
        return [name for name, option in options.items() if len(option.get("readings", {})) > 1]
    names = [name.strip() for name in text.split(",")]
    for name in names:
        if name not in options:
            listed = ", ".join(options) if options else "none"
            raise OptionFlagError(
                f"--options: {ruleset.id} has no option {shown(name)}; "
                f"{did_you_mean(name, list(options))}options: {listed}"
            )
        if len(options[name].get("readings", {})) < 2:
            raise OptionFlagError(f"--options: {name} has only one reading: nothing to study")
    if len(set(names)) != len(names):
        raise OptionFlagError(f"--options {shown(text)}: an option is named twice")
    return [name for name in options if name in names]


def study_factors(ruleset: Ruleset, options: str | None, levels: Sequence[str]) -> list[Factor]:
    """One factor per option studied, in the ruleset's order."""
    names = option_names(options, ruleset)
    if not names:
        raise OptionFlagError(f"{ruleset.id} has no option with two readings: nothing to study")
    high = chosen_readings(levels, ruleset, "BASE", "--levels")
    for name, reading in high.items():
        if name not in names:
            raise OptionFlagError(
                f"--levels {name}={reading}: {name} is not among the options studied "
                f"({', '.join(names)})"
            )
        if reading == ruleset.options[name]:
            raise OptionFlagError(
                f"--levels {name}={reading}: that is the default reading (the low level); "
                "name another reading"
            )
    factors = []
    for name in names:
        default = ruleset.options[name]
        others = [r for r in ruleset.document["options"][name]["readings"] if r != default]
        chosen = high.get(name, others[0])
        factors.append(Factor(name, default, chosen, tuple(r for r in others if r != chosen)))
    return factors
