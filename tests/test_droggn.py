"""Droggn (rulesets/droggn): the 66-card pack and its 74 card points, and hands worked out by
the rules `docs/games/droggn.md` states, each on a chosen deal: the Matsch (every trick
without a Mord) paid at the game's value plus 37, the Super Mord whose Gstiess wins the last
trick, the same Gstiess losing it in a Mord, the Gstiess laid off only in a Mord, the
doubling, and the settlement by the card points needed under each reading of the options.

The texts read give no scored example of a hand; the amounts below are worked out from the
rules as the page states them (the values 10, 20, 40 and 80 are its assumption)."""

from __future__ import annotations

import pytest

import tarot

HEARTS = [f"hearts-{r}" for r in "K Q C J 1 2 3 4 5 6 7".split()]
DIAMONDS = [f"diamonds-{r}" for r in "K Q C J 1 2 3 4 5 6 7".split()]
CLUBS = [f"clubs-{r}" for r in "K Q C J 7 6 5 4".split()]
SPADES = [f"spades-{r}" for r in "K Q C J 8 7 6 5".split()]
TALON = ["clubs-10", "clubs-9", "clubs-8", "spades-10", "spades-9", "spades-4"]


def _deal(declarer: list[str], seat0_more: list[str], seat2_more: list[str]) -> dict:
    """Seat 0 deals; seat 1 (forehand, first to bid and to lead) holds `declarer`; seat 0
    all the hearts and the high diamonds, seat 2 the other suit cards; the talon six black
    pips, no King among them."""
    return {
        "dealer": 0,
        "hands": [
            HEARTS + DIAMONDS[:8] + seat0_more,
            declarer,
            DIAMONDS[8:] + CLUBS + SPADES + seat2_more,
        ],
        "talon": TALON,
    }


#: seat 1 holds every tarock but the Pagat (seat 2's), seat 0 the Gstiess
ALL_TAROCKS = _deal([f"trump-{n}" for n in range(2, 22)], ["fool"], ["trump-1"])
#: seat 1 holds the Gstiess and the tarocks III to XXI, seat 0 the II, seat 2 the Pagat
WITH_GSTIESS = _deal(["fool"] + [f"trump-{n}" for n in range(3, 22)], ["trump-2"], ["trump-1"])


def _hand(deal: dict, decisions: list[str], leads: list[str] = (), **options: str):
    """The hand dealt so, `decisions` taken in order, then seat 1 leading `leads` one trick
    after another while the others (and seat 1 once `leads` runs out) play their first legal
    card."""
    state = tarot.load("droggn", options=options or None).new_hand(deal=deal)
    for action in decisions:
        state.apply(action)
    leads = list(leads)
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.current_player == 1 and leads and leads[0] in [str(a) for a in legal]:
            state.apply(leads.pop(0))
        else:
            state.apply(legal[0])
    assert not leads, f"leads not played: {leads}"
    return state


def test_the_pack_has_66_cards_and_74_card_points():
    ruleset = tarot.load("droggn")
    cards = ruleset.cards
    assert len(cards) == 66
    suits = {}
    for card in cards:
        suits.setdefault(card.suit, []).append(card)
    assert sorted(len(v) for k, v in suits.items() if k is not None) == [11, 11, 11, 11]
    # every seeded hand's card points add up to the pack's 74
    for seed in range(1, 6):
        state = ruleset.new_hand(seed=seed)
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        if state.record()["hands"][0]["thrown_in"] is None:
            assert sum(state.card_points()) == 74


def test_a_matsch_in_a_game_is_paid_the_value_and_37():
    # a Game (10) won with every trick and no Mord announced: 10 + 37 = 47 from each defender;
    # the Gstiess seat 0 kept (its side never has a trick to pay for it with) is his 4 card
    # points (5 less one), the declarer's 65 cards the other 70
    state = _hand(
        ALL_TAROCKS,
        ["spiel", "pass", "pass", *TALON, "pass:game", "pass:game", "trump-21", "trump-1", "fool"],
    )
    assert state.returns() == [-47, 94, -47]
    assert state.card_points() == [4, 70, 0]


def test_a_matsch_is_the_value_and_37_under_either_reading_of_the_margin():
    decisions = ["spiel", "pass", "pass", *TALON, "pass:game", "pass:game"]
    state = _hand(ALL_TAROCKS, decisions, margin="card_points")
    assert state.returns() == [-47, 94, -47]


def test_the_gstiess_wins_the_last_trick_of_a_super_mord():
    # Super Mord (80), doubled by seat 2 and not redoubled: the declarer leads every tarock,
    # then the Gstiess to the last trick, which it wins: 160 from each defender
    decisions = ["super_mord", "pass", "pass", *TALON, "double:game", "pass:game"]
    leads = [f"trump-{n}" for n in range(21, 2, -1)] + ["fool"]
    state = _hand(WITH_GSTIESS, decisions, leads)
    tricks = state.record()["hands"][0]["tricks"]
    assert tricks[-1]["cards"][0] == {"seat": 1, "card": "fool"}
    assert [t["winner"] for t in tricks] == [1] * 20
    assert state.returns() == [-160, 320, -160]


def test_in_a_mord_the_gstiess_led_to_the_last_trick_loses_it():
    # the same cards in a Mord (40): the Gstiess never wins, the last trick goes to a
    # defender and the Mord is lost: the declarer pays each defender 40
    decisions = ["mord", "pass", "pass", *TALON, "pass:game", "pass:game"]
    leads = [f"trump-{n}" for n in range(21, 2, -1)] + ["fool"]
    state = _hand(WITH_GSTIESS, decisions, leads)
    assert state.record()["hands"][0]["tricks"][-1]["winner"] != 1
    assert state.returns() == [40, -80, 40]


@pytest.mark.parametrize(
    ("contract", "may"), [("mord", True), ("super_mord", False), ("spiel", False)]
)
def test_the_gstiess_is_laid_off_only_in_a_mord(contract, may):
    state = tarot.load("droggn").new_hand(deal=WITH_GSTIESS)
    for action in [contract, "pass", "pass"]:
        state.apply(action)
    assert state.decision_kind == "discard"
    assert ("fool" in [str(a) for a in state.legal_actions()]) is may
    assert all(not str(a).endswith("-K") for a in state.legal_actions())


def _game_hand(**options: str):
    """A Game doubled and redoubled that seat 1 wins but for the last trick: he lays away the
    tarock II with five talon cards and keeps the spades 4, which he leads last; seat 2 takes
    that trick with any of his spades."""
    discards = ["trump-2", *TALON[:5]]
    decisions = ["spiel", "pass", "pass", *discards, "double:game", "redouble:game"]
    leads = [f"trump-{n}" for n in range(21, 2, -1)] + ["spades-4"]
    return _hand(ALL_TAROCKS, decisions, leads, **options)


def test_a_doubled_and_redoubled_game_is_paid_four_times():
    state = _game_hand()
    assert state.record()["hands"][0]["tricks"][-1]["winner"] == 2
    points = state.card_points()
    assert points[1] >= 37
    # a Game (10), doubled and redoubled: 40 from each defender
    assert state.returns() == [-40, 80, -40]


@pytest.mark.parametrize(
    ("options", "declarer_points", "amount"),
    [
        ({}, 37, 40),  # half is enough: won, 10 doubled twice
        ({}, 36, -40),
        ({"needed": "more_than_half"}, 37, -40),  # 37 is a tie, lost
        ({"needed": "more_than_half"}, 38, 40),
        ({"margin": "card_points"}, 45, 72),  # (10 + 8) x 4
        ({"margin": "card_points"}, 30, -68),  # (10 + 7) x 4, paid by the declarer
    ],
)
def test_the_settlement_by_card_points_under_each_reading(options, declarer_points, amount):
    state = _game_hand(**options)
    rows = state.settlement([74 - declarer_points, declarer_points, 0])
    paid = {(p.payer, p.payee): p.amount for p in rows}
    if amount > 0:
        assert paid == {(0, 1): amount, (2, 1): amount}
    else:
        assert paid == {(1, 0): -amount, (1, 2): -amount}


def test_only_the_holder_of_the_gstiess_may_bid_a_super_mord():
    # seat 1 lacks the Gstiess in the first deal and holds it in the second
    for deal, may in [(ALL_TAROCKS, False), (WITH_GSTIESS, True)]:
        state = tarot.load("droggn").new_hand(deal=deal)
        assert state.current_player == 1
        assert ("super_mord" in [str(a) for a in state.legal_actions()]) is may
