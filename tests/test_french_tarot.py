"""French Tarot (source 003) for four players: the five worked scoring examples of the text,
the public check in the rules-facts notes, chelem and poignée cases, the auction, the chien
and the Excuse, checked on hands built card by card or played at random."""

from __future__ import annotations

from functools import cache

import pytest
from sides import (
    DEFENDER,
    TAKER,
    each_defender_pays,
    ended_by_hand,
    ids,
    offered_announcement,
    played_out,
    trick_log,
)
from sides import net as _net
from sides import pile_of as sides_pile_of

from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand, play_hand
from tarot.engine.phases.settle import settlement_with
from tarot.engine.state import HandState
from tarot.players.random_agent import RandomAgent


@cache
def french(name: str = "french-tarot", **choices: str):
    return load_ruleset(name, choices=choices)


def pile_of(ruleset, bouts: list[str], points: float) -> list[int]:
    """Cards worth exactly `points` that hold exactly the bouts named."""
    return sides_pile_of(ruleset, bouts, points, "bouts")


def settled(
    ruleset,
    taker_pile: list[int],
    last_trick: tuple[int, list[str]],
    contract: str = "garde",
    poignees: dict[int, int] | None = None,
    chelem_announced: bool = False,
    tricks: list[tuple[int, list[int]]] | None = None,
    partner: int | None = None,
) -> HandState:
    """A hand brought to its end by hand, with the declarations as given."""
    state = ended_by_hand(ruleset, taker_pile, last_trick, contract, tricks, partner)
    for seat, value in (poignees or {}).items():
        state.declare.values[seat]["poignee"] = value
    if chelem_announced:
        state.declare.declared[TAKER].add("chelem")
    return state


LAST_WITHOUT_PETIT = ["spades-2", "spades-3", "spades-4", "spades-5"]
LAST_WITH_PETIT = ["trump-1", "trump-2", "trump-3", "trump-4"]


def example(
    last: list[tuple[int, str]],
    bouts: list[str],
    points: float,
    declared: dict[int, dict[str, float]] | None = None,
    **choices: str,
) -> HandState:
    """A garde whose last trick is played card by card (seat 0, the taker, against seats 1
    to 3), the taker ending with exactly these bouts and card points."""
    ruleset = french(**choices)
    played = [card for _seat, card in last]
    probe = played_out(ruleset, [], [last], "garde")
    kept = [c for c in played if ruleset.deck.by_id[c] in probe.won[TAKER]]
    pile = sides_pile_of(
        ruleset, bouts + [c for c in kept if c not in bouts], points, "bouts", played
    )
    mine = [c for c in pile if ruleset.deck.cards[c].id not in played]
    state = played_out(ruleset, mine, [last], "garde", declared=declared)
    assert state.side_points(TAKER) == points
    assert sorted(c for c in state.side_pile(TAKER) if c in ruleset.deck.sets["bouts"]) == sorted(
        ids(ruleset, bouts)
    )
    return state


# 003's five examples, each with its figures: contract, card points, bouts, the last trick.
TAKER_WINS_PLAIN = [(1, "hearts-2"), (2, "hearts-3"), (3, "hearts-4"), (0, "hearts-K")]
TAKER_WINS_WITH_PETIT = [(1, "spades-2"), (2, "spades-3"), (3, "spades-4"), (0, "trump-1")]
DEFENCE_WINS_WITH_PETIT = [(1, "spades-2"), (2, "trump-1"), (3, "spades-3"), (0, "spades-4")]
DEFENCE_CAPTURES_PETIT = [(1, "trump-2"), (2, "trump-3"), (3, "trump-4"), (0, "trump-1")]


def test_hand_1_garde_56_points_two_bouts():
    # "garde", "56 card points with 2 bouts": each other player gives (25 + 15) * 2 = 80
    state = example(TAKER_WINS_PLAIN, ["trump-21", "fool"], 56)
    assert each_defender_pays(state) == 80


def test_hand_2_petit_au_bout_for_the_taker():
    # "garde", "49 card points with 3 bouts", the last trick taken with the 1 of trumps:
    # (25 + 13 + 10) * 2 = 96 from each other player
    state = example(TAKER_WINS_WITH_PETIT, ["trump-21", "fool", "trump-1"], 49)
    assert state.tricks[-1]["winner"] == TAKER
    assert each_defender_pays(state) == 96


def test_hand_3_contract_lost_and_petit_au_bout_to_the_defence():
    # "garde", "40 card points with 2 bouts", the defence takes the last trick with the 1:
    # the taker gives (25 + 1 + 10) * 2 = 72 to each other player
    state = example(DEFENCE_WINS_WITH_PETIT, ["trump-21", "fool"], 40)
    assert state.tricks[-1]["winner"] == 2
    assert each_defender_pays(state) == -72


def test_hand_4_petit_captured_at_the_end_raises_the_target():
    # "garde with 3 bouts", "41 card points", the 1 captured in the last trick: two bouts
    # left, target 41: (25 + 0 - 10) * 2 = 30 from each other player
    state = example(DEFENCE_CAPTURES_PETIT, ["trump-21", "fool"], 41)
    assert state.tricks[-1]["winner"] == 3
    assert each_defender_pays(state) == 30


def test_hand_5_the_defence_poignee_goes_to_the_winning_taker():
    # "garde", "40 card points with 3 bouts", a defender's poignée of 10 trumps:
    # (25 + 4) * 2 + 20 = 78 from each other player
    state = example(
        TAKER_WINS_PLAIN, ["trump-21", "fool", "trump-1"], 40, declared={2: {"poignee": 20}}
    )
    assert each_defender_pays(state) == 78


def test_rules_facts_check_106_and_318():
    # garde, 49 card points, 2 bouts, the taker's single poignée, the last trick taken with
    # the 1 of trumps: (25 + 8 + 10) x 2 + 20 = 106 from each defender, +318 to the taker
    state = example(
        TAKER_WINS_WITH_PETIT, ["trump-21", "trump-1"], 49, declared={TAKER: {"poignee": 20}}
    )
    assert each_defender_pays(state) == 106
    assert state.returns()[TAKER] == 318


def test_the_taker_poignee_goes_to_the_defence_when_he_loses():
    ruleset = french()
    pile = pile_of(ruleset, ["trump-21"], 45)  # target 51: lost by 6
    state = settled(ruleset, pile, (DEFENDER, LAST_WITHOUT_PETIT), poignees={TAKER: 30})
    assert each_defender_pays(state) == -(25 + 6) * 2 - 30


@pytest.mark.parametrize(
    ("contract", "multiplier"),
    [("petite", 1), ("garde", 2), ("garde_sans", 4), ("garde_contre", 6)],
)
def test_multiplier_by_contract(contract, multiplier):
    ruleset = french()
    pile = pile_of(ruleset, ["trump-21", "fool"], 51)
    state = settled(ruleset, pile, (DEFENDER, LAST_WITHOUT_PETIT), contract=contract)
    assert each_defender_pays(state) == (25 + 10) * multiplier


def _slam_tricks(winner: int, count: int = 18) -> list[tuple[int, list[int]]]:
    return [(winner, []) for _ in range(count)]


def test_chelem_announced_and_made_adds_400():
    ruleset = french()
    pile = pile_of(ruleset, ["trump-21", "fool"], 56)
    state = settled(ruleset, pile, (TAKER, []), chelem_announced=True, tricks=_slam_tricks(TAKER))
    assert each_defender_pays(state) == (25 + 15) * 2 + 400


def test_chelem_announced_and_failed_costs_200():
    ruleset = french()
    pile = pile_of(ruleset, ["trump-21", "fool"], 56)
    state = settled(ruleset, pile, (DEFENDER, LAST_WITHOUT_PETIT), chelem_announced=True)
    assert each_defender_pays(state) == (25 + 15) * 2 - 200


def test_chelem_made_unannounced_adds_200():
    ruleset = french()
    pile = pile_of(ruleset, ["trump-21", "fool"], 56)
    state = settled(ruleset, pile, (TAKER, []), tricks=_slam_tricks(TAKER))
    assert each_defender_pays(state) == (25 + 15) * 2 + 200


def test_whole_pack_is_91_points():
    ruleset = french()
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    assert state.count(list(range(len(ruleset.deck)))) == 91
    assert len(ruleset.deck) == 78


def test_deal_gives_18_each_and_a_chien_of_6_never_first_or_last_three():
    ruleset = french(le_petit="not_played")
    pack = list(range(78))
    state = HandState(ruleset, 0, pack)
    assert [len(h) for h in state.deal.hands_dealt] == [18, 18, 18, 18]
    assert len(state.deal.talon_dealt) == 6
    assert not set(state.deal.talon_dealt) & set(pack[:3] + pack[-3:])


def test_le_petit_in_the_first_packet_throws_the_deal_in():
    ruleset = french()
    petit = ruleset.deck.by_id["trump-1"]
    pack = [c for c in range(78) if c != petit]
    pack.insert(1, petit)  # the second card: in the first packet of the first player
    state = HandState(ruleset, 0, pack)
    assert state.thrown_in == "le_petit" and state.is_terminal()
    assert state.returns() == [0, 0, 0, 0]
    assert HandState(french(le_petit="not_played"), 0, pack).thrown_in is None


def _random_hands(ruleset, count: int, seed: int = 3):
    for number in range(1, count + 1):
        state = deal_hand(ruleset, seed, number)
        agents = [RandomAgent(f"{seed}/{number}/{s}") for s in range(ruleset.players)]
        yield play_hand(state, agents)


def test_random_hands_keep_the_chien_rules_and_count_91():
    ruleset = french()
    cards = ruleset.deck.cards
    kings_and_bouts = ruleset.deck.sets["never_discarded"]
    played = 0
    for state in _random_hands(ruleset, 60):
        if state.thrown_in is not None:
            continue
        played += 1
        assert sum(state.count(state.pile(s)) for s in range(4)) == 91
        discards = [c for d in state.discards for c in d]
        if state.auction.contract in ("petite", "garde"):
            assert len(state.discards[state.auction.taker]) == 6 and len(discards) == 6
            assert not set(discards) & kings_and_bouts
            shown = [c for seat, what, cs in state.shown if what == "discard" for c in cs]
            assert sorted(shown) == sorted(c for c in discards if cards[c].is_trump)
        else:
            assert discards == []
            side = (
                state.attackers() if state.auction.contract == "garde_sans" else state.defenders()
            )
            aside = {c for seat in side for c in state.set_aside[seat]}
            handed = {ruleset.deck.by_id[e["card"]] for e in state.play.exchanges}
            assert aside <= set(state.deal.talon_dealt)
            assert set(state.deal.talon_dealt) - aside <= handed  # only a card given for the Fool
        for payment in state.payments:
            assert payment.rule == "contract"
            assert {payment.payer, payment.payee} & {state.auction.taker}
    assert played > 30


def test_every_bid_must_rise_and_all_passing_throws_the_deal_in():
    ruleset = french(le_petit="not_played")
    state = HandState(ruleset, 0, list(range(78)))
    assert state.decision.kind == "bid" and state.decision.seat == 1
    state.apply_action("garde")
    assert state.legal_actions() == ["garde_sans", "garde_contre", "pass"]
    for _ in range(3):
        state.apply_action("pass")
    assert (state.auction.taker, state.auction.contract) == (1, "garde")
    passing = HandState(ruleset, 0, list(range(78)))
    for _ in range(4):
        passing.apply_action("pass")
    assert passing.thrown_in == "all_passed" and passing.is_terminal()


def test_the_excuse_is_kept_and_paid_for_with_a_half_point_card():
    ruleset = french()
    fool = ruleset.deck.by_id["fool"]
    low = ruleset.deck.sets["half_point_cards"]
    assert all(ruleset.counting.values[c] == 0.5 for c in low) and len(low) == 40 + 19
    seen = 0
    for state in _random_hands(ruleset, 80, seed=5):
        if state.thrown_in is not None:
            continue
        for trick in state.tricks[:-1]:
            played = {c["card"]: c["seat"] for c in trick["cards"]}
            if "fool" not in played:
                continue
            holder, winner = played["fool"], trick["winner"]
            assert fool in [c for s in state.side_of(holder) for c in state.won[s]]
            if winner not in state.side_of(holder):
                seen += 1
                handed = [e for e in state.play.exchanges if e["to"] == winner]
                assert handed or (holder, winner) in state.play.excuse_debts
                assert all(ruleset.deck.by_id[e["card"]] in low for e in handed)
                assert all(e["from"] in state.side_of(holder) for e in handed)
    assert seen > 5


@pytest.mark.parametrize(("points", "paid"), [(40.5, -(25 + 1)), (41.5, 25 + 1), (41, 25)])
def test_three_players_half_points_round_for_the_side_that_scores(points, paid):
    ruleset = french("french-tarot-3")
    pile = pile_of(ruleset, ["trump-21", "fool"], points)
    state = settled(ruleset, pile, (DEFENDER, LAST_WITHOUT_PETIT), contract="petite")
    assert each_defender_pays(state) == paid
    assert state.returns() == [0, 0, 0]  # settlement_with leaves the hand as it was
    net = [0, 0, 0]
    for p in settlement_with(state):
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    assert net[TAKER] == 2 * paid  # the taker wins or loses it twice


@pytest.mark.parametrize(("share", "taker", "partner"), [("two_to_one", 2, 1), ("equal", 1.5, 1.5)])
def test_five_players_taker_and_partner_share(share, taker, partner):
    ruleset = french("french-tarot-5", partner_share=share)
    pile = pile_of(ruleset, ["trump-21", "fool"], 51)
    state = settled(ruleset, pile, (DEFENDER, LAST_WITHOUT_PETIT), contract="petite", partner=2)
    score = 25 + 10
    assert each_defender_pays(state) == score
    net = _net(settlement_with(state), 5)
    assert net == [taker * score, -score, partner * score, -score, -score]


def test_five_players_taker_alone_wins_four_times():
    ruleset = french("french-tarot-5")
    pile = pile_of(ruleset, ["trump-21", "fool"], 51)
    state = settled(ruleset, pile, (DEFENDER, LAST_WITHOUT_PETIT), contract="petite")
    assert _net(settlement_with(state), 5) == [4 * 35, -35, -35, -35, -35]


def test_five_players_the_called_king_makes_the_hidden_partner():
    ruleset = french("french-tarot-5", le_petit="not_played")
    for seed in range(1, 40):
        state = deal_hand(ruleset, seed, 1)
        while state.decision is not None and state.decision.kind == "bid":
            state.apply_action(state.legal_actions()[0])  # the first bids, the rest must rise
        if state.decision is None or state.decision.kind != "call":
            continue
        taker = state.auction.taker
        kings = ruleset.deck.sets["kings"]
        assert {ruleset.deck.by_id[c] for c in state.legal_actions()} >= kings
        called = next(
            c for c in state.legal_actions() if ruleset.deck.by_id[c] not in state.hands[taker]
        )
        holder = next((s for s in range(5) if ruleset.deck.by_id[called] in state.hands[s]), None)
        state.apply_action(called)
        assert state.auction.partner == holder
        if holder is None:  # the called card lies in the chien: the taker plays alone
            continue
        assert state.attackers() == (taker, holder)
        assert len(state.defenders()) == 3
        agents = [RandomAgent(f"call/{seed}/{s}") for s in range(5)]
        play_hand(state, agents)
        assert state.play.partner_shown_at is not None
        return
    pytest.fail("no hand reached a call")


def test_two_players_hands_of_21_and_six_piles_of_three_with_playable_tops():
    ruleset = french("french-tarot-2")
    state = deal_hand(ruleset, 4, 1)
    assert [len(h) for h in state.deal.hands_dealt] == [21, 21]
    assert [[len(p) for p in piles] for piles in state.deal.piles_dealt] == [[3] * 6, [3] * 6]
    assert state.decision.kind == "play" and state.decision.seat == 1  # the non-dealer leads
    tops = {pile[-1] for pile in state.piles[1]}
    legal = {ruleset.deck.by_id[c] for c in state.legal_actions()}
    assert legal == set(state.hands[1]) | tops  # any card may lead
    top = state.piles[1][0][-1]
    beneath = state.piles[1][0][-2]
    state.apply_action(ruleset.deck.cards[top].id)
    assert state.piles[1][0][-1] == beneath  # the next card is now the face-up top
    assert state.play.total_tricks == 39
    agents = [RandomAgent(f"2p/{s}") for s in range(2)]
    play_hand(state, agents)
    assert len(state.play.trick_log) == 39
    assert not any(map(any, state.piles))
    assert sum(state.count(state.pile(s)) for s in range(2)) == 91


@pytest.mark.parametrize(("bouts", "points", "won"), [(2, 41, 25), (1, 60, 34), (2, 40.5, 0)])
def test_two_players_the_winner_scores_25_and_his_excess(bouts, points, won):
    ruleset = french("french-tarot-2")
    names = ["trump-21", "fool", "trump-1"][:bouts]
    state = HandState(ruleset, 1, list(range(78)))
    state.hands, state.piles = [[], []], [[], []]
    state.won[0] = pile_of(ruleset, names, points)
    state.won[1] = [c for c in range(78) if c not in set(state.won[0])]
    state.play.trick_log = trick_log([(1, ids(ruleset, LAST_WITHOUT_PETIT[:2]))])
    payments = settlement_with(state)
    net = _net(payments, 2)
    if won:
        assert net == [won, -won]
    else:  # 40.5 with two bouts misses; the other needs 56 with one bout and has 50.5
        assert net == [0, 0]


# --- the Excuse paid for, poignée shown, chelem with the Excuse -----------------------------

EXCUSE_LOST = [(1, "spades-2"), (2, "spades-3"), (3, "spades-4"), (0, "fool")]
AFTER_IT = [(3, "hearts-2"), (0, "hearts-3"), (1, "hearts-4"), (2, "hearts-5")]


def test_the_excuse_may_be_paid_for_with_a_trump_worth_half_a_point():
    # 003: the card handed over for the Excuse "will be a 0.5 point card"; trumps 2 to 20
    # count 0.5 as the low suit cards do. The taker's tricks hold a King and the 5 of trumps.
    ruleset = french()
    state = played_out(ruleset, ["spades-K", "trump-5"], [EXCUSE_LOST, AFTER_IT], "garde")
    assert state.play.exchanges == [{"from": 0, "to": 3, "card": "trump-5", "after_trick": 17}]
    assert ruleset.deck.by_id["fool"] in state.won[TAKER]
    assert state.play.excuse_debts == []


@pytest.mark.parametrize(("reading", "fool_to"), [("lapses", TAKER), ("fool_surrendered", 3)])
def test_an_excuse_never_paid_for_by_each_reading(reading, fool_to):
    ruleset = french(excuse_debt=reading)
    state = played_out(ruleset, ["spades-K", "hearts-K"], [EXCUSE_LOST, AFTER_IT], "garde")
    assert state.play.exchanges == []
    assert ruleset.deck.by_id["fool"] in state.won[fool_to]


def _excuse_chelem(second_last_winner_card: str) -> HandState:
    """The taker has won every trick but the last two; he wins the 17th with
    `second_last_winner_card` (the defenders have no trump) and leads the Excuse to the last."""
    ruleset = french()
    final = [
        [(0, second_last_winner_card), (1, "spades-2"), (2, "spades-3"), (3, "spades-4")],
        [(0, "fool"), (1, "hearts-2"), (2, "hearts-3"), (3, "hearts-4")],
    ]
    played = {card for trick in final for _seat, card in trick}
    mine = [c for c in range(78) if ruleset.deck.cards[c].id not in played]
    return played_out(ruleset, mine, final, "garde", earlier_winners=[TAKER] * 16)


def test_a_chelem_finished_by_the_excuse_counts_petit_au_bout_for_the_1_the_trick_before():
    # 003: the Excuse led to the last trick by a side that took all the others wins it, and
    # the 1 of trumps winning the trick before counts as petit au bout. The taker holds all
    # 91 points and 3 bouts (target 36): (25 + 55 + 10) * 2 + 200 for the chelem
    state = _excuse_chelem("trump-1")
    assert [t["winner"] for t in state.tricks[-2:]] == [TAKER, TAKER]
    assert state.side_points(TAKER) == 91
    assert each_defender_pays(state) == (25 + 55 + 10) * 2 + 200


def test_a_chelem_finished_by_the_excuse_without_the_1_the_trick_before():
    state = _excuse_chelem("trump-21")  # the 1 was won earlier: no petit au bout
    assert each_defender_pays(state) == (25 + 55) * 2 + 200


# --- the options on 003's doubts -------------------------------------------------------------


@pytest.mark.parametrize(
    ("reading", "hand_2", "hand_3"),
    [("exact", 96, -72), ("nearest_5", 95, -70), ("nearest_10", 100, -70)],
)
def test_scores_rounded_to_5_or_10(reading, hand_2, hand_3):
    bouts = ["trump-21", "fool", "trump-1"]
    won = example(TAKER_WINS_WITH_PETIT, bouts, 49, score_rounding=reading)
    lost = example(DEFENCE_WINS_WITH_PETIT, bouts[:2], 40, score_rounding=reading)
    assert (each_defender_pays(won), each_defender_pays(lost)) == (hand_2, hand_3)
    assert french("french-tarot-round-10").options["score_rounding"] == "nearest_10"


@pytest.mark.parametrize(("reading", "offered"), [("taker", False), ("either_side", True)])
def test_a_chelem_announced_by_the_defence(reading, offered):
    ruleset = french(chelem_by=reading, le_petit="not_played")
    state = HandState(ruleset, 0, list(range(78)))
    asked = offered_announcement(state, "garde_sans", "chelem:announced")
    assert asked == ({0, 1, 2, 3} if offered else {1})
    # the defence announces and takes every trick: 400 to each defender; fails: 200 to the taker
    defence_made = settled(
        ruleset, [], (DEFENDER, LAST_WITHOUT_PETIT), tricks=_slam_tricks(DEFENDER)
    )
    defence_made.declare.declared[DEFENDER].add("chelem")
    assert each_defender_pays(defence_made) == -(25 + 56) * 2 - 400
    defence_failed = settled(ruleset, pile_of(ruleset, ["trump-21", "fool"], 56), (TAKER, []))
    defence_failed.declare.declared[DEFENDER].add("chelem")
    assert each_defender_pays(defence_failed) == (25 + 15) * 2 + 200


@pytest.mark.parametrize(
    ("reading", "position", "thrown"),
    [
        ("first_packet", 3, True),
        ("first_three_cards", 3, False),
        ("first_three_cards", 2, True),
    ],
)
def test_le_petit_with_three_players_dealt_in_fours(reading, position, thrown):
    ruleset = french("french-tarot-3", le_petit_cards=reading)
    petit = ruleset.deck.by_id["trump-1"]
    pack = [c for c in range(78) if c != petit]
    pack.insert(position, petit)  # in seat 1's first packet of four (pack[0:4])
    state = HandState(ruleset, 0, pack)
    assert state.deal.packets_dealt[1][0] == pack[:4]
    assert (state.thrown_in == "le_petit") is thrown


@pytest.mark.parametrize(("reading", "thrown"), [("not_played", False), ("played", True)])
def test_le_petit_with_two_players(reading, thrown):
    ruleset = french("french-tarot-2", le_petit=reading)
    petit = ruleset.deck.by_id["trump-1"]
    probe = HandState(ruleset, 0, list(range(78)))
    first = probe.deal.packets_dealt[1][0][0]  # the position of seat 1's first card in hand
    pack = [c for c in range(78) if c != petit]
    pack.insert(first, petit)
    state = HandState(ruleset, 0, pack)
    assert petit in state.deal.packets_dealt[1][0]
    assert (state.thrown_in == "le_petit") is thrown
