"""A chosen deal (`Ruleset.new_hand(deal=...)`, `tarot.play(deal=...)`, `tarot play --deal
FILE`): dealt exactly as laid out, checked fully, and asserted by the record, whose replay
checks the pack against the deal instead of the seed."""

from __future__ import annotations

import copy
import json

import pytest
import yaml
from commands import tarot as run_tarot

import tarot
from tarot.compile.loader import load_ruleset
from tarot.records.record_json import parse_record
from tarot.records.replay import ReplayMismatch, record_problems, replay_record


@pytest.fixture(scope="module")
def french() -> tarot.Ruleset:
    return tarot.load("french-tarot")


def _deal(ruleset: tarot.Ruleset, seed: int) -> dict:
    return ruleset.new_hand(seed=seed).deal


def test_a_deal_is_dealt_as_laid_out(french):
    deal = _deal(french, 3)
    deal["hands"][0], deal["hands"][2] = deal["hands"][2], deal["hands"][0]
    state = french.new_hand(deal=deal)
    for seat, cards in enumerate(deal["hands"]):
        assert sorted(state.observation(seat).hand) == sorted(cards)
    assert state.deal == deal  # each seat's cards in the order dealt, the talon too
    assert state.dealer == deal["dealer"]


def test_the_deal_of_a_seeded_hand_deals_that_hand_again(french):
    seeded = tarot.play(french, seed=11, agents="heuristic")
    again = tarot.play(french, seed=11, agents="heuristic", deal=seeded.deal)
    assert again.engine.pack == seeded.engine.pack
    assert again.returns() == seeded.returns()
    assert again.record()["hands"][0]["decisions"] == seeded.record()["hands"][0]["decisions"]


def test_the_dealer_is_the_rotations_unless_given(french):
    deal = _deal(french, 4)
    del deal["dealer"]
    assert french.new_hand(deal=deal, hand=3).dealer == 2  # hand 3: seat 2 deals
    with_dealer = {**_deal(french, 4), "dealer": 1}
    state = french.new_hand(deal=with_dealer)
    assert state.dealer == 1 and state.current_player == 2  # the seat after the dealer bids


def test_a_dealer_who_is_dealt_a_different_count_is_checked():
    """In Marolles the dealer is dealt 24 cards and the others 21: a deal that fits one dealer
    does not fit another."""
    marolles = tarot.load("marolles-1637")
    deal = marolles.new_hand(seed=2).deal
    assert [len(cards) for cards in deal["hands"]] == [24, 21, 21]
    with pytest.raises(tarot.DealError, match=r"hands\[0\]: 24 card\(s\) given, but"):
        marolles.new_hand(deal={**deal, "dealer": 1})


def test_piles_on_the_table_are_part_of_the_deal():
    two = tarot.load("french-tarot-2")
    deal = two.new_hand(seed=5).deal
    assert [len(piles) for piles in deal["piles"]] == [6, 6]
    assert two.new_hand(deal=deal).engine.pack == two.new_hand(seed=5).engine.pack
    without = {key: value for key, value in deal.items() if key != "piles"}
    with pytest.raises(tarot.DealError, match="piles: french-tarot-2 deals piles"):
        two.new_hand(deal=without)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["hands"][0].__setitem__(0, "trmp-1"), "did you mean 'trump-1'"),
        (lambda d: d["hands"][1].append(d["hands"][0][0]), "hands[1][18]: "),
        (lambda d: d["talon"].pop(), "talon: 5 card(s) given, but french-tarot deals 6"),
        (lambda d: d.__setitem__("talom", d.pop("talon")), "did you mean 'talon'?"),
        (lambda d: d.__setitem__("dealer", 4), "dealer: a seat from 0 to 3, not 4"),
        (lambda d: d.__setitem__("hands", d["hands"][:3]), "hands: one list of cards per seat"),
        (lambda d: d["hands"][2].__setitem__(0, 7), "hands[2][0]: a card id (text), not 7"),
        (lambda d: d.__setitem__("piles", []), "piles: french-tarot deals no piles"),
    ],
)
def test_a_deal_that_does_not_fit_names_the_problem(french, change, message):
    deal = _deal(french, 6)
    change(deal)
    with pytest.raises(tarot.DealError) as refused:
        french.new_hand(deal=deal)
    assert message in str(refused.value)
    assert isinstance(refused.value, ValueError)


def test_every_problem_is_named_at_once_with_the_cards_missing(french):
    deal = _deal(french, 6)
    lost = deal["hands"][3].pop()
    deal["hands"][0][0] = deal["hands"][1][0]
    problems = str(pytest.raises(tarot.DealError, french.new_hand, deal=deal).value)
    lines = problems.splitlines()
    assert (
        lines[0].startswith("hands[1][0]: ") and "is given twice (first at hands[0][0])" in lines[0]
    )
    assert "hands[3]: 17 card(s) given, but french-tarot deals 18 there" in problems
    assert lines[-1].startswith("2 card(s) of the pack not given: ") and lost in lines[-1]


def test_a_deal_that_is_not_a_mapping_is_refused(french):
    with pytest.raises(tarot.DealError, match="a deal is a mapping"):
        french.new_hand(deal=["spades-1"])


# --- records ---------------------------------------------------------------------------------


def test_a_record_asserts_its_chosen_deal_and_replays(french):
    deal = {**_deal(french, 8), "dealer": 3}
    state = tarot.play(french, seed=2, agents="random", deal=deal)
    record = json.loads(json.dumps(state.record()))
    assert record["hands"][0]["deal"] == deal
    assert record["hands"][0]["dealer"] == 3  # not the rotation's seat 0
    assert record_problems(record) == []
    replay_record(record, load_ruleset("french-tarot"))


def test_a_seeded_record_asserts_no_deal(french):
    record = tarot.play(french, seed=2).record()
    assert "deal" not in record["hands"][0]


def _refused(record: dict) -> str:
    assert record_problems(record) == []
    with pytest.raises(ReplayMismatch) as refused:
        replay_record(record, load_ruleset(record["ruleset"]["id"]))
    return str(refused.value)


@pytest.fixture(scope="module")
def chosen_record(french) -> dict:
    deal = {**_deal(french, 9), "dealer": 1}
    return json.loads(json.dumps(tarot.play(french, seed=4, deal=deal).record()))


def test_a_pack_that_the_deal_does_not_deal_is_refused(chosen_record):
    record = copy.deepcopy(chosen_record)
    hands = record["hands"][0]["deal"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    assert "$.hands[0].pack[" in _refused(record)
    assert "(the pack that deals $.hands[0].deal)" in _refused(record)


def test_a_deal_that_does_not_fit_the_ruleset_is_refused_in_a_record(chosen_record):
    record = copy.deepcopy(chosen_record)
    record["hands"][0]["deal"]["talon"][0] = "trump-22"
    assert _refused(record).startswith("$.hands[0].deal: not a deal of french-tarot: talon[0]")


def test_the_dealer_of_a_record_must_be_its_deals(chosen_record):
    record = copy.deepcopy(chosen_record)
    record["hands"][0]["dealer"] = 0
    assert _refused(record).startswith("$.hands[0].dealer: recorded 0, replayed 1")


def test_a_seeded_record_given_a_deal_of_another_pack_is_refused():
    """A deal added to a seeded record must deal its pack: the record's pack stays the seed's."""
    french = tarot.load("french-tarot")
    record = json.loads(json.dumps(tarot.play(french, seed=4).record()))
    record["hands"][0]["deal"] = french.new_hand(seed=5).deal
    assert "$.hands[0].pack[" in _refused(record)


# --- the command line ------------------------------------------------------------------------


def test_play_deal_file_records_a_hand_that_replays(tmp_path, french):
    deal_file = tmp_path / "deal.yaml"
    deal_file.write_text(yaml.safe_dump({**_deal(french, 12), "dealer": 2}))
    record_file = tmp_path / "hand.json"
    played = run_tarot(
        "play", "french-tarot", "--deal", str(deal_file), "--record", str(record_file), "--quiet"
    )
    assert played.returncode == 0, played.stderr
    record = parse_record(record_file.read_bytes())
    assert record["hands"][0]["deal"]["dealer"] == 2
    replayed = run_tarot("replay", str(record_file))
    assert replayed.returncode == 0, replayed.stderr
    assert "every pack the seed's or its chosen deal's (1 chosen)" in replayed.stdout


def test_play_deal_takes_json_and_names_every_problem(tmp_path, french):
    deal = _deal(french, 12)
    deal["hands"][0][0] = "Trump-1"
    deal_file = tmp_path / "deal.json"
    deal_file.write_text(json.dumps(deal))
    played = run_tarot("play", "french-tarot", "--deal", str(deal_file))
    assert played.returncode == 2
    assert f"--deal {deal_file}: not a deal of french-tarot:" in played.stderr
    assert "hands[0][0]: french-tarot has no card 'Trump-1'; did you mean" in played.stderr
    assert "Traceback" not in played.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "2"], "--deal lays out one hand"),
        (["--backend", "batch"], "--backend batch deals its own hands"),
    ],
)
def test_play_deal_refuses_what_it_cannot_do(tmp_path, french, args, message):
    deal_file = tmp_path / "deal.yaml"
    deal_file.write_text(yaml.safe_dump(_deal(french, 1)))
    played = run_tarot("play", "french-tarot", "--deal", str(deal_file), *args)
    assert played.returncode == 2 and message in played.stderr


def test_play_deal_names_a_file_it_cannot_read(tmp_path):
    missing = run_tarot("play", "french-tarot", "--deal", str(tmp_path / "none.yaml"))
    assert missing.returncode == 2 and "none.yaml: No such file" in missing.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text("hands: [[a, b]\n")
    refused = run_tarot("play", "french-tarot", "--deal", str(broken))
    assert refused.returncode == 2 and "not YAML or JSON" in refused.stderr


def test_a_chosen_deal_thrown_in_ends_the_hand():
    """Jeu de Tarot deals again after a deal thrown in; a chosen deal is not dealt again
    (hand 2 of seed 8 is thrown in once when seeded: test_replay's `redeals`)."""
    jeu = tarot.load("jeu-de-tarot-3")
    seeded = tarot.play(jeu, seed=8, hand=2, agents="heuristic")
    assert len(seeded.record()["hands"][0]["abandoned_deals"]) == 1
    first_deal = jeu.new_hand(seed=8, hand=2).deal
    chosen = tarot.play(jeu, seed=8, hand=2, agents="heuristic", deal=first_deal)
    record = json.loads(json.dumps(chosen.record()))
    hand = record["hands"][0]
    assert hand["abandoned_deals"] == [] and hand["thrown_in"] is not None
    assert hand["decisions"] == seeded.record()["hands"][0]["abandoned_deals"][0]["decisions"]
    replay_record(record, load_ruleset("jeu-de-tarot-3"))
