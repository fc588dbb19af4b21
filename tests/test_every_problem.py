"""Every problem of a ruleset in one run, each at its line with the line quoted and a caret
under the place: the YAML reader's, the schema's, the checks' and the expressions' problems
alike, shown the same way by every command that loads a ruleset."""

from __future__ import annotations

import json
import re
import shlex
import textwrap
from pathlib import Path

import pytest
from commands import ROOT, run_in_process

from tarot.compile.loader import load_ruleset
from tarot.errors import Position, Problem, RulesetError

RULESETS = ROOT / "tests" / "data" / "rulesets"
FIVE = ROOT / "tests" / "data" / "malformed" / "five_mistakes.yaml"
#: The five mistakes of five_mistakes.yaml, from its `# expect: LINE:COL TEXT` lines (the
#: start of each message), each with the JSON path the problem names.
PLANTED = [
    (int(found[1]), int(found[2]), f"{path}: {found[3]}")
    for found, path in zip(
        re.finditer(r"^# expect: (\d+):(\d+) (.+)$", FIVE.read_text(encoding="utf-8"), re.M),
        [
            "$.deal.packets",
            "$.redeal[0].when",
            "$.bidding.contracts[0]",
            "$.counting.values[1].set",
            "$.settlement[0].to",
        ],
        strict=True,
    )
]


def problems_of(path: Path) -> list[Problem]:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(path)
    return refused.value.problems


def written(tmp_path: Path, text: str, name: str = "r.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def place(path: Path, line: int, text: str, after: bool = False) -> str:
    """``LINE:COLUMN`` of the first `text` on line `line` of the file (`after`: of the end of
    the text, where the parser found the expression ended too soon)."""
    row = path.read_text(encoding="utf-8").splitlines()[line - 1]
    return f"{line}:{row.index(text) + 1 + (len(text) if after else 0)}"


def caret_column(excerpt: str) -> int:
    """The 1-based column of the file the caret of an excerpt stands under."""
    quoted, caret = excerpt.split("\n")
    return caret.index("^") - quoted.index("| ") - 1


# --- five mistakes, one run ------------------------------------------------------------------


def test_five_mistakes_in_five_sections_are_all_reported_by_one_validate(capsys) -> None:
    status, out, err = run_in_process(capsys, "validate", str(FIVE))
    assert status == 1 and out == ""
    lines = FIVE.read_text(encoding="utf-8").splitlines()
    shown = err.splitlines()
    assert len(shown) == 3 * len(PLANTED), err
    for i, (line, column, start) in enumerate(PLANTED):
        header, quoted, caret = shown[3 * i : 3 * i + 3]
        assert header.startswith(f"{FIVE}:{line}:{column}: {start}"), header
        assert quoted == f"{line:>5} | {lines[line - 1]}"
        assert caret_column(f"{quoted}\n{caret}") == column
        assert caret == "      | " + " " * (column - 1) + "^"


def test_the_misspelt_key_of_the_auction_hid_everything_else_before() -> None:
    """The auction is read by every check after the schema; an unknown key in it is set aside
    (nothing reads it), so the checks go on: without that, the four other mistakes of the file
    came out only once the key was put right."""
    found = problems_of(FIVE)
    assert [(p.position.line, p.position.column) for p in found if p.position] == [
        (line, column) for line, column, _start in PLANTED
    ]


def test_a_wrong_value_in_a_section_hides_nothing_in_the_others(tmp_path: Path) -> None:
    path = written(
        tmp_path,
        """\
        extends: %s
        play: {follow_suit: sometimes}
        redeal:
          - {id: no_trump, when: "c in trumpz"}
        settlement:
          - {id: game_won, amount: "taker"}
        """
        % (RULESETS / "flow-base.yaml"),
    )
    found = [str(p).removeprefix(f"{path}:") for p in problems_of(path)]
    assert found == [
        f"{place(path, 2, 'sometimes')}: $.play.follow_suit: expected a boolean, got string"
        ' "sometimes"',
        f"{place(path, 4, 'c in')}: $.redeal[0].when: unknown name 'c'. Available here:"
        " dealer, kings, player, players, seats, trumps",
        f"{place(path, 6, 'taker')}: $.settlement[0].amount: expected a NUMBER expression,"
        " got SEAT",
    ]


def test_a_rule_whose_only_schema_problem_is_an_unknown_key_is_still_checked(
    tmp_path: Path,
) -> None:
    path = written(
        tmp_path,
        """\
        extends: %s
        deck: {fool: false, colour: red}
        settlement:
          - {id: game_won, amount: "contract.base + taker", colur: red}
        """
        % (RULESETS / "flow-base.yaml"),
    )
    found = [str(p).removeprefix(f"{path}:") for p in problems_of(path)]
    assert len(found) == 3, found
    assert found[0].startswith(f"{place(path, 2, 'colour')}: $.deck: unknown key 'colour'")
    assert found[1].startswith(f"{place(path, 4, 'taker')}: $.settlement[0].amount: '+' needs")
    assert found[1].endswith("got SEAT on the right")
    assert found[2].startswith(f"{place(path, 4, 'colur')}: $.settlement[0]: unknown key")


def test_a_wrong_value_in_the_pack_still_stops_the_checks_after_the_schema(
    tmp_path: Path,
) -> None:
    """Every check after the schema reads the pack: what they would find with a pack that
    cannot be made could follow from it, so only the schema's problems are reported."""
    path = written(
        tmp_path,
        """\
        extends: %s
        deck: {pips: four}
        settlement:
          - {id: game_won, amount: "taker"}
        """
        % (RULESETS / "flow-base.yaml"),
    )
    found = problems_of(path)
    assert [p.path for p in found] == ["$.deck.pips"]


def test_a_wrong_card_set_is_reported_once_and_hides_nothing(tmp_path: Path) -> None:
    """A card set naming a set the pack lacks is reported; it and the sets built on it stand
    for every card, so the rules that use them are still checked (a type mistake there is
    found) and nothing else is blamed for it."""
    path = written(
        tmp_path,
        """\
        extends: %s
        deck:
          card_sets:
            honours: {sets: [kingz, trumps]}
            top: {sets: [honours]}
        counting:
          values:
            - {set: top, value: 2}
        settlement:
          - {id: game_won, when: "count(c in hand(taker): c in honours) > 0"}
          - {id: game_lost, amount: "top + 1"}
        """
        % (RULESETS / "flow-base.yaml"),
    )
    found = [str(p).removeprefix(f"{path}:") for p in problems_of(path)]
    assert found == [
        f"{place(path, 4, 'kingz')}: $.deck.card_sets.honours.sets[0]: unknown card set"
        " 'kingz'; did you mean 'kings'? sets: trumps, kings, honours, top",
        f"{place(path, 11, 'top')}: $.settlement[1].amount: '+' needs NUMBER on both sides (or"
        " CARDS on both sides), got CARDS on the left; for how many there are, write"
        " count(top)",
    ]


def test_card_sets_in_a_circle_are_reported_once(tmp_path: Path) -> None:
    path = written(
        tmp_path,
        """\
        extends: %s
        deck:
          card_sets:
            high: {sets: [low]}
            low: {sets: [high]}
        settlement:
          - {id: game_won, amount: "taker"}
        """
        % (RULESETS / "flow-base.yaml"),
    )
    found = [p.message for p in problems_of(path)]
    assert found == [
        "card sets refer to each other in a circle: high -> low -> high",
        "expected a NUMBER expression, got SEAT",
    ]


def test_a_wrong_suit_among_the_cards_removed_still_stops_the_checks(tmp_path: Path) -> None:
    """The cards removed make the pack: with one of them wrong there is no pack to check
    the rest against."""
    path = written(
        tmp_path,
        """\
        extends: %s
        deck:
          removed: [{suits: [cupz]}]
        settlement:
          - {id: game_won, amount: "taker"}
        """
        % (RULESETS / "flow-base.yaml"),
    )
    (only,) = problems_of(path)
    assert only.path == "$.deck.removed[0]" and only.message.startswith("unknown suit 'cupz'")


# --- a definition that fails -----------------------------------------------------------------


def test_a_broken_definition_is_reported_once_and_its_users_say_they_use_it(
    tmp_path: Path,
) -> None:
    path = written(
        tmp_path,
        """\
        extends: %s
        definitions:
          big: {value: "side_points(taker) >", source: test}
          won: {value: "big and taker in attackers", source: test}
          share: {value: "side_points(s) + ", of_seat: s, source: test}
        settlement:
          - {id: game_won, when: "won"}
          - {id: game_lost, when: "not won and share(taker) > 0"}
          - id: extra
            name: Extra
            from: defenders
            to: attackers
            amount: "share(taker)"
            source: test
        """
        % (RULESETS / "flow-base.yaml"),
    )
    found = [str(p).removeprefix(f"{path}:") for p in problems_of(path)]
    ended = "unexpected end of expression; expected one of '(', '-', '[', 'false', 'true', a"
    ended += " name, a number, a string"
    uses = "which has a problem of its own (reported at line {}); fix that one first"
    quoted_won = 'won"'  # not the won of game_won
    assert found == [
        f"{place(path, 3, '>', after=True)}: $.definitions.big.value: {ended}",
        f"{place(path, 4, 'big')}: $.definitions.won.value: uses the definition 'big',"
        f" {uses.format(3)}",
        f"{place(path, 5, '+ ', after=True)}: $.definitions.share.value: {ended}",
        f"{place(path, 7, quoted_won)}: $.settlement[0].when: uses the definition 'won',"
        f" {uses.format(4)}",
        f"{place(path, 8, 'won and')}: $.settlement[1].when: uses the definition 'won',"
        f" {uses.format(4)}",
        f"{place(path, 13, 'share')}: $.settlement[2].amount: uses the definition 'share',"
        f" {uses.format(5)}",
    ]


def test_a_definition_broken_in_the_base_is_named_by_its_file(tmp_path: Path) -> None:
    base = written(
        tmp_path,
        """\
        extends: %s
        definitions:
          won: {value: "side_points(taker) > 5 and", source: test}
        """
        % (RULESETS / "flow-base.yaml"),
        "base.yaml",
    )
    variant = written(
        tmp_path,
        """\
        extends: base.yaml
        settlement:
          - {id: game_won, when: "won"}
        """,
    )
    found = [str(p) for p in problems_of(variant)]
    quoted_won = 'won"'  # not the won of game_won
    broken = f"{base}:{place(base, 3, 'and', after=True)}"
    assert found[0] == (
        f"{variant}:{place(variant, 3, quoted_won)}: $.settlement[0].when: uses the definition"
        f" 'won', which has a problem of its own (reported at {broken}); fix that one first"
    )
    assert found[1].startswith(f"{broken}: $.definitions.won.value: unexpected end")


# --- the line and the caret ------------------------------------------------------------------


def test_a_yaml_syntax_error_quotes_its_line(tmp_path: Path) -> None:
    path = written(tmp_path, "title: x\nplayers: [3\nsources: {}\n")
    (problem,) = problems_of(path)
    assert problem.source_line == "sources: {}"
    assert problem.excerpt().splitlines()[0] == "    3 | sources: {}"


def test_a_file_that_is_not_utf8_quotes_the_line_as_far_as_it_reads(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_bytes(b"title: x\nname: caf\xe9 au lait\n")
    (problem,) = problems_of(path)
    assert (problem.position.line, problem.position.column) == (2, 10)
    assert problem.excerpt() == "    2 | name: caf\ufffd au lait\n      |          ^"


def test_an_expression_in_a_block_or_folded_scalar_is_pointed_at_inside_it(
    tmp_path: Path,
) -> None:
    path = written(
        tmp_path,
        """\
        extends: %s
        settlement:
          - id: game_won
            when: |
              side_points(taker) > 5
                and trumpz
          - id: game_lost
            when: >
              side_points(taker)
              <= 5 and
              kingz
          - id: extra
            name: Extra
            from: defenders
            to: attackers
            amount: 'contract.base + ''x'' + taker'
            source: test
        """
        % (RULESETS / "flow-base.yaml"),
    )
    found = problems_of(path)
    excerpts = [(p.position.line, p.position.column, p.excerpt()) for p in found]
    assert [e[:2] for e in excerpts] == [(6, 13), (11, 7), (16, 30)]
    for _line, column, excerpt in excerpts:
        assert caret_column(excerpt) == column
    assert excerpts[0][2].split("\n")[0].endswith("and trumpz")
    assert excerpts[2][2] == (
        "   16 |     amount: 'contract.base + ''x'' + taker'\n"
        "      |                              ^"
    )


def test_the_caret_keeps_tabs_and_wide_characters_in_step() -> None:
    problem = Problem(Position("f.yaml", 7, 11), "$.x", "m", source_line="\tname: 日本 x")
    quoted, caret = problem.excerpt().split("\n")
    assert quoted == "    7 | \tname: 日本 x"
    assert caret == "      | \t      " + "    " + " ^"  # 日 and 本 take two columns each


def test_a_long_line_is_cut_around_the_place() -> None:
    line = "when: " + " or ".join(f"x{i}" for i in range(200))
    problem = Problem(Position("f.yaml", 1, 500), "$.x", "m", source_line=line)
    quoted, caret = problem.excerpt().split("\n")
    assert quoted.startswith("    1 | ...") and quoted.endswith("...")
    assert len(quoted) < 120
    assert quoted[caret.index("^")] == line[499]


def test_a_line_with_control_characters_is_quoted_escaped() -> None:
    problem = Problem(Position("f.yaml", 2, 10), "$.x", "m", source_line="a: '\x1b[31m' x")
    quoted, caret = problem.excerpt().split("\n")
    assert "\x1b" not in quoted and "\\u001b" in quoted
    assert quoted[caret.index("^")] == "'"


def test_a_problem_without_a_line_quotes_nothing(tmp_path: Path) -> None:
    assert Problem(Position("f.yaml", 0, 0), "$", "m", source_line="x").excerpt() == ""
    assert Problem(None, "$", "m").excerpt() == ""
    error = RulesetError([Problem(None, "$", "no such ruleset")])
    assert str(error) == "$: no such ruleset"


def test_the_quoted_line_does_not_make_two_problems_differ() -> None:
    one = Problem(Position("f.yaml", 1, 1), "$", "m")
    assert one == Problem(Position("f.yaml", 1, 1), "$", "m", source_line="x: 1")


# --- every command the same way ------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["explain", str(FIVE)],
        ["play", str(FIVE), "--agents", "random", "--seed", "1", "--hands", "1"],
        ["simulate", str(FIVE), "--hands", "1", "--jobs", "1"],
    ],
    ids=["explain", "play", "simulate"],
)
def test_every_command_that_loads_a_ruleset_shows_its_problems_as_validate_does(
    capsys, command: list[str]
) -> None:
    _status, _out, shown_by_validate = run_in_process(capsys, "validate", str(FIVE))
    status, _out, err = run_in_process(capsys, *command)
    assert status == 1
    assert err == shown_by_validate


# --- the pages that show them ----------------------------------------------------------------

#: A page's quote of what a command prints when a ruleset has problems: a comment naming the
#: command, then a fenced block with its standard error.
PROBLEMS_QUOTE = re.compile(r"<!-- problems: (tarot .+?) -->\n```\w*\n(.*?)```", re.S)
PAGES = [ROOT / "docs" / "authoring.md", ROOT / "interpreter" / "expressions" / "LANGUAGE.md"]


@pytest.mark.parametrize(
    "page, command, shown",
    [
        pytest.param(page, found[1], found[2], id=f"{page.name}:{found[1]}")
        for page in PAGES
        for found in PROBLEMS_QUOTE.finditer(page.read_text(encoding="utf-8"))
    ],
)
def test_the_problems_a_page_shows_are_what_the_command_prints(
    capsys, monkeypatch, page: Path, command: str, shown: str
) -> None:
    monkeypatch.chdir(ROOT)
    status, out, err = run_in_process(capsys, *shlex.split(command)[1:])
    assert status == 1 and out == ""
    assert err == shown, f"{page}: update the quote of {command}"


def test_each_page_quotes_problems() -> None:
    for page in PAGES:
        assert PROBLEMS_QUOTE.search(page.read_text(encoding="utf-8")), page


def test_validate_as_json_gives_each_problem_its_file_line_and_column(capsys) -> None:
    builtin = "marolles-1637"
    status, out, err = run_in_process(
        capsys, "validate", "--format", "json", str(FIVE), "no-such-game", builtin
    )
    assert status == 2 and err == ""  # a name that is no ruleset is a usage mistake
    five, unknown, fine = json.loads(out)["rulesets"]
    assert five["file"] == str(FIVE) and five["ok"] is False
    assert [(p["line"], p["column"]) for p in five["problems"]] == [
        (line, column) for line, column, _start in PLANTED
    ]
    lines = FIVE.read_text(encoding="utf-8").splitlines()
    for problem, (line, _column, start) in zip(five["problems"], PLANTED, strict=True):
        assert problem["file"] == str(FIVE)
        assert start.startswith(problem["path"] + ": ")
        assert start.endswith(problem["message"][: len(start) - len(problem["path"]) - 2])
        assert problem["source_line"] == lines[line - 1]
    assert unknown["file"] is None and unknown["ok"] is False
    (said,) = unknown["problems"]
    assert said["line"] is None and said["message"].startswith("no ruleset named 'no-such-game'")
    assert fine == {"target": builtin, "file": fine["file"], "ok": True, "problems": []}
