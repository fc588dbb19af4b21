"""Trick rules by contract in the batch back end (`tarot.batch.contract_play`): each hand
plays under its contract's own play rules (`bidding.contracts[].play`), with the card rules
(`play.forced`, `play.held_back`, `play.lead_forbidden`), a card that must beat the trick
(`play.must_beat`) and trumps played as a suit (`play.trumps_as_suit`). Every hand tested
replays through the scalar engine with every payment equal, and has as many legal cards
at each decision as the scalar engine gives (the sum over the hand equal); the search
player's play-outs under each contract replay exactly; the built-in rulesets that need them
(Droggn, Illustrated Hungarian Tarokk) run whole."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from batch_checks import loaded, play_outs_replayed, replayed

from tarot.batch.contract_play import plain_trump_tables
from tarot.batch.run import play_batch, summaries
from tarot.batch.support import supports
from tarot.batch.tables import DeckTables
from tarot.core.actions import DecisionKind
from tarot.core.ruleset import Ruleset
from tarot.engine.game import deal_hand
from tarot.engine.state import HandState
from tarot.players.batched_playouts import batchable
from tarot.players.random_agent import RandomAgent
from tarot.players.sampling import Sampler
from tarot.records.batch_agreement import batch_records
from tarot.records.replay import apply_decision

CONTRACT_PLAY = str(Path(__file__).parent / "data" / "batch" / "contract-play.yaml")
BUILT_IN = ["droggn", "hungarian-tarokk-illustrated"]


def legal_counts_agree(ruleset: Ruleset, seed: int, hands: int) -> Counter:
    """Hands 1..`hands` of the batch back end: each one's legal choices summed over its
    decisions equal to the scalar engine's replaying them (each decision legal there); the
    contracts played, counted."""
    numbers = range(1, hands + 1)
    played = {s.number: s for s in summaries(play_batch(ruleset, seed, numbers))}
    for record in batch_records(ruleset, seed, numbers):
        by_id = ruleset.deck.by_id
        packs = [[by_id[card] for card in pack] for pack in record["packs"]]
        state = HandState(
            ruleset, record["dealer"], packs[0], record["number"], repack=packs.__getitem__
        )
        choices = 0
        for i, decision in enumerate(record["decisions"]):
            assert state.decision is not None
            choices += len(state.decision.choices)
            apply_decision(state, decision, f"hand {record['number']}.decisions[{i}]")
        assert choices == played[record["number"]].choices, record["number"]
    return Counter(s.contract for s in played.values())


def test_each_contract_plays_by_its_own_trick_rules_as_in_the_scalar_engine():
    ruleset = loaded(CONTRACT_PLAY)
    assert supports(ruleset) == []
    records, kinds, _fired = replayed(ruleset, 2, 150)
    contracts = legal_counts_agree(ruleset, 2, 150)
    assert min(contracts[c] for c in ("garde", "garde_sans", "garde_contre")) >= 3, contracts
    # a Garde sans ends once the taker has five tricks: some hands are played short
    tricks = {len([d for d in r["decisions"] if d["kind"] == "play"]) for r in records}
    assert len(tricks) > 2 and kinds["play"] > 5000


def test_trumps_as_a_suit_follow_and_win_only_when_led():
    """The tables a contract playing trumps as a suit plays by: no trumps, and the trumps
    one more suit, as `Pack.plain_trumps` has them."""
    ruleset = loaded(CONTRACT_PLAY)
    tables = DeckTables.of(ruleset)
    plain, pack = plain_trump_tables(tables), ruleset.deck.cards.plain_trumps
    assert not plain.is_trump.any() and not plain.trumps.any()
    trumps = sorted(ruleset.deck.cards.trumps)
    assert len({int(plain.suit[t]) for t in trumps}) == 1
    same_suit = [
        (plain.suit[a] == plain.suit[b]) == (pack.suit[a] == pack.suit[b])
        for a in range(len(pack))
        for b in range(len(pack))
        if not (pack[a].fool or pack[b].fool)
    ]
    assert all(same_suit)


@pytest.mark.parametrize(("name", "hands"), [("droggn", 40), ("hungarian-tarokk-illustrated", 16)])
def test_built_in_rulesets_with_card_rules_run_in_batch(name, hands):
    ruleset = loaded(name)
    assert supports(ruleset) == []
    replayed(ruleset, 4, hands)
    legal_counts_agree(ruleset, 4, hands)


def test_a_contract_s_own_fool_exchange_is_refused_by_name(tmp_path):
    variant = tmp_path / "variant.yaml"
    variant.write_text(
        f"extends: {CONTRACT_PLAY}\ntitle: variant\nbidding:\n  contracts:\n"
        "    - id: garde\n      play:\n        excuse:\n          exchange:\n"
        '            cards: "[c in trumps if false]"\n',
        encoding="utf-8",
    )
    from tarot.compile.loader import load_ruleset

    refused = supports(load_ruleset(str(variant)))
    assert any("contracts[1].play.excuse.exchange" in reason for reason in refused), refused


def _moments(ruleset: Ruleset, trick: int, on_table: int, hands: int) -> list[HandState]:
    """Hands 1..`hands` played by random players up to a card decision of trick `trick`
    with `on_table` cards on the table, where the batch can take them up."""
    found = []
    for number in range(1, hands + 1):
        state = deal_hand(ruleset, 7, number)
        player = RandomAgent(number)
        while (decision := state.decision) is not None:
            if (
                decision.kind is DecisionKind.PLAY
                and (state.play.trick_number, len(state.zones.trick)) == (trick, on_table)
                and len(decision.actions) > 1
            ):
                if batchable(state):
                    found.append(state)
                break
            state.apply_action(player.choose(state, decision.seat))
    return found


def test_play_outs_under_several_contracts_in_one_batch_replay_exactly():
    """Play-outs of hands under different contracts taken up in one batch: each plays under
    its own contract's rules (each set of rules a batch of its own, the card habit's draws
    kept by row), every payment equal to the scalar engine's."""
    ruleset = loaded(CONTRACT_PLAY)
    states = _moments(ruleset, 3, 1, 40)
    contracts = Counter(s.auction.contract for s in states)
    assert len(contracts) >= 2, contracts  # trumps as a suit are played out by the scalar engine
    trials, streams = [], []
    rng = random.Random(5)
    for row, state in enumerate(states):
        decision = state.decision
        assert decision is not None
        guessed = Sampler(state, decision.seat).sample(rng)
        for action in decision.actions[:2]:
            trial = guessed.clone()
            trial.apply_action(action)
            if trial.decision is not None and batchable(trial) and len(trial.zones.trick) == 2:
                trials.append(trial)
                streams.append(row)
    batch = play_outs_replayed(trials, np.array(streams, dtype=np.int64))
    assert batch.size == len(trials)


@pytest.mark.slow
@pytest.mark.parametrize("name", [CONTRACT_PLAY, *BUILT_IN])
def test_contract_play_agrees_over_many_seeds(name):
    ruleset = loaded(name)
    for seed in range(1, 9):
        replayed(ruleset, seed, 150)
        legal_counts_agree(ruleset, seed, 50)
