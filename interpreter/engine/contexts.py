"""What a ruleset's expressions may see, event by event, and the game facts they may ask for.

Shared by the loader (which type-checks each expression against the names available where
it stands) and the engine (which fills the same names in when a rule fires).
"""

from __future__ import annotations

from interpreter.expressions import FactFunction, Type

COMMON = {"seats": Type.SEATS, "dealer": Type.SEAT, "players": Type.NUMBER}

_PLAYER = {"player": Type.SEAT}
_CARD_OF_PLAYER = {"player": Type.SEAT, "card": Type.CARD}
_TRICK = {
    "player": Type.SEAT,
    "card": Type.CARD,
    "trick": Type.CARDS,
    "trick_number": Type.NUMBER,
    "last_trick": Type.BOOL,
    "leader": Type.SEAT,
}

EVENT_VARIABLES: dict[str, dict[str, Type]] = {
    "cut": {"cut_card": Type.CARD},
    "discard": _CARD_OF_PLAYER,
    "discards_done": _PLAYER,
    "card_played": _TRICK,
    "trick_end": {**_TRICK, "winner": Type.SEAT, "keeper": Type.SEAT},
    "settlement": {},
    "declaration": _PLAYER,
    "discard_check": _CARD_OF_PLAYER,
    "static": {},
}

AMOUNT_VARIABLES = {"payer": Type.SEAT, "payee": Type.SEAT}


def variables_for(event: str, amount: bool = False) -> dict[str, Type]:
    names = dict(COMMON) if event != "static" else {}
    names.update(EVENT_VARIABLES[event])
    if amount:
        names.update(AMOUNT_VARIABLES)
    return names


def _hand(state, seat):
    return state.hands[seat]


def _discards(state, seat):
    return state.discards[seat]


def _tricks(state, seat):
    return state.won[seat]


def _pile(state, seat):
    return state.won[seat] + state.discards[seat]


def _points(state, seat):
    return state.card_points()[seat]


def _opponents(state, seat):
    return tuple(s for s in range(state.ruleset.players) if s != seat)


def _declared(state, seat, declaration_id):
    return declaration_id in state.declared[seat]


def _trump_number(state, card):
    return state.ruleset.deck.cards[card].trump or 0


def _next_seat(state, seat):
    return (seat + 1) % state.ruleset.players


FACTS: dict[str, FactFunction] = {
    "hand": FactFunction((Type.SEAT,), Type.CARDS, _hand),
    "discards": FactFunction((Type.SEAT,), Type.CARDS, _discards),
    "tricks": FactFunction((Type.SEAT,), Type.CARDS, _tricks),
    "pile": FactFunction((Type.SEAT,), Type.CARDS, _pile),
    "points": FactFunction((Type.SEAT,), Type.NUMBER, _points),
    "opponents": FactFunction((Type.SEAT,), Type.SEATS, _opponents),
    "declared": FactFunction((Type.SEAT, Type.STRING), Type.BOOL, _declared),
    "trump_number": FactFunction((Type.CARD,), Type.NUMBER, _trump_number),
    "next_seat": FactFunction((Type.SEAT,), Type.SEAT, _next_seat),
}
