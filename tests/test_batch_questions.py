"""The batch back end (`tarot.batch`) on questions asked during play (`questions`, the facts
`answer` and `asker`: `tarot.batch.phases.questions`).

On tests/data/batch/questions.yaml (a question every seat may ask before the first trick,
two due before the third, one of them only under one contract, payments reading the answers
and the askers) and the language's own questions-in-play.yaml, every hand tested replays
through the scalar engine with every decision legal and every payment equal; the answers
and askers are the scalar engine's, and so are the legal choices and the means. Switched
off (no question asked), the hands do not replay."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from batch_checks import loaded, means_agree, replayed
from test_batch_contract_play import legal_counts_agree

from tarot.batch.phases import play, questions
from tarot.batch.run import play_batch
from tarot.batch.support import supports
from tarot.records.batch_agreement import batch_records, replay
from tarot.records.replay import ReplayMismatch

TESTS = Path(__file__).parent / "data"
QUESTIONS = str(TESTS / "batch" / "questions.yaml")
IN_PLAY = str(TESTS / "rulesets" / "questions-in-play.yaml")


def test_questions_asked_during_play_replay_through_the_scalar_engine():
    ruleset = loaded(QUESTIONS)
    assert supports(ruleset) == []
    records, kinds, fired = replayed(ruleset, 1, 300)
    answers = Counter(d["choice"] for r in records for d in r["decisions"] if d["kind"] == "ask")
    for question in ("kings", "low_trumps", "swords", "top_trump"):
        assert answers[f"{question}:yes"] > 10 and answers[f"{question}:no"] > 10, answers
    for rule in ("kings_asked", "low_trumps_found", "swords_asked", "question_paid"):
        assert fired[rule] > 10, fired
    legal_counts_agree(ruleset, 1, 100)


def test_the_answers_and_askers_are_the_scalar_engines():
    ruleset = loaded(QUESTIONS)
    numbers = range(1, 121)
    state = play_batch(ruleset, 2, numbers)
    ids = [q.id for q in ruleset.questions]
    asked = 0
    for row, record in enumerate(batch_records(ruleset, 2, numbers)):
        scalar = replay(ruleset, record).ask.answers
        for index, question in enumerate(ids):
            asker, _trick, holders = scalar.get(question, (-1, 0, ()))
            assert int(state.asker[row, index]) == asker, (row, question)
            assert np.flatnonzero(state.answers[row, index]).tolist() == list(holders)
            asked += asker >= 0
    assert asked > 100


def test_the_languages_question_replays():
    records, kinds, fired = replayed(loaded(IN_PLAY), 3, 200)
    assert kinds["ask"] > 50 and fired["question_paid"] > 10
    legal_counts_agree(loaded(IN_PLAY), 3, 60)


def test_no_question_asked_would_not_replay(monkeypatch):
    monkeypatch.setattr(play.questions, "ask_before", lambda *_args: None)
    assert play.questions is questions
    with pytest.raises(ReplayMismatch):
        replayed(loaded(QUESTIONS), 1, 300)


@pytest.mark.slow
def test_questions_agree_over_many_seeds():
    for seed in range(3, 9):
        replayed(loaded(QUESTIONS), seed, 300)
    means_agree(loaded(QUESTIONS), 21, 1500, {}, rules_at_least=4)
