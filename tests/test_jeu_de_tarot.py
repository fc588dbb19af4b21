"""Jeu de Tarot as Bunbury plays it (source 004), for three, four and five players: the pack
counted in pairs to 91, the deal and the stock of each bid, the declarer's lead, Brass Balls,
Abundance, the Sparrow and the Slam announced or not, and the 2:1 split with five players,
checked on packs arranged card by card and on hands brought to their end by hand."""

from __future__ import annotations

from functools import cache

import pytest
from sides import (
    DEFENDER,
    TAKER,
    arranged_pack,
    each_defender_pays,
    ended_by_hand,
    ids,
    net,
    offered_announcement,
    played_out,
)
from sides import pile_of as sides_pile_of

from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand, play_hand
from tarot.engine.phases.settle import settlement_with
from tarot.engine.state import HandState
from tarot.players.random_agent import RandomAgent

FOUR = "jeu-de-tarot"


@cache
def jeu(name: str = FOUR):
    return load_ruleset(name)


# --- counting in pairs ---------------------------------------------------------------------


def test_the_whole_pack_counts_91_in_pairs():
    ruleset = jeu()
    state = HandState(ruleset, 0, list(range(78)))
    assert len(ruleset.deck) == 78
    assert state.count(list(range(78))) == 91  # 130 in nominal values, less 39 pairs


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        (["spades-2", "spades-3"], 1),  # two empty cards: 1 + 1 - 1
        (["spades-K", "spades-3"], 5),  # a King and an empty card: 5 + 1 - 1
        (["trump-21", "hearts-Q"], 8),  # an Honour and a Queen: 5 + 4 - 1
        (["fool", "trump-1", "clubs-C", "clubs-J"], 5 + 5 - 1 + 3 + 2 - 1),
    ],
)
def test_pairs_score_their_values_less_one(cards, points):
    ruleset = jeu()
    state = HandState(ruleset, 0, list(range(78)))
    assert state.count(ids(ruleset, cards)) == points


@pytest.mark.parametrize("name", [FOUR, "jeu-de-tarot-3", "jeu-de-tarot-5"])
def test_random_hands_share_91_between_the_sides(name):
    ruleset = jeu(name)
    played = 0
    for number in range(1, 25):
        state = deal_hand(ruleset, 7, number)
        play_hand(state, [RandomAgent(f"{name}/{number}/{s}") for s in range(ruleset.players)])
        if state.thrown_in is not None:
            continue
        played += 1
        assert (
            state.side_points(state.auction.taker) + state.side_points(state.defenders()[0]) == 91
        )
        assert state.tricks[0]["leader"] == state.auction.taker  # the declarer leads
    assert played > 10


# --- the deal, the auction and the stock -----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "each", "stock", "kept_off"),
    [(FOUR, 18, 6, 6), ("jeu-de-tarot-3", 24, 6, 6), ("jeu-de-tarot-5", 15, 3, 3)],
)
def test_the_deal_and_the_stock_never_first_or_last(name, each, stock, kept_off):
    ruleset = jeu(name)
    pack = list(range(78))
    state = HandState(ruleset, 0, pack)
    assert [len(h) for h in state.deal.hands_dealt] == [each] * ruleset.players
    assert len(state.deal.talon_dealt) == stock
    assert not set(state.deal.talon_dealt) & set(pack[:kept_off] + pack[-1:])


TRUMPS_FOR_EVERYONE = {
    seat: [f"trump-{n}" for n in range(2 + 5 * seat, 7 + 5 * seat)] for seat in range(4)
}  # no hand whose only trump is the Magician


def auctioned(contract: str) -> HandState:
    """Seat 1 (eldest) bids `contract`, the others pass."""
    ruleset = jeu()
    state = HandState(ruleset, 0, arranged_pack(ruleset, TRUMPS_FOR_EVERYONE))
    assert state.decision.kind == "bid" and state.decision.seat == 1
    assert state.legal_actions() == [
        "ill_play",
        "solo",
        "solo_with_stock",
        "solo_against_stock",
        "pass",
    ]
    state.apply_action(contract)
    for _ in range(3):
        state.apply_action("pass")
    assert (state.auction.taker, state.auction.contract) == (1, contract)
    return state


@pytest.mark.parametrize("contract", ["ill_play", "solo"])
def test_ill_play_and_solo_show_the_stock_take_it_up_and_discard(contract):
    state = auctioned(contract)
    stock = state.deal.talon_dealt
    assert (1, "talon", stock) in state.shown
    assert set(stock) <= set(state.hands[1]) and len(state.hands[1]) == 24
    ruleset = state.ruleset
    never = ruleset.deck.sets["never_discarded"]
    assert state.decision.kind == "discard"
    assert not {ruleset.deck.by_id[c] for c in state.legal_actions()} & never
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    assert len(state.discards[1]) == 6 and len(state.hands[1]) == 18
    # they count for the declarer only once play is over, if he takes a trick
    assert not set(state.discards[1]) & set(state.pile(1))


def test_solo_with_the_stock_puts_it_unseen_to_the_declarer():
    state = auctioned("solo_with_stock")
    assert state.talon == state.deal.talon_dealt  # on the table, unseen, until play is over
    assert not set(state.talon) & set(state.pile(1))
    assert not any(what == "talon" for _s, what, _c in state.shown)
    assert len(state.hands[1]) == 18 and state.decision.kind != "discard"


def test_solo_against_the_stock_puts_it_unseen_to_the_defenders():
    state = auctioned("solo_against_stock")
    holders = [s for s in range(4) if state.set_aside[s]]
    assert len(holders) == 1 and holders[0] in state.defenders()
    assert state.set_aside[holders[0]] == state.deal.talon_dealt
    assert not any(what == "talon" for _s, what, _c in state.shown)


def test_the_declarer_leads_to_the_first_trick():
    state = auctioned("solo_with_stock")
    while state.decision.kind == "declare":
        state.apply_action(state.legal_actions()[-1])  # declare nothing
    assert state.decision.kind == "play" and state.decision.seat == 1 == state.auction.taker


# --- Brass Balls ---------------------------------------------------------------------------


def test_brass_balls_played_on_makes_the_magician_a_second_fool():
    ruleset = jeu()
    magician, fool = ruleset.deck.by_id["trump-1"], ruleset.deck.by_id["fool"]
    wanted = {seat: list(trumps) for seat, trumps in TRUMPS_FOR_EVERYONE.items()}
    wanted[2] = ["trump-1"] + [f"spades-{n}" for n in range(1, 11)] + ["hearts-1", "hearts-2"]
    for seat in (0, 1, 3):
        wanted[seat] = [t for t in wanted[seat] if t != "trump-1"]
    state = HandState(ruleset, 0, arranged_pack(ruleset, wanted))
    state.apply_action("brass_balls:play_on")
    assert state.thrown_in is None and "brass_balls" in state.declare.declared[2]
    while state.decision.kind != "play":  # each bids the lowest bid open to him
        state.apply_action(state.legal_actions()[0])
    assert state.play.excuses == {magician, fool}
    agents = [RandomAgent(f"bb/{s}") for s in range(4)]
    play_hand(state, agents)
    trick = next(t for t in state.tricks if any(c["card"] == "trump-1" for c in t["cards"]))
    assert trick["winner"] != 2  # it cannot win...
    assert magician in [c for s in state.side_of(2) for c in state.won[s]]  # ...nor be lost


# --- settlement on hands built by hand -----------------------------------------------------


def pile_of(ruleset, honours: list[str], points: float, excluding=()) -> list[int]:
    """Cards counting exactly `points` in pairs that hold exactly the Honours named (and no
    card of `excluding`)."""
    return sides_pile_of(ruleset, honours, points, "honours", excluding)


NO_MAGICIAN = ["spades-2", "spades-3", "spades-4", "spades-5"]


def settled(
    ruleset,
    taker_pile: list[int],
    last_trick: tuple[int, list[str]],
    contract: str = "solo",
    declared: dict[int, list[str]] | None = None,
    abundances: dict[int, float] | None = None,
    tricks: list[tuple[int, list[int]]] | None = None,
    partner: int | None = None,
    stock_to_taker: list[int] | None = None,
) -> HandState:
    """A hand at its end: the declarer's cards, the last trick and the declarations as
    given; every other card with the defenders."""
    state = ended_by_hand(
        ruleset, taker_pile, last_trick, contract, tricks, partner, stock_to_taker or ()
    )
    for seat, names in (declared or {}).items():
        state.declare.declared[seat].update(names)
    for seat, value in (abundances or {}).items():
        state.declare.values[seat]["abundance"] = value
        state.declare.declared[seat].add("abundance")
    return state


@pytest.mark.parametrize(
    ("honours", "target"),
    [
        ([], 56),
        (["trump-21"], 51),
        (["trump-21", "fool"], 41),
        (["trump-21", "fool", "trump-1"], 36),
    ],
)
def test_the_target_falls_with_the_honours_taken(honours, target):
    ruleset = jeu()
    made = settled(ruleset, pile_of(ruleset, honours, target), (DEFENDER, NO_MAGICIAN))
    assert made.side_points(TAKER) == target
    assert each_defender_pays(made) == 25 * 2  # made exactly: 25, times Solo's 2
    short = settled(ruleset, pile_of(ruleset, honours, target - 3), (DEFENDER, NO_MAGICIAN))
    assert each_defender_pays(short) == -(25 + 3) * 2


@pytest.mark.parametrize(
    ("contract", "multiplier"),
    [("ill_play", 1), ("solo", 2), ("solo_with_stock", 4), ("solo_against_stock", 6)],
)
def test_25_and_the_margin_times_the_bid(contract, multiplier):
    ruleset = jeu()
    pile = pile_of(ruleset, ["trump-21", "fool"], 51)
    state = settled(ruleset, pile, (DEFENDER, NO_MAGICIAN), contract=contract)
    assert each_defender_pays(state) == (25 + 10) * multiplier


def test_a_declarer_without_a_trick_loses_the_stock_to_the_defenders():
    ruleset = jeu()
    stock = ids(ruleset, ["trump-21", "spades-K", "hearts-K", "clubs-K", "diamonds-K", "fool"])
    everything = [(DEFENDER, [])] * 18
    counted = settled(ruleset, [], (DEFENDER, NO_MAGICIAN), "solo_with_stock", stock_to_taker=stock)
    assert counted.side_points(TAKER) == 5 * 6 - 6 + 3  # the stock itself is worth 27
    lost = settled(
        ruleset,
        [],
        (DEFENDER, NO_MAGICIAN),
        "solo_with_stock",
        stock_to_taker=stock,
        tricks=everything,
    )
    # counted for nobody: no points and no Honours, so 56 short; the defenders' slam adds 200
    assert each_defender_pays(lost) == -(25 + 56) * 4 - 200


DEFENDER_WINS_THE_LAST = [(1, "spades-6"), (2, "spades-3"), (3, "spades-4"), (0, "spades-5")]
LAID_AWAY = ["hearts-K", "hearts-Q", "hearts-C", "hearts-J", "hearts-10", "hearts-9"]


@pytest.mark.parametrize("contract", ["solo", "solo_with_stock"])
def test_a_declarer_without_a_trick_has_no_card_points_in_the_record(contract):
    """004: the discard counts for the declarer "unless no tricks have been won", and the
    stock of a Solo with the stock is then "lost to the Defenders": the cards' points are
    the defenders' in the hand's card points (what the record says), not only in the
    payment."""
    ruleset = jeu()
    stock = ["diamonds-K", "diamonds-Q", "diamonds-C", "diamonds-J", "diamonds-10", "diamonds-9"]
    state = played_out(
        ruleset,
        [],
        [DEFENDER_WINS_THE_LAST],
        contract,
        earlier_winners=[DEFENDER] * 17,
        discards=LAID_AWAY if contract == "solo" else (),
        talon=stock if contract == "solo_with_stock" else (),
    )
    assert state.play.trick_log and all(log[3] != TAKER for log in state.play.trick_log)
    points = state.card_points()
    assert points[TAKER] == 0
    assert sum(points) == 91  # every card counts for a defender
    lost = LAID_AWAY if contract == "solo" else stock
    assert set(ids(ruleset, lost)) <= set(state.pile(DEFENDER))


# --- the Sparrow ---------------------------------------------------------------------------


# Last tricks played card by card: (seat, card) in the order played; seat 0 is the declarer.
TAKERS_MAGICIAN_WINS = [(1, "spades-6"), (2, "spades-7"), (3, "spades-8"), (0, "trump-1")]
DEFENDERS_MAGICIAN_WINS = [(1, "trump-1"), (2, "spades-6"), (3, "spades-7"), (0, "spades-8")]
TAKERS_MAGICIAN_BEATEN = [(1, "spades-9"), (2, "spades-10"), (3, "trump-2"), (0, "trump-1")]
TAKER_WINS_NO_MAGICIAN = [(1, "spades-2"), (2, "spades-3"), (3, "spades-4"), (0, "spades-5")]


def _last_trick_hand(last, honours, points, declared=None):
    """Solo, the declarer's cards at the end holding `honours` and counting `points` (the
    last trick's cards among them when he wins it, or keeps one as a Fool)."""
    ruleset = jeu()
    played = [card for _seat, card in last]
    state = played_out(
        ruleset, [], [last], "solo", declared=declared, excuses=None
    )  # a probe: who takes which card of the last trick
    kept = [c for c in played if ruleset.deck.by_id[c] in state.won[TAKER]]
    pile = pile_of(ruleset, honours + [c for c in kept if c not in honours], points, played)
    mine = [c for c in pile if ruleset.deck.cards[c].id not in played]
    state = played_out(ruleset, mine, [last], "solo", declared=declared)
    return state


def _sparrow_hand(last, honours, points, declared=None) -> float:
    state = _last_trick_hand(last, honours, points, declared)
    assert state.side_points(TAKER) == points
    return each_defender_pays(state)


ALL_HONOURS = ["trump-21", "fool", "trump-1"]


def test_the_sparrow_unannounced_scores_10_times_the_bid():
    # the declarer's Magician takes the last trick: three Honours, 46 points, target 36
    assert _sparrow_hand(TAKERS_MAGICIAN_WINS, ALL_HONOURS, 46) == (25 + 10 + 10) * 2
    # a defender's Magician takes it: two Honours, 51 points, target 41
    assert _sparrow_hand(DEFENDERS_MAGICIAN_WINS, ALL_HONOURS[:2], 51) == (25 + 10 - 10) * 2


def test_the_magician_beaten_in_the_last_trick_is_no_sparrow():
    assert _sparrow_hand(TAKERS_MAGICIAN_BEATEN, ALL_HONOURS[:2], 51) == (25 + 10) * 2


def test_the_sparrow_announced_scores_20_or_costs_20():
    taker, defender = {TAKER: {"sparrow": 0}}, {DEFENDER: {"sparrow": 0}}
    won = _sparrow_hand(TAKERS_MAGICIAN_WINS, ALL_HONOURS, 46, taker)
    assert won == (25 + 10 + 20) * 2
    lost = _sparrow_hand(TAKERS_MAGICIAN_BEATEN, ALL_HONOURS[:2], 51, taker)
    assert lost == (25 + 10 - 20) * 2
    by_defence = _sparrow_hand(DEFENDERS_MAGICIAN_WINS, ALL_HONOURS[:2], 51, defender)
    assert by_defence == (25 + 10 - 20) * 2
    failed_by_defence = _sparrow_hand(TAKER_WINS_NO_MAGICIAN, ALL_HONOURS[:2], 51, defender)
    assert failed_by_defence == (25 + 10 + 20) * 2


def test_a_magician_playing_as_the_fool_under_brass_balls_wins_no_sparrow():
    # 004: under Brass Balls the Magician "behaves in the same way as The Fool": played to
    # the last trick it cannot win it (spades-8 does) and is not lost (the declarer keeps it,
    # handing an empty card over for it), so no Sparrow is scored either way.
    brass = {TAKER: {"brass_balls": 0}}
    state = _last_trick_hand(TAKERS_MAGICIAN_WINS, ALL_HONOURS, 46, brass)
    magician = state.ruleset.deck.by_id["trump-1"]
    assert state.play.excuses == {magician, state.ruleset.deck.by_id["fool"]}
    assert state.tricks[-1]["winner"] == 3 and magician in state.won[TAKER]
    assert len(state.play.exchanges) == 1 and state.play.exchanges[0]["to"] == 3
    assert state.side_points(TAKER) == 45.5  # 46 less the empty card handed over
    assert each_defender_pays(state) == (25 + 10) * 2  # ceil(9.5) = 10; no Sparrow


# --- the Slam ------------------------------------------------------------------------------


def _slam_hand(winner: int, announced: bool) -> float:
    ruleset = jeu()
    pile = pile_of(ruleset, ["trump-21", "fool"], 51)
    tricks = [(winner, [])] * 18
    declared = {TAKER: ["slam"]} if announced else None
    state = settled(ruleset, pile, (winner, NO_MAGICIAN), declared=declared, tricks=tricks)
    return each_defender_pays(state)


def test_the_slam_announced_scores_400_or_costs_400_after_the_multiplier():
    assert _slam_hand(TAKER, announced=True) == (25 + 10) * 2 + 400
    ruleset = jeu()
    pile = pile_of(ruleset, ["trump-21", "fool"], 51)
    failed = settled(ruleset, pile, (DEFENDER, NO_MAGICIAN), declared={TAKER: ["slam"]})
    assert each_defender_pays(failed) == (25 + 10) * 2 - 400


def test_the_slam_unannounced_scores_200():
    assert _slam_hand(TAKER, announced=False) == (25 + 10) * 2 + 200


def test_only_the_declarer_may_announce_the_slam_and_only_the_magicians_holder_the_sparrow():
    state = auctioned("solo_with_stock")
    offered = {}
    while state.decision.kind == "declare":
        offered.setdefault(state.decision.seat, []).extend(state.legal_actions())
        state.apply_action(state.legal_actions()[-1])
    magician = state.ruleset.deck.by_id["trump-1"]
    holder = next(s for s in range(4) if magician in state.hands[s])
    assert [s for s, acts in offered.items() if "slam:announced" in acts] == [state.auction.taker]
    assert [s for s, acts in offered.items() if "sparrow:announced" in acts] == [holder]


# --- Abundance -----------------------------------------------------------------------------


def test_abundance_scores_for_the_side_that_declared_it_win_or_lose():
    ruleset = jeu()
    won = pile_of(ruleset, ["trump-21", "fool"], 51)
    lost = pile_of(ruleset, ["trump-21", "fool"], 35)  # 6 short
    defence = settled(ruleset, won, (DEFENDER, NO_MAGICIAN), abundances={2: 20})
    assert each_defender_pays(defence) == (25 + 10) * 2 - 20  # not multiplied
    attack = settled(ruleset, lost, (DEFENDER, NO_MAGICIAN), abundances={TAKER: 30})
    assert each_defender_pays(attack) == -(25 + 6) * 2 + 30


def _abundance_offered(ruleset) -> tuple[HandState, list[str]]:
    """Seat 1 holds 13 trumps (a single or a double Abundance) and is asked to declare."""
    trumps = [f"trump-{n}" for n in range(2, 15)]
    wanted = {1: trumps, 0: ["trump-1", "trump-15"], 2: ["trump-16"], 3: ["trump-17"]}
    state = HandState(ruleset, 0, arranged_pack(ruleset, wanted))
    state.apply_action("solo_with_stock")
    for _ in range(3):
        state.apply_action("pass")
    while state.decision.seat != 1 or state.decision.declaration.id != "abundance":
        state.apply_action(state.legal_actions()[-1])
    return state, trumps


def test_abundance_may_be_declared_below_what_is_held():
    ruleset = jeu()
    state, trumps = _abundance_offered(ruleset)
    assert state.legal_actions() == ["abundance:single", "abundance:double", "abundance:none"]
    state.apply_action("abundance:single")
    assert state.declare.values[1]["abundance"] == 20
    shown = [cards for seat, what, cards in state.shown if what == "abundance"]
    assert sorted(shown[0]) == sorted(ids(ruleset, trumps))  # every trump, by default
    assert state.payments == []  # paid only in the settlement


def test_abundance_laid_down_at_the_level_count_by_that_reading():
    # 004: he need not declare all he can, just the minimum for the score: a single (10
    # trumps with four players) is 10 of his 13 trumps, of his choosing
    ruleset = jeu_with(abundance_laid_down="level_count")
    state, trumps = _abundance_offered(ruleset)
    state.apply_action("abundance:single")
    assert state.decision.kind == "show"
    assert sorted(state.legal_actions()) == sorted(trumps)
    picked = trumps[3:]
    for card in picked:
        state.apply_action(card)
    shown = [cards for seat, what, cards in state.shown if what == "abundance"]
    assert sorted(shown[0]) == sorted(ids(ruleset, picked)) and len(picked) == 10


# --- three and five players ----------------------------------------------------------------


@pytest.mark.parametrize(("points", "paid"), [(40.5, -(25 + 1)), (41.5, 25 + 1), (41, 25)])
def test_three_players_half_points_and_two_defenders(points, paid):
    ruleset = jeu("jeu-de-tarot-3")
    pile = pile_of(ruleset, ["trump-21", "fool"], points)
    state = settled(ruleset, pile, (DEFENDER, NO_MAGICIAN), contract="ill_play")
    assert each_defender_pays(state) == paid
    assert net(settlement_with(state), 3)[TAKER] == 2 * paid


@pytest.mark.parametrize("points", [51, 41])
def test_five_players_the_side_shares_2_to_1(points):
    ruleset = jeu("jeu-de-tarot-5")
    pile = pile_of(ruleset, ["trump-21", "fool"], points)
    state = settled(ruleset, pile, (DEFENDER, NO_MAGICIAN), contract="ill_play", partner=2)
    score = 25 + abs(points - 41)
    assert each_defender_pays(state) == score
    assert net(settlement_with(state), 5) == [2 * score, -score, score, -score, -score]
    lost = settled(
        ruleset, pile_of(ruleset, ["trump-21"], 41), (DEFENDER, NO_MAGICIAN), "ill_play", partner=2
    )
    s = 25 + 10
    assert net(settlement_with(lost), 5) == [-2 * s, s, -s, s, s]


@pytest.mark.parametrize("points", [51, 41])
def test_five_players_one_defender_settles_with_the_partner(points):
    # 004: when the declarer's side wins, one defender pays the partner and the other two pay
    # the declarer; when it loses, the partner pays one defender and the declarer the other
    # two. The declarer sits at 0 and the partner at 2, so seat 1 is the first defender
    # after the declarer (the assumed one)
    ruleset = jeu("jeu-de-tarot-5")
    state = settled(
        ruleset,
        pile_of(ruleset, ["trump-21", "fool"], points),
        (DEFENDER, NO_MAGICIAN),
        contract="ill_play",
        partner=2,
    )
    pairs = sorted((min(p.payer, p.payee), max(p.payer, p.payee)) for p in settlement_with(state))
    assert pairs == [(0, 3), (0, 4), (1, 2)]


def test_five_players_the_declarer_calls_a_king_he_does_not_hold():
    ruleset = jeu("jeu-de-tarot-5")
    kings = ruleset.deck.sets["kings"]
    for seed in range(1, 40):
        state = deal_hand(ruleset, seed, 1)
        while state.decision is not None and state.decision.kind == "bid":
            state.apply_action(state.legal_actions()[0])
        if state.decision is None or state.decision.kind != "call":
            continue
        taker = state.auction.taker
        offered = {ruleset.deck.by_id[c] for c in state.legal_actions()}
        assert offered == kings - set(state.hands[taker])
        called = state.legal_actions()[0]
        card = ruleset.deck.by_id[called]
        holder = next((s for s in range(5) if card in state.hands[s]), None)
        state.apply_action(called)
        assert state.auction.partner == holder
        if holder is not None:
            assert state.attackers() == (taker, holder) and len(state.defenders()) == 3
            return
    pytest.fail("no hand reached a call with a partner")


def test_all_passing_has_the_same_dealer_deal_again_and_the_record_replays():
    from tarot.engine.game import deal_hand
    from tarot.records.record import game_record
    from tarot.records.replay import replay_record

    ruleset = jeu()
    state = deal_hand(ruleset, 9, 1)
    first_pack = list(state.pack)
    while state.decision.kind == "redeal":  # keep the hand: play on
        state.apply_action(state.legal_actions()[-1])
    for _ in range(4):
        state.apply_action("pass")
    assert state.thrown_in is None and not state.is_terminal()
    assert state.dealer == 0 and state.pack != first_pack
    assert [d["thrown_in"] for d in state.abandoned] == ["all_passed"]
    assert state.abandoned[0]["pack"] == [ruleset.deck.cards[c].id for c in first_pack]
    agents = [RandomAgent(f"again/{s}") for s in range(4)]
    play_hand(state, agents)
    record = game_record(ruleset, 9, [a.name for a in agents], [state])
    replay_record(record, ruleset)


# --- the game, and the options on 004's doubts ----------------------------------------------


@cache
def jeu_with(name: str = FOUR, **choices: str):
    return load_ruleset(name, choices=choices)


@pytest.mark.parametrize("name", [FOUR, "jeu-de-tarot-3", "jeu-de-tarot-5"])
def test_a_game_is_as_many_hands_as_there_are_players(name):
    from tarot.engine.game import game_winners, play_game

    ruleset = jeu(name)
    agents = [RandomAgent(f"game/{s}") for s in range(ruleset.players)]
    states = play_game(ruleset, 11, agents, hands=None)
    assert [s.number for s in states] == list(range(1, ruleset.players + 1))
    assert [s.dealer for s in states] == list(range(ruleset.players))  # each deals once
    totals = [sum(s.returns()[seat] for s in states) for seat in range(ruleset.players)]
    assert game_winners(states[-1]) == tuple(s for s, t in enumerate(totals) if t == max(totals))
    assert all(not game_winners(s) for s in states[:-1])


def test_the_declarer_without_a_trick_by_each_reading():
    # five players: the declarer (seat 0) wins no trick, his partner (seat 2) wins one whose
    # cards hold a King; the stock (two Honours and a King) was set aside for the declarer
    ruleset = jeu_with("jeu-de-tarot-5")
    stock = ids(ruleset, ["trump-21", "fool", "spades-K"])
    tricks = [(DEFENDER, [])] * 14 + [(2, [])]
    partner_trick = ids(ruleset, ["hearts-K", "hearts-2", "hearts-3", "hearts-4", "hearts-5"])
    results = {}
    for reading in ("side", "declarer"):
        state = settled(
            jeu_with("jeu-de-tarot-5", no_tricks=reading),
            [],
            (2, []),
            "solo_with_stock",
            tricks=tricks,
            partner=2,
            stock_to_taker=stock,
        )
        state.won[DEFENDER] = [c for c in state.won[DEFENDER] if c not in partner_trick]
        state.won[2] = partner_trick
        results[reading] = each_defender_pays(state)
    # the side won a trick: stock and trick count together, eight cards in four pairs with
    # four cards of 5: 4 x (5 - 1) + 4 = 20, two Honours, so 21 short of 41
    assert results["side"] == -(25 + 21) * 4
    # the declarer won none: only the partner's five cards count, (5 - 1) + 2 + 0.5 = 6.5
    # with no Honour, 49.5 short of 56, rounded for the defenders
    assert results["declarer"] == -(25 + 50) * 4


@pytest.mark.parametrize(("reading", "paid"), [("declarers_side", -20), ("winning_side", 20)])
def test_an_abundance_by_each_reading(reading, paid):
    # a defender declares a single Abundance (20); the declarer wins his Solo by 10
    ruleset = jeu_with(abundance_to=reading)
    state = settled(
        ruleset,
        pile_of(ruleset, ["trump-21", "fool"], 51),
        (DEFENDER, NO_MAGICIAN),
        abundances={2: 20},
    )
    assert each_defender_pays(state) == (25 + 10) * 2 + paid
    variant = jeu("jeu-de-tarot-abundance-to-winner")
    assert variant.options["abundance_to"] == "winning_side"


@pytest.mark.parametrize(("reading", "offered"), [("declarer", {1}), ("any_player", {0, 1, 2, 3})])
def test_who_may_announce_the_slam(reading, offered):
    ruleset = jeu_with(slam_by=reading)
    state = HandState(ruleset, 0, arranged_pack(ruleset, TRUMPS_FOR_EVERYONE))
    asked = offered_announcement(state, "solo_with_stock", "slam:announced")
    assert asked == offered
    made = settled(ruleset, [], (DEFENDER, NO_MAGICIAN), tricks=[(DEFENDER, [])] * 18)
    made.declare.declared[DEFENDER].add("slam")
    assert each_defender_pays(made) == -(25 + 56) * 2 - 400
