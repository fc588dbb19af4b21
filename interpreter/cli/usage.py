"""Mistakes typed on the command line: one style, one exit status, and a suggestion.

Where it sits: the parser class of `tarot.cli`. argparse's own messages (a usage block
and `tarot play: error: ...`, exit 2) become one line, ``tarot: error: MESSAGE``, raised as
:class:`~tarot.errors.UsageError` for `cli.main` to print with exit status 2, as are
the mistakes the commands find later (an --option, --agents or ruleset name that does not
exist). A misspelt command, flag or choice gets "did you mean ...?" from difflib: argparse
suggests only from Python 3.14 on, and only for commands and choices. The suggestions are
read from the parser itself, so a new flag or choice is suggested without a list to keep.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from tarot.errors import RulesetError, UsageError, did_you_mean

__all__ = ["TarotParser", "unknown_arguments"]


class TarotParser(argparse.ArgumentParser):
    """An ArgumentParser whose mistakes are :class:`UsageError` (one line, exit 2), with a
    suggestion for a misspelt choice."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The parser of each sub-command, by name (filled by `tarot.cli`).
        self.commands: dict[str, TarotParser] = {}

    def error(self, message: str) -> NoReturn:
        help_hint = f" (see {self.prog} --help)"
        raise UsageError(message.rstrip() + help_hint)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse's own check (a private method, stable since Python 3.2), with a suggestion
        choices = action.choices
        if choices is None or value in choices:
            return
        names = [str(choice) for choice in choices]
        raise argparse.ArgumentError(
            action,
            f"invalid choice: {value!r}; {did_you_mean(str(value), names)}"
            f"choose from {', '.join(names)}",
        )


def unknown_arguments(parser: TarotParser, extras: Sequence[str]) -> UsageError:
    """The mistake of arguments no parser took: a flag the command does not have (with the
    closest flag it has) or a word too many."""
    flags = [
        option
        for action in parser._actions  # the parser's own list: its flags, as it was built
        for option in action.option_strings
        if option.startswith("--")
    ]
    unknown = extras[0]
    if unknown.startswith("-"):
        name = unknown.partition("=")[0]
        message = f"{parser.prog} has no flag {name}"
        suggestion = did_you_mean(name, flags).rstrip()
        if suggestion:
            message += f"; {suggestion}"
    else:
        message = f"{parser.prog}: one argument too many: {unknown!r}"
    return UsageError(f"{message} (see {parser.prog} --help)")


def usage_message(error: UsageError) -> str:
    """The one line a usage error prints after `tarot: error: `."""
    if isinstance(error, RulesetError):
        return "; ".join(problem.message for problem in error.problems)
    return str(error)
