"""How many cards of a kind each seat laid away, told to all once the discards are done
(`discard.told`, the fact `told_discards(seat)`): the count, the rules reading it, the
transcript, a seat's screen and news, the search player's guesses and the load-time checks,
on a small game written for these tests (tests/data/rulesets/told-discards.yaml). The call
and the payment that read the count, with the transcript that tells it, are scenarios
(tests/scenarios/told-discards.yaml)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tarot.compile.contexts import FACTS
from tarot.compile.loader import load_ruleset
from tarot.core.vocabulary import variables_for
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState
from tarot.expressions import Environment, Type, compile_expression
from tarot.players.sampling import Sampler, Zone, deal_zones
from tarot.presentation.seat_news import Seen, news_lines
from tarot.presentation.seat_screen import decision_lines
from tarot.presentation.transcript import hand_transcript
from tests.small_games import compiled, edited, pack_for, problems, replayed_games, say
from tests.test_talon_tricks import HANDS, TALON  # the same pack: its deal serves here too

GAME = Path(__file__).parent / "data" / "rulesets" / "told-discards.yaml"
RULESET = load_ruleset(GAME)
TRUMPS = RULESET.deck.sets["trumps"]
TOLD = compiled(RULESET, "[s in seats if told_discards(s) > 0]")


def new_hand() -> HandState:
    return HandState(RULESET, 0, pack_for(RULESET, HANDS, TALON))


def discarded(trumps: bool) -> HandState:
    """Seat 1 takes the Two (two talon cards), seats 2 and 3 one each; with `trumps`, seat 1
    lays away the trump 7 and seat 3 the trump 1, else no trump goes."""
    state = new_hand()
    say(state, (1, "low"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (1, "trump-7" if trumps else "coins-3"), (1, "swords-3"), (2, "batons-4"))
    return state


def finished(state: HandState) -> HandState:
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def test_the_count_is_told_only_once_every_discard_is_made():
    state = discarded(trumps=True)
    assert state.decision.seat == 3 and state.decision.kind == "discard"
    # seat 1 has laid a trump away, but nothing is told while a seat still discards
    assert state.evaluate(TOLD) == () and state.discard.told == ()
    assert SeatView(state, 0).told == ()
    say(state, (3, "trump-1"))
    assert state.discard.told == (0, 1, 0, 1)
    assert state.evaluate(TOLD) == (1, 3)
    assert state.evaluate(compiled(RULESET, "told_discards(taker)")) == 1
    # no seat (-1 before any trick is finished) reads 0
    assert state.evaluate(compiled(RULESET, "told_discards(last_trick_winner())")) == 0


def test_a_ruleset_that_tells_nothing_reads_zero_and_prints_nothing():
    quiet = load_ruleset(GAME.parent / "call-after-discards.yaml")
    state = HandState(quiet, 0, pack_for(quiet, HANDS, TALON))
    say(state, (1, "low"), (2, "pass"), (3, "pass"), (0, "pass"))
    say(state, (1, "trump-7"), (1, "swords-3"), (2, "batons-4"), (3, "trump-1"))
    assert state.discard.told == ()
    assert state.evaluate(compiled(quiet, "sum(s in seats: told_discards(s))")) == 0
    assert SeatView(state, 1).told == ()
    assert "Told to all" not in hand_transcript(finished(state))


def test_the_seat_sees_the_count_on_its_screen_and_in_its_news():
    state = discarded(trumps=True)
    say(state, (3, "trump-1"))
    view = SeatView(state, 1)
    assert view.told == (0, 1, 0, 1) and view.told_left == (0, 1, 0, 1)
    assert view.told_cards == TRUMPS
    screen = decision_lines(view)  # the taker's call
    assert "Told to all: you laid away 1 of trumps, seat 2 laid away 0, seat 3 laid away 1" in (
        screen
    )
    seen = Seen()
    news = news_lines(SeatView(state, 0), seen)
    assert "Told to all: seat 1 laid away 1 of trumps, seat 2 laid away 0, seat 3 laid away 1." in (
        news
    )
    say(state, (1, "trump-8"))
    assert not any("Told to all" in line for line in news_lines(SeatView(state, 0), seen))


def test_every_guessed_deal_keeps_each_seats_count_told():
    state = discarded(trumps=True)
    say(state, (3, "trump-1"), (1, "trump-8"))
    sampler = Sampler(state, 0)
    rng = random.Random(5)
    laid_by_3 = set()
    for _ in range(300):
        sample = sampler.sample(rng)
        for seat in (1, 2, 3):
            assert len(sample.discards[seat]) == len(state.discards[seat])
            assert sum(card in TRUMPS for card in sample.discards[seat]) == state.discard.told[seat]
        assert sorted(sample.hands[0]) == sorted(state.hands[0])
        laid_by_3 |= {card for card in sample.discards[3] if card in TRUMPS}
    # the trump itself is guessed: any trump seat 0 does not see may be the one
    assert len(laid_by_3) > 3


def test_a_deal_by_sizes_alone_still_keeps_what_was_told():
    """The last resort of the guesses drops every constraint but the sizes and what was told."""
    told, rest = frozenset({0, 1, 2}), frozenset({3, 4, 5, 6, 7})
    zones = [
        Zone("hands", 1, 4),
        Zone("discards", 1, 1, kept_out=rest),  # one told card
        Zone("discards", 1, 3, kept_out=told),  # and three others
    ]
    for seed in range(50):
        rng = random.Random(seed)
        placed = deal_zones(list(range(8)), zones, {}, rng)
        assert len(placed[1]) == 1 and placed[1][0] in told
        assert len(placed[2]) == 3 and not told & set(placed[2])
        # the same with a constraint no deal can meet: it gives way, what was told does not
        impossible = {card: () for card in range(8)}
        placed = deal_zones(list(range(8)), zones, impossible, random.Random(seed))
        assert placed[1][0] in told and not told & set(placed[2])


def test_games_that_tell_the_count_replay():
    replayed_games(RULESET, 5, 2, mixed=False)
    replayed_games(RULESET, 6, 2, mixed=True)  # a search player guesses with the counts told


@pytest.mark.parametrize(
    "event", ["settlement", "call", "announcement", "playing", "card_played", "declaration"]
)
def test_the_fact_is_a_number_wherever_rules_read_it(event):
    environment = Environment(
        variables=variables_for(event, False, True),
        card_sets=RULESET.deck.sets,
        facts=FACTS,
        cards=len(RULESET.deck),
        seats=RULESET.players,
    )
    seat = "player" if "player" in environment.variables else "taker"
    compiled_fact = compile_expression(f"told_discards({seat})", environment, Type.NUMBER)
    assert compiled_fact.type == Type.NUMBER


def test_what_is_told_must_be_cards(tmp_path: Path):
    def change(document: dict) -> None:
        document["discard"]["told"] = "count(trumps)"

    message = problems(edited(GAME, tmp_path, change))
    assert "$.discard.told" in message and "CARDS" in message

    def seat_names(document: dict) -> None:
        document["discard"]["told"] = "[c in trumps if c in hand(player)]"

    message = problems(edited(GAME, tmp_path, seat_names))
    assert "$.discard.told" in message and "'player'" in message
