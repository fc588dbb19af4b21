"""The adapter of OpenSpiel's tarok bots (benchmarks/openspiel_players.py), on our side only.

open_spiel is not installed where the tests run (it is no dependency of this project), so
these tests check the adapter against what was read in OpenSpiel's source at commit
112b77704631fc2ce7ad8e4581f6ca09798ce15a: its card and contract tables (`cards.cc`,
`contracts.cc`), and the two playthroughs it keeps as integration tests
(`integration_tests/playthroughs/tarok(players=N,rng_seed=0).txt`, copied as
tests/data/openspiel/: each player's cards, every action with OpenSpiel's legal actions at
that point, the returns), replayed through our engine with the adapter's mapping.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from openspiel_players import (  # noqa: E402
    CARDS,
    TALON_SIZE,
    ActionIds,
    EngineState,
    Mirror,
    check_ruleset,
    from_openspiel,
    klop_for_pass,
    our_pack,
    parse_openspiel,
    to_openspiel,
)

from tarot.compile.loader import load_ruleset  # noqa: E402
from tarot.engine.state import HandState  # noqa: E402
from tarot.players.sampling import Sampler  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "openspiel"
RULESETS = {3: "slovenian-tarok-3-openspiel", 4: "slovenian-tarok-openspiel"}


def test_the_card_table_is_openspiels_deck_in_our_ids() -> None:
    deck = load_ruleset(RULESETS[4]).deck.cards.ids
    assert sorted(CARDS) == sorted(deck) and len(CARDS) == 54
    # cards.h: kPagatAction 0, kMondAction 20, kSkisAction 21, the Kings 29, 37, 45, 53
    named = {0: "trump-1", 20: "trump-21", 21: "fool", 29: "hearts-K", 37: "diamonds-K"}
    named |= {45: "spades-K", 53: "clubs-K"}
    assert {action: CARDS[action] for action in named} == named
    # cards.cc: each suit from rank 0; the red suits' rank 0 is the 4, the black suits' the 7
    assert CARDS[22:27] == ("hearts-4", "hearts-3", "hearts-2", "hearts-1", "hearts-J")
    assert CARDS[38:43] == ("spades-7", "spades-8", "spades-9", "spades-10", "spades-J")


def test_bids_packets_and_cards_map_both_ways() -> None:
    assert to_openspiel("bid", "pass") == 0
    assert to_openspiel("bid", "dva") == 3 and to_openspiel("bid", "hold:dva") == 3
    assert to_openspiel("bid", "valat") == 12
    assert to_openspiel("bid", "pass", klop_for_pass([1, 2, 3])) == 1  # forehand's Klop
    assert not klop_for_pass([0, 3, 4])
    assert to_openspiel("packet", "packet:1") == 0 and to_openspiel("packet", "packet:3") == 2
    assert to_openspiel("play", "fool") == 21 and to_openspiel("call", "clubs-K") == 53
    assert to_openspiel("declare", "poignee:none") is None
    assert from_openspiel("bid", 3, ["hold:dva", "ena", "pass"]) == "hold:dva"
    with pytest.raises(KeyError):
        from_openspiel("bid", 12, ["pass", "ena"])


def test_bot_settings_are_read_and_bad_ones_named() -> None:
    assert parse_openspiel("openspiel-mcts:simulations=50:c=1.5") == (
        "openspiel-mcts",
        {"simulations": 50, "c": 1.5},
    )
    for text, words in [
        ("openspiel-mcts:sims=3", "'sims=3' is not simulations=N or c=X"),
        ("openspiel-ismcts:c=x", "c must be a number"),
        ("openspiel-mcts:simulations=0", "simulations must be 1 to 100,000"),
        ("openspiel-dqn", "not one of openspiel-mcts, openspiel-ismcts"),
    ]:
        with pytest.raises(ValueError, match=words):
            parse_openspiel(text)


def test_only_rulesets_openspiel_can_deal_are_accepted() -> None:
    check_ruleset(load_ruleset(RULESETS[4]))
    check_ruleset(load_ruleset(RULESETS[3]))
    with pytest.raises(ValueError, match="marolles-1637: OpenSpiel's tarok bots play"):
        check_ruleset(load_ruleset("marolles-1637"))


def _openspiel_hand(players: int, dealer: int, talon: list[int], hands: list[list[int]]):
    ruleset = load_ruleset(RULESETS[players])
    return HandState(ruleset, dealer, our_pack(ruleset, dealer, talon, hands), 1)


def test_openspiels_deal_lands_in_the_same_seats_with_the_talon_in_its_order() -> None:
    cards = list(range(54))
    random.Random(3).shuffle(cards)
    talon, rest = cards[:TALON_SIZE], cards[TALON_SIZE:]
    hands = [sorted(rest[12 * p : 12 * (p + 1)]) for p in range(4)]
    for dealer in range(4):
        state = _openspiel_hand(4, dealer, talon, hands)
        ids = state.ruleset.deck.cards.ids
        for p in range(4):  # OpenSpiel's player p is forehand (the dealer's next) and on
            seat = (dealer + 1 + p) % 4
            assert sorted(ids[c] for c in state.zones.hands[seat]) == sorted(
                CARDS[c] for c in hands[p]
            )
        assert [ids[c] for c in state.zones.talon] == [CARDS[c] for c in talon]


def _playthrough(players: int) -> tuple[dict, HandState]:
    """OpenSpiel's playthrough, and its deal in our engine with seat 2 dealing."""
    game = json.loads((DATA / f"tarok-{players}-playthrough.json").read_text(encoding="utf-8"))
    hands = game["hands"]
    talon = sorted(set(range(54)) - {card for hand in hands for card in hand})  # never seen
    return game, _openspiel_hand(players, 2, talon, hands)


@pytest.mark.parametrize("players", [3, 4])
def test_openspiels_playthrough_replays_in_our_engine_decision_by_decision(players) -> None:
    """Every action of OpenSpiel's playthrough is legal here, at the seat it names, and the
    legal actions there are OpenSpiel's; the hand ends where OpenSpiel's ends, with its
    returns."""
    game, state = _playthrough(players)
    dealer = state.dealer
    seat_of = [(dealer + 1 + p) % players for p in range(players)]
    for step in game["steps"]:
        decision = state.decision
        assert decision is not None and decision.seat == seat_of[step["player"]]
        klop = klop_for_pass(step["legal"])
        ours = [to_openspiel(decision.kind, choice, klop) for choice in decision.choices]
        assert sorted(ours) == sorted(step["legal"])  # type: ignore[type-var]
        state.apply_action(from_openspiel(decision.kind, step["action"], decision.choices, klop))
    assert state.is_terminal()
    assert [state.returns()[seat_of[p]] for p in range(players)] == game["returns"]


def test_a_forced_klop_maps_our_pass_to_openspiels_klop_bid() -> None:
    _game, state = _playthrough(4)
    legal_by_step = [[0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]] * 3 + [list(range(1, 13))]
    for legal in legal_by_step:  # players 1, 2, 3 pass; forehand (0) must bid, no pass
        decision = state.decision
        assert decision is not None
        klop = klop_for_pass(legal)
        assert sorted(to_openspiel(decision.kind, c, klop) for c in decision.choices) == legal
        state.apply_action("pass")
    assert state.auction.contract == "klop"


def test_the_ismcts_face_keys_a_seats_information_alike_in_every_guess() -> None:
    """OpenSpiel's ISMCTS bot asserts that every resampled state has the root's information
    state; guesses by our sampler must all give the deciding seat the same key, and a
    clone must be independent of its original."""
    ruleset = load_ruleset(RULESETS[4])
    from tarot.engine.game import deal_hand

    state = deal_hand(ruleset, 1, 2)
    ids = ActionIds()
    face = EngineState(state.clone(), None, ids)
    while face.hand.decision is not None and face.hand.decision.kind != "play":
        face.apply_action(face.legal_actions()[-1])  # the highest bid, then the first choices
    for _ in range(3):
        face.apply_action(face.legal_actions()[0])
    seat = face.current_player()
    sampler = Sampler(face.hand, seat)
    keys = {
        EngineState(
            sampler.sample(random.Random(n)), None, ids, face.seen
        ).information_state_string()
        for n in range(5)
    }
    assert keys == {face.information_state_string()}
    other = (seat + 1) % 4
    guesses = {
        EngineState(
            sampler.sample(random.Random(n)), None, ids, face.seen
        ).information_state_string(other)
        for n in range(5)
    }
    assert len(guesses) > 1  # another seat's hand is guessed anew
    copy = face.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.seen != face.seen and face.hand.decision is not None
    assert len(face.hand.zones.hands[seat]) == len(copy.hand.zones.hands[seat]) + 1


class _Playthrough:
    """OpenSpiel's state as its playthrough saw it: the player to move and the legal actions
    at each step, and the action it took there (a stand-in for a pyspiel state)."""

    def __init__(self, steps: list[dict], legal_at: dict[int, list[int]] | None = None) -> None:
        self.steps, self.at, self.legal_at = steps, 0, legal_at or {}

    def is_terminal(self) -> bool:
        return self.at == len(self.steps)

    def current_player(self) -> int:
        return self.steps[self.at]["player"]

    def legal_actions(self) -> list[int]:
        return self.legal_at.get(self.at, self.steps[self.at]["legal"])

    def apply_action(self, action: int) -> None:
        assert action == self.steps[self.at]["action"]
        self.at += 1


def _replay(players: int, legal_at: dict[int, list[int]] | None = None):
    game, state = _playthrough(players)
    mirror = Mirror(_Playthrough(game["steps"], legal_at), state.ruleset, 3)  # dealer 2's hand
    asked: list[list[int] | None] = []
    for step in game["steps"]:
        decision = state.decision
        assert decision is not None
        mirror.follow(state)
        asked.append(mirror.agrees(decision.seat, decision.kind, decision.choices))
        klop = klop_for_pass(step["legal"])
        state.apply_action(from_openspiel(decision.kind, step["action"], decision.choices, klop))
    mirror.follow(state)
    return mirror, asked


def test_the_mirror_follows_openspiels_playthrough_and_agrees_at_every_decision() -> None:
    mirror, asked = _replay(4)
    assert mirror.parted is None and mirror.state.is_terminal()
    assert all(ids is not None for ids in asked)


def test_the_mirror_parts_where_openspiels_legal_actions_are_not_ours() -> None:
    """A decision whose legal actions differ is not agreed (the agent falls back), and an
    action OpenSpiel would refuse parts the two for the rest of the hand."""
    mirror, asked = _replay(4, legal_at={2: [0, 8, 9, 10, 11, 12]})  # no Solo one (7) there
    assert asked[2] is None and all(ids is not None for ids in asked[:2])
    assert mirror.parted == "bid" and all(ids is None for ids in asked[3:])
