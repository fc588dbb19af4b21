"""Attacks on the terminal and the page through a ruleset's texts: escape sequences, the bell,
carriage returns and direction overrides in names, titles, descriptions and keys are refused
when the ruleset is loaded, each named by its code point at its place, and no message ever
prints such a character. See SECURITY.md, "Text"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tarot.cli import main
from tarot.errors import Position, Problem, shown_text

pytestmark = pytest.mark.timeout(60)
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u206f]")


@pytest.mark.parametrize(
    ("line", "where", "code"),
    [
        ('title: "Tarot\\e[2J\\e[H"', "2:8: $.title", "U+001B (ESCAPE)"),
        ('title: "Tarot\\a"', "2:8: $.title", "U+0007"),
        ('description: "fine\\rhidden"', "2:14: $.description", "U+000D"),
        ('title: "ab\\u202Edc"', "2:8: $.title", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ('title: "ab\\u2066x\\u2069"', "2:8: $.title", "U+2066 (LEFT-TO-RIGHT ISOLATE)"),
        ('title: "\\x9b31m"', "2:8: $.title", "U+009B"),
        ('"ti\\u202etle": x', '$["ti\\u202etle"]', "U+202E"),
        (
            'options:\n  mine:\n    description: "\\e]0;pwned\\a"\n'
            "    readings: {a: {}}\n    default: a",
            "$.options.mine.description",
            "U+001B",
        ),
    ],
)
def test_control_and_direction_characters_are_refused_at_their_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, where: str, code: str
) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(f"extends: french-tarot\n{line}\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert where in err and code in err, err
    assert "may not hold control characters" in err
    assert not RAW.search(err)  # the message names the character, never prints it


def test_tabs_and_line_breaks_stay_allowed(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        "extends: french-tarot\ndescription: |\n  two\n  lines\ttabbed\n", encoding="utf-8"
    )
    assert main(["validate", str(path)]) == 0


def test_no_problem_prints_an_unsafe_character() -> None:
    problem = Problem(Position("a\x1b[2Jb.yaml", 1, 2), '$["k\u202e"]', "value 'x\x07\r'")
    shown = str(problem)
    assert not RAW.search(shown)
    assert "\\u001b[2J" in shown and "\\u202e" in shown and "\\u0007\\u000d" in shown
    assert shown_text("plain text, é, 漢字\n\tok") == "plain text, é, 漢字\n\tok"
