"""Slovenian Tarok (rulesets/slovenian-tarok/): the worked examples of
docs/games/slovenian-tarok.md (counting in threes, groups of three, Klop rounding, the
auctions of OpenSpiel's tests, the mond penalty), hands played by fixed decisions through each
contract family, hands played by random players scored again here from the rules as written
(an independent count of every card pile), the three-player game, the OpenSpiel option set,
and the commands."""

from __future__ import annotations

import pytest
from tiers import one_fast

from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset
from tarot.engine.phases.settle import count_points
from tarot.engine.state import HandState
from tarot.players.random_agent import RandomAgent
from tarot.presentation.transcript import hand_transcript
from tests.commands import run_in_process
from tests.small_games import pack_for, say

PLAIN = {"announced_bonuses": "not_played", "kontra": "not_played", "radli": "not_played"}
FOUR = load_ruleset("slovenian-tarok")
FOUR_PLAIN = load_ruleset("slovenian-tarok", PLAIN)
THREE_PLAIN = load_ruleset("slovenian-tarok-3", PLAIN)

# --- an independent reading of the rules, for checking what the engine wrote ----------------


def value(card: str) -> int:
    """A card's value (ST-4): Skis, Mond, Pagat and Kings 5, Queens 4, Knights 3, Jacks 2."""
    if card in ("fool", "trump-21", "trump-1") or card.endswith("-K"):
        return 5
    return {"Q": 4, "C": 3, "J": 2}.get(card.rsplit("-", 1)[1], 1)


def counted(cards: list[str]) -> int:
    """Counting in threes (ST-5): each group of three its sum less 2, a part group less 1."""
    whole, left = divmod(len(cards), 3)
    return sum(map(value, cards)) - 2 * whole - (1 if left else 0)


def engine_count(ruleset: Ruleset, cards: list[str]) -> float:
    counting = ruleset.counting
    pile = [ruleset.deck.by_id[c] for c in cards]
    return count_points(counting, pile)


def ids(ruleset: Ruleset, cards) -> list[str]:
    return [ruleset.deck.cards[c].id for c in cards]


def written(state: HandState) -> list[float]:
    """What each seat wrote for the hand (its hand score)."""
    return [state.hand_score(seat) for seat in range(state.ruleset.players)]


def round5(x: float) -> int:
    return int((abs(x) / 5) + 0.5) * 5 * (1 if x >= 0 else -1)


VALUES = {"tri": 10, "dva": 20, "ena": 30, "solo_tri": 40, "solo_dva": 50, "solo_ena": 60}
HIGHER = {"berac": 70, "solo_brez": 80, "odprti_berac": 90, "barvni_valat": 125, "valat": 500}


def expected_scores(state: HandState) -> list[float]:
    """The hand's scores worked out here from the piles and the tricks, by the default
    readings and without announcements, kontra or radli."""
    ruleset, n = state.ruleset, state.ruleset.players
    piles = [ids(ruleset, state.pile(s)) for s in range(n)]
    tricks = state.play.trick_log
    if state.auction.contract == "klop":
        points = [counted(p) for p in piles]
        full = [p > 35 for p in points]
        empty = [not any(w == s for *_, w in tricks) for s in range(n)]
        if any(full) or any(empty):
            return [-70 if full[s] else 70 if empty[s] else 0 for s in range(n)]
        return [-round5(p) for p in points]
    attack = set(state.attackers())
    defence = [s for s in range(n) if s not in attack]
    attack_won = sum(1 for *_, w in tricks if w in attack)
    defence_won = len(tricks) - attack_won
    if state.auction.contract in HIGHER:
        won = {
            "berac": attack_won == 0,
            "odprti_berac": attack_won == 0,
            "barvni_valat": defence_won == 0,
            "valat": defence_won == 0,
            "solo_brez": counted([c for s in attack for c in piles[s]]) > 35,
        }[state.auction.contract]
        score = HIGHER[state.auction.contract] * (1 if won else -1)
        mond = (
            mond_losses(state, exchange=False) if state.auction.contract == "solo_brez" else [0] * n
        )
        return [(score if s in attack else 0) - mond[s] for s in range(n)]
    attack_pile = [c for s in attack for c in piles[s]]
    defence_pile = [c for s in defence for c in piles[s]]
    called = (
        None
        if state.auction.called_card is None
        else ruleset.deck.cards[state.auction.called_card].id
    )
    talon = ids(ruleset, state.deal.talon_dealt)
    went_round = False  # the called King, taken from the talon, won a trick itself
    if called in talon:
        for _number, _leader, trick, winner in tricks:
            players = {ruleset.deck.cards[c].id: seat for seat, c in trick}
            if called in players:
                went_round = winner == players[called]
    if went_round:
        rest = [c for c in talon if c not in attack_pile and c in defence_pile]
        attack_pile += rest
        defence_pile = [c for c in defence_pile if c not in rest]
    points = counted(attack_pile)
    won = points > 35
    game = (VALUES[state.auction.contract] + abs(round5(points - 35))) * (1 if won else -1)
    if defence_won == 0 or attack_won == 0:
        total = 250 if defence_won == 0 else -250
    else:
        total = game
        for group in (["fool", "trump-21", "trump-1"], [f"{s}-K" for s in SUITS]):
            if all(c in attack_pile for c in group):
                total += 10
            elif all(c in defence_pile for c in group):
                total -= 10
        *_, (_, _, last, last_winner) = tricks
        last_ids = {ruleset.deck.cards[c].id: seat for seat, c in last}
        if called in last_ids:
            total += 10 if last_winner in attack else -10
        if "trump-1" in last_ids:
            pagat_side = 1 if last_ids["trump-1"] in attack else -1
            pagat_won = last_winner == last_ids["trump-1"]
            total += 25 * pagat_side * (1 if pagat_won else -1)
    mond = mond_losses(state, went_round)
    return [(total if s in attack else 0) - mond[s] for s in range(n)]


SUITS = ("hearts", "diamonds", "spades", "clubs")


def mond_losses(state: HandState, went_round: bool = False, exchange: bool = True) -> list[float]:
    """20 from the Mond's player when a trick won by the Skis or the Pagat takes it; 20 from
    the declarer when it stays in the part of the talon he left, in a contract where he took
    part of it (`exchange`; not Solo without: G, and O's talon exchange)."""
    ruleset, n = state.ruleset, state.ruleset.players
    loss = [0.0] * n
    for _number, _leader, trick, winner in state.play.trick_log:
        cards = {ruleset.deck.cards[c].id: seat for seat, c in trick}
        if "trump-21" in cards:
            won_with = [cid for cid, seat in cards.items() if seat == winner][0]
            if won_with in ("fool", "trump-1"):
                loss[cards["trump-21"]] += 20
    talon = ids(ruleset, state.deal.talon_dealt)
    taker_cards = set(ids(ruleset, state.zones.discards[state.auction.taker])) | {
        ruleset.deck.cards[c].id
        for _n, _l, trick, _w in state.play.trick_log
        for seat, c in trick
        if seat == state.auction.taker
    }
    if exchange and "trump-21" in talon and "trump-21" not in taker_cards and not went_round:
        loss[state.auction.taker] += 20
    return loss


def play_out(state: HandState, seed: int) -> HandState:
    agent = RandomAgent(seed)
    while not state.is_terminal():
        state.apply_action(agent.choose(state, state.current_player()))
    return state


# --- worked examples ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pile", "points"),
    [
        ([], 0),
        (["trump-2"], 0),
        (["trump-2", "trump-3"], 1),
        (["trump-21"], 4),
        (["trump-21", "diamonds-J"], 6),
        (["trump-14", "trump-21", "diamonds-J"], 6),
        (["trump-14", "trump-21", "diamonds-J", "diamonds-Q"], 9),
        (["trump-2", "clubs-J", "clubs-Q", "trump-21", "clubs-K"], 14),
        # groups of three (H)
        (["fool", "hearts-K", "hearts-1"], 9),
        (["hearts-K", "hearts-Q", "spades-7"], 8),
        (["hearts-C", "spades-C", "clubs-C"], 7),
        (["hearts-K", "spades-7", "trump-5"], 5),
        (["spades-7", "trump-5", "hearts-4"], 1),
    ],
)
def test_cards_count_in_threes_as_the_worked_examples_say(pile, points):
    assert engine_count(FOUR, pile) == points == counted(pile)


def test_the_whole_pack_counts_seventy():
    assert len(FOUR.deck) == 54
    assert engine_count(FOUR, list(FOUR.deck.by_id)) == 70


def test_the_skis_is_the_highest_tarok_and_the_round_suits_run_from_the_one():
    pack = FOUR.deck.cards
    by_id = FOUR.deck.by_id
    strength = {c: pack[by_id[c]].strength for c in ("fool", "trump-21", "trump-1")}
    assert strength["fool"] > strength["trump-21"] > strength["trump-1"]
    assert by_id["fool"] in pack.trumps
    hearts = ["hearts-K", "hearts-Q", "hearts-C", "hearts-J", "hearts-1", "hearts-2", "hearts-3"]
    assert [pack[by_id[c]].strength for c in hearts] == sorted(
        (pack[by_id[c]].strength for c in hearts), reverse=True
    )
    assert pack[by_id["spades-10"]].strength > pack[by_id["spades-7"]].strength


# --- the auction (OpenSpiel's bidding tests; seat 0 there is forehand, here seat 1) ----------


def four_hand(ruleset: Ruleset = FOUR_PLAIN, seed: int = 5) -> HandState:
    import random

    pack = list(range(len(ruleset.deck)))
    while True:
        random.Random(seed).shuffle(pack)
        state = HandState(ruleset, 0, pack)
        if state.thrown_in is None and not state.abandoned:
            return state
        seed += 100


def test_all_pass_and_forehand_chooses_among_every_contract():
    state = four_hand()
    say(state, (2, "pass"), (3, "pass"), (0, "pass"))
    assert state.current_player() == 1
    assert state.legal_actions() == [
        "tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena", "berac",
        "solo_brez", "odprti_berac", "barvni_valat", "valat", "pass",
    ]  # fmt: skip
    say(state, (1, "pass"))  # forehand's pass is Klop
    assert state.auction.contract == "klop" and state.auction.taker is None
    assert state.decision.kind == "play" and state.current_player() == 1


def test_forehand_holds_and_the_last_left_keeps_or_raises():
    state = four_hand()
    # OpenSpiel's test 2: 1 pass, 2 One, 3 pass, forehand One (hold), 2 pass, forehand confirms
    assert "tri" not in state.legal_actions()  # Three is forehand's only
    say(state, (2, "pass"), (3, "ena"), (0, "pass"))
    assert "hold:ena" in state.legal_actions()
    say(state, (1, "hold:ena"), (3, "pass"))
    assert state.current_player() == 1 and "pass" not in state.legal_actions()
    assert state.legal_actions()[:3] == ["hold:ena", "solo_tri", "solo_dva"]
    say(state, (1, "hold:ena"))
    assert (state.auction.taker, state.auction.contract) == (1, "ena")
    assert state.decision.kind == "call"


def test_a_later_bidder_cannot_hold_an_earlier_ones_bid_and_the_winner_raises():
    state = four_hand()
    # OpenSpiel's test 3: Solo three, pass, Solo two, pass, pass; the winner raises
    say(state, (2, "solo_tri"), (3, "pass"))
    assert "hold:solo_tri" not in state.legal_actions()  # seat 0 comes after seat 2
    say(state, (0, "solo_dva"), (1, "pass"))
    assert "hold:solo_dva" in state.legal_actions()  # seat 2 speaks before seat 0
    say(state, (2, "pass"), (0, "solo_ena"))
    assert (state.auction.taker, state.auction.contract) == (0, "solo_ena")
    assert state.decision.kind == "packet"


def test_the_highest_bid_is_kept_when_nothing_is_higher():
    state = four_hand()
    say(state, (2, "odprti_berac"), (3, "barvni_valat"), (0, "valat"), (1, "pass"))
    say(state, (2, "pass"), (3, "pass"))
    assert state.current_player() == 0 and state.legal_actions() == ["hold:valat"]
    say(state, (0, "hold:valat"))
    assert state.play.leader == 0  # the declarer leads in the higher contracts


def test_three_players_have_no_solos_and_forehand_speaks_first():
    state = HandState(THREE_PLAIN, 0, list(range(54)))
    assert state.current_player() == 1
    assert "tri" in state.legal_actions() and "solo_tri" not in state.legal_actions()
    say(state, (1, "pass"), (2, "pass"), (0, "pass"))
    assert state.auction.contract == "klop"
    assert [len(h) for h in state.deal.hands_dealt] == [16, 16, 16]


# --- a hand played by fixed decisions, then by random players, checked against the rules -----


def test_mond_captured_by_the_skis_costs_its_player_twenty():
    """OpenSpiel's CapturedMondTest (three players, One): forehand leads the Mond, the next
    plays the Skis, the dealer a small tarok; forehand, the declarer, loses 20 beside his
    score."""
    ruleset = load_ruleset("slovenian-tarok-3", {**PLAIN, "bidding_start": "after_forehand"})
    rest = [c for c in ruleset.deck.by_id if c not in ("trump-21", "fool", "trump-6")]
    hands = {
        1: ["trump-21", *[c for c in rest if c.startswith("spades")], *rest[:0]],
    }
    hands[1] += [c for c in rest if c.startswith("hearts")][: 16 - len(hands[1])]
    others = [c for c in rest if c not in hands[1]]
    hands[2] = ["fool", *others[:15]]
    hands[0] = ["trump-6", *others[15:30]]
    talon = others[30:36]
    state = HandState(ruleset, 0, pack_for(ruleset, hands, talon))
    say(state, (2, "pass"), (0, "pass"), (1, "ena"))  # the last left: his word is final
    assert (state.auction.taker, state.auction.contract) == (1, "ena")
    say(state, (1, "packet:1"))
    state.apply_action(state.legal_actions()[-1])  # lay a card away
    say(state, (1, "trump-21"), (2, "fool"), (0, "trump-6"))
    assert state.play.trick_log[0][3] == 2
    play_out(state, 1)
    scores = written(state)
    assert scores == expected_scores(state)
    assert scores[1] < 0 or scores[1] % 5 == 0  # the mond penalty beside a rounded score


def test_a_mond_in_the_talon_of_a_solo_without_costs_nothing():
    """Solo without (three players): the talon is never looked at, and the Mond lying in it
    is left by nobody; the declarer writes the contract's 80, won or lost, and no penalty
    (O charges a Mond left only at its talon exchange; G only in three, two or one)."""
    ruleset = load_ruleset("slovenian-tarok-3", {**PLAIN, "bidding_start": "after_forehand"})
    rest = [c for c in ruleset.deck.by_id if c != "trump-21"]
    talon = ["trump-21", *rest[:5]]
    hands = {seat: rest[5 + i :: 3] for i, seat in enumerate((1, 2, 0))}  # taroks to each
    state = HandState(ruleset, 0, pack_for(ruleset, hands, talon))
    say(state, (2, "pass"), (0, "pass"), (1, "solo_brez"))
    assert (state.auction.taker, state.auction.contract) == (1, "solo_brez")
    play_out(state, 3)
    scores = written(state)
    assert abs(scores[1]) == 80 and scores == expected_scores(state)
    assert "trump-21" in ids(ruleset, state.deal.talon_dealt)


@pytest.mark.parametrize("seed", range(12))
def test_random_hands_are_scored_as_the_rules_say(seed):
    """Every contract reached by random bidding, scored here from the piles (four players)."""
    state = play_out(four_hand(FOUR_PLAIN, seed), seed)
    assert written(state) == expected_scores(state)


@pytest.mark.parametrize(
    ("bids", "contract"),
    [
        ([(2, "pass"), (3, "pass"), (0, "pass"), (1, "pass")], "klop"),
        ([(2, "dva"), (3, "pass"), (0, "pass"), (1, "pass"), (2, "hold:dva")], "dva"),
        ([(2, "berac"), (3, "pass"), (0, "pass"), (1, "pass"), (2, "hold:berac")], "berac"),
        (
            [(2, "odprti_berac"), (3, "pass"), (0, "pass"), (1, "pass")]
            + [(2, "hold:odprti_berac")],
            "odprti_berac",
        ),
        (
            [(2, "barvni_valat"), (3, "pass"), (0, "pass"), (1, "pass")]
            + [(2, "hold:barvni_valat")],
            "barvni_valat",
        ),
        (
            [(2, "solo_brez"), (3, "pass"), (0, "pass"), (1, "pass")] + [(2, "hold:solo_brez")],
            "solo_brez",
        ),
    ],
)
@pytest.mark.parametrize("seed", range(4))
def test_each_contract_family_is_played_and_scored_as_the_rules_say(bids, contract, seed):
    state = four_hand(FOUR_PLAIN, seed)
    say(state, *bids)
    assert state.auction.contract == contract
    play_out(state, seed)
    assert written(state) == expected_scores(state)
    if contract == "klop":
        assert sum(len(ids(FOUR, state.pile(s))) for s in range(4)) == 54  # talon dealt out
    if contract in ("berac", "odprti_berac"):
        won = [w for *_, w in state.play.trick_log]
        assert won.count(2) <= 1 and (2 not in won or won[-1] == 2)  # ends at his first


def test_negative_contracts_keep_the_pagat_back_unless_it_must_fall():
    seen_pagat: list[bool] = []
    for seed in range(12):
        state = four_hand(FOUR_PLAIN, seed)
        say(state, (2, "berac"), (3, "pass"), (0, "pass"), (1, "pass"), (2, "hold:berac"))
        agent = RandomAgent(seed)
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if "trump-1" in legal:  # only alone, or forced out by the Skis and Mond
                in_trick = ids(FOUR, [c for _s, c in state.trick])
                both = "fool" in in_trick and "trump-21" in in_trick
                hand = ids(FOUR, state.zones.hands[seat])
                assert legal == ["trump-1"], (legal, in_trick)
                assert both or len([c for c in hand if c.startswith("trump")]) >= 1
                seen_pagat.append(both)
            state.apply_action(agent.choose(state, seat))
    assert seen_pagat  # the Pagat was played at least once, and always alone among choices


def test_the_called_king_partner_shares_the_score():
    state = four_hand(FOUR_PLAIN, 3)
    say(state, (2, "pass"), (3, "pass"), (0, "pass"), (1, "tri"))  # forehand's Three
    assert state.decision.kind == "call" and state.auction.taker == 1
    assert all(c.endswith("-K") or c.endswith("-Q") for c in state.legal_actions())
    king = next(c for c in state.legal_actions() if c not in ids(FOUR, state.zones.hands[1]))
    say(state, (1, king))
    partner = next(s for s in range(4) if king in ids(FOUR, state.zones.hands[s]))
    assert set(state.attackers()) == {1, partner}
    play_out(state, 3)
    scores = written(state)
    assert scores == expected_scores(state)
    mond = mond_losses(state)
    assert scores[1] + mond[1] == scores[partner] + mond[partner] != 0
    assert all(scores[s] + mond[s] == 0 for s in range(4) if s not in (1, partner))
    text = hand_transcript(state)
    assert "calls" in text and "packets" in text


# --- announcements, kontra, radli ---------------------------------------------------------------


def test_kontra_doubles_the_game_alone():
    bids = [(2, "solo_ena"), (3, "pass"), (0, "pass"), (1, "pass"), (2, "hold:solo_ena")]
    plain = four_hand(FOUR_PLAIN, 7)
    say(plain, *bids)
    moves = []
    agent = RandomAgent(7)
    while not plain.is_terminal():
        moves.append(agent.choose(plain, plain.current_player()))
        plain.apply_action(moves[-1])
    doubled = four_hand(load_ruleset("slovenian-tarok", {**PLAIN, "kontra": "played"}), 7)
    say(doubled, *bids)
    for move in moves:
        while doubled.decision.kind == "double":  # kontra by the first defender asked
            doubled.apply_action("kontra:game" if not doubled.double.doubled else "pass:game")
        doubled.apply_action(move)
    assert doubled.double.doubled == {"game": 1}
    points = counted([c for s in plain.attackers() for c in ids(FOUR, plain.pile(s))])
    game = (60 + abs(round5(points - 35))) * (1 if points > 35 else -1)
    if 0 < sum(1 for *_, w in plain.play.trick_log if w == 2) < 12:
        assert written(doubled)[2] - written(plain)[2] == game


def test_an_announced_bonus_scores_double_and_a_failed_one_costs():
    ruleset = load_ruleset("slovenian-tarok", {"kontra": "not_played", "radli": "not_played"})
    for seed in range(8):
        state = four_hand(ruleset, seed)
        say(state, (2, "dva"), (3, "pass"), (0, "pass"), (1, "pass"), (2, "hold:dva"))
        agent = RandomAgent(seed)
        announced = False  # by the declarer, who speaks first
        while not state.is_terminal():
            if state.decision.kind == "announce":  # trula announced, nothing else
                legal = state.legal_actions()
                mine = "announce:trula" in legal and state.current_player() == state.auction.taker
                announced = announced or mine
                choice = "announce:trula" if mine else None
                state.apply_action(choice or next(a for a in legal if "announce" not in a))
                continue
            state.apply_action(agent.choose(state, state.current_player()))
        if not announced:
            continue
        plain = expected_scores(state)  # silent trula counted once
        attack = set(state.attackers())
        pile = [c for s in attack for c in ids(ruleset, state.pile(s))]
        assert [bonus for _s, bonus in state.announce.announced] == ["trula"]
        made = all(c in pile for c in ("fool", "trump-21", "trump-1"))
        defence_made = not made and all(
            c in [c for s in range(4) if s not in attack for c in ids(ruleset, state.pile(s))]
            for c in ("fool", "trump-21", "trump-1")
        )
        silent = 10 if made else -10 if defence_made else 0
        extra = (20 if made else -20) - silent
        tricks_split = 0 < sum(1 for *_, w in state.play.trick_log if w in attack) < 12
        if tricks_split:
            assert written(state)[2] == plain[2] + extra
        return
    pytest.fail("no seed gave a trula announcement")


def test_radli_are_given_after_a_beggar_and_struck_out_by_a_winning_declarer(capsys):
    status, out, _err = run_in_process(
        capsys, "play", "slovenian-tarok", "--seed", "5", "--agents", "heuristic"
    )
    assert status == 0
    assert "radli: seat 0 1, seat 1 1, seat 2 1, seat 3 1" in out  # after a Beggar (hand 2)
    # seat 1 held a radelc, won its Solo two of hand 3 as declarer and struck it out
    assert "radli: seat 0 1, seat 1 0, seat 2 1, seat 3 1" in out
    # the transcript shows the packets, the called King and a kontra
    assert "The talon is laid out in" in out and "calls" in out and "kontra" in out


# --- the readings of ST-18, ST-33 and ST-40 ---------------------------------------------------


OPEN_BEGGAR = [(2, "odprti_berac"), (3, "pass"), (0, "pass"), (1, "pass"), (2, "hold:odprti_berac")]


def shown_by(state: HandState, rule: str) -> dict[int, list[str]]:
    return {seat: ids(FOUR, cards) for seat, what, cards in state.shown if what == rule}


@pytest.mark.parametrize("seed", range(3))
def test_the_open_beggar_is_laid_open_from_the_start_or_after_the_first_trick(seed):
    early = four_hand(load_ruleset("slovenian-tarok", {**PLAIN, "open_beggar_shown": "from_start"}))
    say(early, *OPEN_BEGGAR)
    assert early.decision.kind == "play" and not early.zones.trick  # nobody has played
    hand = ids(FOUR, early.zones.hands[2])
    assert len(hand) == 12 and shown_by(early, "odprti_berac_from_start") == {2: hand}
    later = four_hand(FOUR_PLAIN)
    say(later, *OPEN_BEGGAR)
    assert later.shown == []  # B: only once the first trick is over
    while len(later.play.trick_log) < 1:
        later.apply_action(RandomAgent(seed).choose(later, later.current_player()))
    if not later.is_terminal():
        assert shown_by(later, "odprti_berac") == {2: ids(FOUR, later.zones.hands[2])}
    text = hand_transcript(play_out(early, seed))
    assert "Play:\n  Shown to all (The declarer's hand laid open in Open beggar from the" in text


def test_the_king_is_called_after_the_talon_exchange_in_that_reading():
    ruleset = load_ruleset("slovenian-tarok", {**PLAIN, "call_time": "after_talon"})
    for seed in range(6):
        state = four_hand(ruleset, seed)
        say(state, (2, "pass"), (3, "pass"), (0, "pass"), (1, "dva"))
        assert state.decision.kind == "packet"  # the talon first
        say(state, (1, "packet:1"))
        while state.decision.kind == "discard":
            state.apply_action(state.legal_actions()[0])
        assert state.decision.kind == "call" and state.current_player() == 1
        king = state.legal_actions()[-1]
        holder = [s for s in range(4) if king in ids(ruleset, state.zones.hands[s])]
        say(state, (1, king))
        partner = holder[0] if holder and holder[0] != 1 else None
        assert set(state.attackers()) == {1} | ({partner} if partner is not None else set())
        play_out(state, seed)
        assert written(state) == expected_scores(state)
        assert "calls" in hand_transcript(state)


def test_a_klop_may_be_doubled_in_that_reading_and_every_score_is_multiplied():
    ruleset = load_ruleset("slovenian-tarok", {**PLAIN, "klop_kontra": "played"})
    doubled_hands = 0
    for seed in range(6):
        state = four_hand(ruleset, seed)
        say(state, (2, "pass"), (3, "pass"), (0, "pass"), (1, "pass"))
        assert state.auction.contract == "klop" and state.decision.kind == "double"
        assert state.current_player() == 1 and "kontra:klop" in state.legal_actions()
        say(state, (1, "kontra:klop"))  # forehand, the dealer's next, is asked first
        assert state.decision.kind == "play"  # every player alone: nobody to answer re
        assert state.double.doubled == {"klop": 1}
        play_out(state, seed)
        plain = expected_scores(state)
        assert written(state) == [2 * x for x in plain]
        doubled_hands += any(plain)
    assert doubled_hands  # some Klop was scored at all
    undoubled = four_hand(FOUR_PLAIN)
    say(undoubled, (2, "pass"), (3, "pass"), (0, "pass"), (1, "pass"))
    assert undoubled.decision.kind == "play"  # the default: no kontra on a Klop


# --- measures over a sitting ------------------------------------------------------------------


def test_a_simulated_sitting_measures_each_hand_taker_and_the_scores_written():
    from tarot.engine.game import play_game, sitting_seed
    from tarot.measure.hand_summary import play_sitting_summarized
    from tarot.measure.measures import RulesetMeasures
    from tarot.players.lineup import seat_agents

    def agents(hand: int) -> list:
        return seat_agents(("random",), sitting_seed(5, 1), hand, 4)

    summary = play_sitting_summarized(FOUR, 5, 1, agents)
    played = play_game(FOUR, sitting_seed(5, 1), agents, hands=None)
    assert [(d.taker, d.partner, d.contract) for d in summary.deals] == [
        (s.auction.taker, s.auction.partner, s.auction.contract) for s in played
    ]
    assert summary.paid["hand_score"] == sum(abs(x) for s in played for x in s.scores) > 0
    measures = RulesetMeasures.of(FOUR)
    measures.add(summary)
    auction = measures.report()["auction"]
    taken = [s for s in played if s.auction.taker is not None]
    assert auction["taken"]["n"] == len(played) and auction["taken"]["hits"] == len(taken)
    if taken:
        mean = sum(s.returns()[s.auction.taker] for s in taken) / len(taken)  # radli left too
        assert auction["taker"]["mean"] == pytest.approx(mean)


# --- variants and commands ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    one_fast(
        [
            "slovenian-tarok",
            "slovenian-tarok-3",
            "slovenian-tarok-openspiel",
            "slovenian-tarok-3-openspiel",
        ]
    ),
)
def test_validate_play_replay_and_simulate(name, tmp_path, capsys):
    assert run_in_process(capsys, "validate", name)[0] == 0
    record = tmp_path / "record.json"
    status, _out, err = run_in_process(capsys, "play", name, "--seed", "1", "--record", str(record))
    assert status == 0, err
    status, _out, err = run_in_process(capsys, "replay", str(record))
    assert status == 0, err
    status, out, err = run_in_process(capsys, "simulate", name, "--hands", "20")
    assert status == 0, err


@pytest.mark.parametrize("agents", one_fast(["heuristic", "search"]))
def test_the_computer_players_can_play_it(agents, capsys):
    status, _out, err = run_in_process(
        capsys, "simulate", "slovenian-tarok-3", "--hands", "1", "--agents", agents
    )
    assert status == 0, err


def test_three_players_random_hands_are_scored_as_the_rules_say():
    for seed in range(8):
        pack = list(range(54))
        import random

        random.Random(seed).shuffle(pack)
        state = HandState(THREE_PLAIN, 0, pack)
        if state.is_terminal():
            continue
        play_out(state, seed)
        assert state.auction.called_card is None
        assert written(state) == expected_scores(state)


# --- the fidelity audit of docs/games/slovenian-tarok-audit.md ------------------------------


def dealt(ruleset: Ruleset, forehand: list[str], talon: list[str]) -> HandState:
    """A hand dealt by seat 0 in which forehand (seat 1) holds `forehand` and the talon is
    `talon`; the other cards go to seats 2, 3 and 0 in turn, one at a time."""
    rest = [c for c in ruleset.deck.by_id if c not in forehand and c not in talon]
    hands = {1: forehand, 2: rest[0::3], 3: rest[1::3], 0: rest[2::3]}
    return HandState(ruleset, 0, pack_for(ruleset, hands, talon))


def play_declarer_first(state: HandState, order: list[str]) -> None:
    """The declarer plays the first card of `order` he may; the others play randomly."""
    agent = RandomAgent(1)
    while not state.is_terminal():
        seat, legal = state.current_player(), state.legal_actions()
        if seat == state.auction.taker:
            state.apply_action(next(c for c in order if c in legal))
        else:
            state.apply_action(agent.choose(state, seat))


TAROKS_DOWN = ["fool", *(f"trump-{n}" for n in range(21, 0, -1))]
LOW_TALON = ["spades-7", "spades-8", "spades-9", "clubs-7", "clubs-8", "clubs-9"]


def test_a_silent_valat_is_raised_by_the_kontra_on_the_game():
    # Z, rule B 1.14: a silent valat scores 250, raised by the kontras said and a radelc
    ruleset = load_ruleset("slovenian-tarok", {**PLAIN, "kontra": "played"})
    top = TAROKS_DOWN[:12]  # the Skis and the Mond to the XII: every trick is the declarer's
    state = dealt(ruleset, top, LOW_TALON)
    say(state, (2, "pass"), (3, "pass"), (0, "pass"), (1, "solo_ena"), (1, "packet:1"))
    say(state, (1, "spades-7"))  # the card taken goes back
    while state.decision.kind == "double":
        state.apply_action("kontra:game" if not state.double.doubled else "pass:game")
    assert state.double.doubled == {"game": 1}
    play_declarer_first(state, TAROKS_DOWN)
    assert all(w == 1 for *_, w in state.play.trick_log) and len(state.play.trick_log) == 12
    assert written(state) == [0, 500, 0, 0]  # 250, doubled by the kontra


def test_announcing_valat_cancels_the_other_announcements():
    # W: once Valat is announced, every other announcement is cancelled
    ruleset = load_ruleset("slovenian-tarok", {**PLAIN, "announced_bonuses": "played"})
    hand = [*TAROKS_DOWN[:10], "trump-1", "hearts-4"]  # loses the first trick, then all
    talon = [f"trump-{n}" for n in range(2, 8)]  # the defenders keep only the VIII to XII
    state = dealt(ruleset, hand, talon)
    say(state, (2, "pass"), (3, "pass"), (0, "pass"), (1, "solo_ena"), (1, "packet:1"))
    say(state, (1, "trump-2"))
    assert state.decision.kind == "announce" and state.current_player() == 1
    say(state, (1, "announce:trula"), (1, "announce:valat"))
    assert "announce:trula" not in state.legal_actions()
    while state.decision.kind == "announce":
        state.apply_action("pass")
    play_declarer_first(state, ["hearts-4", *[c for c in TAROKS_DOWN if c != "trump-1"], "trump-1"])
    attack = [c for c in ids(ruleset, state.pile(1))]
    assert all(c in attack for c in ("fool", "trump-21", "trump-1"))  # trula made
    assert sum(1 for *_, w in state.play.trick_log if w != 1) == 1  # valat failed
    game = 60 + abs(round5(counted(attack) - 35))
    defence = [c for s in (0, 2, 3) for c in ids(ruleset, state.pile(s))]
    kings = [f"{s}-K" for s in SUITS]
    silent_kings = 10 if all(k in attack for k in kings) else 0
    silent_kings -= 10 if all(k in defence for k in kings) else 0
    # the game, trula silent (its announcement cancelled), Pagat ultimo silent, valat failed
    assert written(state)[1] == game + 10 + silent_kings + 25 - 500


def test_a_declarer_with_all_four_kings_may_call_a_queen_or_one_of_his_kings():
    # W: a Queen may be called by a declarer who holds every King; his own King he may call
    kings = ["hearts-K", "diamonds-K", "spades-K", "clubs-K"]
    hand = [*kings, *TAROKS_DOWN[4:12]]
    state = dealt(FOUR_PLAIN, hand, LOW_TALON)
    say(state, (2, "pass"), (3, "pass"), (0, "pass"), (1, "tri"))
    assert state.decision.kind == "call"
    legal = state.legal_actions()
    assert set(kings) <= set(legal) and any(c.endswith("-Q") for c in legal)
    say(state, (1, "spades-K"))
    assert list(state.attackers()) == [1]
