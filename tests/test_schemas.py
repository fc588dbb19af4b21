"""The JSON Schemas for rulesets and game records: well-formed, documented, strict, and
satisfied by the reference ruleset and a minimal record."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
RULESET_SCHEMA = SCHEMAS / "ruleset.schema.json"
RECORD_SCHEMA = SCHEMAS / "game-record.schema.json"
MAROLLES = ROOT / "rulesets" / "marolles-1637" / "marolles-1637.yaml"


def load_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ruleset_validator() -> Draft202012Validator:
    return Draft202012Validator(load_json(RULESET_SCHEMA))


@pytest.fixture(scope="module")
def record_validator() -> Draft202012Validator:
    return Draft202012Validator(load_json(RECORD_SCHEMA))


@pytest.fixture()
def marolles() -> dict:
    return yaml.safe_load(MAROLLES.read_text(encoding="utf-8"))


def errors(validator: Draft202012Validator, instance: object) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator.iter_errors(instance)
    ]


MINIMAL_RECORD = {
    "format": "tarot-game-record/1",
    "ruleset": {"id": "marolles-1637", "hash": "sha256:" + "0" * 64, "options": {}},
    "seed": 7,
    "seats": [{"seat": 0, "agent": "random"}, {"seat": 1, "agent": "random"}],
    "hands": [
        {
            "number": 1,
            "dealer": 0,
            "deck": [
                {"id": "cups-K", "suit": "cups", "rank": "King"},
                {"id": "swords-7", "suit": "swords", "rank": 7},
                {"id": "trump-21", "trump": 21},
                {"id": "fool", "fool": True},
            ],
            "pack": ["cups-K", "swords-7", "trump-21", "fool"],
            "cut_card": None,
            "hands_dealt": [["cups-K", "swords-7"], ["trump-21", "fool"]],
            "decisions": [{"seat": 1, "kind": "play", "choice": "trump-21"}],
            "tricks": [
                {
                    "number": 1,
                    "leader": 1,
                    "cards": [{"seat": 1, "card": "trump-21"}, {"seat": 0, "card": "cups-K"}],
                    "winner": 1,
                }
            ],
            "payments": [{"rule": "tarot_kept", "from": 0, "to": 1, "amount": 1, "at": "trick 1"}],
            "card_points": [5, 10],
            "net": [-1, 1],
            "talon": [],
            "thrown_in": None,
            "sides": None,
            "shown": [],
            "excuse_exchanges": [],
            "claimed": [],
            "piles_dealt": [[], []],
            "abandoned_deals": [],
        }
    ],
    "totals": [-1, 1],
    "game_winners": [],
}


@pytest.mark.parametrize("path", [RULESET_SCHEMA, RECORD_SCHEMA], ids=lambda p: p.name)
def test_schema_is_valid_draft_2020_12(path: Path) -> None:
    schema = load_json(path)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].startswith("https://tarot-rules.example/schemas/")


def _undocumented(node: object, where: str) -> list[str]:
    """Paths of properties and $defs (anywhere in the schema) lacking a description."""
    missing: list[str] = []
    if isinstance(node, dict):
        for keyword in ("properties", "$defs"):
            for name, sub in node.get(keyword, {}).items():
                if not (isinstance(sub, dict) and sub.get("description")):
                    missing.append(f"{where}/{keyword}/{name}")
        for key, value in node.items():
            missing += _undocumented(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            missing += _undocumented(item, f"{where}/{i}")
    return missing


@pytest.mark.parametrize("path", [RULESET_SCHEMA, RECORD_SCHEMA], ids=lambda p: p.name)
def test_every_property_and_def_is_described(path: Path) -> None:
    schema = load_json(path)
    assert schema.get("description")
    assert _undocumented(schema, "#") == []


def _objects_without_additional_properties(node: object, where: str) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        if "properties" in node and node.get("type") == "object":
            if node.get("additionalProperties") is True or "additionalProperties" not in node:
                found.append(where)
        for key, value in node.items():
            found += _objects_without_additional_properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            found += _objects_without_additional_properties(item, f"{where}/{i}")
    return found


@pytest.mark.parametrize("path", [RULESET_SCHEMA, RECORD_SCHEMA], ids=lambda p: p.name)
def test_every_object_rejects_unknown_keys(path: Path) -> None:
    assert _objects_without_additional_properties(load_json(path), "#") == []


def test_marolles_validates(ruleset_validator, marolles) -> None:
    assert errors(ruleset_validator, marolles) == []


def test_minimal_record_validates(record_validator) -> None:
    assert errors(record_validator, MINIMAL_RECORD) == []


@pytest.mark.parametrize(
    "path",
    [
        (),
        ("players",),
        ("deck",),
        ("deck", "suits", 0),
        ("deck", "card_sets", "tarots"),
        ("deck", "card_sets", "tarots", "any_of", 1),
        ("sources", "mcleod"),
        ("options", "deal_packets"),
        ("options", "deal_packets", "readings", "fives"),
        ("parameters", "average"),
        ("deal",),
        ("deal", "cut"),
        ("deal", "packets"),
        ("discard", "counts"),
        ("declarations",),
        ("declarations", "table", 0),
        ("declarations", "table", 0, "levels", 0),
        ("play", "excuse"),
        ("payments", 0),
        ("counting",),
        ("counting", "values", 0),
        ("settlement", 0),
    ],
    ids=lambda p: "/".join(map(str, p)) or "top",
)
def test_unknown_key_is_rejected(ruleset_validator, marolles, path) -> None:
    node = marolles
    for step in path:
        node = node[step]
    node["colour"] = "red"
    assert errors(ruleset_validator, marolles) != []


def test_variant_needs_only_what_differs(ruleset_validator) -> None:
    variant = {"extends": "marolles-1637", "options": {"ultimo_failure": {"default": "literal"}}}
    assert errors(ruleset_validator, variant) == []


def test_variant_may_remove_an_inherited_rule(ruleset_validator) -> None:
    variant = {
        "extends": "../marolles-1637/marolles-1637.yaml",
        "payments": [{"id": "belle_played", "remove": True}],
        "parameters": {"average": {"value": 30, "source": "mcleod"}},
    }
    assert errors(ruleset_validator, variant) == []


def test_complete_ruleset_requires_its_sections(ruleset_validator, marolles) -> None:
    for key in ("title", "sources", "players", "deck", "deal", "play", "counting"):
        broken = copy.deepcopy(marolles)
        del broken[key]
        assert errors(ruleset_validator, broken) != [], key


def test_complete_ruleset_rules_must_be_whole(ruleset_validator, marolles) -> None:
    broken = copy.deepcopy(marolles)
    del broken["payments"][0]["amount"]
    assert errors(ruleset_validator, broken) != []
    removing = copy.deepcopy(marolles)
    removing["payments"][0]["remove"] = True
    assert errors(ruleset_validator, removing) != []


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r["players"].update(count=9),
        lambda r: r["players"].update(direction="left"),
        lambda r: r["deck"]["suits"][0].update(pips="upside_down"),
        lambda r: r["deck"].update(trumps=41),  # at most 40 trumps
        lambda r: r["deck"]["card_sets"].update({"Bad-Name": {"fool": True}}),
        lambda r: r["deck"]["card_sets"].update(empty={}),
        lambda r: r["deck"]["card_sets"].update(
            mixed={"any_of": [{"fool": True}], "suits": ["cups"]}
        ),
        lambda r: r["deal"].update(packets=[{"rounds": 1, "each": 3, "dealer": 2}]),
        lambda r: r["deal"].update(packets={"option": "deal_packets", "default": 1}),
        lambda r: r["play"].update(overtrump="sometimes"),
        lambda r: r["payments"][0].update(event="whenever"),
        lambda r: r["payments"][0].pop("source"),
        lambda r: r["settlement"][0].update(event="trick_end"),
        lambda r: r["declarations"]["table"][0].update(levels=[]),
        lambda r: r["declarations"]["table"][0].pop("source"),
        lambda r: r["options"]["deal_packets"]["readings"]["fives"].pop("source"),
        lambda r: r["parameters"]["band"].pop("source"),
        lambda r: r["players"].update(source=[]),
        lambda r: r["counting"].update(group_size=0),
        lambda r: r["payments"][0].update({True: r["payments"][0].pop("event")}),
    ],
)
def test_invalid_rulesets_are_rejected(ruleset_validator, marolles, change) -> None:
    change(marolles)
    assert errors(ruleset_validator, marolles) != []


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.update(format="tarot-game-record/2"),
        lambda r: r["ruleset"].update(hash="sha256:abc"),
        lambda r: r["hands"][0]["deck"].append({"id": "x", "trump": 41}),
        lambda r: r["hands"][0]["deck"].append({"id": "x", "suit": "cups", "rank": "Knight"}),
        lambda r: r["hands"][0].update(number=0),
        lambda r: r["hands"][0]["payments"][0].pop("at"),
        lambda r: r["hands"][0]["tricks"][0].update(extra=1),
        lambda r: r.update(extra=1),
        lambda r: r["ruleset"].update(id="../../etc/passwd"),
        lambda r: r["ruleset"].update(id="a" * 65),
        lambda r: r.update(hands=[]),
        lambda r: r.pop("game_winners"),
        lambda r: r["hands"][0].pop("abandoned_deals"),
    ],
)
def test_invalid_records_are_rejected(record_validator, change) -> None:
    record = copy.deepcopy(MINIMAL_RECORD)
    change(record)
    assert errors(record_validator, record) != []
