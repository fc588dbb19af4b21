"""`tarot completion SHELL`: a shell's completion script, made by shtab from the parser.

Where it sits: called by `tarot.cli` with the full parser (every sub-command with its
arguments), so a flag or choice added to the parser is completed without more work. A
ruleset argument completes the names `tarot rules --names` prints (the built-in ones and
those of the user's folders) as well as file names. shtab is the optional extra
``[completion]``; without it the command says how to install it.
"""

from __future__ import annotations

import argparse

from tarot.errors import UsageError

__all__ = ["completion_script"]

#: The arguments that name a ruleset (or a ruleset file), by their metavar.
_RULESET_METAVARS = {"RULESET", "A", "B", "BASE", "PATH"}

_BASH_RULESETS = """
_tarot_rulesets() {
  compgen -W "$(tarot rules --names 2>/dev/null)" -- "$1"
  compgen -f -- "$1"
}
"""
_ZSH_RULESETS = """
_tarot_rulesets() {
  _alternative 'names:ruleset:($(tarot rules --names 2>/dev/null))' 'files:file:_files'
}
"""


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of `shell` (bash, zsh or tcsh) for `parser`."""
    try:
        import shtab
    except ImportError:
        raise UsageError(
            "tarot completion needs shtab: pip install 'tarot-rules[completion]'"
        ) from None
    for action in _all_actions(parser):
        if action.metavar in _RULESET_METAVARS and not action.option_strings:
            action.complete = {  # type: ignore[attr-defined]
                "bash": "_tarot_rulesets",
                "zsh": "_tarot_rulesets",
                "tcsh": "f",
            }
        elif action.metavar in ("FILE", "DIR"):
            kind = shtab.DIRECTORY if action.metavar == "DIR" else shtab.FILE
            action.complete = kind  # type: ignore[attr-defined]
    preamble = {"bash": _BASH_RULESETS, "zsh": _ZSH_RULESETS}.get(shell, "")
    script: str = shtab.complete(parser, shell=shell, preamble=preamble)
    return script


def _all_actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    actions = []
    for action in parser._actions:  # argparse keeps them here; shtab reads the same list
        actions.append(action)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                actions += _all_actions(sub)
    return actions


def run(args: argparse.Namespace) -> int:
    """A shell's completion script, made from the parser by shtab."""
    from tarot.cli import build_parser  # the whole parser, every command's arguments

    print(completion_script(build_parser(), args.shell))
    return 0


def add_arguments(completion: argparse.ArgumentParser) -> None:
    completion.add_argument("shell", choices=["bash", "zsh", "tcsh"], help="the shell")
