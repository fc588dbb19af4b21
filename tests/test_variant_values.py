"""A wrong value that a variant (`extends:`) puts into its base is reported at the variant's
line, where the user wrote it, then at the base's line that reads it
(`tarot.compile.value_origins`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.errors import RulesetError


def _problems(path: Path) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    return [str(problem) for problem in caught.value.problems]


def test_an_option_value_of_a_variant_is_blamed_at_the_variants_line(tmp_path: Path) -> None:
    variant = tmp_path / "my-variant.yaml"
    variant.write_text(
        "extends: marolles-1637\n"
        "title: My reading\n"
        "options:\n"
        "  ultimo_failure:\n"
        "    readings:\n"
        "      literal:\n"
        '        value: "one"\n'
        "    default: literal\n",
        encoding="utf-8",
    )
    first, second = _problems(variant)
    assert first.startswith(f"{variant}:7:16: $.options.ultimo_failure.readings.literal.value: ")
    assert '"one" (option ultimo_failure, reading literal), read by $.payments[' in first
    assert first.endswith("expected a NUMBER expression, got STRING")
    assert "marolles-1637.yaml:" in second and second.endswith("got STRING")
    reader = second.partition(": $.")[0]
    assert f"(at {reader})" in first, "the variant's line names the base's line that reads it"


def test_a_parameter_of_a_variant_is_blamed_at_the_variants_line(tmp_path: Path) -> None:
    variant = tmp_path / "params.yaml"
    variant.write_text(
        'extends: marolles-1637\ntitle: A wrong band\nparameters:\n  band:\n    value: "five"\n',
        encoding="utf-8",
    )
    problems = _problems(variant)
    assert problems[0].startswith(f"{variant}:5:12: $.parameters.band.value: ")
    assert '"five" (parameter band), read by $.' in problems[0]
    assert any("marolles-1637.yaml:" in problem for problem in problems[1:])


def test_choosing_a_base_reading_that_is_wrong_names_the_choice(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text(
        "extends: marolles-1637\n"
        "title: A base with a wrong reading\n"
        "options:\n"
        "  ultimo_failure:\n"
        "    readings:\n"
        "      literal:\n"
        '        value: "one"\n'
        "    default: literal\n"
        "payments:\n"
        "  - id: ultimo_lost\n"
        '    amount: "option.ultimo_failure"\n',
        encoding="utf-8",
    )
    problems = _problems(base)
    assert all(problem.startswith(str(base)) for problem in problems), (
        "the value and the expression in one file: nothing else to blame"
    )
    assert len(problems) == 1


def test_a_value_is_not_blamed_for_a_problem_in_another_part_of_the_expression(
    tmp_path: Path,
) -> None:
    """The variant's expression reads an option of its base, but its problem (an unknown name)
    is elsewhere in it: the option's value, in the base, is not named."""
    variant = tmp_path / "my-variant.yaml"
    variant.write_text(
        "extends: marolles-1637\n"
        "title: My reading\n"
        "settlement:\n"
        "  - {id: extra, name: E, from: dealer, to: 'opponents(dealer)', source: mcleod,\n"
        "     amount: 'option.ultimo_failure + bonuss'}\n",
        encoding="utf-8",
    )
    (only,) = _problems(variant)
    assert only.startswith(f"{variant}:5:39: $.settlement[")
    assert "unknown name 'bonuss'" in only
