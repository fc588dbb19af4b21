"""Play rules as data, per contract: who leads (by a word or an expression), must beat the
trick, trumps played as a plain suit, cards not to be led, held back or forced, and play
that stops early (negative contracts). On two small games written for these tests
(tests/data/rulesets/partners-trump-order.yaml and contract-play-rules.yaml); the hands
played card by card are scenarios (tests/scenarios/ of the same names), and this file keeps
what is not a hand: the trick rules asked directly, a refusal's words, records replayed."""

from __future__ import annotations

from pathlib import Path

import tarot
from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.engine.phases.play import restricted
from tarot.engine.state import HandState
from tarot.engine.tricks import legal_cards, trick_winner
from tarot.players.random_agent import RandomAgent
from tarot.records.record import game_record
from tarot.records.replay import replay_record

DATA = Path(__file__).parent / "data" / "rulesets"
PARTNERS = DATA / "partners-trump-order.yaml"
CONTRACTS = DATA / "contract-play-rules.yaml"
FORCED_HELD_BACK = DATA / "forced-and-held-back.yaml"

#: the partners game, dealer 0: seat 2 leads (the rule: the dealer's partner)
PARTNER_HANDS = {
    2: ["swords-K", "cups-K", "trump-23", "trump-5", "trump-6", "trump-7", "trump-8", "trump-22"],
    3: ["swords-1", "fool", "trump-10", "trump-11", "trump-12", "trump-13", "trump-14", "trump-15"],
    0: ["swords-2", "trump-1", "trump-3", "trump-4", "trump-16", "trump-17", "trump-18", "trump-9"],
    1: ["swords-3", "cups-1", "cups-2", "cups-3", "trump-2", "trump-20", "trump-21", "trump-19"],
}
#: the contracts game, dealer 0: seats 1, 2, 0 bid in turn
CONTRACT_HANDS = {
    1: ["swords-2", "swords-3", "cups-K", "trump-1", "trump-2", "trump-3", "trump-4"],
    2: ["swords-1", "swords-K", "cups-1", "cups-2", "trump-5", "trump-6", "trump-7"],
    0: ["swords-4", "cups-3", "cups-4", "fool", "trump-8", "trump-9", "trump-10"],
}


def dealt(path: Path, hands: dict[int, list[str]]) -> HandState:
    """The engine's hand of `hands` dealt by seat 0, through the API's chosen deal."""
    deal = {"dealer": 0, "hands": [hands[seat] for seat in sorted(hands)], "talon": []}
    return tarot.load(str(path)).new_hand(deal=deal).engine


def partners_hand() -> HandState:
    return dealt(PARTNERS, PARTNER_HANDS)


def contract_hand(contract: str) -> HandState:
    """Seat 1 bids `contract`, the others pass."""
    state = dealt(CONTRACTS, CONTRACT_HANDS)
    for action in (contract, "pass", "pass"):
        state.apply_action(action)
    assert state.auction.taker == 1 and state.auction.contract == contract
    return state


def play(state: HandState, *cards: str) -> None:
    for card in cards:
        state.apply_action(card)


def test_a_card_held_back_is_held_back_among_forced_cards():
    # a trump is forced whenever the trick allows one; trump 1 is still held back while its
    # holder has another trump, and falls when it is his last
    state = dealt(FORCED_HELD_BACK, PARTNER_HANDS)
    ruleset = state.ruleset
    play(state, "swords-K", "swords-1", "swords-2", "swords-3", "cups-K")
    assert state.current_player() == 3 and "cups-1" not in state.legal_actions()
    play(state, "trump-10")
    assert state.current_player() == 0
    assert state.legal_actions() == [
        "trump-3",
        "trump-4",
        "trump-16",
        "trump-17",
        "trump-18",
        "trump-9",
    ]
    last = [ruleset.deck.by_id[c] for c in ("trump-1", "swords-2")]
    state.zones.hands[0][:] = last
    state._changed()
    assert restricted(state, 0, last[:1]) == last[:1]  # his only trump: forced, not held back


def test_trumps_played_as_a_plain_suit():
    state = contract_hand("colour")
    assert state.play.trick_pack is state.ruleset.deck.cards.plain_trumps
    play(state, "swords-2", "swords-K")
    # seat 0 follows swords; then trumps win only when led
    plain = state.play.trick_pack
    ids = state.ruleset.deck.by_id
    hand = [ids["trump-8"], ids["cups-3"]]
    led = [(1, ids["swords-2"])]
    assert legal_cards(state.play.rules, plain, hand, led) == hand  # nothing obliges a trump
    deck = state.ruleset.deck.cards
    assert legal_cards(state.ruleset.play, deck, hand, led) == [ids["trump-8"]]
    assert trick_winner(plain, [*led, (2, ids["trump-8"])]) == 1
    assert trick_winner(plain, [(1, ids["trump-2"]), (2, ids["trump-8"])]) == 2
    play(state, "swords-4")
    assert state.play.trick_log[-1][3] == 2


def test_a_person_is_told_why_a_card_is_refused():
    from tarot.engine.seat_view import SeatView
    from tarot.presentation.seat_screen import _refusal

    def refusal(state: HandState, card: str) -> str:
        view = SeatView(state, state.current_player())
        return _refusal(view, state.ruleset.deck.cards[state.ruleset.deck.by_id[card]])

    state = contract_hand("misere")
    play(state, "swords-2")
    assert refusal(state, "swords-1").endswith("it does not beat the trick, and you must beat it")
    partners = partners_hand()
    play(partners, "swords-K", "swords-1", "swords-2", "swords-3", "cups-K", "fool")
    assert refusal(partners, "trump-1").endswith("the rules keep it back for now")


def test_games_with_play_rules_replay_from_their_records():
    for path, players in ((PARTNERS, 4), (CONTRACTS, 3)):
        ruleset = load_ruleset(path)
        agents = [RandomAgent(seat) for seat in range(players)]
        states = play_game(ruleset, 2, agents, hands=12)
        record = game_record(ruleset, 2, [a.name for a in agents], states)
        replay_record(record, ruleset)
