"""`tarot rules` reads each built-in ruleset's title, players and sources without checking or
compiling it (`tarot.load.listing`): what it lists must be what loading gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarot import cli
from tarot.compile.loader import load_ruleset
from tarot.errors import RulesetError
from tarot.load import paths
from tarot.load.listing import Listing, builtin_listings, read_listing

BUILTIN = sorted(paths.builtin_rulesets())


@pytest.fixture(scope="module")
def listings() -> dict[str, tuple[Path, Listing | None]]:
    return builtin_listings()


def test_every_builtin_ruleset_is_listed(listings) -> None:
    assert sorted(listings) == BUILTIN
    assert len(BUILTIN) > 1


@pytest.mark.parametrize("name", BUILTIN)
def test_the_listing_is_what_the_loaded_ruleset_says(name: str, listings) -> None:
    path, listing = listings[name]
    ruleset = load_ruleset(name)
    assert path == paths.builtin_rulesets()[name]
    assert listing == Listing(ruleset.title, ruleset.players, tuple(sorted(ruleset.sources)))


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


BASE = """\
title: Base game
players:
  count: {option: seats}
options:
  seats:
    default: three
    readings:
      three: {value: 3}
      four: {value: 4}
sources:
  first: {citation: A first source}
"""


def test_an_option_takes_its_default_reading_along_the_extends_chain(tmp_path: Path) -> None:
    base = _write(tmp_path, "base.yaml", BASE)
    child = _write(
        tmp_path,
        "child.yaml",
        "extends: base\ntitle: Child game\noptions:\n  seats: {default: four}\n"
        "sources:\n  second: {citation: A second source}\n",
    )
    no_builtins = lambda _name: None  # noqa: E731
    assert read_listing(base, no_builtins) == Listing("Base game", 3, ("first",))
    assert read_listing(child, no_builtins) == Listing("Child game", 4, ("first", "second"))


def test_a_ruleset_without_a_title_is_listed_by_its_file_name(tmp_path: Path) -> None:
    path = _write(tmp_path, "untitled.yaml", "players: {count: 5}\n")
    assert read_listing(path, lambda _name: None) == Listing("untitled", 5, ())


@pytest.mark.parametrize(
    "text",
    ["title: [unclosed\n", "title: T\n", "title: T\nplayers: {count: {option: missing}}\n"],
    ids=["not YAML", "no players", "unknown option"],
)
def test_fields_that_cannot_be_read_are_refused(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path, "broken.yaml", text)
    with pytest.raises(RulesetError) as refused:
        read_listing(path, lambda _name: None)
    assert str(path) in str(refused.value)


def test_rules_lists_a_ruleset_that_would_not_load_and_names_one_it_cannot_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    invalid = _write(tmp_path, "no-deck.yaml", "title: No deck\nplayers: {count: 4}\n")
    unreadable = _write(tmp_path, "unreadable.yaml", "title: [unclosed\n")
    with pytest.raises(RulesetError):
        load_ruleset(invalid)
    builtin = {"no-deck": invalid, "unreadable": unreadable}
    monkeypatch.setattr(paths, "builtin_rulesets", lambda: builtin)
    assert cli.main(["rules"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "no-deck     4 players  No deck  [sources: ]",
        f"unreadable  (does not load: run tarot validate {unreadable})",
    ]
