"""The talon at the terminal: shown to all, its taker included, when the rules turn it up, in
the order things happen (the last bids, then the talon, then the discards); cards of a talon
the taker laid away from are no longer listed as "shown, not yet played"."""

from __future__ import annotations

from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState
from tarot.presentation.seat_news import Seen, news_lines
from tarot.presentation.seat_screen import decision_lines, shown_line

TAKER = 1


def _told(state: HandState, seat: int, seen: Seen, bid: str | None) -> list[str]:
    """Play the hand on (the taker bids `bid`, everyone else passes; first choices
    elsewhere), telling `seat` its news at each of its decisions: every line it was told."""
    told: list[str] = []
    while not state.is_terminal():
        decision = state.decision
        if decision.seat == seat:
            told += news_lines(SeatView(state, seat), seen)
        choices = decision.choices
        if decision.kind == "bid":
            wanted = bid if decision.seat == TAKER and bid in choices else "pass"
            action = wanted if wanted in choices else choices[0]
        else:
            action = choices[0]
        state.apply_action(action)
    return told + news_lines(SeatView(state, seat), seen)


def _deal(seed: int = 8) -> HandState:
    ruleset = load_ruleset("french-tarot")
    return deal_hand(ruleset, seed, 1, [0] * ruleset.players, None)


def _bid(state: HandState) -> str:
    """The bid of a contract whose talon is shown to all and taken into the taker's hand."""
    for contract in state.ruleset.bidding.contracts:
        talon = contract.talon
        if talon is not None and talon.to == "hand" and talon.shown:
            return contract.id
    raise AssertionError("no contract shows the talon")


def test_a_defender_is_shown_the_talon_after_the_last_bid_and_before_the_discards() -> None:
    state = _deal()
    bid = _bid(state)
    told = _told(state, 2, Seen(), bid)
    shown = next(n for n, line in enumerate(told) if line.startswith("The talon, shown to all: "))
    assert told[shown].endswith("(seat 1 takes it).")
    last_bid = max(n for n, line in enumerate(told) if line.startswith("Seat 0 chose"))
    laid = next(n for n, line in enumerate(told) if "cards to discard" in line)
    assert last_bid < shown < laid
    assert told[laid] == "Seat 1 chose 6 cards to discard (not shown to you)."


def test_the_talon_laid_away_from_is_no_longer_shown_as_held() -> None:
    state = _deal()
    bid = _bid(state)
    seen = Seen()
    while state.decision.kind != "play":
        decision = state.decision
        if decision.kind == "bid":
            state.apply_action(bid if decision.seat == TAKER else "pass")
        else:
            state.apply_action(decision.choices[0])
    news_lines(SeatView(state, 2), seen)
    line = shown_line(SeatView(state, 2))
    assert line is None or "seat 1" not in line


def test_the_taker_is_told_the_talon_he_takes() -> None:
    state = _deal()
    bid = _bid(state)
    told = _told(state, TAKER, Seen(), bid)
    assert any(
        line.startswith("The talon, shown to all: ") and line.endswith("(you take it).")
        for line in told
    )


def test_the_taker_is_told_how_many_cards_of_the_talon_are_left_to_lay_away() -> None:
    state = _deal()
    bid = _bid(state)
    while state.decision.kind != "discard":
        decision = state.decision
        state.apply_action(bid if decision.kind == "bid" and decision.seat == TAKER else "pass")
    talon = len(state.ruleset.deck.cards) - sum(map(len, state.deal.hands_dealt))
    first = decision_lines(SeatView(state, TAKER))[0]
    assert first.startswith(f"--- Hand 1, discard 1 of {talon}: you are seat {TAKER}")
    state.apply_action(state.decision.choices[0])
    assert f"discard 2 of {talon}:" in decision_lines(SeatView(state, TAKER))[0]


def test_a_hidden_talon_taken_at_the_deal_is_told_by_card_to_its_taker_only() -> None:
    """Marolles in Wickson's reading: the dealer takes the talon unseen. He is told its
    cards before his first discard; the others only how many, before his discards."""
    ruleset = load_ruleset("marolles-1637-wickson")
    state = deal_hand(ruleset, 1, 1)
    taker, talon = state.dealer, list(state.deal.talon_dealt)
    names = [ruleset.deck.cards[card].label() for card in talon]
    mine = _told(deal_hand(ruleset, 1, 1), taker, Seen(), None)
    line = next(line for line in mine if line.startswith("You take the talon's"))
    assert line.startswith(f"You take the talon's {len(talon)} cards into your hand: ")
    assert all(name in line for name in names)
    other = (taker + 1) % ruleset.players
    theirs = _told(deal_hand(ruleset, 1, 1), other, Seen(), None)
    told = next(n for n, line in enumerate(theirs) if "talon" in line)
    assert theirs[told] == f"Seat {taker} takes the talon's {len(talon)} cards (not shown to you)."
    laid = next(n for n, line in enumerate(theirs) if f"Seat {taker} chose" in line)
    assert told < laid
    assert not any(name in line for line in theirs[: laid + 1] for name in names)
    assert SeatView(state, other).talon_taken == ((taker, len(talon), ()),)
    assert SeatView(state, taker).talon_taken == ((taker, len(talon), tuple(talon)),)
