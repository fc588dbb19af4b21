"""Property-based fuzzing of ruleset loading: random YAML texts, built-in rulesets mutated
as text, and built-in rulesets mutated as data must each load (and then a hand must play) or
be refused with a RulesetError whose every problem names a place; nothing else may escape,
and each example must finish within the hypothesis deadline.

CI runs a small number of examples per test. A longer run, e.g. 2,000 examples each:

    TAROT_FUZZ_EXAMPLES=2000 python -m pytest tests/test_fuzz_rulesets.py -p no:cacheprovider
"""

from __future__ import annotations

import copy
import os
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mutations import loads_and_plays_or_is_refused, value_paths

from tarot.compile.loader import load_ruleset
from tarot.load import paths

# the slow tier (`python -m pytest -m slow`): built-in rulesets mutated as data
pytestmark = pytest.mark.slow


def _examples(default: int) -> int:
    return int(os.environ.get("TAROT_FUZZ_EXAMPLES", default))


def _fuzz(default_examples: int) -> settings:
    return settings(
        max_examples=_examples(default_examples),
        deadline=timedelta(seconds=5),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


BASE_NAME = "marolles-1637"
BASE_TEXT = paths.find_builtin(BASE_NAME).read_text(encoding="utf-8")
BASE_DATA = yaml.safe_load(BASE_TEXT)
load_ruleset(BASE_NAME)  # compile the expression grammar before the first timed example

#: Pieces of YAML syntax, numbers and names that matter to the loader.
TOKENS = [
    ":", "- ", "[", "]", "{", "}", ",", "&a ", "*a", "<<: ", "!!int ", "!!float ", "!x ",
    "? ", "|", ">", "'", '"', "#", "\n", "\n  ", "  ", "\t", "---\n", "...\n", "%YAML 1.1\n",
    "0", "5.0", "-1", ".inf", "-.inf", ".nan", "1e999", "0x1F", "1:30", "9" * 60, "~", "true",
    "extends", "extends: marolles-1637\n", "players", "count", "deck", "deal", "packets",
    "rounds", "each", "payments", "amount", "when", "option", "é", "\u2028", "\x00", "\ufeff",
]  # fmt: skip

yaml_texts = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=8)), max_size=60).map(
    "".join
)


def _outcome(text: str | bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.yaml"
        if isinstance(text, str):
            text = text.encode("utf-8", errors="surrogatepass")
        path.write_bytes(text)
        loads_and_plays_or_is_refused(path)


@_fuzz(150)
@given(yaml_texts)
def test_random_yaml_text_loads_or_is_refused(text: str) -> None:
    _outcome(text)


@_fuzz(40)
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(BASE_TEXT)),
            st.integers(0, 40),
            st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_builtin_ruleset_mutated_as_text_loads_or_is_refused(edits: list) -> None:
    text = BASE_TEXT
    for start, length, insert in edits:
        start = min(start, len(text))
        text = text[:start] + insert + text[start + length :]
    _outcome(text)


def _json_values() -> st.SearchStrategy:
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**12), 10**12),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from(["", "x", "seats", "player", "count(seats)", "1 //", "card in tarots"]),
        st.text(max_size=12),
    )
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from(["id", "option", "value", "x"]), inner, max_size=3),
        ),
        max_leaves=6,
    )


PLACES = value_paths(BASE_DATA)


@_fuzz(40)
@given(
    st.lists(
        st.tuples(st.sampled_from(PLACES), st.one_of(st.just(None), _json_values())),
        min_size=1,
        max_size=4,
    ),
    st.booleans(),
)
def test_builtin_ruleset_mutated_as_data_loads_or_is_refused(edits: list, as_variant: bool) -> None:
    document = copy.deepcopy(BASE_DATA)
    for place, value in edits:
        node = document
        for part in place[:-1]:
            if not isinstance(node, dict | list) or part not in (
                node if isinstance(node, dict) else range(len(node))
            ):
                break
            node = node[part]
        else:
            if isinstance(node, dict) and value is None:
                node.pop(place[-1], None)  # None stands for "delete the key"
            elif isinstance(node, dict | list) and (
                place[-1] in node
                if isinstance(node, dict)
                else isinstance(place[-1], int) and place[-1] < len(node)
            ):
                node[place[-1]] = value
    if as_variant:  # only the edited sections, over the unchanged built-in
        edited = {place[0] for place, _value in edits if place[0] in document}
        document = {"extends": BASE_NAME, **{key: document[key] for key in edited}}
    _outcome(yaml.safe_dump(document, allow_unicode=True))
