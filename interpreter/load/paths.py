"""Where rulesets and the schemas live: the built-in ones inside the installed package
(`tarot/_data`, put there by the wheel build) or, in a checkout, beside the package;
a user's own rulesets in the folders of the search path.

The search path, looked through in order when a ruleset is named (on the command line, in
`extends` or in a record): the folders given with `--rulesets DIR` (`set_user_folders`),
then those of the environment variable ``TAROT_PATH`` (separated like ``PATH``), then the
built-in rulesets. A folder holds ruleset files, directly or one family folder down, each
named by its file's stem; the first folder that has a name wins, and a user's name that
hides a built-in one is reported by `shadowed` (`tarot rules` says so).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import yaml

from tarot.load.yaml_core import CORE_RESOLVERS

_PACKAGE = Path(__file__).resolve().parent.parent  # the package folder (this is load/paths.py)

#: The environment variable listing a user's ruleset folders.
PATH_VARIABLE = "TAROT_PATH"

_flag_folders: list[Path] = []


class _CoreSafeLoader(yaml.SafeLoader):
    yaml_implicit_resolvers = CORE_RESOLVERS


def _data_dir(name: str) -> Path:
    installed = _PACKAGE / "_data" / name
    return installed if installed.is_dir() else _PACKAGE.parent / name


def rulesets_dir() -> Path:
    return _data_dir("rulesets")


def schemas_dir() -> Path:
    return _data_dir("schemas")


def set_user_folders(folders: Sequence[str | Path]) -> None:
    """The folders `--rulesets` names, looked through before ``TAROT_PATH``."""
    _flag_folders[:] = [Path(folder) for folder in folders]


def user_folders() -> list[Path]:
    """The user's ruleset folders in search order: `--rulesets`, then ``TAROT_PATH`` (empty
    entries and entries that are not folders are passed over, as a shell does in PATH)."""
    listed = [Path(entry) for entry in os.environ.get(PATH_VARIABLE, "").split(os.pathsep)]
    folders = [*_flag_folders, *(entry for entry in listed if str(entry) not in ("", "."))]
    return [folder for folder in folders if folder.is_dir()]


def _rulesets_in(folder: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for pattern in ("*/*.yaml", "*/*.yml", "*.yaml", "*.yml"):  # later patterns win
        found.update((path.stem, path) for path in sorted(folder.glob(pattern)))
    return found


def builtin_rulesets() -> dict[str, Path]:
    """Built-in ruleset name (the file's stem) -> path, over every family folder."""
    found = {path.stem: path for path in rulesets_dir().glob("*/*.yaml")}
    return dict(sorted(found.items()))


def named_rulesets() -> dict[str, Path]:
    """Every ruleset a name finds: the user's folders first, then the built-in ones."""
    found = builtin_rulesets()
    for folder in reversed(user_folders()):
        found.update(_rulesets_in(folder))
    return dict(sorted(found.items()))


def shadowed() -> dict[str, Path]:
    """The built-in rulesets that a user's ruleset of the same name hides, by name."""
    builtin = builtin_rulesets()
    return {
        name: builtin[name]
        for name, path in named_rulesets().items()
        if name in builtin and path != builtin[name]
    }


def shadowing_note(name: str) -> str | None:
    """The note a command prints when `name` finds a user's ruleset that hides the built-in
    one of that name (`tarot replay`, `tarot serve`, a name typed); None when it does not."""
    hidden = shadowed()
    if name not in hidden:
        return None
    return (
        f"tarot: note: {name} is {find_named(name)}, which hides the built-in ruleset of that name"
    )


def find_builtin(name: str) -> Path | None:
    return builtin_rulesets().get(name)


def default_builtin() -> str | None:
    """The built-in game a newcomer is offered first, as `rulesets/DEFAULT` names it (None
    when the file is missing or names no built-in ruleset)."""
    try:
        lines = (rulesets_dir() / "DEFAULT").read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    names = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return names[0] if names and names[0] in builtin_rulesets() else None


def find_named(name: str) -> Path | None:
    """The ruleset a name stands for on the search path, or None."""
    return named_rulesets().get(name)


def list_builtins() -> list[str]:
    return sorted(builtin_rulesets())


def list_named() -> list[str]:
    return sorted(named_rulesets())


def builtin_variants(base: str) -> list[str]:
    """The named rulesets whose own file says `extends: <base>`, by name."""
    variants = []
    for name, path in named_rulesets().items():
        try:
            document = yaml.load(path.read_text(encoding="utf-8"), Loader=_CoreSafeLoader)
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(document, dict) and document.get("extends") == base:
            variants.append(name)
    return variants
