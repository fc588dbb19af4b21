"""Cards shown to all by `show` rules: after the deal, and after a given trick under a
contract. What is shown is part of what every seat may see: the search player's guesses keep
each shown card with its holder, and the human seat's screen lists it. On a small game
written for these tests (tests/data/rulesets/shown-to-all.yaml)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tarot.compile.loader import load_ruleset
from tarot.core.actions import DecisionKind
from tarot.engine.game import deal_hand, play_hand
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState
from tarot.players.random_agent import RandomAgent
from tarot.players.sampling import Sampler
from tarot.presentation.seat_screen import decision_lines
from tarot.records.record import game_record
from tarot.records.replay import replay_record
from tests.commands import tarot

GAME = Path(__file__).parent / "data" / "rulesets" / "shown-to-all.yaml"
RULESET = load_ruleset(GAME)
SEATS = range(RULESET.players)
AGENTS = [RandomAgent(seed=seat) for seat in SEATS]


def bid(state: HandState, contract: str) -> None:
    """The first bidder takes `contract`, the others pass."""
    first = True
    while state.decision is not None and state.decision.kind == DecisionKind.BID:
        wanted = contract if first else "pass"
        state.apply_action(next(c for c in state.legal_actions() if c.endswith(wanted)))
        first = False


def after_first_trick(seed: int, contract: str) -> HandState:
    """A hand dealt with `seed`, bid as `contract`, played by random players until the first
    card of the second trick is to be played."""
    state = deal_hand(RULESET, seed, 1)
    bid(state, contract)
    while state.play.trick_number < 2:
        seat = state.current_player()
        assert seat is not None
        state.apply_action(AGENTS[seat].choose(state, seat))
    return state


def shown_by(state: HandState, rule: str) -> dict[int, list[int]]:
    return {seat: cards for seat, what, cards in state.shown if what == rule}


def test_the_dealers_first_card_is_shown_after_the_deal() -> None:
    for seed in range(1, 20):
        state = deal_hand(RULESET, seed, 1)
        dealer = state.dealer
        assert shown_by(state, "dealers_first_card") == {
            dealer: [state.deal.packets_dealt[dealer][0][0]]
        }


def test_the_takers_hand_is_shown_after_the_first_trick_under_the_open_contract_only() -> None:
    for seed in range(1, 10):
        state = after_first_trick(seed, "open")
        assert state.auction.taker is not None
        assert shown_by(state, "open_hand") == {
            state.auction.taker: state.hands[state.auction.taker]
        }
        closed = after_first_trick(seed, "closed")
        assert shown_by(closed, "open_hand") == {}


def test_a_hand_shown_when_play_begins_is_seen_before_the_first_card(tmp_path: Path) -> None:
    """`after_trick: 0`: the taker's whole hand, shown before anyone plays, under the open
    contract only; told in the transcript right after "Play:" and on the rules page."""
    path = tmp_path / "from-the-start.yaml"
    text = GAME.read_text(encoding="utf-8").replace("after_trick: 1", "after_trick: 0")
    path.write_text(text, encoding="utf-8")
    ruleset = load_ruleset(path)
    for seed in range(1, 10):
        state = deal_hand(ruleset, seed, 1)
        bid(state, "open")
        assert state.decision is not None and state.decision.kind == DecisionKind.PLAY
        assert state.auction.taker is not None and not state.zones.trick
        assert shown_by(state, "open_hand") == {
            state.auction.taker: state.hands[state.auction.taker]
        }
        assert len(state.hands[state.auction.taker]) == 6  # the whole hand, before the first lead
        closed = deal_hand(ruleset, seed, 1)
        bid(closed, "closed")
        assert shown_by(closed, "open_hand") == {}
    played = tarot("play", str(path), "--seed", "1")
    assert played.returncode == 0, played.stderr
    assert "Play:\n  Shown to all (The taker's hand laid open): seat 0" in played.stdout
    page = tarot("explain", str(path))
    assert "When play begins, `hand(taker)` are shown to all" in page.stdout


def test_sampled_deals_keep_every_shown_card_with_its_holder() -> None:
    moved = 0
    for seed in range(1, 8):
        state = after_first_trick(seed, "open")
        taker = state.auction.taker
        assert taker is not None
        seat = (taker + 1) % RULESET.players
        shown = {card for _s, _w, cards in state.shown for card in cards}
        view = SeatView(state, seat)
        assert {card for card in shown if card in view.unseen} <= set(view.known_holders)
        sampler = Sampler(state, seat, view)
        rng = random.Random(seed)
        for _ in range(30):
            sample = sampler.sample(rng)
            assert sorted(sample.hands[taker]) == sorted(state.hands[taker])
            for holder, _what, cards in sample.shown:
                for card in cards:
                    assert card in sample.hands[holder] or card not in view.unseen
        # under the closed contract the same cards are not pinned: some guess moves one
        closed = after_first_trick(seed, "closed")
        closed_taker = closed.auction.taker
        assert closed_taker is not None
        other = (closed_taker + 1) % RULESET.players
        closed_sampler = Sampler(closed, other)
        for _ in range(30):
            sample = closed_sampler.sample(rng)
            moved += sorted(sample.hands[closed_taker]) != sorted(closed.hands[closed_taker])
    assert moved


def test_the_human_seat_sees_the_shown_hand() -> None:
    state = after_first_trick(1, "open")
    taker = state.auction.taker
    assert taker is not None
    seat = state.current_player()
    assert seat is not None and seat != taker
    screen = "\n".join(decision_lines(SeatView(state, seat)))
    assert f"Shown, not yet played: seat {taker}" in screen


def test_records_carry_the_shown_cards_and_replay() -> None:
    state = deal_hand(RULESET, 3, 1)
    play_hand(state, AGENTS)
    record = json.loads(json.dumps(game_record(RULESET, 3, ["random"] * 3, [state])))
    whats = [entry["what"] for entry in record["hands"][0]["shown"]]
    assert whats[0] == "dealers_first_card"
    replay_record(record, RULESET)


def test_the_transcript_shows_what_was_shown() -> None:
    played = tarot("play", str(GAME), "--seed", "1")
    assert played.returncode == 0, played.stderr
    assert "  Shown to all (The dealer's first card turned up): seat 0" in played.stdout
    assert "    Shown to all (The taker's hand laid open): seat 0" in played.stdout


def test_a_wrong_use_is_refused_with_its_place(tmp_path: Path) -> None:
    path = tmp_path / "wrong.yaml"
    text = GAME.read_text(encoding="utf-8")
    path.write_text(text.replace('cards: "first_cards(dealer, 1)"', 'cards: "taker"'), "utf-8")
    checked = tarot("validate", str(path))
    assert checked.returncode == 1
    assert "$.show[0].cards" in checked.stderr + checked.stdout
    assert "Traceback" not in checked.stderr


def test_the_rules_page_explains_what_is_shown() -> None:
    page = tarot("explain", str(GAME))
    assert page.returncode == 0, page.stderr
    assert "After trick 1, `hand(taker)` are shown to all, if `contract == 'open'`." in page.stdout
