"""The batch back end (`tarot.batch`) on redeals the other seats must agree to
(`redeal[].agreed_by`: `tarot.batch.phases.agreement`).

On tests/data/batch/agreed-redeals.yaml (a redeal its player asks for, then both others
asked; one the cards call for, the player's next asked; one that names only the player,
thrown in at once; each deal dealt again by the same dealer) and the language's own test
rulesets with agreed redeals, every hand tested replays through the scalar engine with every
decision legal and every payment equal; the legal choices and the means are the scalar
engine's. Switched off (each redeal thrown in without asking), the hands do not replay."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from batch_checks import loaded, means_agree, replayed
from test_batch_contract_play import legal_counts_agree

from tarot.batch.phases import auction
from tarot.batch.support import supports
from tarot.records.replay import ReplayMismatch

TESTS = Path(__file__).parent / "data"
AGREED = str(TESTS / "batch" / "agreed-redeals.yaml")
NAMES = ("announcements", "announcement-rounds", "announcement-reopen")
LANGUAGE = [str(TESTS / "rulesets" / f"{name}.yaml") for name in NAMES]


def _answers(record: dict) -> Counter:
    """Each redeal rule's answers in a hand: (rule, `redeal` or `play_on`)."""
    return Counter(
        tuple(d["choice"].split(":")) for d in record["decisions"] if d["kind"] == "redeal"
    )


def test_redeals_agreed_to_replay_through_the_scalar_engine():
    ruleset = loaded(AGREED)
    assert supports(ruleset) == []
    records, kinds, fired = replayed(ruleset, 1, 300)
    answers = sum((_answers(r) for r in records), Counter())
    # the cards alone call for `one_king`: every answer is its player's next agreeing or not
    assert answers[("one_king", "redeal")] > 20 and answers[("one_king", "play_on")] > 20
    # `no_trump`: its player's request, then the others' agreement (more asked than asked for)
    requests = sum(map(_requests, records))
    assert answers[("no_trump", "redeal")] > requests > 5 and answers[("no_trump", "play_on")]
    assert not any(rule == "dealers_fifth" for rule, _a in answers)  # nobody is asked
    assert fired["thrown_in:dealers_fifth"] > 20 and fired["thrown_in:one_king"] > 20
    assert fired["thrown_in:no_trump"] > 5
    assert kinds["play"] > 1000
    legal_counts_agree(ruleset, 1, 100)


def _requests(record: dict) -> int:
    """The `no_trump` redeals asked for by their player, each then put to the others: a
    `no_trump:redeal` by a seat the previous `no_trump` answer was not asked of first."""
    found, agreeing = 0, 0
    for decision in record["decisions"]:
        if decision["kind"] != "redeal" or not decision["choice"].startswith("no_trump"):
            continue
        if agreeing:  # one of the two others asked to agree
            agreeing = 0 if decision["choice"].endswith("play_on") else agreeing - 1
        elif decision["choice"].endswith("redeal"):
            found, agreeing = found + 1, 2
    return found


@pytest.mark.parametrize("path", LANGUAGE)
def test_the_languages_agreed_redeals_replay(path):
    ruleset = loaded(path)
    records, _kinds, fired = replayed(ruleset, 2, 200)
    assert any(k.startswith("thrown_in") for k in fired)
    legal_counts_agree(ruleset, 2, 60)


def test_a_redeal_thrown_in_without_asking_would_not_replay(monkeypatch):
    monkeypatch.setattr(auction, "agreed", lambda _state, _rule, _by, rows, _seats: rows)
    with pytest.raises(ReplayMismatch):
        replayed(loaded(AGREED), 1, 300)


@pytest.mark.slow
def test_agreed_redeals_agree_over_many_seeds():
    for seed in range(3, 9):
        replayed(loaded(AGREED), seed, 300)
    for path in LANGUAGE:
        replayed(loaded(path), 5, 300)
    means_agree(loaded(AGREED), 21, 1500, {}, rules_at_least=3)
