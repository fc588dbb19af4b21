"""The command line as people know it from other tools: `--version`, "did you mean",
one line `tarot: error: ...` with exit 2 for every mistake typed, the user's ruleset
folders on a search path (`--rulesets`, `TAROT_PATH`), `tarot schema` and shell completion.
"""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from commands import ROOT, tarot

from tarot import cli
from tarot.load import paths

MAROLLES = paths.find_builtin("marolles-1637")


def usage_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run `tarot ARGS` in this process; assert a one-line usage error (exit 2) and
    return it."""
    assert cli.main(list(args)) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("tarot: error: "), lines[0]
    assert captured.out == ""
    return lines[0]


def test_version_is_the_installed_distributions() -> None:
    done = tarot("--version")
    assert done.returncode == 0, done.stderr
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert done.stdout.strip() == f"tarot {declared['project']['version']}"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("plya", "marolles-1637"), "invalid choice: 'plya'; did you mean 'play'?"),
        (("play", "marolles-1637", "--seeed", "3"), "has no flag --seeed; did you mean '--seed'?"),
        (("play", "marolles-1637", "--backend", "batc"), "did you mean 'batch'?"),
        (
            ("play", "Marolles-1637"),
            "no ruleset named 'Marolles-1637'; did you mean 'marolles-1637'?",
        ),
        (("play", "marolles-1673"), "did you mean 'marolles-1637'?"),
        (
            ("explain", "marolles-1637", "--option", "ultimo_failur=literal"),
            "did you mean 'ultimo_failure'?",
        ),
        (
            ("play", "marolles-1637", "--option", "ultimo_failure=litteral"),
            "did you mean 'literal'?",
        ),
        (("simulate", "marolles-1637", "--agents", "heuristc"), "did you mean 'heuristic'?"),
        (("play", "marolles-1637", "--agents", "search:sample=3"), "did you mean 'samples'?"),
    ],
)
def test_a_misspelt_word_gets_a_suggestion(capsys, args: tuple[str, ...], said: str) -> None:
    assert said in usage_error(capsys, *args)


@pytest.mark.parametrize(
    "args",
    [
        ("play",),
        ("play", "marolles-1637", "one-too-many"),
        ("play", "marolles-1637", "--hands", "x"),
        ("play", "marolles-1637", "--option", "ultimo_failure"),
        ("play", "marolles-1637", "--human", "9"),
        ("rules", "--rulesets", "/no/such/folder"),
        ("diff", "marolles-1637"),
        ("validate", "no-such-game"),
    ],
)
def test_every_mistake_typed_is_one_line_and_exit_2(capsys, args: tuple[str, ...]) -> None:
    usage_error(capsys, *args)


def test_a_name_with_nothing_close_lists_the_names(capsys) -> None:
    line = usage_error(capsys, "play", "zzzz")
    assert "did you mean" not in line
    assert "; rulesets: " in line and "early-french," in line and "marolles-1637" in line


# --- a user's own folders --------------------------------------------------------------------


def _user_folder(root: Path) -> Path:
    """A folder of the user's own: a variant of a built-in ruleset, a variant of that
    variant by name, and a file named like a built-in one."""
    folder = root / "mine"
    (folder / "family").mkdir(parents=True)
    (folder / "family" / "my-marolles.yaml").write_text(
        "extends: marolles-1637\ntitle: My Marolles\n", encoding="utf-8"
    )
    (folder / "my-marolles-again.yaml").write_text(
        "extends: my-marolles\ntitle: My Marolles again\n", encoding="utf-8"
    )
    (folder / "french-tarot.yaml").write_text(
        "extends: marolles-1637\ntitle: Not French Tarot\n", encoding="utf-8"
    )
    return folder


def test_rulesets_flag_lists_plays_and_extends_by_name(tmp_path, capsys) -> None:
    folder = _user_folder(tmp_path)
    assert cli.main(["rules", "--rulesets", str(folder)]) == 0
    listed = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert "My Marolles again" in listed["my-marolles-again"]
    assert str(folder / "my-marolles-again.yaml") in listed["my-marolles-again"]
    assert "[hides the built-in french-tarot]" in listed["french-tarot"]
    assert "hides" not in listed["marolles-1637"]
    assert cli.main(["play", "my-marolles-again", "--rulesets", str(folder), "--quiet"]) == 0
    assert "Totals" in capsys.readouterr().out
    assert cli.main(["play", "french-tarot", "--rulesets", str(folder), "--quiet"]) == 0
    note = capsys.readouterr().err
    assert f"tarot: note: french-tarot is {folder / 'french-tarot.yaml'}" in note
    # without the flag the names are unknown and the built-in one is back
    assert "no ruleset named 'my-marolles'" in usage_error(capsys, "play", "my-marolles")
    assert cli.main(["rules"]) == 0
    assert "hides" not in capsys.readouterr().out


def test_tarot_path_is_searched_after_the_flag(tmp_path, capsys, monkeypatch) -> None:
    folder = _user_folder(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "my-marolles.yaml").write_text(
        "extends: marolles-1637\ntitle: From the flag\n", encoding="utf-8"
    )
    monkeypatch.setenv(paths.PATH_VARIABLE, f"{tmp_path / 'missing'}:{folder}")
    assert cli.main(["rules"]) == 0
    assert "My Marolles again" in capsys.readouterr().out
    assert cli.main(["rules", "--rulesets", str(other)]) == 0
    listed = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert "From the flag" in listed["my-marolles"]
    assert cli.main(["validate", "my-marolles-again"]) == 0
    assert "my-marolles-again.yaml: ok" in capsys.readouterr().out


# --- schema and completion -------------------------------------------------------------------


def test_schema_prints_the_installed_path_and_editor_settings(capsys) -> None:
    assert cli.main(["schema", "--path"]) == 0
    path = Path(capsys.readouterr().out.strip())
    assert path == (paths.schemas_dir() / "ruleset.schema.json").resolve() and path.is_file()
    assert cli.main(["schema"]) == 0
    shown = capsys.readouterr().out
    assert f'"yaml.schemas": {{"{path.as_uri()}"' in shown
    assert f"# yaml-language-server: $schema={path.as_uri()}" in shown


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
def test_bash_completion_completes_commands_flags_and_ruleset_names(tmp_path) -> None:
    done = tarot("completion", "bash")
    assert done.returncode == 0, done.stderr
    script = tmp_path / "tarot.bash"
    script.write_text(done.stdout, encoding="utf-8")
    probe = f"""
source {script}
complete -p tarot
tarot() {{ printf 'marolles-1637\\nmarolles-1637-wickson\\nfrench-tarot\\n'; }}
for typed in "tarot pl" "tarot play --se" "tarot play marolles-1637-w"; do
  COMP_WORDS=($typed); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 )); COMP_LINE="$typed"
  COMP_POINT=${{#typed}}; COMPREPLY=()
  _shtab_tarot
  echo "${{COMP_WORDS[*]}} => ${{COMPREPLY[*]}}"
done
"""
    ran = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30)
    assert ran.returncode == 0, ran.stderr
    assert "tarot pl => play" in ran.stdout
    assert "--seed" in ran.stdout.split("tarot play --se =>")[1].splitlines()[0]
    assert "marolles-1637-wickson" in ran.stdout.split("marolles-1637-w =>")[1]
