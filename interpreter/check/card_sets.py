"""The pack's named card sets checked one by one: a set that is wrong does not hide the rest.

Pipeline: called by :mod:`~tarot.check.semantic_checks` while it makes the pack. A card set
that names a set or a suit the pack does not have, or that is defined through itself, is
reported where it is written; it and every set built on it are then *stood for* by the whole
pack, so that the checks and the compiler still read every rule that names them (as a
`CARDS` value: a type mistake there is still found) and report their own problems. No
ruleset is made from a document with a problem, so the stand-in is never played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from tarot.check.draft import Draft
from tarot.core.cards import Deck, set_dependencies
from tarot.errors import did_you_mean

__all__ = ["checked_sets", "selector_values", "standing_in"]


def checked_sets(
    draft: Draft, sets: Mapping[str, dict], suits: set[str]
) -> tuple[list[str], set[str]]:
    """The names of the well-defined sets, each after the sets it is built from, and the
    names of the others (each problem reported in `draft`)."""
    order: list[str] = []
    visiting: set[str] = set()
    wrong: set[str] = set()

    def visit(name: str, chain: list[str]) -> None:
        if name in order or name in wrong:
            return
        if name in visiting:
            draft.problem(
                ("deck", "card_sets", name),
                "card sets refer to each other in a circle: " + " -> ".join(chain),
            )
            wrong.update(chain)
            return
        visiting.add(name)
        for dependency, inside in set_dependencies(sets[name]):
            if dependency not in sets:
                draft.problem(
                    ("deck", "card_sets", name) + inside,
                    f"unknown card set {dependency!r}; {did_you_mean(dependency, sets)}"
                    "sets: " + ", ".join(sets),
                )
                wrong.add(name)
                continue
            visit(dependency, chain + [dependency])
            if dependency in wrong:
                wrong.add(name)  # built on a wrong set: reported there
        visiting.discard(name)
        if name not in wrong:
            order.append(name)

    for name in sets:
        visit(name, [name])
    for name, selector in sets.items():
        for suit in selector_values(selector, "suits"):
            if suit not in suits:
                draft.problem(
                    ("deck", "card_sets", name),
                    f"unknown suit {suit!r}; {did_you_mean(suit, suits)}suits: "
                    + ", ".join(sorted(suits)),
                )
                wrong.add(name)
    wrong |= {name for name in order if _built_on(name, sets, wrong)}
    return [name for name in order if name not in wrong], wrong


def standing_in(deck: Deck, wrong: Sequence[str] | set[str]) -> Deck:
    """The pack with each wrong set stood for by every card (see the module's docstring)."""
    if not wrong:
        return deck
    every = frozenset(range(len(deck)))
    return replace(deck, sets={**deck.sets, **{name: every for name in wrong}})


def _built_on(name: str, sets: Mapping[str, dict], wrong: set[str]) -> bool:
    """Whether the set `name` is built, directly or not, on a set of `wrong`."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        current = todo.pop()
        for dependency, _inside in set_dependencies(sets.get(current, {})):
            if dependency in wrong:
                return True
            if dependency not in seen:
                seen.add(dependency)
                todo.append(dependency)
    return False


def selector_values(selector: dict, key: str) -> list:
    """The values a card selector gives under `key` (`suits`, `sets`...), its `any_of`
    alternatives' included."""
    found = list(selector.get(key, []))
    for part in selector.get("any_of", []):
        found += selector_values(part, key)
    return found
