"""Checks of the batch back end (`tarot.batch`) shared by its tests: hands replayed
through the scalar engine, means compared with the scalar engine's, and the search player's
play-outs replayed from their states."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from functools import cache

import numpy as np

from tarot.batch import support
from tarot.batch.run import play_summaries
from tarot.batch.scaled_amounts import exact_values
from tarot.batch.state import BatchState
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.core.summary import HandSummary
from tarot.engine.state import HandState
from tarot.measure.hand_summary import play_summarized
from tarot.players.batched_playouts import batchable, play_states, replay_row
from tarot.players.lineup import seat_agents
from tarot.records.batch_agreement import _payments, batch_records, replay


@cache
def loaded(path: str) -> Ruleset:
    """The ruleset at `path` (or built in under that name), loaded once for the tests."""
    return load_ruleset(path)


def replayed(ruleset: Ruleset, seed: int, hands: int) -> tuple[list[dict], Counter, Counter]:
    """Hands 1..`hands` of the batch back end, each replayed through the scalar engine
    (ReplayMismatch at the first difference); with the kinds of decision taken and the
    rules fired, counted over them."""
    assert supports(ruleset) == []
    records = batch_records(ruleset, seed, range(1, hands + 1))
    for record in records:
        record["fired"] = dict(sorted(record["fired"].items()))
        replay(ruleset, record)
    kinds = Counter(d["kind"] for r in records for d in r["decisions"])
    fired = Counter(key for r in records for key in r["fired"])
    return records, kinds, fired


def _mean_and_error(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, variance / len(values)


def means_agree(
    ruleset: Ruleset,
    seed: int,
    hands: int,
    measures: dict[str, Callable[[HandSummary], float]],
    rules_at_least: int = 3,
) -> None:
    """Means over `hands` of the batch back end's hands and the scalar engine's agree
    within 4.5 standard errors: each seat's result, the decisions and choices, the taker's
    result, each rule's count (at least `rules_at_least` rules) and `measures`."""
    batch = play_summaries(ruleset, seed, range(1, hands + 1))
    scalar = [
        play_summarized(ruleset, seed, n, seat_agents(("random",), seed, n, ruleset.players))
        for n in range(1, hands + 1)
    ]
    measures = dict(measures)
    measures.update({f"seat {s}": (lambda h, s=s: h.net[s]) for s in range(ruleset.players)})
    measures["decisions"] = lambda h: h.decisions
    measures["choices"] = lambda h: h.choices
    measures["taker's result"] = lambda h: 0 if h.taker is None else h.net[h.taker]
    rules = {key for h in scalar for key in h.fired}
    assert len(rules) >= rules_at_least
    for key in rules:
        measures[key] = lambda h, key=key: h.fired.get(key, 0)
    for name, measure in measures.items():
        a, var_a = _mean_and_error([measure(h) for h in batch])
        b, var_b = _mean_and_error([measure(h) for h in scalar])
        bound = 4.5 * math.sqrt(var_a + var_b) + 1e-9
        assert abs(a - b) <= bound, (name, a, b, bound)


def play_outs_replayed(trials: list[HandState], streams: np.ndarray) -> BatchState:
    """The search player's play-outs from `trials` played as one batch, each replayed
    through the scalar engine from its state with every payment and the result equal; the
    batch state after them."""
    assert trials and all(batchable(t) for t in trials)
    batch = play_states(trials, 11, streams, explore=0.3, logging=True)
    for row, trial in enumerate(trials):
        again = replay_row(trial, batch, row)
        made = [p.as_record() for p in again.payments[len(trial.payments) :]]
        assert made == _payments(batch, row), row
        assert again.returns() == exact_values(batch.net[row], batch.scale), row
    return batch


#: a mechanism the batch back end runs, and the reason it gave when it did not, for the tests
#: of what a refusal does (`refusing`): the built-in rulesets all run in batch, and so do the
#: language's test rulesets
REFUSED_FOR_TEST = ("questions", "questions during play (no such decision in the batch)")


def refusing(monkeypatch) -> str:
    """The batch back end made to refuse one mechanism it runs (`REFUSED_FOR_TEST`), as it
    did before it ran it, so that the tests of a refusal (the command refused or fallen back
    from, naming it) have one; the mechanism's name."""
    mechanism, why = REFUSED_FOR_TEST
    monkeypatch.setattr(support, "RUNS", support.RUNS - {mechanism})
    monkeypatch.setitem(support.REFUSED, mechanism, why)
    return mechanism
