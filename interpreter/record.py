"""Game records: a played game as JSON that another program can check card by card.

The shape is `schemas/game-record.schema.json`. `game_record` writes one from finished hand
states; `interpreter.replay` reads one back and plays it again.
"""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.engine.state import HandState
from interpreter.ruleset import Ruleset

FORMAT = "tarot-game-record/1"


def hand_record(state: HandState) -> dict:
    cards = state.ruleset.deck.cards
    return {
        "number": state.number,
        "dealer": state.dealer,
        "deck": [card.as_record() for card in cards],
        "pack": [cards[c].id for c in state.pack],
        "cut_card": None if state.cut_card is None else cards[state.cut_card].id,
        "hands_dealt": [[cards[c].id for c in hand] for hand in state.hands_dealt],
        "decisions": list(state.decisions),
        "tricks": list(state.tricks),
        "payments": [payment.as_record() for payment in state.payments],
        "card_points": list(state.card_points()),
        "net": state.returns(),
    }


def game_record(
    ruleset: Ruleset, seed: int, agent_names: Sequence[str], states: Sequence[HandState]
) -> dict:
    hands = [hand_record(state) for state in states]
    totals = [0] * ruleset.players
    for hand in hands:
        totals = [t + n for t, n in zip(totals, hand["net"], strict=True)]
    return {
        "format": FORMAT,
        "ruleset": {"id": ruleset.id, "hash": ruleset.content_hash, "options": ruleset.options},
        "seed": seed,
        "seats": [{"seat": i, "agent": name} for i, name in enumerate(agent_names)],
        "hands": hands,
        "totals": totals,
    }
