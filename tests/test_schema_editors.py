"""The ruleset schema as an editor uses it (yaml-language-server, check-jsonschema): it
accepts a variant that gives only part of what it inherits, as `tarot validate` does, and
gives every built-in and test ruleset the verdict `tarot validate` gives it.

check-jsonschema is the independent validator here (it reads YAML 1.2 with ruamel.yaml, as
editors do); it is in the `test` extra. yaml-language-server itself (the server behind VS
Code's YAML extension and other editors) is installed with npm into a cache folder and asked
for the diagnostics an editor would show.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from language_server import VERSION, diagnostics, install

from tarot.check.schema_check import schema_problems
from tarot.compile.loader import load_schema
from tarot.errors import RulesetError
from tarot.load import paths
from tarot.load.inheritance import resolve
from tarot.load.yaml_source import load_yaml

# the slow tier (`python -m pytest -m slow`): every ruleset cut and checked by outside validators
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = paths.schemas_dir() / "ruleset.schema.json"
BUILTIN = sorted(paths.builtin_rulesets().values())
TEST_RULESETS = sorted((ROOT / "tests" / "data" / "rulesets").glob("*.yaml"))
MALFORMED = sorted((ROOT / "tests" / "data" / "malformed").glob("*.yaml"))
COMPLETE = [path for path in BUILTIN + TEST_RULESETS if "extends" not in load_yaml(path).data]


def _is_id_list(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) and "id" in item for item in value)
    )


def _partial(value: Any, keep: int) -> Any:
    """`value` as a variant may give it: every item of a list merged by id cut to its id,
    every mapping to one key (the first with keep=0, the last with keep=-1) given in part
    in turn; other lists and scalars, which replace what they inherit, whole."""
    if _is_id_list(value):
        return [{"id": item["id"]} for item in value]
    if isinstance(value, dict) and value:
        key = list(value)[keep]
        return {key: _partial(value[key], keep)}
    return value


def _removals(value: Any) -> Any:
    """`value` with every item of a list merged by id removed (`{id: X, remove: true}`)."""
    if _is_id_list(value):
        return [{"id": item["id"], "remove": True} for item in value]
    if isinstance(value, dict):
        return {key: _removals(item) for key, item in value.items()}
    return value


def _schema_errors(document: Any) -> list[str]:
    validator = Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    return [f"{error.json_path}: {error.message}" for error in validator.iter_errors(document)]


@pytest.mark.parametrize("path", COMPLETE, ids=lambda path: path.stem)
def test_a_variant_giving_part_of_each_section_and_rule_is_accepted(path: Path) -> None:
    base = load_yaml(path).data
    for section, value in base.items():
        for variant in (_partial(value, 0), _partial(value, -1), _removals(value)):
            document = {"extends": path.stem, section: variant}
            assert _schema_errors(document) == [], (section, variant)


@pytest.mark.parametrize("path", COMPLETE, ids=lambda path: path.stem)
def test_the_same_cuts_in_a_complete_ruleset_get_the_verdict_of_tarot_validate(
    path: Path,
) -> None:
    base = load_yaml(path).data
    refused = 0
    for section, value in base.items():
        for cut in (_partial(value, 0), _partial(value, -1), _removals(value)):
            document = {**base, section: cut}
            ours = schema_problems(document, {}, load_schema("ruleset"))
            assert bool(_schema_errors(document)) == bool(ours), (section, cut)
            refused += bool(ours)
    assert refused, "no cut of a complete ruleset is refused: the check proves nothing"


def _tarot_structural_verdict(path: Path) -> str | None:
    """ "ok" or "refused" by the schema stage of `tarot validate` (on the merged ruleset); None
    when the file stops before it (YAML, `extends`: not a question of structure)."""
    try:
        merged = resolve(path, paths.find_named, paths.list_named)
    except RulesetError:
        return None
    found = schema_problems(
        merged.data, merged.provenance, load_schema("ruleset"), merged.key_provenance
    )
    whole_numbers = all("a whole number without a decimal point" in p.message for _, p in found)
    if found and whole_numbers:
        return None  # 5.0 where a count is meant: JSON Schema counts it an integer
    return "refused" if found else "ok"


def _check_jsonschema_verdicts(files: list[Path]) -> dict[Path, str]:
    executable = shutil.which("check-jsonschema")
    assert executable, "check-jsonschema is in the test extra: pip install -e '.[test]'"
    done = subprocess.run(
        [executable, "--schemafile", str(SCHEMA), "-o", "json", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    report = json.loads(done.stdout)
    refused = {Path(error["filename"]) for error in report["errors"]}
    unread = {Path(error["filename"]) for error in report["parse_errors"]}
    return {
        path: "unread" if path in unread else "refused" if path in refused else "ok"
        for path in files
    }


def test_check_jsonschema_and_tarot_validate_agree_on_every_ruleset() -> None:
    files = BUILTIN + TEST_RULESETS + MALFORMED
    theirs = _check_jsonschema_verdicts(files)
    for path in files:
        ours = _tarot_structural_verdict(path)
        if ours is None:
            continue
        if "extends" in load_yaml(path).data and ours == "refused":
            # a new rule in a variant may lack what only its base could give: the editor
            # cannot see the base; what the variant's own file gets wrong, both refuse
            continue
        assert theirs[path] == ours, path
    assert all(theirs[path] == "ok" for path in BUILTIN + TEST_RULESETS)
    assert {path.name for path in MALFORMED if theirs[path] == "refused"} >= {
        "unknown_top_level_key.yaml",
        "payment_missing_amount.yaml",
    }


def _editor_cache() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "tarot-tests" / f"yaml-language-server-{VERSION}"


def test_yaml_language_server_shows_no_error_on_rulesets_and_partial_variants(
    tmp_path: Path,
) -> None:
    server = install(_editor_cache())
    modeline = f"# yaml-language-server: $schema={SCHEMA.as_uri()}\n"
    documents = {path: path.read_text(encoding="utf-8") for path in BUILTIN + TEST_RULESETS}
    for path in COMPLETE:
        for section, value in load_yaml(path).data.items():
            for number, variant in enumerate((_partial(value, 0), _removals(value))):
                document = {"extends": path.stem, section: variant}
                name = tmp_path / f"{path.stem}-{section}-{number}.yaml"
                documents[name] = modeline + yaml.safe_dump(document, sort_keys=False)
    mistaken = tmp_path / "mistaken.yaml"
    documents[mistaken] = modeline + "extends: marolles-1637\nno_such_section: 3\n"
    shown = diagnostics(server, documents)
    assert shown.pop(mistaken) == ["3: Property no_such_section is not allowed."]
    assert {path: found for path, found in shown.items() if found} == {}
    assert len(shown) == len(documents) - 1
