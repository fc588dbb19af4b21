"""Every file in tests/data/malformed/ has one kind of mistake, and loading must report it
at the right place with a helpful message.

Each file starts with one or more header lines

    # expect: LINE:COL SUBSTRING
    # expect: OTHER_FILE.yaml:LINE:COL SUBSTRING

meaning that loading the file raises RulesetError and one of its problems, printed, starts
with ``FILE:LINE:COL:`` and contains SUBSTRING. FILE is the file itself unless another file
of the folder is named (an extends cycle is reported where its last `extends` closes it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from commands import ROOT, tarot
from tiers import one_fast

from tarot.compile.loader import load_ruleset
from tarot.errors import RulesetError

MALFORMED = Path(__file__).resolve().parent / "data" / "malformed"
FILES = sorted(MALFORMED.glob("*.yaml"))

_EXPECT = re.compile(
    r"^#\s*expect:\s*(?:(?P<file>[\w.-]+\.ya?ml):)?(?P<line>\d+):(?P<col>\d+)\s+(?P<text>.+?)\s*$"
)

#: Files whose expectation the interpreter does not meet yet: name -> the bug.
KNOWN_BUGS: dict[str, str] = {}


def expectations(path: Path) -> list[tuple[Path, int, int, str]]:
    found = []
    for text in path.read_text(encoding="utf-8").splitlines():
        match = _EXPECT.match(text)
        if match:
            where = MALFORMED / match["file"] if match["file"] else path
            found.append((where, int(match["line"]), int(match["col"]), match["text"]))
    return found


def _param(path: Path):
    marks = []
    if path.name in KNOWN_BUGS:
        marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[path.name]))
    return pytest.param(path, id=path.stem, marks=marks)


def test_the_folder_has_the_files() -> None:
    assert len(FILES) >= 20
    for path in FILES:
        assert expectations(path), f"{path.name} has no '# expect: LINE:COL TEXT' header"


@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_malformed_file_is_reported_in_place(path: Path) -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    problems = [str(p) for p in caught.value.problems]
    assert problems, "RulesetError without problems"
    for where, line, col, text in expectations(path):
        prefix = f"{where}:{line}:{col}:"
        assert any(p.startswith(prefix) and text in p for p in problems), (
            f"expected a problem at {prefix} containing {text!r}; got:\n" + "\n".join(problems)
        )


@pytest.mark.parametrize(
    "name",
    one_fast(
        [
            "yaml_syntax_error.yaml",
            "duplicate_key.yaml",
            "unknown_top_level_key.yaml",
            "when_syntax_error.yaml",
            "amount_is_bool.yaml",
            "card_sets_circular.yaml",
            "extends_cycle_a.yaml",
            "extends_missing_base.yaml",
            "payment_missing_amount.yaml",
            "remove_unknown_payment.yaml",
        ]
    ),
)
def test_validate_command_on_one_file(name: str) -> None:
    relative = (MALFORMED / name).relative_to(ROOT)
    result = tarot("validate", str(relative))
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    where, line, col, text = expectations(MALFORMED / name)[0]
    prefix = f"{where.relative_to(ROOT)}:{line}:{col}:"
    lines = result.stderr.splitlines()
    assert any(s.startswith(prefix) and text in s for s in lines), result.stderr


@pytest.mark.slow
def test_validate_command_on_the_whole_folder_reports_every_file() -> None:
    folder = MALFORMED.relative_to(ROOT)
    result = tarot("validate", str(folder))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert ": ok" not in result.stdout, "a malformed file passed validation"
    lines = result.stderr.splitlines()
    for path in FILES:
        shown = str(path.relative_to(ROOT))
        assert any(s.startswith(shown + ":") for s in lines), f"{shown} not reported"
        if path.name in KNOWN_BUGS:
            continue
        for where, line, col, text in expectations(path):
            prefix = f"{where.relative_to(ROOT)}:{line}:{col}:"
            assert any(s.startswith(prefix) and text in s for s in lines), (
                f"{path.name}: no {prefix} ... {text!r} in the folder's report"
            )


@pytest.mark.slow
def test_validate_command_on_the_builtin_rulesets_succeeds() -> None:
    result = tarot("validate", "rulesets/")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "rulesets/marolles-1637/marolles-1637.yaml: ok" in result.stdout.splitlines()
