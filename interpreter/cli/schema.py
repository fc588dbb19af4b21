"""`tarot schema`: where the ruleset schema is installed, and the editor settings that use it.

Where it sits: a command of `tarot.cli`, which parses the command line and calls `run`; what it
needs is imported when it runs.
"""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    """The installed schema's path and the editor settings that use it."""
    from tarot.load import paths

    schema = (paths.schemas_dir() / f"{args.which}.schema.json").resolve()
    if args.path:
        print(schema)
        return 0
    uri = schema.as_uri()
    print(f"schema: {schema}")
    if args.which == "game-record":
        print("VS Code, in settings.json:")
        print(f'  "json.schemas": [{{"fileMatch": ["*.record.json"], "url": "{uri}"}}]')
        return 0
    print("VS Code (the YAML extension), in settings.json:")
    print(f'  "yaml.schemas": {{"{uri}": ["rulesets/**/*.yaml"]}}')
    print("any editor with yaml-language-server (Neovim, Helix, Emacs, Zed...), first line:")
    print(f"  # yaml-language-server: $schema={uri}")
    print(f"check-jsonschema: check-jsonschema --schemafile {schema} FILE...")
    return 0


def add_arguments(schema: argparse.ArgumentParser) -> None:
    schema.add_argument(
        "which",
        nargs="?",
        choices=["ruleset", "game-record"],
        default="ruleset",
        help="the schema of rulesets (default) or of game records",
    )
    schema.add_argument("--path", action="store_true", help="print only the schema's path")
