"""Announcements, compulsory declarations, whole-discard conditions and agreed redeals: the
general mechanisms `announcements` (with `keeps`, and a `doubling` target's `announcement`),
the facts `announced`, `announced_by`, `called_card`, `trick_of`, `taken_by` and `played_by`,
a declaration's `compulsory`, `discard.all_or_none` and a redeal's `agreed_by`, on a small
game written for these tests (tests/data/rulesets/announcements.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState
from tarot.players.random_agent import RandomAgent
from tests.commands import tarot
from tests.small_games import compiled, edited, pack_for, problems, replayed_games, say

GAME = Path(__file__).parent / "data" / "rulesets" / "announcements.yaml"
RULESET = load_ruleset(GAME)
BY_ID = RULESET.deck.by_id


# seat 1 holds the little trump and two honours; seat 3 four trumps (a compulsory
# declaration); seat 2 no trump at all
HANDS = {
    0: ["swords-K", "cups-3", "coins-K", "coins-4", "batons-K", "trump-2"],
    1: ["trump-1", "trump-8", "trump-7", "cups-K", "coins-1", "batons-4"],
    2: ["swords-4", "swords-2", "cups-2", "cups-4", "coins-2", "batons-1"],
    3: ["swords-3", "cups-1", "trump-6", "trump-5", "trump-4", "trump-3"],
}
TALON = ["batons-3", "batons-2", "coins-3", "swords-1"]


def new_hand(hands=HANDS, talon=TALON, repack=None) -> HandState:
    return HandState(RULESET, 0, pack_for(RULESET, hands, talon), repack=repack)


def names(cards) -> list[str]:
    return sorted(RULESET.deck.cards[c].id for c in cards)


def to_announcements(state: HandState) -> HandState:
    """Seat 2 plays on with no trump and nobody is asked more; seat 1 takes the game, calls
    the King of swords (seat 0's) and lays away three cards."""
    say(state, (2, "no_trumps:play_on"), (1, "game"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (1, "swords-K"))
    say(state, (1, "cups-K"), (1, "coins-1"), (1, "batons-4"), (1, "batons-3"))
    return state


# --- compulsory declarations -----------------------------------------------------------------


def test_a_compulsory_declaration_is_made_by_the_rules_without_asking():
    state = to_announcements(new_hand())
    # seat 3 holds four trumps: declared and paid for, and no seat was asked about it
    assert state.declare.by_rule == [(3, "many_trumps:four")]
    assert "many_trumps" in state.declare.declared[3]
    assert [(p.payer, p.payee, p.amount) for p in state.payments] == [
        (0, 3, 1),
        (1, 3, 1),
        (2, 3, 1),
    ]
    assert all(d["kind"] != "declare" for d in state.decisions)
    # every seat sees it
    assert SeatView(state, 0).declared_by_rule == ((3, "many_trumps:four"),)


# --- the whole discard ---------------------------------------------------------------------


def test_trumps_are_discarded_only_if_the_discard_voids_them():
    hands = {**HANDS, 1: ["trump-1", "trump-8", "cups-K", "coins-1", "batons-4", "swords-1"]}
    hands[0] = ["swords-K", "cups-3", "coins-K", "coins-4", "batons-K", "trump-7"]
    state = new_hand(hands, ["batons-3", "batons-2", "coins-3", "trump-2"])
    say(state, (2, "no_trumps:play_on"), (1, "game"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (1, "swords-K"))
    # three trumps in hand, four cards to lay away: trumps may go, all three then
    assert {"trump-1", "trump-2", "trump-8"} <= set(state.legal_actions())
    say(state, (1, "trump-2"))
    assert sorted(state.legal_actions()) == ["trump-1", "trump-8"]
    say(state, (1, "trump-8"), (1, "trump-1"))
    assert "cups-K" in state.legal_actions()


def test_no_trump_may_go_while_more_are_held_than_cards_to_lay_away():
    state = new_hand()
    say(state, (2, "no_trumps:play_on"), (1, "game"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (1, "swords-K"))
    # three trumps and four cards to lay away, then three: trumps may go
    assert "trump-7" in state.legal_actions()
    say(state, (1, "cups-K"))
    assert "trump-7" in state.legal_actions()
    say(state, (1, "coins-1"))
    # now two cards to lay away and three trumps held: no trump may go
    assert not [c for c in state.legal_actions() if c.startswith("trump")]


# --- agreed redeals ------------------------------------------------------------------------


def test_a_redeal_asked_for_needs_every_other_players_agreement():
    state = new_hand()
    say(state, (2, "no_trumps:redeal"))
    # each other seat is asked in order of play; one refusal and the deal stands
    say(state, (3, "no_trumps:redeal"), (0, "no_trumps:play_on"))
    assert state.decision.kind == "bid" and not state.abandoned
    assert "no_trumps" not in state.declare.declared[0]  # a refusal is not the asker's play-on


def test_a_redeal_every_player_agrees_to_is_dealt_again():
    other = pack_for(RULESET, HANDS, TALON)[::-1]
    state = new_hand(repack=lambda _k: other)
    say(state, (2, "no_trumps:redeal"), (3, "no_trumps:redeal"), (0, "no_trumps:redeal"))
    say(state, (1, "no_trumps:redeal"))
    assert [deal["thrown_in"] for deal in state.abandoned] == ["no_trumps"]
    assert state.pack == other


# --- announcements -------------------------------------------------------------------------


def test_announcements_start_with_the_taker_and_close_a_bonus_to_his_side():
    state = to_announcements(new_hand())
    assert state.decision.kind == "announce" and state.current_player() == 1
    # the ultimo is open only to the holder of the little trump
    assert state.legal_actions() == ["announce:honours", "announce:ultimo", "pass"]
    say(state, (1, "announce:honours"))
    assert state.legal_actions() == ["announce:ultimo", "pass"]
    say(state, (1, "pass"))
    # seat 0 holds the called King: the taker's side, for which the honours are announced
    assert state.current_player() == 2 and state.legal_actions() == ["announce:honours", "pass"]
    say(state, (2, "pass"), (3, "announce:honours"))
    # a seat with nothing left open to it is not asked: seat 0's side announced the honours
    assert state.current_player() == 2 and state.decision.kind == "double"
    assert state.announce.announced == [(1, "honours"), (3, "honours")]
    assert state.evaluate(compiled(RULESET, "announced_by('honours')")) == (1, 3)
    assert state.evaluate(compiled(RULESET, "announced(taker, 'honours')"))
    assert not state.evaluate(compiled(RULESET, "announced(dealer, 'honours')"))
    assert state.evaluate(compiled(RULESET, "count(s in defenders: announced(s, 'honours'))")) == 1


def test_an_announced_ultimo_keeps_its_card_for_the_last_trick_and_may_be_doubled():
    state = to_announcements(new_hand())
    say(state, (1, "announce:ultimo"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))
    assert (1, "kept:ultimo", [BY_ID["trump-1"]]) in state.shown
    # the game first (the defenders), then the ultimo: first by the announcer's opponents
    say(state, (2, "pass:game"), (3, "pass:game"))
    assert state.current_player() == 2 and state.legal_actions() == ["double:ultimo", "pass:ultimo"]
    say(state, (2, "double:ultimo"))
    # the announcer's side answers (seat 0 holds the called King), from the dealer's next
    say(state, (1, "pass:ultimo"), (0, "pass:ultimo"))
    assert state.evaluate(compiled(RULESET, "doubling_factor('ultimo')")) == 2
    little, held_back, forced = BY_ID["trump-1"], 0, False
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if seat == 1 and state.play.trick_number < state.play.total_tricks:
            # kept back while another card may go; played early only when it is the only one
            assert "trump-1" not in legal or legal == ["trump-1"]
            held_back += little in state.hands[1] and "trump-1" not in legal
            forced = forced or legal == ["trump-1"]
        state.apply_action(legal[0])
    assert held_back >= 3
    fell = state.evaluate(compiled(RULESET, "trick_of(little)"))
    assert fell == state.play.total_tricks or forced
    assert state.evaluate(compiled(RULESET, "played_by(little)")) == 1


def test_without_an_announcement_its_target_is_not_asked_about():
    state = to_announcements(new_hand())
    say(state, (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (2, "pass:game"), (3, "pass:game"))
    assert state.double.doubled == {}
    assert state.decision.kind == "play"


def test_facts_tell_what_became_of_a_card():
    state = to_announcements(new_hand())
    assert state.evaluate(compiled(RULESET, "called_card()")) == (BY_ID["swords-K"],)
    assert state.evaluate(compiled(RULESET, "trick_of(called_card())")) == 0
    assert state.evaluate(compiled(RULESET, "taken_by(called_card())")) == -1
    assert state.evaluate(compiled(RULESET, "played_by(called_card())")) == -1
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    fell = next(t for t in state.tricks if any(c["card"] == "swords-K" for c in t["cards"]))
    assert state.evaluate(compiled(RULESET, "trick_of(called_card())")) == fell["number"]
    assert state.evaluate(compiled(RULESET, "taken_by(called_card())")) == fell["winner"]
    assert state.evaluate(compiled(RULESET, "played_by(called_card())")) == 0


# --- every player, records, the command line ----------------------------------------------


@pytest.mark.parametrize("seed", range(1, 6))
def test_games_of_random_players_replay(seed: int):
    replayed_games(RULESET, seed, hands=3, mixed=False)


def test_the_heuristic_and_search_players_take_every_new_decision():
    states = replayed_games(RULESET, 3, hands=2, mixed=True)
    assert "announce" in {d["kind"] for state in states for d in state.decisions}


def test_random_choices_reach_every_new_decision():
    seen: set[str] = set()
    for seed in range(30):
        agents = [RandomAgent(seed * 10 + s) for s in range(4)]
        for state in play_game(RULESET, seed, agents, hands=1):
            seen |= {d["choice"] for d in state.decisions}
    assert {"announce:honours", "announce:ultimo", "double:ultimo", "no_trumps:redeal"} <= seen


def test_a_doubling_target_names_a_bonus_that_may_be_announced(tmp_path: Path):
    def change(document: dict) -> None:
        document["doubling"]["targets"][1]["announcement"] = "valat"
        del document["doubling"]["targets"][0]["by"]
        document["announcements"]["table"][1]["id"] = "honours"

    message = problems(edited(GAME, tmp_path, change))
    assert "$.doubling.targets[1].announcement: no announcement 'valat'" in message
    assert "$.doubling.targets[0]: a target needs `by`" in message
    assert "$.announcements.table[1].id: a second bonus named 'honours'" in message


def test_wrong_types_in_the_new_keys_are_placed(tmp_path: Path):
    def change(document: dict) -> None:
        document["announcements"]["table"][1]["keeps"] = "player"
        document["discard"]["all_or_none"] = "count(trumps)"
        document["redeal"][0]["agreed_by"] = "trumps"

    message = problems(edited(GAME, tmp_path, change))
    assert "$.announcements.table[1].keeps" in message
    assert "$.discard.all_or_none" in message
    assert "$.redeal[0].agreed_by: expected a seat or seats" in message


def test_the_play_command_shows_each_mechanism():
    played = tarot("play", str(GAME), "--seed", "19", "--sources")
    assert played.returncode == 0, played.stderr
    for words in (
        "announces The little trump wins the last trick, keeping trump-1 for the last trick",
        "(by the rules)",
        "pass (The ultimo announced)",
    ):
        assert words in played.stdout
    page = " ".join(tarot("explain", str(GAME)).stdout.split())
    assert "Compulsory: declared by the rules" in page
    assert "one refusal and the deal stands" in page


def test_a_human_seat_reads_the_announcements_in_words():
    moves = "\n".join(["2"] * 3 + ["1"] * 200) + "\n"
    result = tarot("play", str(GAME), "--seed", "19", "--human", "3", stdin=moves)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "announce The little trump wins the last trick" in out
    assert "Announced: " in out


# --- a round of announcements with its doublings (announcement-rounds.yaml) ----------------

ROUNDS_GAME = GAME.parent / "announcement-rounds.yaml"
ROUNDS = load_ruleset(ROUNDS_GAME)


def rounds_hand() -> HandState:
    return to_announcements(HandState(ROUNDS, 0, pack_for(ROUNDS, HANDS, TALON)))


def test_the_round_comes_back_until_every_seat_passed_since_the_last_thing_said():
    state = rounds_hand()
    # the taker (seat 1, partner seat 0) speaks first; the game is doubled first by defenders
    assert state.legal_actions() == ["announce:honours", "announce:ultimo", "pass"]
    say(state, (1, "pass"))
    assert state.legal_actions() == ["announce:honours", "double:game", "pass"]
    say(state, (2, "double:game"))
    # the same seat speaks on; the answer to the doubling is now the attackers' to give
    assert state.current_player() == 2 and state.legal_actions() == ["announce:honours", "pass"]
    say(state, (2, "pass"), (3, "pass"))
    assert state.legal_actions() == ["announce:honours", "redouble:game", "pass"]
    say(state, (0, "redouble:game"), (0, "pass"))
    # seat 1 passed before, and is asked again: seat 0 spoke since
    assert state.current_player() == 1
    say(state, (1, "announce:ultimo"), (1, "pass"))
    # both steps of the game are made; the ultimo is doubled first by the other side
    assert state.legal_actions() == ["announce:honours", "double:ultimo", "pass"]
    say(state, (2, "double:ultimo"), (2, "pass"), (3, "pass"))
    assert state.legal_actions() == ["announce:honours", "redouble:ultimo", "pass"]
    say(state, (0, "pass"), (1, "pass"))
    # four passes in a row since seat 2's doubling: play begins without a doubling phase
    assert state.decision.kind == "play"
    assert state.double.doubled == {"game": 2, "ultimo": 1}
    assert state.announce.announced == [(1, "ultimo")]
    assert state.evaluate(compiled(ROUNDS, "doubling_factor('game')")) == 4
    assert all(d["kind"] != "double" for d in state.decisions)


def test_a_round_where_nobody_speaks_asks_each_seat_once():
    state = rounds_hand()
    say(state, (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))
    assert state.decision.kind == "play" and state.double.doubled == {}


@pytest.mark.parametrize("mixed", [False, True])
def test_games_with_rounds_of_announcements_replay(mixed: bool):
    states = replayed_games(ROUNDS, 7, hands=3, mixed=mixed)
    assert all(d["kind"] != "double" for state in states for d in state.decisions)


def test_doublings_with_the_announcements_need_announcements(tmp_path: Path):
    def change(document: dict) -> None:
        del document["announcements"]
        del document["doubling"]["targets"][1]
        document["doubling"]["with_announcements"] = True

    message = problems(edited(GAME, tmp_path, change))
    assert "$.doubling.with_announcements: the doublings are made in the round of" in message

    def unknown(document: dict) -> None:
        document["announcements"]["rounds"] = "twice"

    assert "$.announcements.rounds" in problems(edited(GAME, tmp_path, unknown))


def test_the_transcript_gives_the_doublings_among_the_announcements():
    played = tarot("play", str(ROUNDS_GAME), "--seed", "19")
    assert played.returncode == 0, played.stderr
    said = played.stdout.split("Announcements:\n")[1].split("Play:")[0]
    assert "Seat 3: double (The game)" in said.split("Doublings:")[0]
    assert "The game: doubled 2 time(s), x4" in said


def test_the_explained_rules_say_the_round_and_its_doublings():
    page = " ".join(tarot("explain", str(ROUNDS_GAME)).stdout.split())
    assert "The turn comes round again until every player has passed in turn" in page
    assert "In the round of announcements, a player on his turn may double each target" in page
