"""Game records: a played game as JSON that another program can check card by card.

The shape is `schemas/game-record.schema.json`. A record tells everything the hand's players
were told: beside the decisions and their results, the sides (those the auction made, and those
the play rules give, `play.sides`), in rulesets with declarations every declaration made with
its worth (those made by the rules and those worth nothing too), in rulesets that tell how many
cards of a kind each seat laid away (`discard.told`) those counts. `game_record` builds one
from finished hand states (`tarot.records.record_json.record_text` writes it as strict JSON);
`tarot.records.replay` reads one back, plays it again and checks everything it says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tarot.core.actions import DecisionKind, Declare, read_action
from tarot.core.ruleset import Ruleset
from tarot.engine.chosen_deal import deal_of
from tarot.engine.game import game_winners
from tarot.engine.lasting import record_of as lasting_record
from tarot.engine.state import HandState
from tarot.engine.values import tidy

FORMAT = "tarot-game-record/1"
RULESET_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")  # as the schema's $.ruleset.id pattern
MAX_ID_LENGTH = 64


def record_id(ruleset: Ruleset) -> str:
    """The ruleset's name as a record gives it: a built-in ruleset's name as it is, a file's
    name in lowercase letters, digits and hyphens (`My Game (v2)` -> `my-game-v2`)."""
    if RULESET_ID.fullmatch(ruleset.id) and len(ruleset.id) <= MAX_ID_LENGTH:
        return ruleset.id
    words = re.findall(r"[a-z0-9]+", ruleset.id.lower())
    return "-".join(words)[:MAX_ID_LENGTH].strip("-") or "ruleset"


def first_game_winners(states: Sequence[HandState]) -> list[int]:
    """The winners of the game at the first of these hands after which it had ended (a
    claim, or the ruleset's end condition); [] if it goes on after all of them."""
    for state in states:
        winners = game_winners(state)
        if winners:
            return list(winners)
    return []


def hand_record(state: HandState) -> dict:
    cards = state.ruleset.deck.cards
    record = {
        "number": state.number,
        "dealer": state.dealer,
        # only in the records of rulesets where seats sit a hand out (`players.sit_out`)
        **({"sat_out": list(state.seating.out)} if state.ruleset.sit_out else {}),
        "deck": [card.as_record() for card in cards],
        "pack": [cards[c].id for c in state.pack],
        # a chosen deal (`engine.chosen_deal`) is asserted by the record: replay checks the
        # pack against it instead of the seed
        **({"deal": deal_of(state.ruleset, state.dealer, state.pack)} if state.chosen else {}),
        "abandoned_deals": list(state.abandoned),
        "cut_card": None if state.deal.cut_card is None else cards[state.deal.cut_card].id,
        "hands_dealt": [[cards[c].id for c in hand] for hand in state.deal.hands_dealt],
        "piles_dealt": [
            [[cards[c].id for c in pile] for pile in piles] for piles in state.deal.piles_dealt
        ],
        "talon": [cards[c].id for c in state.deal.talon_dealt],
        "thrown_in": state.thrown_in,
        "decisions": list(state.decisions),
        # only in the records of rulesets with declarations
        **({"declarations": declarations(state)} if state.ruleset.declarations else {}),
        "sides": _sides(state),
        "shown": [
            {"seat": seat, "what": what, "cards": [cards[c].id for c in shown]}
            for seat, what, shown in state.shown
        ],
        # only in the records of rulesets that tell counts of discards (`discard.told`)
        **({"told": list(state.discard.told) or None} if state.ruleset.discard_told else {}),
        "excuse_exchanges": list(state.play.exchanges),
        "claimed": list(state.play.claimed),
        "tricks": list(state.tricks),
        "payments": [payment.as_record() for payment in state.payments],
        "card_points": list(state.card_points()),
        "net": state.returns(),
    }
    if state.ruleset.lasting is not None:  # only rulesets with lasting state carry it
        record["lasting"] = lasting_record(state)
    return record


def _sides(state: HandState) -> dict | None:
    """Who played with whom: the taker's side and the defenders once the auction made a
    taker, and the sides the play rules give (`play_sides`) where they give them; None in a
    game where every player is for himself."""
    if state.auction.taker is None and state.play.side_table is None:
        return None
    cards = state.ruleset.deck.cards
    sides: dict = {
        "taker": state.auction.taker,
        "contract": state.auction.contract,
        "called_card": None
        if state.auction.called_card is None
        else cards[state.auction.called_card].id,
        "partner": state.auction.partner,
        "partner_shown_at_trick": state.play.partner_shown_at,
        "attackers": list(state.attackers()),
        "defenders": list(state.defenders()),
    }
    if state.play.side_table is not None:
        sides["play_sides"] = [list(side) for side in dict.fromkeys(state.play.side_table)]
    return sides


def declarations(state: HandState) -> list[dict]:
    """Every declaration made in the hand, seat by seat in the order each made them: the
    level declared, its worth (0 included) and whether the rules made it (`compulsory`)."""
    deck = state.ruleset.deck
    made: dict[tuple[int, str], tuple[str, bool]] = {}
    for seat, text in state.declare.by_rule:
        action = read_action(DecisionKind.DECLARE, text, deck)
        assert isinstance(action, Declare)  # the rules declare a level
        made[seat, action.declaration] = (action.level, True)
    for decision in state.decisions:
        if decision["kind"] == DecisionKind.DECLARE:
            action = read_action(DecisionKind.DECLARE, decision["choice"], deck)
            if isinstance(action, Declare):
                made[decision["seat"], action.declaration] = (action.level, False)
    return [
        {
            "seat": seat,
            "declaration": declaration,
            "level": made[seat, declaration][0],
            "value": tidy(value),
            "by_rules": made[seat, declaration][1],
        }
        for seat, values in enumerate(state.declare.values)
        for declaration, value in values.items()
    ]


def game_record(
    ruleset: Ruleset,
    seed: int,
    agent_names: Sequence[str],
    states: Sequence[HandState],
    backend: str = "scalar",
) -> dict:
    """The record of a game; `backend`: the engine whose random numbers dealt its hands
    (named in the record only when it is not the scalar engine: `tarot play --backend
    batch`)."""
    hands = [hand_record(state) for state in states]
    totals = [0] * ruleset.players
    for hand in hands:
        totals = [t + n for t, n in zip(totals, hand["net"], strict=True)]
    dealt = {} if backend == "scalar" else {"backend": backend}
    return {
        "format": FORMAT,
        "ruleset": {
            "id": record_id(ruleset),
            "hash": ruleset.content_hash,
            "options": ruleset.options,
        },
        "seed": seed,
        **dealt,
        "seats": [{"seat": i, "agent": name} for i, name in enumerate(agent_names)],
        "hands": hands,
        "totals": totals,
        "game_winners": first_game_winners(states),
    }
