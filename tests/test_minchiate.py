"""Minchiate (rulesets/minchiate): the 97-card pack, the verzicole shown by the rules, the
counting cards killed and the settlement of the partnerships, on deals built for the test
and on the command line."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from tarot.engine.state import HandState
from tarot.ruleset_loader import load_ruleset
from tests.commands import tarot

RULESET = "rulesets/minchiate/minchiate.yaml"


@cache
def minchiate():
    return load_ruleset(RULESET)


def dealt(hands: dict[int, list[str]]) -> HandState:
    """Seat 0 deals; seat s receives the cards `hands[s]` and every other card falls where
    it may (seats listed get exactly 21)."""
    ruleset = minchiate()
    deck = ruleset.deck
    where = HandState(ruleset, 0, list(range(len(deck))))  # the identity pack: card = position
    positions = {s: sorted(where.hands_dealt[s]) for s in range(ruleset.players)}
    pack: list[int | None] = [None] * len(deck)
    for seat, cards in hands.items():
        assert len(cards) == 21
        for position, card in zip(positions[seat], cards, strict=True):
            pack[position] = deck.by_id[card]
    rest = iter(c for c in range(len(deck)) if c not in set(pack))
    return HandState(ruleset, 0, [c if c is not None else next(rest) for c in pack])


def trumps(*numbers: int) -> list[str]:
    return [f"trump-{n}" for n in numbers]


def test_the_pack_has_97_cards_40_trumps_and_the_fool() -> None:
    deck = minchiate().deck
    ids = [c.id for c in deck.cards]
    assert len(ids) == 97
    assert [i for i in ids if i.startswith("trump-")] == [f"trump-{n}" for n in range(1, 41)]
    assert "fool" in ids
    for suit in ("swords", "batons", "cups", "coins"):
        assert sum(i.startswith(f"{suit}-") for i in ids) == 14


def test_the_counting_cards_are_worth_142_in_all() -> None:
    """Minucci: trump 1 five, 2-5 three each, 10, 13, 20, 28 and 30-35 five each, the five
    arie ten each, the Fool and every King five; the 29 nothing outside a verzicola."""
    ruleset = minchiate()
    values = {"arie": 10, "five_point_trumps": 5, "papi_two_to_five": 3, "kings": 5, "fool": 5}
    sets = ruleset.deck.sets
    assert sum(len(sets[name]) * value for name, value in values.items()) == 142
    assert ruleset.deck.by_id["trump-29"] not in sets["carte_nobili"]


def showing(hand_trumps: list[int], kings: int = 0) -> HandState:
    suit_cards = [f"{s}-{n}" for s in ("swords", "batons", "cups", "coins") for n in range(1, 11)]
    hand = trumps(*hand_trumps) + ["swords-K", "batons-K", "cups-K", "coins-K"][:kings]
    return dealt({1: hand + suit_cards[: 21 - len(hand)]})


def shown(state: HandState, seat: int) -> set[str]:
    cards = state.ruleset.deck.cards
    return {cards[c].id for who, _, shown_cards in state.shown if who == seat for c in shown_cards}


def test_runs_of_three_and_three_kings_are_shown_by_the_rules() -> None:
    """28-29-30 is a verzicola, 33-34 alone is not; three Kings are one."""
    state = showing([28, 29, 30, 33, 34, 2, 4], kings=3)
    assert (1, "verzicole:shown") in state.declared_by_rule
    assert shown(state, 1) == {"trump-28", "trump-29", "trump-30", "swords-K", "batons-K", "cups-K"}


def test_minuccis_run_32_to_35_is_shown_whole() -> None:
    state = showing([32, 33, 34, 35, 1, 3, 5])
    assert shown(state, 1) == {"trump-32", "trump-33", "trump-34", "trump-35"}


def test_a_hand_without_a_verzicola_declares_nothing() -> None:
    state = showing([1, 2, 4, 5, 28, 30, 32, 34, 36, 38, 40], kings=2)
    assert (1, "verzicole:shown") not in state.declared_by_rule
    assert shown(state, 1) == set()


def test_a_counting_card_killed_is_paid_to_each_opponent_but_not_a_shown_one() -> None:
    """Seat 1 leads the King of swords, shown in three Kings: not paid when seat 2 trumps
    it; seat 3's trump 2 then falls to seat 2's higher trump: seat 3 pays 3 to seats 0 and 2."""
    kings = ["swords-K", "batons-K", "cups-K"]
    state = dealt(
        {
            1: kings + [f"batons-{n}" for n in range(1, 11)] + [f"cups-{n}" for n in range(1, 9)],
            2: trumps(20, 21, 22, 23, 24, 25, 26, 27)
            + [f"coins-{n}" for n in range(1, 11)]
            + ["coins-K", "coins-Q", "coins-C"],
            3: trumps(2, 6, 7, 8, 9, 11, 12, 14, 15, 16, 17)
            + [f"cups-{n}" for n in (9, 10)]
            + [
                "cups-Q",
                "cups-C",
                "cups-J",
                "batons-Q",
                "batons-C",
                "batons-J",
                "coins-J",
                "trump-18",
            ],
        }
    )
    assert state.current_player() == 1
    state.apply_action("swords-K")
    state.apply_action("trump-27")  # seat 2 has no swords
    state.apply_action("trump-2")  # nor has seat 3
    state.apply_action(state.legal_actions()[0])
    paid = [(p.payer, p.payee, p.amount) for p in state.payments]
    assert sorted(paid) == [(3, 0, 3), (3, 2, 3)]


def test_a_game_plays_validates_and_replays(tmp_path: Path) -> None:
    assert tarot("validate", RULESET).returncode == 0
    record = tmp_path / "game.json"
    shown_play = tarot("play", RULESET, "--seed", "1", "--record", str(record))
    assert shown_play.returncode == 0, shown_play.stderr
    assert "sides 0+2 against 1+3" in shown_play.stdout
    assert "Honours" in shown_play.stdout
    json.loads(record.read_text())
    assert tarot("replay", str(record)).returncode == 0


def test_the_transcript_shows_a_verzicola() -> None:
    """Seed 4's deal gives seat 1 the run 31-32-33 (found by trying seeds), shown by the rules."""
    out = tarot("play", RULESET, "--seed", "4").stdout
    assert (
        "Seat 1: declared Verzicole (shown) (by the rules) showing trump-33, trump-32, trump-31"
        in out
    )


def test_heuristic_and_search_players_play_a_hand() -> None:
    out = tarot("play", RULESET, "--seed", "2", "--agents", "heuristic,search,heuristic,search")
    assert out.returncode == 0, out.stderr
    assert "Net (points)" in out.stdout


def test_a_short_simulation_runs() -> None:
    out = tarot("simulate", RULESET, "--hands", "3", "--seed", "1")
    assert out.returncode == 0, out.stderr
