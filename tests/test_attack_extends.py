"""Attacks through `extends` on the command line: a stranger's ruleset that extends, by its
path, a private YAML file of the user's (a configuration, a file of keys). Such a file is
not a ruleset, so nothing in it is used or shown: no value, no key, and no list of the files
of its folder. A base that is a ruleset keeps working, its slips named. See SECURITY.md,
"Files and the command line"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_simulation_cli import run  # tarot ARGS in this process: status, out, err

from tarot.load import paths

pytestmark = pytest.mark.timeout(60)
SECRET = "sk-live-0123456789"
PRIVATE = f"""\
api_token: {SECRET}
players: {SECRET}-players
title: [{SECRET}-title]
description: {{note: {SECRET}-description}}
"""


@pytest.fixture
def stranger(tmp_path: Path) -> Path:
    """A private file of the user's, and a stranger's ruleset beside a copy of it."""
    private = tmp_path / "home" / ".config" / "service"
    private.mkdir(parents=True)
    (private / "credentials.yaml").write_text(PRIVATE, encoding="utf-8")
    (private / "other-secret-name.yaml").write_text("x: 1\n", encoding="utf-8")
    downloads = tmp_path / "home" / "Downloads"
    downloads.mkdir()
    return downloads


@pytest.mark.parametrize(
    "extends",
    ["../.config/service/credentials.yaml", "{home}/.config/service/credentials.yaml"],
)
@pytest.mark.parametrize("command", ["validate", "explain", "play"])
def test_a_private_file_extended_by_its_path_is_neither_used_nor_shown(
    capsys: pytest.CaptureFixture[str], stranger: Path, extends: str, command: str
) -> None:
    ruleset = stranger / "variant.yaml"
    target = extends.format(home=stranger.parent)
    ruleset.write_text(f"extends: {target}\ntitle: A variant\n", encoding="utf-8")
    status, out, err = run(capsys, command, str(ruleset))
    assert status == 1 and "Traceback" not in err
    assert "is not a ruleset: 1 of its top-level keys is no section of one" in err
    for shown in (SECRET, "api_token", "other-secret-name"):
        assert shown not in out + err


def test_a_missing_base_in_another_folder_lists_none_of_its_files(
    capsys: pytest.CaptureFixture[str], stranger: Path
) -> None:
    ruleset = stranger / "variant.yaml"
    ruleset.write_text("extends: ../.config/service/nothing.yaml\n", encoding="utf-8")
    status, _, err = run(capsys, "validate", str(ruleset))
    assert status == 1 and "not found" in err
    assert "credentials" not in err and "other-secret-name" not in err
    ruleset.write_text("extends: nothing.yaml\n", encoding="utf-8")  # beside it: suggested
    (stranger / "nothin.yaml").write_text("title: T\n", encoding="utf-8")
    status, _, err = run(capsys, "validate", str(ruleset))
    assert status == 1 and "did you mean 'nothin.yaml'" in err


def test_a_base_that_is_a_ruleset_is_read_and_its_slips_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = paths.find_builtin("marolles-1637")
    assert base is not None
    shutil.copy(base, tmp_path / "base.yaml")
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: base.yaml\ntitle: My variant\n", encoding="utf-8")
    status, out, err = run(capsys, "explain", str(variant))
    assert status == 0 and "My variant" in out, err
    with (tmp_path / "base.yaml").open("a", encoding="utf-8") as file:
        file.write("payment: 5\n")
    status, _, err = run(capsys, "validate", str(variant))
    assert status == 1 and "unknown key 'payment'" in err and "did you mean 'payments'" in err


@pytest.mark.parametrize(
    "text",
    [
        f'token: "{SECRET}\nother: [{SECRET}\n',  # a YAML error on the secret's line
        f"{SECRET}: 1\n{SECRET}: 2\n",  # a duplicate key
        f"!!python/object:os.system {SECRET}\n",  # a tag
    ],
    ids=["syntax", "duplicate-key", "tag"],
)
def test_a_private_file_that_is_not_even_yaml_of_a_ruleset_is_not_quoted(
    capsys: pytest.CaptureFixture[str], stranger: Path, text: str
) -> None:
    (stranger.parent / ".config" / "service" / "credentials.yaml").write_text(text)
    ruleset = stranger / "variant.yaml"
    ruleset.write_text("extends: ../.config/service/credentials.yaml\n", encoding="utf-8")
    status, out, err = run(capsys, "validate", str(ruleset))
    assert status == 1 and "cannot be read as a ruleset" in err and "Traceback" not in err
    assert SECRET not in out + err
