"""The batch back end (`tarot.batch`) on a talon packet that may not be taken while another
may (`talon.packets.forbidden`, tests/data/rulesets/packet-forbidden.yaml and Illustrated
Tarock): a taker who said he plays without Kings takes no packet holding one, unless every
packet left holds one. Every hand tested replays through the scalar engine with every
payment, the net and the rule counts equal; the packets he may take are taken uniformly, as
the scalar random player takes them; means agree with the scalar engine's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from batch_checks import loaded, means_agree, replayed
from test_batch_contract_play import legal_counts_agree

from tarot.batch.phases import packets
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.engine.state import HandState
from tarot.records.replay import ReplayMismatch, apply_decision

FORBIDDEN = str(Path(__file__).parent / "data" / "rulesets" / "packet-forbidden.yaml")
ILLUSTRATED = ("illustrated-tarock", "illustrated-tarock-contra-doubles")


def _packets_taken(ruleset, record) -> Iterator[tuple[bool, list[bool], int]]:
    """Each packet the batch's taker took: whether he had said he plays without Kings, for
    each packet on the table (as the scalar engine lays them out, playing the record's
    decisions) whether it holds a King, and the place of the one taken among them."""
    ids, by_id = ruleset.deck.cards.ids, ruleset.deck.by_id
    pack = [by_id[card] for card in record["packs"][0]]
    state = HandState(ruleset, record["dealer"], pack, record["number"])
    without = False
    for i, decision in enumerate(record["decisions"]):
        if decision["kind"] == "ask":
            without = decision["choice"].endswith(":yes")
        if decision["kind"] == "packet":
            on_table = [k for k, packet in enumerate(state.zones.packets) if packet]
            kings = [any(ids[c].endswith("-K") for c in state.zones.packets[k]) for k in on_table]
            taken = int(decision["choice"].split(":")[1]) - 1
            yield without, kings, on_table.index(taken)
        apply_decision(state, decision, f"decisions[{i}]")


def test_a_packet_forbidden_is_taken_only_when_every_packet_left_is():
    ruleset = loaded(FORBIDDEN)
    assert supports(ruleset) == []
    records, kinds, _fired = replayed(ruleset, 3, 400)
    assert kinds["packet"] > 200 and kinds["ask"] > 200
    kept_from, given_way = 0, 0
    for record in records:
        for without, kings, taken in _packets_taken(ruleset, record):
            if without and kings[taken]:
                assert all(kings), record["number"]  # the rule gave way
                given_way += 1
            elif without and any(kings):
                kept_from += 1
    assert kept_from > 50 and given_way > 0
    legal_counts_agree(ruleset, 3, 100)


def test_the_packets_he_may_take_are_as_likely():
    ruleset = loaded(FORBIDDEN)
    records, _kinds, _fired = replayed(ruleset, 5, 600)
    firsts: Counter = Counter()
    for record in records:
        for without, kings, taken in _packets_taken(ruleset, record):
            if without and kings == [True, False, False, False]:
                firsts[taken] += 1
    assert set(firsts) == {1, 2, 3}
    total = sum(firsts.values())
    assert all(abs(n - total / 3) < 4 * (total * 2 / 9) ** 0.5 for n in firsts.values())


def test_offering_every_packet_would_not_replay(monkeypatch):
    monkeypatch.setattr(packets, "_allowed", lambda _s, _r, _rows, _seats, _m, left: left)
    with pytest.raises(ReplayMismatch, match="may not take the talon's packet"):
        replayed(loaded(FORBIDDEN), 3, 400)


@pytest.mark.parametrize("name", ILLUSTRATED)
def test_illustrated_tarock_replays(name):
    ruleset = load_ruleset(name)
    assert supports(ruleset) == []
    _records, kinds, _fired = replayed(ruleset, 5, 80)
    assert kinds["packet"] and kinds["ask"] and kinds["double"]
    legal_counts_agree(ruleset, 5, 30)  # as many legal choices at every decision


@pytest.mark.slow
def test_forbidden_packets_agree_over_many_seeds():
    for seed in range(1, 9):
        replayed(loaded(FORBIDDEN), seed, 300)
    for name in ILLUSTRATED:
        for seed in range(1, 5):
            replayed(load_ruleset(name), seed, 300)


@pytest.mark.slow
def test_forbidden_packets_means_agree_in_distribution():
    means_agree(loaded(FORBIDDEN), 21, 3000, {}, rules_at_least=1)
    means_agree(load_ruleset("illustrated-tarock"), 21, 1000, {}, rules_at_least=1)
