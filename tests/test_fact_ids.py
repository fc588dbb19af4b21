"""Ids written as text for a fact (`declared(seat, 'ID')`, `announced_by('ID')`,
`doubling_factor('ID')`, `thrown_in('ID')`...) are checked at load against what the ruleset
defines (tarot.check.fact_ids), on the small game tests/data/rulesets/announcements.yaml."""

from __future__ import annotations

from pathlib import Path

from tarot.compile.loader import load_ruleset
from tarot.measure.runner import Written
from tests.small_games import edited, problems

GAME = Path(__file__).parent / "data" / "rulesets" / "announcements.yaml"


def _mistyped(document: dict) -> None:
    settlement = document["settlement"]
    settlement[0]["amount"] = "contract.base * doubling_factor('gmae')"
    settlement[2]["amount"] = "if count(announced_by('honors')) > 0 then 2 else 1"
    document["definitions"]["ultimo_side"]["value"] = (
        "if any(s in seats: declared(s, 'many_trump')) and thrown_in('no_trump') == 0"
        " then side(played_by(little)) else side(played_by(little))"
    )
    document["definitions"]["alone"] = {
        "value": "sum(s in seats: declared_value(s, 'nothing')) + doublings('ultimo')"
        " + thrown_in('all_passed')",
        "source": "test",
    }


def test_every_mistyped_id_is_reported_at_its_place_with_the_closest(tmp_path):
    said = problems(edited(GAME, tmp_path, _mistyped))
    lines = said.splitlines()
    expected = [
        (
            "$.settlement[0].amount",
            "doubling_factor() names no doubling target 'gmae': did you mean 'game'?",
        ),
        (
            "$.settlement[2].amount",
            "announced_by() names no announcement 'honors': did you mean 'honours'?",
        ),
        (
            "$.definitions.ultimo_side.value",
            "declared() names no declaration, question or"
            " redeal 'many_trump': did you mean 'many_trumps'?",
        ),
        (
            "$.definitions.ultimo_side.value",
            "thrown_in() names no reason to throw a deal in 'no_trump': did you mean 'no_trumps'?",
        ),
        ("$.definitions.alone.value", "declared_value() names no declaration 'nothing':"),
    ]
    for path, message in expected:
        assert any(path in line and message in line for line in lines), (path, message, said)
    # the ids that are right are not blamed: ultimo is a doubling target, all_passed a reason
    assert "'ultimo':" not in said and "'all_passed':" not in said
    # each at its place in the file: the line of the expression, the column of the id
    located = [line for line in lines if ": $." in line]  # the quoted lines and carets apart
    assert located and all(line.split(": $.")[0].count(":") == 2 for line in located)
    assert "in 'game_won', doubling_factor()" in said  # the rule it is written in
    assert "(here: 'game', 'ultimo')" in said


def test_an_id_a_variant_removes_may_still_be_read(tmp_path):
    # the base's settlement reads announced_by('honours'); the variant removes the bonus (as
    # a test's variant of french-tarot removes the declarations its definitions read); a
    # worker process builds it again from what it was built from
    variant = tmp_path / "no-honours.yaml"
    text = (
        f"extends: {GAME}\n"
        "title: Without the honours announced\n"
        "announcements:\n"
        "  table:\n"
        "    - {id: honours, remove: true}\n"
    )
    variant.write_text(text, encoding="utf-8")
    ruleset = load_ruleset(variant)
    assert [bonus.id for bonus in ruleset.announcements.table] == ["ultimo"]
    assert (("announcements", "table"), "honours") in ruleset.removed
    again = Written.of(ruleset).build()
    assert again.content_hash == ruleset.content_hash
    # the same document with the bonus gone, written whole, names nothing: refused
    plain = edited(GAME, tmp_path, lambda d: d["announcements"]["table"].pop(0))
    assert "in 'honours_made', announced_by() names no announcement 'honours'" in problems(plain)
