"""The batch back end (`tarot.batch`) on a talon laid out in packets (`talon.packets`,
tests/data/rulesets/talon-packets.yaml): the taker takes one or two of them into his hand or
onto his pile, the rest going to the defenders' tricks or staying on the table; and on a
talon given to the trick winners, one or two cards a trick (`talon.to: trick_winners`). Every hand
tested replays through the scalar engine with every payment, the net and the rule counts
equal; the packets are taken uniformly, as the scalar random player takes them; means agree
with the scalar engine's. Also: a seat count known before any hand (`count(seats)`) is a
constant of the batch's expressions, and a refusal of `--backend batch` names the ruleset
with no stray path before it."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from batch_checks import means_agree, refusing, replayed

from tarot.batch.run import program_of
from tarot.batch.support import supports
from tarot.cli import main
from tarot.compile.loader import load_ruleset

PACKETS = str(Path(__file__).parent / "data" / "rulesets" / "talon-packets.yaml")
QUESTIONS = str(Path(__file__).parent / "data" / "rulesets" / "questions-in-play.yaml")


@cache
def loaded(target: str):
    return load_ruleset(target)


def test_packets_are_taken_and_every_hand_replays():
    ruleset = loaded(PACKETS)
    assert supports(ruleset) == []
    records, kinds, fired = replayed(ruleset, 5, 300)
    assert kinds["packet"] > 100 and kinds["discard"] > 100  # packets taken into hand, laid away
    # the hands the talon ended once the taker had his packet (paid `count(seats) * 2`), and
    # Kings of a talon given to the trick winners
    assert fired["talon_ended"] and fired["talon_kings_won"]
    per_hand = Counter(sum(d["kind"] == "packet" for d in r["decisions"]) for r in records)
    assert per_hand[1] and per_hand[2]  # one packet taken, or two one after the other


def test_each_packet_on_the_table_is_as_likely():
    records, _kinds, _fired = replayed(loaded(PACKETS), 5, 400)
    firsts: Counter = Counter()
    for record in records:
        packets = [d["choice"] for d in record["decisions"] if d["kind"] == "packet"]
        bids = [d["choice"] for d in record["decisions"] if d["kind"] == "bid"]
        if "one" in bids and len(packets) == 1:  # four packets of one
            firsts[packets[0]] += 1
    assert set(firsts) == {"packet:1", "packet:2", "packet:3", "packet:4"}
    total = sum(firsts.values())
    assert all(abs(n - total / 4) < 4 * (total * 3 / 16) ** 0.5 for n in firsts.values())


def test_seats_counted_before_any_hand_are_a_constant():
    program = program_of(loaded(PACKETS))
    settlement = {rule.key: rule for rule in program.settlement}
    assert settlement["most_points"].amount.const
    assert settlement["most_points"].amount.value == 1
    assert settlement["talon_ended"].amount.value == 8


def test_packets_means_agree_with_the_scalar_engine():
    means_agree(loaded(PACKETS), 7, 600, {}, rules_at_least=3)


def test_a_refusal_names_the_ruleset_with_no_stray_path(capsys, monkeypatch):
    refusing(monkeypatch)
    status = main(["simulate", QUESTIONS, "--hands", "5", "--backend", "batch"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith("questions-in-play: --backend batch cannot run questions:"), err
    assert "$" not in err


@pytest.mark.slow
def test_packets_agree_over_many_seeds():
    for seed in range(1, 11):
        replayed(loaded(PACKETS), seed, 300)
    means_agree(loaded(PACKETS), 21, 3000, {}, rules_at_least=4)
