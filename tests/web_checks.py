"""What the web tests share: every text of a JSON answer, to look for cards in it."""

from __future__ import annotations


def strings(value: object) -> set[str]:
    """Every text in a JSON value (card ids are texts; keys are not cards)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*(strings(item) for item in value))
    return set()
