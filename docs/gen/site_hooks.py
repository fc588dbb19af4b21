"""MkDocs hooks that write the site's generated pages (`mkdocs.yml`, `hooks:`).

Where it sits: outside the package, read only by `mkdocs build`. It adds pages that are made
from the code and the data rather than written by hand, so that they cannot fall behind:

- `games/rulesets/NAME.md`, one per built-in ruleset: its rules page, as
  `tarot explain NAME --format markdown` prints it, added to the navigation under "The games";
- `writing/schema.md`: every section of `schemas/ruleset.schema.json` with the keys it takes
  and their descriptions, read from the schema itself;
- `security.md`: the repository's `SECURITY.md`, its links to `docs/` made the site's.

The checkout's `tarot` (the symlink to `interpreter/`) is imported, so the pages describe the
code of the checkout the site is built from.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]

GAMES_DIR = "games/rulesets"
SCHEMA_PAGE = "writing/schema.md"
SECURITY_PAGE = "security.md"
GAMES_SECTION = "The games"


def _checkout_first() -> None:
    """The checkout's `tarot` before any installed one (an editable install of another
    checkout, say). Done when a page is made, not when MkDocs loads this file: MkDocs puts
    the configuration's folder on the path to load hooks and takes it off again."""
    if sys.path[:1] != [str(ROOT)]:
        sys.path.insert(0, str(ROOT))
    loaded = sys.modules.get("tarot")
    if loaded is not None and not str(getattr(loaded, "__file__", "")).startswith(str(ROOT)):
        raise RuntimeError(f"tarot was imported from {loaded.__file__}, not from {ROOT}")


def _builtin_names() -> list[str]:
    _checkout_first()
    from tarot.load.paths import builtin_rulesets

    return list(builtin_rulesets())


def _game_page(name: str) -> str:
    _checkout_first()
    from tarot.compile.loader import load_ruleset
    from tarot.presentation.explain import explain_page, render

    page = render(explain_page(load_ruleset(name)), "markdown")
    note = (
        f'\n\n!!! note "Made by `tarot explain {name} --format markdown`"\n'
        "    This page is generated from the ruleset when the site is built; "
        f"`tarot explain {name} --option NAME=READING` shows it under another reading.\n"
    )
    head, _, rest = page.partition("\n")
    return head + note + rest


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Lists every built-in ruleset's page in the navigation, under the games' section."""
    pages = [{name: f"{GAMES_DIR}/{name}.md"} for name in _builtin_names()]
    for entry in config.nav or []:
        if isinstance(entry, dict) and GAMES_SECTION in entry:
            entry[GAMES_SECTION].append({"Every ruleset": pages})
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Adds the generated pages to the site's files."""
    for name in _builtin_names():
        files.append(File.generated(config, f"{GAMES_DIR}/{name}.md", content=_game_page(name)))
    files.append(File.generated(config, SCHEMA_PAGE, content=schema_page()))
    files.append(File.generated(config, SECURITY_PAGE, content=security_page()))
    return files


def security_page() -> str:
    """SECURITY.md, the repository's security policy, with its links made the site's (it
    links to the pages in docs/ from the repository's root)."""
    text = (ROOT / "SECURITY.md").read_text(encoding="utf-8")
    return re.sub(r"\]\(docs/", "](", text)


# --- the schema reference -------------------------------------------------------------------


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The node with a `$ref` to the schema's `$defs` followed (its own description kept)."""
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = dict(defs[ref.removeprefix("#/$defs/")])
        if "description" in node:
            target["description"] = node["description"]
        return target
    return node


def _kind(node: dict[str, Any], defs: dict[str, Any]) -> str:
    """A short word for what a value is: its type, its allowed values, or its choices."""
    if "enum" in node:
        return "one of " + ", ".join(f"`{value}`" for value in node["enum"])
    if "const" in node:
        return f"`{node['const']}`"
    for key in ("anyOf", "oneOf"):
        if key in node:
            parts = []
            for choice in node[key]:
                ref = choice.get("$ref", "")
                parts.append(ref.removeprefix("#/$defs/") if ref else _kind(choice, defs))
            return " or ".join(part for part in parts if part)
    ref = node.get("$ref")
    if isinstance(ref, str):
        return ref.removeprefix("#/$defs/")
    kind = node.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array" and isinstance(node.get("items"), dict):
        return f"list of {_kind(node['items'], defs) or 'values'}"
    return kind or ""


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _keys_table(node: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    properties = node.get("properties") or {}
    if not properties:
        return []
    required = set(node.get("required") or [])
    lines = ["| key | value | what it says |", "|---|---|---|"]
    for key, child in properties.items():
        child = _resolve(child, defs) if "description" not in child else child
        mark = " (required)" if key in required else ""
        lines.append(
            f"| `{key}`{mark} | {_kind(child, defs)} | {_one_line(child.get('description', ''))} |"
        )
    return lines


def _object_of(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any] | None:
    """The object whose keys a section lists: itself, its list's items, or its map's values."""
    node = _resolve(node, defs)
    for candidate in (node, node.get("items"), node.get("additionalProperties")):
        if isinstance(candidate, dict):
            candidate = _resolve(candidate, defs)
            if candidate.get("properties"):
                return candidate
    return None


def schema_page() -> str:
    """Every top-level section of the ruleset schema, then every shared definition."""
    _checkout_first()
    from tarot.load.paths import schemas_dir

    schema = json.loads((schemas_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))
    defs = schema.get("$defs", {})
    out = [
        "# The ruleset schema, section by section",
        "",
        "Made from `schemas/ruleset.schema.json` when the site is built: each top-level "
        "section of a ruleset file with its description and the keys it takes, then the "
        "definitions the sections share. `tarot schema` says where the installed schema is "
        "and how to give it to an editor ([the reference](ruleset.md)).",
        "",
        _one_line(schema.get("description", "")),
        "",
        "## Sections",
        "",
    ]
    for key, node in schema["properties"].items():
        out += _section(key, _resolve(node, defs), defs)
    out += ["## Shared definitions", ""]
    for key, node in defs.items():
        out += _section(key, node, defs)
    return "\n".join(out) + "\n"


def _section(key: str, node: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    """One section or definition: its name, description, kind of value and keys."""
    out = [f"### `{key}`", "", _one_line(node.get("description", "")), ""]
    kind = _kind(node, defs)
    if kind:
        out += [f"Value: {kind}.", ""]
    inner = _object_of(node, defs)
    if inner is not None:
        out += [*_keys_table(inner, defs), ""]
    return out
