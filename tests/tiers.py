"""The fast and the slow tier of the tests (`pyproject.toml`: `python -m pytest` runs the fast
tier, `python -m pytest -m slow` the rest): a parametrization that repeats one check over many
rulesets, files or seeds keeps a representative case fast and sends the others to the slow
tier."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

import pytest
from _pytest.mark.structures import ParameterSet


def one_fast(values: Iterable, group: Callable[[object], Hashable] = lambda _: None) -> list:
    """`values` for `pytest.mark.parametrize`: the first of each `group` in the fast tier, the
    others marked slow (a tuple is the arguments of one case, a `pytest.param` keeps its own)."""
    seen: set[Hashable] = set()
    cases = []
    for value in values:
        key = group(value)
        marks = (pytest.mark.slow,) if key in seen else ()
        seen.add(key)
        if isinstance(value, ParameterSet):  # a pytest.param already, with its id and marks
            cases.append(pytest.param(*value.values, marks=(*value.marks, *marks), id=value.id))
            continue
        arguments = value if isinstance(value, tuple) else (value,)
        cases.append(pytest.param(*arguments, marks=marks))
    return cases
