"""`tarot explain`: every built-in ruleset as a rules page in both formats, the content a
historian checks (readings and the one in force, assumptions at the end, full citations),
and a small ruleset written for the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.load import paths
from tarot.presentation.explain import Page, explain_page, render
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


# --- every source and assumption with its rule ------------------------------------------------


def _cited(node: object, path: tuple = ()) -> list[tuple[tuple, object, object]]:
    """(path, source, assumption) of every mapping in a ruleset's document that has either."""
    found: list[tuple[tuple, object, object]] = []
    if isinstance(node, dict):
        if "source" in node or "assumption" in node:
            found.append((path, node.get("source"), node.get("assumption")))
        for key, value in node.items():
            found += _cited(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _cited(value, (*path, index))
    return found


def _words(text: object) -> str:
    return " ".join(str(text).split())


def _where_said(page: Page, path: tuple) -> tuple[list[str], list[str], list[int]]:
    """What the page says at the place of `path`: the texts, the source keys and the
    assumption numbers of the reading, parameter or rule (the one written nearest above
    `path`, not counting the parts that are rules of their own) that covers it."""
    if path[:1] == ("options",) and len(path) == 4:
        option = next(o for o in page.options if o.name == path[1])
        reading = next(r for r in option.readings if r.name == path[3])
        return [reading.description], reading.sources, [reading.assumption or 0]
    if path[:1] == ("parameters",):
        parameter = next(p for p in page.parameters if p.name == path[1])
        return [parameter.description], parameter.sources, [parameter.assumption or 0]
    covering = [
        rule
        for section in page.sections
        for rule in section.rules
        if path[: len(rule.path)] == rule.path
        and not any(path[: len(inner)] == inner for inner in rule.inner)
    ]
    assert covering, f"no rule on the page covers {path}"
    rule = max(covering, key=lambda r: len(r.path))
    return rule.lines, rule.sources, [rule.assumption or 0]


@pytest.mark.parametrize("name", paths.list_builtins())
def test_every_source_and_assumption_is_on_the_page_with_its_rule(name: str) -> None:
    """Every `source:` and `assumption:` a ruleset writes, wherever it is written (a contract's
    talon, an entry of the announcements' or the doublings' table, a winner exception...),
    appears on its explain page in the rule that covers that place: each source key cited,
    each assumption numbered there and its text in the page's list of assumptions."""
    ruleset = load_ruleset(name)
    page = explain_page(ruleset)
    text = _words(render(page, "text"))
    numbers: dict[str, set[int]] = {}  # one text may be written at several places
    for said_assumption in page.assumptions:
        numbers.setdefault(_words(said_assumption.text), set()).add(said_assumption.number)
    for path, source, assumption in _cited(ruleset.document):
        lines, sources, own = _where_said(page, path)
        said = " ".join(lines)
        for key in [source] if isinstance(source, str) else source or []:
            assert key in sources or key in said, f"{name}: {path}: source {key} not cited"
        if assumption:
            assert _words(assumption) in text, f"{name}: {path}: assumption not on the page"
            assert any(
                number in own or f"assumption {number}" in said
                for number in numbers[_words(assumption)]
            ), f"{name}: {path}: assumption not named with its rule"


def test_doubling_targets_say_who_doubles_whom() -> None:
    """Each doubling target with who may first double it and who answers (`against`, or by
    default every other seat; an announcement's other side, answered by the announcer's)."""
    text = _words(render(explain_page(load_ruleset("slovenian-tarok")), "text"))
    assert "answered by the announcer's side" in text
    assert "first doubled by the seats not on the side of its first announcer" in text


def test_the_auction_never_says_what_cannot_happen(tmp_path: Path) -> None:
    """'If every player passes' is said only where every player can pass: not where the last
    to speak has the last word at once (nothing is named for a deal all pass) with a contract
    open to every seat; and where contracts are offered once all passed, the deal is thrown in
    only if nobody takes one."""
    auction = """
bidding:
  source: book
  rounds: until_one_left
  winner_may_raise: true
  contracts:
    - {id: small, name: Small, values: {game: 1}, source: book}
    - {id: large, name: Large, values: {game: 2}, source: book}
"""
    path = tmp_path / "last-word.yaml"
    path.write_text(SMALL.replace("payments:", auction.lstrip() + "payments:"), encoding="utf-8")
    text = _words(render(explain_page(load_ruleset(path)), "text"))
    assert "If every player passes" not in text
    assert "has the last word at once: he names a contract open to him" in text
    assert "So the deal is never passed out: Small or Large is open to him." in text
    closed = auction.replace("values: {game: 1}", "values: {game: 1}, open_to: 'player == dealer'")
    closed = closed.replace("values: {game: 2}", "values: {game: 2}, open_to: 'player == dealer'")
    path.write_text(SMALL.replace("payments:", closed.lstrip() + "payments:"), encoding="utf-8")
    text = _words(render(explain_page(load_ruleset(path)), "text"))
    assert "never passed out" not in text
    assert "If every player passes (the last to speak only with no contract open to him)" in text
    slovenian = _words(render(explain_page(load_ruleset("slovenian-tarok")), "text"))
    assert "If every player passes, Klop is played" in slovenian  # his pass chooses it
    # a contract open to nobody (Bridscher) is never offered, only played when all pass
    tapp = _words(render(explain_page(load_ruleset("tapp-tarock")), "text"))
    assert "If every player passes, Bridscher is played, every player for himself" in tapp
    assert "offered in turn" not in tapp.lower() and "for whom `false`" not in tapp
    assert "Open to no player: nobody bids it." in tapp
    hungarian = _words(render(explain_page(load_ruleset("hungarian-tarokk")), "text"))
    assert "the deal is thrown in" in hungarian
    assert "If every player passes, the deal is thrown in" not in hungarian
    assert "If every player passes, Trial three (Three bid without an honour) is offered" in (
        hungarian
    )
    french = _words(render(explain_page(load_ruleset("french-tarot")), "text"))
    assert "If every player passes, the deal is thrown in." in french
