"""State that lasts from hand to hand (`lasting`): counters per seat and for the table, a pot
paid into and out of, changes after each hand, a sitting that ends by rule and pays at its
end; carried in records and checked by replay. On a small game written for these tests
(tests/data/rulesets/lasting-state.yaml), played by random players on many seeds, each
rule checked against what the hands before left."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.game import game_winners, play_game, sitting_seed
from tarot.engine.state import HandState
from tarot.errors import RulesetError
from tarot.measure.hand_summary import play_sitting_summarized
from tarot.players.lineup import seat_agents
from tarot.players.random_agent import RandomAgent
from tarot.records.record import game_record
from tarot.records.record_json import RecordError
from tarot.records.replay import record_problems, replay_record
from tests.commands import tarot

GAME = Path(__file__).parent / "data" / "rulesets" / "lasting-state.yaml"
RULESET = load_ruleset(GAME)
SEATS = range(RULESET.players)


def sitting(seed: int) -> list[HandState]:
    agents = [RandomAgent(seed=seed * 10 + seat) for seat in SEATS]
    return play_game(RULESET, seed, agents, hands=None)


def winners(state: HandState) -> list[int]:
    points = state.card_points()
    return [s for s in SEATS if points[s] == max(points)]


def stake(values: dict, seat: int) -> int:
    return (2 if values["marked"][seat] > 0 else 1) * (2 if values["doubled_hands"] > 0 else 1)


SITTINGS = [sitting(seed) for seed in range(1, 13)]


def test_each_hand_starts_from_what_the_hand_before_left() -> None:
    for hands in SITTINGS:
        first = hands[0].lasting_before.as_record()
        assert first == {"marked": [0, 0, 0], "doubled_hands": 0, "pot": 0, "forfeits": 0}
        for before, after in zip(hands, hands[1:], strict=False):
            assert after.lasting_before.as_record() == before.lasting.as_record()


def test_the_markers_change_as_the_rules_say() -> None:
    for hands in SITTINGS:
        for state in hands:
            before = state.lasting_before.as_record()["marked"]
            after = state.lasting.as_record()["marked"]
            alone = winners(state)
            every_seat = any(points == 0 for points in state.card_points())
            for seat in SEATS:
                crossed = len(alone) == 1 and seat in alone and before[seat] > 0
                assert after[seat] == before[seat] - crossed + every_seat


def test_a_round_of_doubled_hands_follows_a_hand_where_one_seat_took_both_kings() -> None:
    kings = RULESET.deck.sets["kings"]
    seen = 0
    for hands in SITTINGS:
        for state in hands:
            before = state.lasting_before.table["doubled_hands"]
            took_both = any(kings <= set(state.won[s]) for s in SEATS)
            expected = RULESET.players if took_both else max(before - 1, 0)
            assert state.lasting.table["doubled_hands"] == expected
            seen += took_both
    assert seen  # the rare event happened in some sitting


def test_payments_are_doubled_while_a_seat_is_marked_or_the_round_is_doubled() -> None:
    doubled = 0
    for hands in SITTINGS:
        for state in hands:
            values = state.lasting_before.as_record()
            for payment in state.payments:
                expected = stake(values, payment.payer) * stake(values, payment.payee)
                assert payment.amount == expected
                doubled += expected > 1
    assert doubled


def test_the_pot_takes_the_antes_and_pays_out_all_it_holds() -> None:
    paid_out = 0
    for hands in SITTINGS:
        for state in hands:
            pot = state.lasting_before.table["pot"]
            moves = [m for m in state.transfers if m.account == "pot"]
            antes = [m for m in moves if m.rule == "ante"]
            assert sorted(m.seat for m in antes) == list(SEATS)
            assert all(m.amount == 1 for m in antes)
            out = [m for m in moves if m.rule == "pot_taken"]
            if out:
                assert out[0].amount == -(pot + len(SEATS))  # the antes of this hand too
                paid_out += 1
            assert state.lasting.table["pot"] == (0 if out else pot + len(SEATS))
    assert paid_out


def test_what_the_accounts_gain_the_seats_lose() -> None:
    for hands in SITTINGS:
        for state in hands:
            before, after = state.lasting_before.table, state.lasting.table
            gained = sum(after[a] - before[a] for a in ("pot", "forfeits"))
            assert sum(state.returns()) == -gained


def test_the_sitting_ends_by_rule_and_each_marker_left_then_costs_two() -> None:
    for hands in SITTINGS:
        last = hands[-1]
        assert game_winners(last)
        assert last.sitting_over
        ended = last.number >= 2 * RULESET.players or last.lasting.table["pot"] >= 10
        assert ended
        assert not any(state.sitting_over for state in hands[:-1])
        markers = last.lasting.as_record()["marked"]
        forfeits = {m.seat: m.amount for m in last.transfers if m.account == "forfeits"}
        assert forfeits == {s: 2 * markers[s] for s in SEATS if markers[s]}
    assert {len(hands) for hands in SITTINGS} != {2 * RULESET.players}  # the pot ended some


def test_a_record_carries_the_lasting_state_and_replays() -> None:
    hands = SITTINGS[0]
    record = json.loads(json.dumps(game_record(RULESET, 1, ["random"] * 3, hands)))
    assert record_problems(record) == []
    assert record["hands"][1]["lasting"]["before"] == record["hands"][0]["lasting"]["after"]
    ante = {"rule": "ante", "from": 0, "to": "pot", "amount": 1, "at": "deal"}
    assert ante in record["hands"][0]["lasting"]["transfers"]
    replay_record(record, RULESET)


def test_a_corrupted_counter_in_a_record_is_named() -> None:
    record = json.loads(json.dumps(game_record(RULESET, 1, ["random"] * 3, SITTINGS[0])))
    record["hands"][1]["lasting"]["before"]["marked"][2] += 7
    with pytest.raises(RecordError) as refused:
        replay_record(record, RULESET)
    assert refused.value.where == "$.hands[1].lasting.before.marked[2]"
    record["hands"][1]["lasting"]["before"]["marked"][2] = "seven"
    assert record_problems(record) == [
        "$.hands[1].lasting.before.marked[2]: 'seven' does not match '^-?[0-9]{1,20}/[0-9]{1,20}$'"
    ]
    del record["hands"][0]["lasting"]
    with pytest.raises(RecordError, match="missing from the record"):
        replay_record(record, RULESET)


def test_a_ruleset_without_lasting_state_records_none() -> None:
    marolles = load_ruleset("marolles-1637")
    agents = [RandomAgent(seed=seat) for seat in range(marolles.players)]
    (state,) = play_game(marolles, 1, agents)
    assert "lasting" not in game_record(marolles, 1, ["random"] * 3, [state])["hands"][0]


def test_the_transcript_shows_every_mechanism() -> None:
    played = tarot("play", str(GAME), "--seed", "1")
    assert played.returncode == 0, played.stderr
    text = played.stdout
    assert "Lasting before the hand: marked: seat 0 0, seat 1 0, seat 2 0;" in text
    assert "pay: seat 0 -> pot  1 point  Ante into the pot [test]" in text
    assert "pay: pot -> seat" in text
    assert "The sitting ends with this hand:" in text
    assert "-> forfeits" in text
    assert "Game over after" in text


def test_play_stops_at_the_end_of_the_sitting_and_says_so(tmp_path: Path) -> None:
    # seed 1 ends the sitting after hand 6: --hands 40 plays those six, says why it stops,
    # and the record of that one game replays; hands after the end are refused by replay
    record = tmp_path / "sitting.json"
    played = tarot(
        "play", str(GAME), "--seed", "1", "--hands", "40", "--quiet", "--record", str(record)
    )
    assert played.returncode == 0, played.stderr
    assert (
        "Totals after 6 hand(s)" in played.stdout and "Game over after 6 hand(s)" in played.stdout
    )
    assert (
        "the game of lasting-state is over after hand 6 (its rules end it there); the 34 other"
        " hand(s) --hands 40 asked for are not played" in played.stderr
    )
    kept = json.loads(record.read_text(encoding="utf-8"))
    assert len(kept["hands"]) == 6
    ruleset = load_ruleset(GAME)
    replay_record(kept, ruleset)
    agents = [RandomAgent(seat) for seat in range(3)]
    states = play_game(ruleset, 1, agents, hands=8)
    assert game_winners(states[5]) and not any(game_winners(s) for s in states[:5])
    past = json.loads(json.dumps(game_record(ruleset, 1, [a.name for a in agents], states)))
    with pytest.raises(RecordError, match=r"^\$\.hands\[6\]: the game is over after hand 6"):
        replay_record(past, ruleset)


def _ruleset_with(tmp_path: Path, old: str, new: str) -> str:
    text = GAME.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "changed.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            '      counter: doubled_hands\n      when: "doubled_hands() > 0"',
            '      counter: doubled_handz\n      when: "doubled_hands() > 0"',
            "$.lasting.changes[2].counter: no counter or account is named 'doubled_handz'",
        ),
        (
            "      counter: marked\n      seats: winners\n",
            "      counter: marked\n",
            "$.lasting.changes[0]: 'marked' is a counter per seat: say whose counters change",
        ),
        (
            '      counter: doubled_hands\n      when: "doubled_hands() > 0"',
            '      counter: doubled_hands\n      seats: seats\n      when: "doubled_hands() > 0"',
            "$.lasting.changes[2].seats: 'doubled_hands' is one number for the table",
        ),
        (
            "      account: forfeits\n",
            "      account: forfeit\n",
            "$.lasting.transfers[2].account: no account is named 'forfeit'",
        ),
        ("    marked:\n", "    hand:\n", "$.lasting.counters.hand: 'hand' is already a name"),
        (
            '    value: "max(s in seats: points(s))"',
            '    value: "max(s in seats: points(s)) + marked()"',
            "marked() takes",
        ),
    ],
)
def test_a_wrong_use_is_refused_with_its_place(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    path = _ruleset_with(tmp_path, old, new)
    with pytest.raises(RulesetError) as refused:
        load_ruleset(path)
    assert expected in str(refused.value)
    checked = tarot("validate", path)
    assert checked.returncode == 1 and "Traceback" not in checked.stderr + checked.stdout


def test_a_transfer_at_the_sitting_end_needs_a_game(tmp_path: Path) -> None:
    text = GAME.read_text(encoding="utf-8")
    start, end = text.index("game:\n"), text.index("lasting:\n")
    path = tmp_path / "no-game.yaml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(RulesetError, match=r"transfers\[2\]\.at: a transfer at the end"):
        load_ruleset(path)


def test_a_simulation_plays_whole_sittings_each_the_game_its_seed_gives() -> None:
    for number in (1, 2, 3):
        seed = sitting_seed(7, number)

        def agents(hand: int, seed: int = seed) -> list:
            return seat_agents(("random",), seed, hand, RULESET.players)

        summary = play_sitting_summarized(RULESET, 7, number, agents)
        played = play_game(RULESET, seed, agents, hands=None)
        totals = [sum(state.returns()[s] for state in played) for s in SEATS]
        assert list(summary.net) == totals
        assert summary.dealer == played[0].dealer
        assert summary.fired["ante"] == len(played)
        moved: dict[str, float] = {}
        for state in played:
            for payment in state.payments:
                moved[payment.rule] = moved.get(payment.rule, 0) + payment.amount
            for move in state.transfers:  # into the pot and out of it alike
                moved[move.rule] = moved.get(move.rule, 0) + abs(move.amount)
        assert summary.paid == pytest.approx(moved) and moved["ante"] > 0
        assert [deal.net for deal in summary.deals] == [tuple(s.returns()) for s in played]
        assert [deal.dealer for deal in summary.deals] == [s.dealer for s in played]


def test_simulate_reports_sittings_and_how_to_play_one_again() -> None:
    simulated = tarot("simulate", str(GAME), "--hands", "4", "--jobs", "1", "--seed", "3")
    assert simulated.returncode == 0, simulated.stderr
    assert simulated.stdout.startswith("lasting-state: 4 sittings (each a whole game;")
    diffed = tarot("diff", str(GAME), str(GAME), "--hands", "3", "--jobs", "1", "--seed", "3")
    assert diffed.returncode == 0, diffed.stderr
    assert "3 sittings" in diffed.stdout


def test_the_rules_page_explains_the_counters_changes_and_transfers() -> None:
    page = tarot("explain", str(GAME))
    assert page.returncode == 0, page.stderr
    text = " ".join(page.stdout.split())
    assert "Between hands" in text
    assert "read as `marked(seat)`, starting at 0" in text
    assert "sets doubled_hands to `players`" in text
    assert "After the deal, each of `seats` pays into pot `1`." in text


@pytest.mark.slow
def test_a_single_hand_of_a_game_with_lasting_state_says_where_it_starts() -> None:
    played = tarot("play", str(GAME), "--seed", "2", "--hand", "3", "--quiet")
    assert played.returncode == 0, played.stderr
    assert "hand 3 is played from the start of a sitting" in played.stderr
    first = tarot("play", str(GAME), "--seed", "2", "--hand", "1", "--quiet")
    assert first.returncode == 0 and "note:" not in first.stderr
