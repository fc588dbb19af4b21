"""Nothing under `interpreter/` names a particular game: no built-in ruleset, option, card
set, contract, declaration, payment or redeal rule, source or unit of the results.

The names are read from the built-in rulesets as loaded (not from a list written here), so a
new ruleset brings its own names into the check. Every file under `interpreter/` is read:
code, docstrings, comments, the grammar and `LANGUAGE.md`, whose examples are to be made up
rather than taken from a built-in game. A name is looked for as a whole word in any case, as
written (`ultimo_won`) and as prose (`ultimo won`, with any spacing between its words).

Some names of the built-in rulesets are words of the language itself or ordinary English,
which the interpreter uses in their general sense; `GENERIC` lists each with the reason.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.load import paths

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "interpreter"

#: Names of the built-in rulesets that the interpreter uses in their general sense.
GENERIC = {
    # the ruleset language's own words: a ruleset reuses them for what the language means
    "contract": "a contract of the auction (`bidding.contracts`, `contract` in expressions)",
    "direction": "the direction of play, `players.direction`",
    "fool": "the pack's Fool, `deck.fool`, which the language knows",
    "trumps": "the pack's trumps, `deck.trumps`",
    "overtrump": "the rule of play `play.overtrump`",
    # options named after the setting they choose, whose compiled field has the same name
    "deal_packets": "the packets of the deal, `deal.packets`",
    "declaration_timing": "`declarations.timing`",
    "declarations_maximal": "`declarations.maximal`",
    "fool_may_lead": "`play.excuse.may_lead`",
    "fool_in_last_trick": "`play.excuse.in_last_trick`",
    # the language's keys and their words
    "pips": "the order of a suit's pip cards, `deck.pips`",
    "claim": "claiming the game during play, `game.claim_during_play`",
    "credit": "the credit of a partial group, `counting.partial_group_credit`",
    "credits": "the credits of partial groups, `counting.partial_group_credit`",
    # ordinary English, said of anything
    "simple": "'simple', said of an expression that needs no brackets",
    "one_empty": "'one empty mapping', said in a comment",
    "fool_card": "'a card's fool flag', said of any card",
    "all_three": "'all three'",
    "counted_in": "'counted in'",
    "every_card": "'every card'",
    "low_cards": "'low cards'",
    "never_discarded": "'never discarded'",
    "one": "the number, said of anything",
    "two": "the number, said of anything",
    "three": "the number, said of anything",
    "fives": "'twos and fives', the factors of a finite decimal",
    "game": "the `game` section (how a game ends) and the word itself",
    "hold": "holding the bid, `bidding.hold`",
    "stakes": "'the stakes', what is played for",
    "needed": "'when needed'",
    "margin": "'a margin', said of any difference",
    # the default unit of the results; card points are the language's counting (`points`)
    "point": "the unit of a ruleset that names none",
    "points": "the unit of a ruleset that names none, and card points",
}


def _names_of(ruleset: Ruleset) -> dict[str, str]:
    """Each name a ruleset gives, with what it names."""
    document = ruleset.document
    kinds = {
        "ruleset": [ruleset.id],
        "option": list(ruleset.options),
        "card set": list(document["deck"].get("card_sets", {})),
        "contract": [c.id for c in ruleset.bidding.contracts] if ruleset.bidding else [],
        "declaration": [d.id for d in ruleset.declarations],
        "payment rule": [r.id for group in ruleset.payments.values() for r in group],
        "settlement rule": [r.id for r in ruleset.settlement],
        "redeal rule": [r.id for r in ruleset.redeals],
        "source": list(ruleset.sources),
        "unit": [ruleset.unit.singular, ruleset.unit.plural],
    }
    return {name: kind for kind, names in kinds.items() for name in names}


@cache
def builtin_names() -> dict[str, set[str]]:
    """Every name the built-in rulesets give, with what it names in which ruleset."""
    found: dict[str, set[str]] = defaultdict(set)
    for name in paths.builtin_rulesets():
        for given, kind in _names_of(load_ruleset(name)).items():
            found[given].add(f"{kind} in {name}")
    return found


def _pattern(name: str) -> re.Pattern[str]:
    """`name` as a whole word, written with `_`/`-` or as prose, in any case."""
    words = [re.escape(word) for word in re.split(r"[_\-\s]+", name) if word]
    return re.compile(r"(?<![\w-])" + r"[_\-\s]+".join(words) + r"(?![\w-])", re.I)


def _files() -> list[Path]:
    return sorted(
        path for path in PACKAGE.rglob("*") if path.is_file() and "__pycache__" not in path.parts
    )


def test_the_rulesets_give_the_names_looked_for() -> None:
    names = builtin_names()
    assert "marolles-1637" in names and "french-tarot" in names
    assert any("option" in kind for kinds in names.values() for kind in kinds)
    assert any("unit" in kind for kinds in names.values() for kind in kinds)
    stale = sorted(set(GENERIC) - set(names))
    assert not stale, f"no built-in ruleset gives these names any more; drop them: {stale}"


def test_the_pattern_finds_a_name_written_as_code_or_as_prose() -> None:
    pattern = _pattern("ultimo_won")
    assert pattern.search('rule = "ultimo_won"')
    assert pattern.search("the Ultimo\n    won by a King")
    assert not pattern.search("ultimo_won_twice") and not pattern.search("pre-ultimo won")
    assert _pattern("french-tarot").search("in French\nTarot")


@pytest.mark.slow
def test_nothing_under_interpreter_names_a_builtin_game() -> None:
    names = builtin_names()
    files = {path: path.read_text(encoding="utf-8", errors="replace") for path in _files()}
    found: dict[tuple[str, str], list[int]] = {}
    for name in sorted(set(names) - set(GENERIC)):
        pattern = _pattern(name)
        for path, text in files.items():
            lines = [text.count("\n", 0, m.start()) + 1 for m in pattern.finditer(text)]
            if lines:
                found[(path.relative_to(ROOT).as_posix(), name)] = lines
    named = {
        f"{where}:{lines}: {name!r} ({'; '.join(sorted(names[name])[:3])})"
        for (where, name), lines in found.items()
    }
    assert not named, "game names under interpreter/:\n" + "\n".join(sorted(named))
