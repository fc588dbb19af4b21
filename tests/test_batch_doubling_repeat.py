"""Doublings past the named steps (`doubling.repeat`) and the count of a seat's passes in the
announcements (`announce_passes`) in the batch back end (`tarot.batch.doubling_rules`,
`tarot.batch.phases.double`, `tarot.batch.phases.announce`): the sides doubling on in turn
up to the `limit` an expression gives, in their own step and in the round of announcements;
each hand replayed through the scalar engine with every decision legal and every payment
equal. A division by a number of seats that may be three runs where it is paid (counted in
thirds), and is refused at load elsewhere."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from batch_checks import loaded, replayed

from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset

DATA = Path(__file__).parent / "data"
REPEAT = str(DATA / "rulesets" / "doubling-repeat.yaml")
DOUBLING = DATA / "batch" / "doubling.yaml"


def _doublings(records: list[dict], kind: str) -> list[Counter]:
    """Per hand: how many doublings each target had."""
    found = []
    for record in records:
        made: Counter = Counter()
        for decision in record["decisions"]:
            step, _, target = decision["choice"].partition(":")
            if decision["kind"] == kind and target and step not in ("pass", "announce"):
                made[target] += 1
        found.append(made)
    return found


def test_doublings_go_on_past_the_named_steps_up_to_the_limit():
    ruleset = loaded(REPEAT)
    assert supports(ruleset) == []
    records, kinds, _fired = replayed(ruleset, 3, 300)
    said = Counter(d["choice"] for r in records for d in r["decisions"] if d["kind"] == "double")
    assert said["again:game"] > 50 and said["redouble:game"] > 50
    made = _doublings(records, "double")
    # the limit: 4 doublings for the low contract, 40 for the others
    low = [m["game"] for m, r in zip(made, records, strict=True) if _contract(r) == "low"]
    assert max(low) == 4
    assert max(m["game"] for m in made) > 4
    assert kinds["double"] > 500


def _contract(record: dict) -> str | None:
    """The contract of a hand of the game: its last bid."""
    bids = [
        d["choice"] for d in record["decisions"] if d["kind"] == "bid" and d["choice"] != "pass"
    ]
    return bids[-1] if bids else None


def _announcing_variant(tmp_path: Path) -> Path:
    """The batch's doubling test game with its doublings made in the round of announcements,
    round and round, repeated past the named steps up to a limit the doublings of the game
    set, and a bonus open only on a seat's first turn (`announce_passes`)."""
    text = DOUBLING.read_text(encoding="utf-8")
    text = text.replace(
        "  factor: 2\n",
        "  factor: 2\n  with_announcements: true\n"
        "  repeat:\n    step: further\n"
        "    limit: \"if doublings('kings') > 0 then 5 else 7\"\n    source: tarot_003\n",
    )
    text = text.replace(
        '      when: "count(c in hand(player): c in trumps) >= 6"\n',
        '      when: "count(c in hand(player): c in trumps) >= 6'
        ' and announce_passes(player) == 0"\n',
    )
    text = text.replace(
        "announcements:\n  source: tarot_003\n",
        "announcements:\n  source: tarot_003\n  rounds: until_all_pass\n",
    )
    variant = tmp_path / "variant.yaml"
    variant.write_text(text, encoding="utf-8")
    return variant


def test_repeated_doublings_in_the_round_of_announcements_replay(tmp_path):
    ruleset = load_ruleset(str(_announcing_variant(tmp_path)))
    assert supports(ruleset) == [] and ruleset.doubling.repeat == "further"
    records, _kinds, fired = replayed(ruleset, 5, 200)
    words = Counter(
        d["choice"].split(":")[0]
        for r in records
        for d in r["decisions"]
        if d["kind"] == "announce"
    )
    assert words["further"] > 20 and words["recontre"] > 20 and words["announce"] > 20
    made = _doublings(records, "announce")
    assert max(m["game"] for m in made) == 7  # the limit, never passed
    assert fired["d_game"] > 60


def test_a_division_by_a_side_of_three_runs_only_where_it_is_paid(tmp_path):
    """A payment shared among a side of three runs (counted in thirds:
    `batch.scaled_amounts`); the same division inside `max` is refused at load."""

    def shared(amount: str) -> list[str]:
        variant = tmp_path / "thirds.yaml"
        variant.write_text(
            DOUBLING.read_text(encoding="utf-8")
            + "  - id: shared\n    name: shared out among the defenders\n"
            + f"    from: taker\n    to: defenders\n    amount: '{amount}'\n"
            + "    source: tarot_003\n",
            encoding="utf-8",
        )
        return supports(load_ruleset(str(variant)))

    assert shared("10 / count(defenders)") == []
    (problem,) = shared("max(1, 10 / count(defenders))")
    assert "division by a number of seats" in problem and "shared" in problem


@pytest.mark.slow
def test_repeated_doublings_replay_over_many_seeds(tmp_path):
    ruleset = loaded(REPEAT)
    variant = load_ruleset(str(_announcing_variant(tmp_path)))
    for seed in range(1, 7):
        replayed(ruleset, seed, 300)
        replayed(variant, seed, 200)
