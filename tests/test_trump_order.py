"""Trump order as data: more than 21 trumps, the Fool ranked as the highest trump, groups of
equal trumps where the first (or the last) played wins; the deck's `Pack` tables follow.
On a small game written for these tests (tests/data/rulesets/partners-trump-order.yaml)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from tarot.compile.loader import load_ruleset
from tarot.core.cards import roman
from tarot.engine.tricks import legal_cards, trick_winner

DATA = Path(__file__).parent / "data" / "rulesets"
GAME = DATA / "partners-trump-order.yaml"
ROOT = Path(__file__).parent.parent


def card(ruleset, card_id: str) -> int:
    return ruleset.deck.by_id[card_id]


def test_the_fool_ranks_as_the_highest_trump():
    ruleset = load_ruleset(GAME)
    deck = ruleset.deck
    fool = deck.cards[card(ruleset, "fool")]
    assert fool.fool and fool.is_trump and not fool.is_excuse
    assert fool.trump == 24 and fool.label() == "the Fool"
    assert deck.fools == frozenset() and fool.index in deck.cards.trumps
    assert fool.index in deck.sets["trumps"] and fool.index in deck.sets["two_highest"]
    # it follows and wins as a trump: above trump 23, and it must be played as a trump
    trick = [(0, card(ruleset, "trump-23")), (1, card(ruleset, "fool"))]
    assert trick_winner(deck.cards, trick) == 1
    hand = [card(ruleset, "fool"), card(ruleset, "swords-K")]
    led = [(0, card(ruleset, "trump-2"))]
    assert legal_cards(ruleset.play, deck.cards, hand, led) == [card(ruleset, "fool")]


def test_equal_trumps_first_played_wins_unless_the_group_says_last():
    ruleset = load_ruleset(GAME)
    cards = ruleset.deck.cards

    def winner(*ids: str) -> int:
        return trick_winner(cards, [(seat, card(ruleset, c)) for seat, c in enumerate(ids)])

    assert winner("trump-11", "trump-10", "trump-12") == 0  # one group: the first played wins
    assert winner("trump-9", "trump-12", "trump-10") == 1
    assert winner("trump-12", "trump-13") == 1  # the group ranks as 12, below 13
    assert winner("trump-21", "trump-20") == 1  # `wins: last`
    assert winner("trump-20", "trump-21", "trump-19") == 1
    assert winner("trump-20", "trump-22") == 1


def test_a_pack_of_forty_trumps(tmp_path):
    # Minchiate-sized: 40 numbered trumps and the Fool as the Excuse; the record schema
    # holds its deck and a played hand replays
    variant = tmp_path / "forty.yaml"
    variant.write_text(
        f"extends: {GAME}\n"
        "deck:\n  trumps: 40\n  trump_order: {fool: excuse}\n"
        "deal:\n  packets: [{rounds: 1, each: 12, talon: 1, talon_after: 4}]\n"
        "talon: {to: out_of_play, source: test}\n"
    )
    ruleset = load_ruleset(variant)
    cards = ruleset.deck.cards
    assert len(cards.trumps) == 40 and len(ruleset.deck.fools) == 1
    assert cards[card(ruleset, "trump-40")].label() == "trump XL" and roman(39) == "XXXIX"
    from tarot.engine.game import play_game
    from tarot.players.random_agent import RandomAgent
    from tarot.records.record import game_record
    from tarot.records.replay import replay_record

    agents = [RandomAgent(seat) for seat in range(4)]
    states = play_game(ruleset, 5, agents, hands=2)
    record = game_record(ruleset, 5, [a.name for a in agents], states)
    schema = json.loads((ROOT / "schemas" / "game-record.schema.json").read_text())
    jsonschema.validate(json.loads(json.dumps(record)), schema)
    assert {"id": "trump-40", "trump": 40} in record["hands"][0]["deck"]
    replay_record(record, ruleset)
