"""Where the built-in rulesets and the schemas live: inside the installed package
(`interpreter/_data`, put there by the wheel build) or, in a checkout, beside the package."""

from __future__ import annotations

from pathlib import Path

import yaml

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    installed = _PACKAGE / "_data" / name
    return installed if installed.is_dir() else _PACKAGE.parent / name


def rulesets_dir() -> Path:
    return _data_dir("rulesets")


def schemas_dir() -> Path:
    return _data_dir("schemas")


def builtin_rulesets() -> dict[str, Path]:
    """Built-in ruleset name (the file's stem) -> path, over every family folder."""
    found = {path.stem: path for path in rulesets_dir().glob("*/*.yaml")}
    return dict(sorted(found.items()))


def find_builtin(name: str) -> Path | None:
    return builtin_rulesets().get(name)


def list_builtins() -> list[str]:
    return sorted(builtin_rulesets())


def builtin_variants(base: str) -> list[str]:
    """The built-in rulesets whose own file says `extends: <base>`, by name."""
    variants = []
    for name, path in builtin_rulesets().items():
        try:
            document = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(document, dict) and document.get("extends") == base:
            variants.append(name)
    return variants
