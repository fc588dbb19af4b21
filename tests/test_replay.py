"""Records as untrusted input: strict reading (tarot.records.record_json), strict writing, and
what replay verifies beyond the schema (tarot.records.replay). The command line's refusals of
tampered records are attack cases in tests/data/attacks/records/; the fuzzing is in
test_replay_fuzz.py."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest
from commands import tarot

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.load import paths
from tarot.players.lineup import seat_agents
from tarot.records.record import game_record, record_id
from tarot.records.record_json import RecordError, parse_record, record_text
from tarot.records.replay import ReplayMismatch, record_problems, replay_record

# --- reading ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "where", "words"),
    [
        (b"", "", "empty"),
        (b" \n\t", "", "empty"),
        (b'{"a": [1,\n NaN]}', "2:2", "NaN is not a number JSON has"),
        (b'{"a": "NaN", "b": Infinity}', "1:19", "Infinity is not a number JSON has"),
        (b'{"a": -Infinity}', "1:7", "-Infinity"),
        (b'{"a": 1e400}', "1:7", "too large"),
        (b'{"a":\n ' + b"9" * 5000 + b"}", "2:2", "an integer of 5000 digits"),
        (b"[" * 5000 + b"]" * 5000, "1:17", "nested more than 16 deep"),
        (b'{"a": "caf\xe9"}', "1:11", "not UTF-8: the byte 0xe9"),
        (b'{"a": 1', "1:8", "not JSON"),
    ],
)
def test_malformed_json_is_a_record_error_with_a_place(data: bytes, where: str, words: str):
    with pytest.raises(RecordError) as refused:
        parse_record(data)
    assert refused.value.where == where
    assert words in refused.value.message


def test_nesting_is_counted_outside_strings_only():
    deep = b"[" * 15 + b"]" * 15  # 16 deep inside an object
    assert parse_record(b'{"a": ' + deep + b', "b": "[[[[[[[[[[[[[[[[[[[[{{{{{{{{{{{{{{{{{"}')
    with pytest.raises(RecordError) as refused:
        parse_record(b'{"a": "]]]", "b":\n [' + deep + b"]}")
    assert refused.value.where == "2:17"  # the 17th bracket


def test_a_key_given_twice_is_refused_with_the_path_of_its_object():
    with pytest.raises(RecordError) as refused:
        parse_record(b'{"hands": [{"number": 1}, {"number": 2, "dealer": 0, "number": 3}]}')
    assert str(refused.value) == "$.hands[1]: the key 'number' is given twice"


def test_strings_that_look_like_bad_tokens_are_data():
    assert parse_record(b'{"NaN": "NaN", "x": "\\"Infinity"}') == {"NaN": "NaN", "x": '"Infinity'}


def test_the_place_in_a_message_follows_the_file_name():
    error = RecordError("3:4", "not JSON: oops")
    assert error.located("r.json") == "r.json:3:4: not JSON: oops"
    assert RecordError("$.seed", "bad").located("r.json") == "r.json: $.seed: bad"
    assert RecordError("", "empty").located("r.json") == "r.json: empty"


# --- writing ---------------------------------------------------------------------------------


def test_a_record_is_written_as_strict_json():
    record = {"totals": [1.5, -2], "hands": [{"net": [0.25]}]}
    assert record_text(record) == json.dumps(record, indent=1)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_a_value_json_cannot_hold_is_refused_naming_its_path(bad: float):
    with pytest.raises(RecordError) as refused:
        record_text({"hands": [{"net": [1, bad]}]})
    assert refused.value.where == "$.hands[0].net[1]"
    assert "not a finite number" in refused.value.message


@pytest.mark.parametrize(
    ("stem", "recorded"),
    [
        ("french-tarot", "french-tarot"),
        ("My Game (v2)", "my-game-v2"),
        ("../etc", "etc"),
        ("___", "ruleset"),
        ("x" * 100, "x" * 64),
    ],
)
def test_a_ruleset_file_is_recorded_under_a_name_the_schema_accepts(stem: str, recorded: str):
    ruleset = load_ruleset("marolles-1637")
    renamed = copy.copy(ruleset)
    object.__setattr__(renamed, "id", stem)
    assert record_id(renamed) == recorded


# --- what replay verifies --------------------------------------------------------------------


def _record(name: str, seed: int, hands: int | None, agents: str = "heuristic") -> dict:
    ruleset = load_ruleset(name)

    def seating(number):
        return seat_agents([agents], seed, number, ruleset.players)

    states = play_game(ruleset, seed, seating, hands)
    names = [agent.name for agent in seating(1)]
    return json.loads(record_text(game_record(ruleset, seed, names, states)))


@pytest.fixture(scope="module")
def redeals() -> dict:
    """Two hands of Jeu de Tarot for three; the second is dealt twice (the seed chosen for
    it: the heuristic players pass or bid as they judge the hands)."""
    record = _record("jeu-de-tarot-3", 8, 2)
    assert [len(hand["abandoned_deals"]) for hand in record["hands"]] == [0, 1]
    return record


def _refusal(record: dict, name: str | None = None) -> str:
    assert record_problems(record) == []
    with pytest.raises(ReplayMismatch) as refused:
        replay_record(record, load_ruleset(name or record["ruleset"]["id"]))
    return str(refused.value)


def test_a_decision_of_an_abandoned_deal_is_named_where_it_is(redeals):
    record = copy.deepcopy(redeals)
    deal = record["hands"][1]["abandoned_deals"][0]
    deal["decisions"][0]["choice"] = "no-such-bid"
    refusal = _refusal(record)
    assert refusal.startswith("$.hands[1].abandoned_deals[0].decisions[0]: illegal"), refusal


def test_a_deal_thrown_in_that_the_record_leaves_out_is_found(redeals):
    record = copy.deepcopy(redeals)
    hand = record["hands"][1]
    hand["abandoned_deals"].pop()  # the pack played is now said to be the second deal's
    refusal = _refusal(record)
    assert refusal.startswith("$.hands[1].pack[0]: recorded"), refusal
    assert "(what seed 8 deals in hand 2)" in refusal


def test_a_record_that_goes_on_past_the_end_of_its_game_is_refused():
    # early-french-6, seed 3: seat 1 reaches the target after hand 1, and the game is over;
    # hands played after it (as `tarot play --hands 3` once did) are not part of the game
    record = _record("early-french-6", 3, 3, agents="random")
    refusal = _refusal(record)
    assert refusal.startswith(
        "$.hands[1]: the game is over after hand 1 (seat 1 won: the rules of early-french-6"
        " end it there), but the record goes on with 2 more hand(s)"
    ), refusal
    ended = _record("early-french-6", 3, 1, agents="random")
    assert ended["game_winners"] == [1]
    replay_record(ended, load_ruleset("early-french-6"))
    ended["game_winners"] = []
    assert _refusal(ended).startswith("$.game_winners: recorded 0 entries, replayed 1")


@pytest.mark.parametrize(
    ("agent", "known"),
    [
        ("random", True),
        ("heuristic", True),
        ("search", True),
        ("search(samples=2)", True),
        ("search(samples=2, rollout=random)", True),
        ("human", True),
        ("search(samples=0)", False),
        ("search(samples=2", False),
        ("search(bogus=1)", False),
        ("search:samples=2", False),
        ("random()", False),
        ("Random", False),
    ],
)
def test_the_players_of_the_seats_are_ones_the_tool_has(redeals, agent: str, known: bool):
    record = copy.deepcopy(redeals)
    record["seats"][1]["agent"] = agent
    if known:
        replay_record(record, load_ruleset("jeu-de-tarot-3"))
    else:
        assert _refusal(record).startswith(f"$.seats[1].agent: recorded {agent!r}")


def test_a_seat_out_of_order_is_refused(redeals):
    record = copy.deepcopy(redeals)
    record["seats"][0]["seat"], record["seats"][1]["seat"] = 1, 0
    assert _refusal(record) == "$.seats[0].seat: recorded 1, expected 0"


def test_a_record_of_another_ruleset_with_the_same_content_is_refused_by_its_id(redeals):
    record = copy.deepcopy(redeals)
    record["ruleset"]["id"] = "jeu-de-tarot"
    assert _refusal(record, "jeu-de-tarot-3").startswith("$.ruleset.id: recorded 'jeu-de-tarot'")


def test_an_older_record_without_a_key_the_tool_now_writes_is_refused_naming_it(redeals):
    record = copy.deepcopy(redeals)
    del record["hands"][0]["piles_dealt"]
    assert record_problems(record) == ["$.hands[0]: 'piles_dealt' is a required property"]


def test_integers_must_be_written_as_integers(redeals):
    record = copy.deepcopy(redeals)
    record["hands"][0]["decisions"][0]["seat"] = 1.0
    assert record_problems(record) == ["$.hands[0].decisions[0].seat: 1.0 is not of type 'integer'"]


# --- the command line ------------------------------------------------------------------------


def test_a_hand_played_on_its_own_keeps_its_number_and_replays(tmp_path: Path):
    path = tmp_path / "hand3.json"
    play = tarot("play", "french-tarot-3", "--hand", "3", "--quiet", "--record", str(path))
    assert play.returncode == 0, play.stderr
    assert [hand["number"] for hand in json.loads(path.read_text())["hands"]] == [3]
    replay = tarot("replay", str(path))
    assert replay.returncode == 0, replay.stderr


def test_a_record_of_a_ruleset_file_replays_only_with_that_file_given(tmp_path: Path):
    ruleset_file = tmp_path / "My Variant.yaml"
    shutil.copy(paths.find_builtin("marolles-1637"), ruleset_file)
    record_file = tmp_path / "game.json"
    play = tarot("play", str(ruleset_file), "--quiet", "--record", str(record_file))
    assert play.returncode == 0, play.stderr
    assert json.loads(record_file.read_text())["ruleset"]["id"] == "my-variant"
    alone = tarot("replay", str(record_file))
    assert alone.returncode == 1
    assert "$.ruleset.id: no built-in ruleset is named 'my-variant'" in alone.stderr
    assert "--ruleset FILE" in alone.stderr
    given = tarot("replay", str(record_file), "--ruleset", str(ruleset_file))
    assert given.returncode == 0, given.stderr
    other = tarot("replay", str(record_file), "--ruleset", "marolles-1637-ultimo-literal")
    assert other.returncode == 1
    assert "$.ruleset.hash: the record was made with ruleset content" in other.stderr


def test_a_missing_ruleset_file_is_named_without_reading_anything(tmp_path: Path):
    record_file = tmp_path / "game.json"
    record_file.write_text(json.dumps(_record("marolles-1637", 1, 1)), encoding="utf-8")
    missing = tmp_path / "nowhere.yaml"
    result = tarot("replay", str(record_file), "--ruleset", str(missing))
    assert result.returncode == 1
    assert result.stderr == f"{record_file}: --ruleset: {missing}: no such file\n"
