"""`tarot explain`: every built-in ruleset as a rules page in both formats, the content a
historian checks (readings and the one in force, assumptions at the end, full citations),
and a small ruleset written for the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.load import paths
from tarot.presentation.explain import explain_page, render
from tests.commands import tarot

SMALL = """\
title: A small test game
period: "the test suite"
sources:
  book:
    citation: An Imaginary Book of Card Games (1700), p. 12.
    url: https://example.org/book
  notes:
    citation: Notes taken for the test.
players: {count: 2, source: book}
deck:
  source: book
  suits: [{name: roses}, {name: bells, pips: inverted}]
  pips: 4
  trumps: 4
  card_sets:
    trumps: {trumps: all}
    top: {trumps: [4]}
options:
  stake:
    description: What the top trump is worth to its winner.
    default: small
    readings:
      small: {description: One point., source: book, value: 1}
      large: {description: Three points., source: notes, value: 3, assumption: A guess.}
deal:
  source: book
  packets: [{rounds: 2, each: 3}]
play:
  source: book
  follow_suit: true
counting:
  source: book
  method: sum
  values: [{set: trumps, value: 2}]
definitions:
  prize:
    value: "option.stake * 2"
    description: Twice the stake.
    source: book
payments:
  - id: top_won
    name: Top trump won
    event: trick_end
    when: "card in top and winner == player"
    from: "opponents(player)"
    to: player
    amount: "prize"
    source: book
    assumption: The book gives no figure; the stake is doubled.
settlement:
  - id: points
    name: Card points
    from: "[s in seats if points(s) < 6]"
    to: "[s in seats if points(s) >= 6]"
    amount: 1
    source: notes
"""


@pytest.fixture()
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.yaml"
    path.write_text(SMALL, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", paths.list_builtins())
def test_every_builtin_renders_in_both_formats(name: str) -> None:
    ruleset = load_ruleset(name)
    page = explain_page(ruleset)
    for fmt in ("text", "markdown"):
        text = render(page, fmt)
        assert ruleset.title in text
        for option, reading in ruleset.options.items():
            assert option in text and reading in text
        for citation in ruleset.sources.values():
            assert " ".join(citation.split()[:6]) in text
        for rule in ruleset.settlement:
            assert rule.name in text
    titles = [section.title for section in page.sections]
    assert titles[0] == "Players and pack"
    assert titles.index("Play of the cards") > titles.index("The deal")


def ruleset_reading(name: str) -> list[str]:
    """The source keys of the reading in force of `ultimo_failure` in ruleset `name`."""
    ruleset = load_ruleset(name)
    return ruleset.reading_source("ultimo_failure").split(", ")


def test_reading_in_force_marked_and_default_named() -> None:
    literal = render(explain_page(load_ruleset("marolles-1637-ultimo-literal")), "text")
    assert "  * literal [in force]: value 1." in literal
    assert "  - mcleod: value 6." in literal  # the variant's own default is literal
    literal_source = ", ".join(ruleset_reading("marolles-1637-ultimo-literal"))
    assert f"Reads option ultimo_failure = literal ({literal_source}) (see Options)." in literal
    base = render(explain_page(load_ruleset("marolles-1637")), "markdown")
    assert "- **`mcleod`** [in force]: value `6`." in base
    assert "- `literal`: value `1`." in base


def test_option_on_the_command_line_moves_the_marker() -> None:
    chosen = load_ruleset("marolles-1637", {"two_winners": "higher_only"})
    text = render(explain_page(chosen), "text")
    assert "  * higher_only [in force]:" in text
    assert "  - each_by_excess [the ruleset's default]:" in text


def test_assumptions_listed_at_the_end_and_sources_cited_in_full() -> None:
    text = render(explain_page(load_ruleset("marolles-1637")), "text")
    assumptions = text.index("\nAssumptions\n")
    sources = text.index("\nSources\n")
    assert assumptions < sources
    fool = text.index("Failed to excuse the Fool: This penalty stands instead", assumptions)
    assert fool < sources
    assert text.index("Failed to excuse the Fool\n") < assumptions  # the rule, in its section
    full = "Michael Dummett and John McLeod (2004), A History of Games Played with the"
    assert full in text[sources:]


def test_small_ruleset_page(small: Path) -> None:
    page = explain_page(load_ruleset(small))
    text = render(page, "text")
    rules = {rule.title: rule for section in page.sections for rule in section.rules}
    # the payment reads the option through the definition it uses
    assert rules["Top trump won"].options == ["stake"]
    assert rules["Definition: prize"].options == ["stake"]
    assert rules["Card points"].options == []
    assert rules["Top trump won"].sources == ["book"]
    option = page.options[0]
    assert option.read_by == ["Top trump won", "Definition: prize"]
    assert [(r.name, r.in_force, r.sources) for r in option.readings] == [
        ("small", True, ["book"]),
        ("large", False, ["notes"]),
    ]
    assert [(a.where, a.text) for a in page.assumptions] == [
        ("Top trump won", "The book gives no figure; the stake is doubled."),
        ("option stake, reading large", "A guess."),
    ]
    assert "  Assumption 1 (see Assumptions)." in text
    assert "12 cards." in text
    assert "Suits: roses and bells (pips inverted: 1 highest)" in text
    assert "Each player is dealt 6 cards." in text
    assert "book: An Imaginary Book of Card Games (1700), p. 12. <https://example.org/book>" in text
    order = [text.index(title) for title in ("Players", "Dealing", "Tricks", "Top trump won")]
    assert order == sorted(order)
    markdown = render(page, "markdown")
    assert "## Assumptions\n\n1. Top trump won: The book gives no figure" in markdown
    assert "- `book`: An Imaginary Book of Card Games (1700), p. 12." in markdown


def test_command(small: Path) -> None:
    done = tarot("explain", str(small), "--format", "markdown", "--option", "stake=large")
    assert done.returncode == 0, done.stderr
    assert "- **`large`** [in force]: value `3`." in done.stdout
    assert tarot("explain", str(small), "--option", "stake=huge").returncode == 2
    wrong = tarot("explain", str(small), "--format", "html")
    assert wrong.returncode == 2 and "invalid choice" in wrong.stderr
    missing = tarot("explain", "no-such-game")
    assert missing.returncode == 2 and "no ruleset named" in missing.stderr
