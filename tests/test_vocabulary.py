"""The facts registry: every fact of the vocabulary has an implementation in each back end,
or is refused there by name; nothing is implemented that the vocabulary does not declare."""

from __future__ import annotations

import inspect

import pytest

from tarot.batch.facts import ARRAY_FACTS, REFUSED_FACTS, fact
from tarot.batch.values import Unsupported
from tarot.compile.contexts import FACTS, SCALAR_FACTS
from tarot.core.vocabulary import FACTS as VOCABULARY


def test_every_fact_has_a_scalar_implementation() -> None:
    assert set(SCALAR_FACTS) == set(VOCABULARY)
    for name, signature in VOCABULARY.items():
        assert FACTS[name].params == signature.params and FACTS[name].returns == signature.returns


@pytest.mark.parametrize("name", sorted(VOCABULARY))
def test_every_fact_runs_in_the_batch_back_end_or_is_refused_by_name(name: str) -> None:
    assert (name in ARRAY_FACTS) != (name in REFUSED_FACTS), name
    if name in REFUSED_FACTS:
        assert REFUSED_FACTS[name]  # says what the batch back end lacks
        with pytest.raises(Unsupported, match=rf"{name}\(\).*{REFUSED_FACTS[name]}"):
            fact(name)


def test_no_back_end_implements_an_undeclared_fact() -> None:
    assert set(ARRAY_FACTS) <= set(VOCABULARY)
    assert set(REFUSED_FACTS) <= set(VOCABULARY)


@pytest.mark.parametrize("name", sorted(ARRAY_FACTS))
def test_an_array_fact_takes_the_declared_arguments(name: str) -> None:
    parameters = inspect.signature(ARRAY_FACTS[name]).parameters
    assert len(parameters) == 1 + len(VOCABULARY[name].params)  # the context, then each
