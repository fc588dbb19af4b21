"""`tarot rules`: the rulesets a name finds, with their players, titles and sources.

Where it sits: a command of `tarot.cli`, which parses the command line and calls `run`; what it
needs is imported when it runs.
"""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    """Each ruleset's name, players, title and sources (the built-in ones and those of the
    user's folders), read without checking or compiling it (`tarot validate` checks)."""
    from tarot.load import paths
    from tarot.load.listing import named_listings

    if args.names:  # for shell completion: nothing read but the file names
        print("\n".join(paths.list_named()))
        return 0
    listed = named_listings()
    builtin = paths.builtin_rulesets()
    hidden = paths.shadowed()
    width = max((len(name) for name in listed), default=0) + 2
    for name, (path, listing) in listed.items():
        where = "" if builtin.get(name) == path else f"  ({path})"
        if name in hidden:
            where += f"  [hides the built-in {name}]"
        if listing is None:
            print(f"{name:{width}}(does not load: run tarot validate {path})")
            continue
        sources = ", ".join(listing.sources)
        print(
            f"{name:{width}}{listing.players} players  {listing.title}  [sources: {sources}]"
            + where
        )
    return 0


def add_arguments(rules: argparse.ArgumentParser) -> None:
    rules.add_argument("--names", action="store_true", help="print only the names, one a line")
