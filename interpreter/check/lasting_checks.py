"""Check stage, the `lasting` section: what the schema cannot say about counters and accounts.

Pipeline: called by :mod:`~tarot.check.semantic_checks`. Each counter and account is
read in expressions by its name, so the name must be free (not a word of the language, a
context name, a fact, a card set or a definition); a change names a counter, a transfer an
account; a change of a counter per seat says whose (`seats`), one of a table's counter does
not; transfers at the end of the sitting need a `game` section saying when it ends.
"""

from __future__ import annotations

from collections.abc import Callable

from tarot.check.draft import Draft

__all__ = ["check_lasting"]


def check_lasting(draft: Draft, taken: Callable[[str], str]) -> None:
    """Report the section's problems; `taken(name)` says why a name cannot be used ("" if
    it can)."""
    section = draft.data.get("lasting")
    if not isinstance(section, dict) or draft.broken.whole("lasting"):
        return
    counters = section.get("counters", {})
    accounts = section.get("accounts", {})
    definitions = draft.data.get("definitions", {})
    for kind, names in (("counters", counters), ("accounts", accounts)):
        for name in names:
            why = taken(name) or (
                f"{name!r} is a definition's name; choose another" if name in definitions else ""
            )
            if kind == "accounts" and name in counters:
                why = f"{name!r} is already a counter; choose another name for the account"
            if why:
                draft.problem(("lasting", kind, name), why)
    per_seat = {name for name, spec in counters.items() if spec.get("per", "seat") == "seat"}
    for i, change in enumerate(section.get("changes", [])):
        _check_change(draft, ("lasting", "changes", i), change, per_seat, {*counters, *accounts})
    for i, transfer in enumerate(section.get("transfers", [])):
        where = ("lasting", "transfers", i)
        if transfer["account"] not in accounts:
            draft.problem(
                where + ("account",),
                f"no account is named {transfer['account']!r}; accounts: "
                + (", ".join(accounts) or "none (declare them under lasting.accounts)"),
            )
        if transfer.get("at") == "sitting_end" and "game" not in draft.data:
            draft.problem(
                where + ("at",),
                "a transfer at the end of the sitting needs a `game` section saying when the"
                " sitting ends (game.ends_when)",
            )


def _check_change(
    draft: Draft, where: tuple, change: dict, per_seat: set[str], known: set[str]
) -> None:
    name = change["counter"]
    if name not in known:
        draft.problem(
            where + ("counter",),
            f"no counter or account is named {name!r}; declared: "
            + (", ".join(sorted(known)) or "none (declare them under lasting.counters)"),
        )
    elif name in per_seat and "seats" not in change:
        draft.problem(
            where,
            f"{name!r} is a counter per seat: say whose counters change with `seats`"
            ' (e.g. seats: "seats" for every seat\'s)',
        )
    elif name not in per_seat and "seats" in change:
        draft.problem(
            where + ("seats",),
            f"{name!r} is one number for the table: a change of it takes no `seats`",
        )
