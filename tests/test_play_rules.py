"""Play rules as data, per contract: who leads (by a word or an expression), must beat the
trick, trumps played as a plain suit, cards not to be led, held back or forced, and play
that stops early (negative contracts). On two small games written for these tests
(tests/data/rulesets/partners-trump-order.yaml and contract-play-rules.yaml)."""

from __future__ import annotations

from pathlib import Path

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.engine.state import HandState
from tarot.engine.tricks import legal_cards, trick_winner
from tarot.players.random_agent import RandomAgent
from tarot.presentation.transcript import hand_transcript
from tarot.records.record import game_record
from tarot.records.replay import replay_record
from tests.sides import arranged_pack

DATA = Path(__file__).parent / "data" / "rulesets"
PARTNERS = DATA / "partners-trump-order.yaml"
CONTRACTS = DATA / "contract-play-rules.yaml"

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


def partners_hand() -> HandState:
    ruleset = load_ruleset(PARTNERS)
    return HandState(ruleset, 0, arranged_pack(ruleset, PARTNER_HANDS))


def contract_hand(contract: str) -> HandState:
    """Seat 1 bids `contract`, the others pass."""
    ruleset = load_ruleset(CONTRACTS)
    state = HandState(ruleset, 0, arranged_pack(ruleset, CONTRACT_HANDS))
    for action in (contract, "pass", "pass"):
        state.apply_action(action)
    assert state.auction.taker == 1 and state.auction.contract == contract
    return state


def play(state: HandState, *cards: str) -> None:
    for card in cards:
        state.apply_action(card)


def test_the_leader_lead_restriction_held_back_and_forced_cards():
    state = partners_hand()
    assert state.current_player() == 2  # first_leader: next_seat(next_seat(dealer))
    # no trump has fallen: trumps may not be led while another card may
    assert state.legal_actions() == ["swords-K", "cups-K"]
    play(state, "swords-K", "swords-1", "swords-2", "swords-3")
    assert state.current_player() == 2 and state.legal_actions() == ["cups-K"]
    play(state, "cups-K", "fool")
    # void in cups, seat 0 trumps; trump 1 is held back while he has another trump
    assert "trump-1" not in state.legal_actions() and "trump-3" in state.legal_actions()
    play(state, "trump-3", "cups-1")
    assert state.play.trick_log[-1][3] == 3  # the Fool, the highest trump, wins
    assert state.current_player() == 3 and "trump-10" in state.legal_actions()  # trumps fell
    play(state, "trump-10", "trump-4", "trump-2", "trump-22")
    # trump 23 and the Fool lie in the trick: trump 1 is forced out
    play(state, "trump-23")
    assert state.current_player() == 3
    play(state, "trump-11")  # the Fool is gone: seat 3 plays a trump; no force yet
    assert state.current_player() == 0 and "trump-1" not in state.legal_actions()


def test_a_forced_card_must_be_played():
    state = partners_hand()
    play(state, "swords-K", "swords-1", "swords-2", "swords-3")
    play(state, "cups-K", "trump-10", "trump-3", "cups-1")  # seat 3 wins with trump 10
    play(state, "fool", "trump-4", "trump-2", "trump-23")  # the Fool wins: seat 3 leads
    assert state.current_player() == 3
    # seat 3 leads a low trump; seat 0 holds trump 1 among others: held back
    play(state, "trump-11")
    assert "trump-1" not in state.legal_actions()
    state2 = partners_hand()
    play(state2, "swords-K", "swords-1", "swords-2", "swords-3")
    play(state2, "cups-K", "trump-15", "trump-3", "cups-1")  # seat 3 wins
    play(state2, "trump-10", "trump-4", "trump-19", "trump-22")  # seat 2 wins with 22
    play(state2, "trump-23", "fool")
    assert state2.current_player() == 0 and state2.legal_actions() == ["trump-1"]


def test_a_contract_to_lose_every_trick():
    state = contract_hand("misere")
    assert state.current_player() == 1  # the contract's first_leader: taker
    play(state, "swords-2")
    # must beat the trick: of swords-1 and swords-K only the King beats the 2
    assert state.legal_actions() == ["swords-K"]
    play(state, "swords-K")
    assert state.legal_actions() == ["swords-4", "fool"]  # none beats the King: any sword
    play(state, "swords-4")
    assert state.play.trick_log[-1][3] == 2 and not state.is_terminal()
    play(state, "cups-2", "cups-3", "cups-K")  # seat 1 must beat with the King: he wins it
    assert state.play.trick_log[-1][3] == 1
    # play stops at the taker's first trick; the cards still held are never played
    assert state.is_terminal() and sum(map(len, state.hands)) == 15
    assert state.returns() == [3, -6, 3]
    assert "Play stops: the play rules end it (15 cards not played)" in hand_transcript(state)


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


def test_other_contracts_keep_the_rulesets_play():
    state = contract_hand("plain")
    assert state.play.rules is state.ruleset.play
    assert state.current_player() == 1 and not state.play.rules.must_beat
    play(state, "swords-2")
    assert state.legal_actions() == ["swords-1", "swords-K"]


def test_games_with_play_rules_replay_from_their_records():
    for path, players in ((PARTNERS, 4), (CONTRACTS, 3)):
        ruleset = load_ruleset(path)
        agents = [RandomAgent(seat) for seat in range(players)]
        states = play_game(ruleset, 2, agents, hands=12)
        record = game_record(ruleset, 2, [a.name for a in agents], states)
        replay_record(record, ruleset)
