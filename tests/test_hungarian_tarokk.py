"""Hungarian Tarokk (rulesets/hungarian-tarokk): a hand played by fixed decisions and checked
by hand against the rules (an auction open to honour holders, a hold, the talon shared out,
discards that spare honours, Kings and the XX, the partner called by a tarokk after the
discards, the Pagat ultimo announced and doubled, a volat that cancels the silent bonuses),
the pack's points, and validate, replay and simulate on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState
from tarot.presentation.transcript import hand_transcript
from tests.commands import tarot
from tests.small_games import pack_for, replayed_games, say

GAME = Path(__file__).parents[1] / "rulesets" / "hungarian-tarokk" / "hungarian-tarokk.yaml"
RULESET = load_ruleset(GAME)
BY_ID = RULESET.deck.by_id
IDS = RULESET.deck.cards.ids

# seat 0 deals; seats play 1, 2, 3, 0; only seat 1 holds an honour (Skiz, XXI and Pagat)
HANDS = {
    1: [
        "fool",
        "trump-21",
        "trump-1",
        "trump-19",
        "trump-18",
        "trump-17",
        "hearts-K",
        "spades-K",
        "hearts-Q",
    ],
    2: [
        "trump-13",
        "trump-12",
        "trump-11",
        "hearts-C",
        "hearts-J",
        "hearts-1",
        "diamonds-C",
        "diamonds-J",
        "diamonds-1",
    ],
    3: [
        "trump-20",
        "trump-16",
        "trump-15",
        "trump-14",
        "diamonds-K",
        "clubs-K",
        "diamonds-Q",
        "spades-Q",
        "clubs-Q",
    ],
    0: [
        "trump-10",
        "trump-9",
        "trump-8",
        "spades-C",
        "spades-J",
        "spades-10",
        "clubs-C",
        "clubs-J",
        "clubs-10",
    ],
}
TALON = ["trump-7", "trump-6", "trump-5", "trump-4", "trump-3", "trump-2"]


def new_hand(hands: dict[int, list[str]] = HANDS) -> HandState:
    return HandState(RULESET, 0, pack_for(RULESET, hands, TALON))


def cards(*ids: str) -> list[int]:
    return [BY_ID[i] for i in ids]


def definition(state: HandState, name: str) -> object:
    """The value of one of the ruleset's definitions in `state`."""
    found = next(d for d in RULESET.definitions if d.name == name)
    return state.evaluate(found.expression)


def to_the_call(state: HandState) -> None:
    """Seat 1 bids Three alone, takes three talon cards, the others one each; all discard."""
    say(state, (1, "harom"))
    assert state.legal_actions() == ["pass"]  # seat 2 holds no honour
    say(state, (2, "pass"), (3, "pass"), (0, "pass"))
    assert (state.auction.taker, state.auction.contract) == (1, "harom")
    assert state.talon_phase.shared == [
        (1, cards("trump-7", "trump-6", "trump-5")),
        (2, cards("trump-4")),
        (3, cards("trump-3")),
        (0, cards("trump-2")),
    ]
    # honours, Kings and the XX are never laid away
    assert not {"fool", "trump-21", "trump-1", "hearts-K", "spades-K"} & set(state.legal_actions())
    say(state, (1, "hearts-Q"), (1, "trump-6"), (1, "trump-5"), (2, "trump-4"))
    assert "trump-20" not in state.legal_actions()
    say(state, (3, "trump-3"), (0, "trump-2"))


def test_the_pack_counts_94_and_the_skiz_is_the_highest_trump():
    assert len(RULESET.deck) == 42
    state = new_hand()
    assert state.count(list(range(len(RULESET.deck)))) == 94
    skiz, xxi = BY_ID["fool"], BY_ID["trump-21"]
    assert RULESET.deck.cards[skiz].trump == 22 and RULESET.deck.cards[xxi].trump == 21


PLAYED_OUT = [  # seat 1 leads and wins every trick; the Pagat takes the last
    ["fool", "trump-11", "trump-20", "trump-8"],
    ["trump-21", "trump-12", "trump-14", "trump-9"],
    ["trump-19", "trump-13", "trump-15", "trump-10"],
    ["trump-18", "hearts-1", "trump-16", "spades-10"],
    ["hearts-K", "hearts-C", "diamonds-Q", "clubs-10"],
    ["spades-K", "diamonds-1", "spades-Q", "spades-C"],
    ["trump-17", "diamonds-J", "clubs-Q", "spades-J"],
    ["trump-7", "diamonds-C", "diamonds-K", "clubs-J"],
    ["trump-1", "hearts-J", "clubs-K", "clubs-C"],
]


def test_a_hand_played_by_fixed_decisions():
    state = new_hand()
    to_the_call(state)
    # the call comes after the discards: seat 1 lacks the XX, the highest tarokk it may call
    assert state.decision.kind == "call" and state.legal_actions() == ["trump-20"]
    say(state, (1, "trump-20"))
    assert state.auction.partner == 3 and state.attackers() == (1, 3)
    # announcements from the taker: the Pagat ultimo, its holder binding himself to keep it
    assert "announce:pagat_ultimo" in state.legal_actions()
    say(state, (1, "announce:pagat_ultimo"), (1, "pass"))
    # kontras in the same round (HT-17): seat 2 may kontra the game or the ultimo
    assert state.legal_actions()[-3:] == ["kontra:game", "kontra:pagat_ultimo", "pass"]
    say(state, (2, "kontra:pagat_ultimo"), (2, "pass"))
    # the partner may answer it; nobody does, and after four passes in a row play begins
    assert state.legal_actions()[-2:] == ["rekontra:pagat_ultimo", "pass"]
    say(state, (3, "pass"), (0, "pass"), (1, "pass"))
    assert state.decision.kind == "play"
    assert state.double.doubled == {"pagat_ultimo": 1}
    for number, trick in enumerate(PLAYED_OUT, 1):
        if number < 9:  # the Pagat is held back while seat 1 has another card to play
            assert "trump-1" not in state.legal_actions() or state.current_player() != 1
        say(state, *zip([1, 2, 3, 0], trick, strict=True))
    assert state.is_terminal()
    assert [winner for _n, _l, _t, winner in state.play.trick_log] == [1] * 9
    # the partner's discard counts for the opponents: 94 less the three one-point discards
    assert definition(state, "declarer_points") == 91
    assert state.side_points(1) == 92
    # volat (silent, 3 x the game of Three) cancels the silent game, double game, trull and
    # four Kings; the Pagat ultimo announced (10) and kontra'd (x2) is 20 for each attacker
    paid = {}
    for payment in state.payments:
        paid[payment.rule] = paid.get(payment.rule, 0) + payment.amount
    assert paid == {"volat_made": 6, "ultimo_made": 40}
    assert state.returns() == [-23, 23, -23, 23]


def test_the_round_of_announcements_comes_round_until_three_pass_after_the_last_speaker():
    state = new_hand()
    to_the_call(state)
    say(state, (1, "trump-20"))  # seat 3 holds the XX: the partner
    say(state, (1, "pass"), (2, "kontra:game"), (2, "pass"))
    # the partner answers the kontra and announces the volat for his side, in one turn
    assert "rekontra:game" in state.legal_actions()
    say(state, (3, "rekontra:game"), (3, "announce:volat"))
    # a side that announced the volat announces no trull, four Kings or double game (X);
    # the Pagat ultimo is its holder's (seat 1's)
    assert state.legal_actions() == ["announce:xxi_catch", "pass"]
    say(state, (3, "pass"), (0, "pass"))
    # the declarer passed before; he is asked again, the partner having spoken since
    assert state.current_player() == 1
    assert state.legal_actions() == ["announce:pagat_ultimo", "announce:xxi_catch", "pass"]
    say(state, (1, "pass"))
    assert state.legal_actions()[-3:] == ["szubkontra:game", "kontra:attackers_volat", "pass"]
    say(state, (2, "pass"))
    # three passed after seat 3 (and seat 3 itself before them): the round is over
    assert state.decision.kind == "play"
    assert state.double.doubled == {"game": 2} and state.announce.announced == [(3, "volat")]
    for trick in PLAYED_OUT:
        say(state, *zip([1, 2, 3, 0], trick, strict=True))
    paid: dict[str, float] = {}
    for payment in state.payments:
        paid[payment.rule] = paid.get(payment.rule, 0) + payment.amount
    # each of the four pairs of opponents: the game kontra'd and rekontra'd, 1 x 4 / 2 = 2,
    # not cancelled by the volat since it was kontra'd; the volat announced and made,
    # 3 x 1 x 2 / 2 = 3; the silent Pagat ultimo 5 / 2; the silent trull, four Kings and
    # double game cancelled by the volat
    assert paid == {"game_points": 8, "volat_made": 12, "ultimo_made": 10}
    assert state.returns() == [-15, 15, -15, 15]


def test_each_sides_announcement_of_one_bonus_is_kontrad_on_its_own_count():
    """Both sides announce the trull; only the defenders' is kontra'd (and rekontra'd). X
    (`announcements.cc`, `scoring.cc`) keeps a kontra count per side: each announcement is
    multiplied by 2 to the power of its own side's count plus one."""
    state = new_hand()
    to_the_call(state)
    say(state, (1, "trump-20"))  # seat 3 holds the XX: the partner
    say(state, (1, "announce:trull"), (1, "pass"))
    # a defender may kontra the attackers' trull, and announce the trull for his own side
    assert {"kontra:attackers_trull", "announce:trull"} <= set(state.legal_actions())
    say(state, (2, "announce:trull"), (2, "pass"))
    # the defenders' trull is kontra'd by the attackers only, never by its own side
    assert "kontra:defenders_trull" in state.legal_actions()
    assert "kontra:attackers_trull" not in state.legal_actions()
    say(state, (3, "kontra:defenders_trull"), (3, "pass"))
    assert "rekontra:defenders_trull" in state.legal_actions()
    assert "kontra:defenders_trull" not in state.legal_actions()
    say(state, (0, "rekontra:defenders_trull"), (0, "pass"))
    say(state, (1, "pass"), (2, "pass"), (3, "pass"))
    assert state.decision.kind == "play"
    assert state.double.doubled == {"defenders_trull": 2}
    for trick in PLAYED_OUT:
        say(state, *zip([1, 2, 3, 0], trick, strict=True))
    paid: dict[str, float] = {}
    for payment in state.payments:
        paid[payment.rule] = paid.get(payment.rule, 0) + payment.amount
    # X's arithmetic for the declarer's side (each attacker gets it, each defender pays it):
    # the attackers' trull made, 1 x 2^(0 + 1) = 2 (scored beside the volat, announced); the
    # defenders' trull failed, 1 x 2^(2 + 1) = 8; the silent volat 3 x 1 = 3, which cancels
    # the game, the double game and the four Kings; the silent Pagat ultimo 5: 18 each.
    # Paid pair by pair (four pairs, half each): 2 x 4 / 2, 8 x 4 / 2, 3 x 4 / 2, 5 x 4 / 2.
    # Counted on one count for both announcements (x4), the trull would be 8 + 8: 24 each.
    assert paid == {
        "trull_made": 4,
        "defenders_trull_failed": 16,
        "volat_made": 6,
        "ultimo_made": 10,
    }
    assert state.returns() == [-18, 18, -18, 18]
    text = hand_transcript(state)
    assert "Seat 3: kontra (The defenders' trull)" in text
    assert "The defenders' trull: doubled 2 time(s), x4" in text


def test_a_hold_only_by_a_seat_that_bid_and_never_over_a_hold():
    hands = {s: list(h) for s, h in HANDS.items()}
    hands[1][2], hands[2][2] = hands[2][2], hands[1][2]  # seat 2 gets the Pagat
    state = new_hand(hands)
    say(state, (1, "harom"), (2, "ketto"), (3, "pass"), (0, "pass"))
    # seat 1 has bid and lacks the XX: it may not pass over the Two (HT-12)
    assert state.legal_actions() == ["hold:ketto", "egy", "szolo"]
    say(state, (1, "hold:ketto"))
    # seat 2 must go higher: a hold is not held again; the Solo, leaping over the One, would
    # invite the XIX, which seat 2 does not hold
    assert state.legal_actions() == ["egy", "pass"]
    say(state, (2, "egy"), (1, "hold:egy"), (2, "pass"))
    assert (state.auction.taker, state.auction.contract) == (1, "egy")
    assert state.talon_phase.shared[0] == (1, cards("trump-7"))


def test_a_declarer_holding_the_xx_calls_the_highest_tarokk_he_lacks_or_himself():
    hands = {s: list(h) for s, h in HANDS.items()}
    hands[1][3], hands[3][0] = hands[3][0], hands[1][3]  # seat 1 gets the XX, seat 3 the XIX
    state = new_hand(hands)
    say(state, (1, "harom"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (1, "hearts-Q"), (1, "trump-6"), (1, "trump-5"))
    say(state, (2, "trump-4"), (3, "trump-3"), (0, "trump-2"))
    assert sorted(state.legal_actions()) == ["trump-19", "trump-20"]
    say(state, (1, "trump-20"))
    assert state.auction.partner is None and state.attackers() == (1,)


def test_the_number_of_tarokks_each_player_laid_away_is_told_to_all():
    state = new_hand()
    to_the_call(state)
    # seat 1 laid away two tarokks (VI, V), each other player one (HT-14)
    assert state.discard.told == (1, 2, 1, 1)
    assert SeatView(state, 2).told == (1, 2, 1, 1)
    # by default (S) the call is unchanged: the XX, the highest tarokk seat 1 lacks
    assert state.legal_actions() == ["trump-20"]
    say(state, (1, "trump-20"))
    finished = state
    while not finished.is_terminal():
        finished.apply_action(finished.legal_actions()[0])
    told = "Told to all: seat 0 laid away 1 of tarokks, seat 1 laid away 2, seat 2 laid away 1"
    assert f"  {told}, seat 3 laid away 1\nCall:\n" in hand_transcript(finished)


def test_with_xs_reading_a_tarokk_laid_away_by_another_opens_the_call():
    wide = load_ruleset(GAME, {"discarded_tarokk_call": "any_tarokk"})
    state = HandState(wide, 0, pack_for(wide, HANDS, TALON))
    to_the_call(state)
    # any tarokk II-XX seat 1 neither holds nor laid away (X's CallableCards)
    lacks = [n for n in range(2, 21) if n not in (5, 6, 7, 17, 18, 19)]
    assert sorted(state.legal_actions()) == sorted(f"trump-{n}" for n in lacks)
    # only the declarer laid a tarokk away: the call stays as always
    state = HandState(wide, 0, pack_for(wide, HANDS, TALON))
    say(state, (1, "harom"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (1, "hearts-Q"), (1, "trump-6"), (1, "trump-5"), (2, "hearts-1"))
    say(state, (3, "clubs-Q"), (0, "clubs-10"))
    assert state.discard.told == (0, 2, 0, 0)
    assert state.legal_actions() == ["trump-20"]


@pytest.mark.slow
def test_heuristic_search_and_random_players_play_and_replay():
    states = replayed_games(RULESET, 3, 2, mixed=True)
    for state in states:
        if state.thrown_in is None:
            assert sum(state.returns()) == 0


@pytest.mark.slow
def test_validate_play_replay_and_simulate(tmp_path):
    assert tarot("validate", str(GAME)).returncode == 0
    record = tmp_path / "hand.json"
    played = tarot("play", "hungarian-tarokk", "--seed", "1", "--record", str(record))
    assert played.returncode == 0, played.stderr
    for shown in ("holds egy", "takes from the talon", "Call:", "announces", "kontra"):
        assert shown in played.stdout
    assert json.loads(record.read_text())["hands"]
    assert tarot("replay", str(record)).returncode == 0
    simulated = tarot("simulate", "hungarian-tarokk", "--hands", "20", "--seed", "2")
    assert simulated.returncode == 0, simulated.stderr


def honours_in_the_talon(talon: list[str]) -> HandState:
    """The deal with seat 1's three honours in the talon (nobody holds one) and the talon's
    small tarokks VII, VI and V in seat 1's hand."""
    hands = {s: list(h) for s, h in HANDS.items()}
    hands[1][:3] = ["trump-7", "trump-6", "trump-5"]
    return HandState(RULESET, 0, pack_for(RULESET, hands, talon))


def test_trial_three_without_an_honour_from_the_talon_ends_the_hand():
    state = honours_in_the_talon(["trump-4", "trump-3", "trump-2", "fool", "trump-21", "trump-1"])
    for seat in (1, 2, 3, 0):  # nobody holds an honour: nobody may bid
        assert state.legal_actions() == ["pass"]
        say(state, (seat, "pass"))
    # all passed: the dealer, last to speak, may try a Three without an honour
    assert state.legal_actions() == ["proba", "pass"]
    say(state, (0, "proba"))
    # he takes three cards, none an honour: the hand ends; he pays 3 to each (X)
    assert state.is_terminal() and state.talon_phase.ended_hand
    assert state.talon_phase.shared == [(0, cards("trump-4", "trump-3", "trump-2"))]
    assert {p.rule for p in state.payments} == {"trial_three_failed"}
    assert state.returns() == [-9, 3, 3, 3]


def test_trial_three_with_an_honour_from_the_talon_is_played_as_a_three():
    state = honours_in_the_talon(["trump-4", "fool", "trump-3", "trump-2", "trump-21", "trump-1"])
    say(state, (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"), (0, "proba"))
    assert not state.is_terminal() and state.decision.kind == "discard"
    assert state.talon_phase.shared[0] == (0, cards("trump-4", "fool", "trump-3"))
    assert [seat for seat, _ in state.talon_phase.shared] == [0, 1, 2, 3]
    assert state.contract_value("game") == 1


def test_the_dealer_may_try_after_an_honour_holder_passed_and_else_all_passed():
    state = new_hand()
    say(state, (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))
    # seat 1 holds the honours but passed; nobody bid: the dealer, without one, may try
    assert state.legal_actions() == ["proba", "pass"]
    say(state, (0, "pass"))
    assert state.thrown_in == "all_passed"


def swapped(*pairs: tuple[str, str]) -> dict[int, list[str]]:
    """HANDS with each pair of cards exchanged between the seats holding them."""
    hands = {s: list(h) for s, h in HANDS.items()}
    for a, b in pairs:
        sa = next(s for s, h in hands.items() if a in h)
        sb = next(s for s, h in hands.items() if b in h)
        hands[sa][hands[sa].index(a)], hands[sb][hands[sb].index(b)] = b, a
    return hands


def discard_all(state: HandState, kept: dict[int, set[str]]) -> None:
    """Every seat lays away the first card offered, checking the cards it must keep."""
    while state.decision.kind == "discard":
        seat = state.current_player()
        assert not kept.get(seat, set()) & set(state.legal_actions())
        say(state, (seat, state.legal_actions()[0]))


def test_an_invitation_accepted_binds_the_declarer_to_call_the_invited_card():
    # seat 1: Skiz, XXI, XIX, XVIII; seat 3: the Pagat
    state = new_hand(swapped(("trump-1", "trump-16")))
    # a first bid leaping one bid (Two over nothing) invites the XIX: seat 1 holds it
    assert state.legal_actions() == ["harom", "ketto", "egy", "szolo", "pass"]
    say(state, (1, "ketto"), (2, "pass"))
    # after an invitation a leap needs no card: the Solo is open to seat 3 without the XIX
    assert state.legal_actions() == ["egy", "szolo", "pass"]
    say(state, (3, "egy"), (0, "pass"))
    # the inviter speaks no more
    assert state.legal_actions() == ["pass"]
    say(state, (1, "pass"))
    assert (state.auction.taker, state.auction.contract) == (3, "egy")
    discard_all(state, {1: {"trump-19"}})  # the invited card is never laid away
    assert state.decision.kind == "call" and state.legal_actions() == ["trump-19"]
    say(state, (3, "trump-19"))
    assert state.auction.partner == 1


def test_an_invitation_needs_the_card_it_names():
    # seat 1 without the XIX and XVIII (seat 3 holds them)
    state = new_hand(swapped(("trump-19", "trump-14"), ("trump-18", "trump-15")))
    assert state.legal_actions() == ["harom", "szolo", "pass"]  # the Solo leaps three
    say(state, (1, "harom"), (2, "pass"), (3, "pass"), (0, "pass"))
    discard_all(state, {})
    assert state.legal_actions() == ["trump-20"]  # no invitation: the XX as usual


def test_a_player_holding_the_xx_may_yield_the_game_and_the_xx_is_called():
    # seat 1: Skiz, XXI, XX, XVIII; seat 3: the Pagat and the XIX
    state = new_hand(swapped(("trump-19", "trump-20"), ("trump-1", "trump-16")))
    say(state, (1, "harom"), (2, "pass"), (3, "ketto"), (0, "pass"))
    # holding the XX and an honour above it, seat 1 may pass over the Two: it yields
    assert state.legal_actions() == ["hold:ketto", "szolo", "pass"]
    say(state, (1, "pass"))
    assert (state.auction.taker, state.auction.contract) == (3, "ketto")
    assert definition(state, "yielder") == (1,)
    discard_all(state, {1: {"trump-20"}})
    assert state.legal_actions() == ["trump-20"]
    say(state, (3, "trump-20"))
    assert state.auction.partner == 1
