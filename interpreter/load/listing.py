"""The rulesets as `tarot rules` lists them (the built-in ones and those of the user's folders,
see `tarot.load.paths`): title, players and sources, read without the schema check or
compilation.

Pipeline: beside the loading stages, not after them (load only: no check, no compile). Each
package file is read with PyYAML's C loader when present (a user's file is read by
:mod:`~tarot.load.yaml_source`, with its budgets and positions), cut down to the
sections the listing shows, merged along its ``extends`` chain by
:mod:`~tarot.load.inheritance`, and an ``{option: NAME}`` among those sections takes
the option's default reading, as the loader substitutes it. Whether a ruleset is valid is
`tarot validate`'s question: a file is refused here only when the listing's own fields cannot
be read from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from tarot.errors import Position, Problem, RulesetError, json_path
from tarot.load import paths
from tarot.load.inheritance import EXTENDS_KEY, FindBuiltin, ReadFile, resolve
from tarot.load.yaml_core import CORE_RESOLVERS
from tarot.load.yaml_source import SourceDocument, read_ruleset_file

__all__ = ["Listing", "builtin_listings", "named_listings", "read_listing"]


class _FastLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """libyaml's loader when PyYAML was built with it (much faster than the pure one),
    reading YAML 1.2 as the loader does."""

    yaml_implicit_resolvers = CORE_RESOLVERS


#: The sections the listing reads; ``options`` for the readings substituted into the others.
_LISTED = ("title", "players", "sources", "options", EXTENDS_KEY)


@dataclass(frozen=True)
class Listing:
    """What `tarot rules` shows of one ruleset, as :func:`load_ruleset` would give it."""

    title: str
    players: int
    #: The names of the ruleset's sources, sorted.
    sources: tuple[str, ...]


def builtin_listings() -> dict[str, tuple[Path, Listing | None]]:
    """Every built-in ruleset by name: its file and its listing (None when it cannot be read:
    `tarot validate` says why)."""
    return _listings(paths.builtin_rulesets())


def named_listings() -> dict[str, tuple[Path, Listing | None]]:
    """:func:`builtin_listings` over every ruleset of the search path (`paths`): a user's
    files are read as the loader reads them, within its budget."""
    return _listings(paths.named_rulesets())


def _listings(named: dict[str, Path]) -> dict[str, tuple[Path, Listing | None]]:
    package = set(paths.builtin_rulesets().values())
    trusted = cache(_read_trusted)  # a base shared by many variants is read once

    def read(path: Path) -> SourceDocument:
        return trusted(path) if path in package else read_ruleset_file(path)

    found: dict[str, tuple[Path, Listing | None]] = {}
    for name, path in named.items():
        try:
            found[name] = (path, read_listing(path, named.get, read))
        except RulesetError:
            found[name] = (path, None)
    return found


def read_listing(path: Path, find_builtin: FindBuiltin, read: ReadFile | None = None) -> Listing:
    """The listing of the trusted ruleset file ``path``; raise :class:`RulesetError` when its
    files cannot be read or merged, or a listed field cannot be read from them."""
    merged = resolve(path, find_builtin, read=read or _read_trusted).data
    options = merged.get("options", {})
    listed = {key: _with_defaults(merged[key], options) for key in _LISTED[:3] if key in merged}
    title = listed.get("title", path.stem)
    players = listed.get("players", {})
    count = players.get("count") if isinstance(players, dict) else None
    sources = listed.get("sources", {})
    if not isinstance(title, str) or type(count) is not int or not isinstance(sources, dict):
        raise _unlisted(path, "the title, players.count or sources cannot be read")
    return Listing(title, count, tuple(sorted(sources)))


def _read_trusted(path: Path) -> SourceDocument:
    """The listed sections of a package file, without positions; a RulesetError when the
    file cannot be read as YAML."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_FastLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise _unlisted(path, f"cannot be read: {error}") from None
    if isinstance(data, dict):
        data = {key: value for key, value in data.items() if key in _LISTED}
    return SourceDocument(str(path), data)


def _with_defaults(value: Any, options: Mapping[str, Any]) -> Any:
    """``value`` with every ``{option: NAME}`` replaced by the value of NAME's default reading."""
    if isinstance(value, dict):
        if set(value) == {"option"}:
            try:
                option = options[value["option"]]
                return option["readings"][option["default"]]["value"]
            except (KeyError, TypeError):
                return value  # left as written: the field it stands in cannot be listed
        return {key: _with_defaults(item, options) for key, item in value.items()}
    if isinstance(value, list):
        return [_with_defaults(item, options) for item in value]
    return value


def _unlisted(path: Path, message: str) -> RulesetError:
    return RulesetError([Problem(Position(str(path), 0, 0), json_path(()), message)])
