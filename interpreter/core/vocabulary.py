"""The vocabulary of the expression language's game: the names each place of a ruleset sees,
and the game facts an expression may ask for, each with its signature.

Where it sits: a shared noun (`tarot.core`) that every stage may import. The checks read it
for names already taken, the compiler types each expression against it and bounds its cost,
and each back end registers an implementation of every fact under the same name: the scalar
engine's in `tarot.compile.contexts` (`SCALAR_FACTS`), the batch back end's in
`tarot.batch.facts` (`ARRAY_FACTS`, with the facts it refuses named in `REFUSED_FACTS`); a
test fails when a fact has no implementation in a back end and is not refused there.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from tarot.expressions.types import Type

#: deals thrown in and dealt again in one hand before it is given up
MAX_REDEALS = 20

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

#: the one event before any deal: there is no dealer yet (the draw for the first deal)
FIRST_DEALER_DRAW = "first_dealer_draw"
#: the facts an expression of that event may ask: they read the ruleset, not a hand
BEFORE_ANY_DEAL_FACTS = ("trump_number", "next_seat")
#: who sits a hand out (`players.sit_out.seats`): before the deal, round the whole table
SIT_OUT = "sit_out"

#: names known once an auction has a taker (in rulesets with `bidding`)
TAKER = {
    "taker": Type.SEAT,
    "contract": Type.STRING,
    "attackers": Type.SEATS,
    "defenders": Type.SEATS,
}

#: events that happen before the auction is over: the taker is not known there
BEFORE_TAKER = frozenset(
    {
        "cut",
        "redeal",
        "static",
        "auction",
        "bid_check",
        "hold",
        "lasting_deal",
        "lasting_deal_seat",
        "show_deal",
        "step_before_taker",
        "step_seat_before_taker",
        FIRST_DEALER_DRAW,
        SIT_OUT,
    }
)

#: a finished trick: its cards in the order played, its number, who led and who wins it
_FINISHED_TRICK = {
    "trick": Type.CARDS,
    "trick_number": Type.NUMBER,
    "last_trick": Type.BOOL,
    "leader": Type.SEAT,
    "winner": Type.SEAT,
}

EVENT_VARIABLES: dict[str, dict[str, Type]] = {
    "cut": {"cut_card": Type.CARD},
    "redeal": _PLAYER,
    "hand_score": _PLAYER,
    "game": {},
    "call": {},
    "auction": {},  # who speaks first, who may hold, a forced contract's taker
    # whether `player` may bid a contract, how many bids it leaps over, and who made the
    # highest bid so far (-1 before any bid)
    "bid_check": {**_PLAYER, "jump": Type.NUMBER, "highest_bidder": Type.SEAT},
    "hold": {"highest_bidder": Type.SEAT, "highest_bid": Type.STRING},  # who may hold it
    "doubling": {},
    "announcement": _PLAYER,  # whether `player` may announce a bonus, the cards it keeps
    "talon": {},
    "play": {},
    "discard": _CARD_OF_PLAYER,
    "discards_done": _PLAYER,
    "card_played": _TRICK,
    # the play rules' card rules (`forced`, `lead_forbidden`, `held_back`): a seat to play
    "playing": {name: kind for name, kind in _TRICK.items() if name != "card"},
    "after_trick": {},  # the play rules' `ends_when`, after each trick
    "sides": {},  # the play rules' `sides`, with the seat under its own name
    "trick_end": {**_TRICK, "winner": Type.SEAT, "keeper": Type.SEAT},
    # a finished trick, before it is taken: who wins it by the trick rules
    "trick_won": _FINISHED_TRICK,
    "settlement": {},
    "declaration": _PLAYER,
    "declaration_shown": {**_PLAYER, "level": Type.STRING},
    "discard_check": _CARD_OF_PLAYER,
    "discard_group": _PLAYER,  # cards `player` must discard all together or none of
    "static": {},
    # state that lasts between hands: a rule's seats, then each seat's own expressions
    "lasting_deal": {},
    "lasting_deal_seat": _PLAYER,
    "lasting": {},
    "lasting_seat": _PLAYER,
    "lasting_trick": _FINISHED_TRICK,  # a transfer `at: trick`, once the trick is taken
    "lasting_trick_seat": {**_FINISHED_TRICK, **_PLAYER},
    # cards shown to all: after the deal, after a trick
    "show_deal": {},
    # a flow step's settings (`when`, an `ask`'s seats, a `bid`'s bidders; a discard's
    # `count` for each `player`), before the auction is over or after it
    "step": {},
    "step_before_taker": {},
    "step_seat": _PLAYER,
    "step_seat_before_taker": _PLAYER,
    "show_trick": {},
    # the draw for the first deal: the card `player` drew
    FIRST_DEALER_DRAW: _CARD_OF_PLAYER,
    # whether `player` may not take a talon packet (`talon.packets.forbidden`): its cards
    "packet_check": {**_PLAYER, "packet_cards": Type.CARDS},
    SIT_OUT: {},
}

AMOUNT_VARIABLES = {"payer": Type.SEAT, "payee": Type.SEAT}


def variables_for(event: str, amount: bool = False, bidding: bool = False) -> dict[str, Type]:
    """The context names an expression may use at `event` (with `payer` and `payee` in a
    payment's amount, and the taker's names after an auction)."""
    names = dict(COMMON) if event != "static" else {}
    if event == FIRST_DEALER_DRAW:
        del names["dealer"]
    names.update(EVENT_VARIABLES[event])
    if bidding and event not in BEFORE_TAKER:
        names.update(TAKER)
    if amount:
        names.update(AMOUNT_VARIABLES)
    return names


#: the one fact whose value a payment changes, and the key its value is remembered under
#: with the seat (a payment forgets it; see `Ruleset.definitions_read_payments`)
PAYMENTS_READ_BY = "total"
TOTAL_MEMO = "total()"


class Fact(NamedTuple):
    """A game fact's signature: the types of its arguments and of its value (as
    `FactFunction` names them), and the size its cost grows with ("cards": the pack, "seats":
    the players; None: a few steps)."""

    params: tuple[Type, ...]
    returns: Type
    size: Literal["cards", "seats"] | None = None


#: every game fact an expression may ask for, by name
FACTS: dict[str, Fact] = {
    "hand": Fact((Type.SEAT,), Type.CARDS),
    "discards": Fact((Type.SEAT,), Type.CARDS),
    "told_discards": Fact((Type.SEAT,), Type.NUMBER),
    "tricks": Fact((Type.SEAT,), Type.CARDS),
    "played": Fact((Type.SEAT,), Type.CARDS),
    "pile": Fact((Type.SEAT,), Type.CARDS, "cards"),
    "points": Fact((Type.SEAT,), Type.NUMBER, "cards"),
    "opponents": Fact((Type.SEAT,), Type.SEATS, "seats"),
    "declared": Fact((Type.SEAT, Type.STRING), Type.BOOL),
    "trump_number": Fact((Type.CARD,), Type.NUMBER),
    "next_seat": Fact((Type.SEAT,), Type.SEAT),
    "side": Fact((Type.SEAT,), Type.SEATS, "seats"),
    "side_pile": Fact((Type.SEAT,), Type.CARDS, "cards"),
    "side_points": Fact((Type.SEAT,), Type.NUMBER, "cards"),
    "tricks_won": Fact((Type.SEAT,), Type.NUMBER, "cards"),
    "tricks_played": Fact((), Type.NUMBER),
    "last_trick_cards": Fact((), Type.CARDS, "seats"),
    "last_trick_winner": Fact((), Type.SEAT),
    "declared_value": Fact((Type.SEAT, Type.STRING), Type.NUMBER),
    "talon": Fact((), Type.CARDS, "cards"),
    "packet": Fact((Type.SEAT, Type.NUMBER), Type.CARDS, "cards"),
    PAYMENTS_READ_BY: Fact((Type.SEAT,), Type.NUMBER),
    "winning_card": Fact((Type.NUMBER,), Type.CARDS),
    "hand_number": Fact((), Type.NUMBER),
    "first_cards": Fact((Type.SEAT, Type.NUMBER), Type.CARDS),
    "doublings": Fact((Type.STRING,), Type.NUMBER),
    "doubling_factor": Fact((Type.STRING,), Type.NUMBER),
    "called_card": Fact((), Type.CARDS),
    "trick_of": Fact((Type.CARDS,), Type.NUMBER, "cards"),
    "taken_by": Fact((Type.CARDS,), Type.SEAT, "cards"),
    "played_by": Fact((Type.CARDS,), Type.SEAT, "cards"),
    "position_in_trick": Fact((Type.CARDS,), Type.NUMBER, "seats"),
    "bid_position": Fact((Type.SEAT,), Type.NUMBER, "seats"),
    "announced": Fact((Type.SEAT, Type.STRING), Type.BOOL, "seats"),
    "announced_by": Fact((Type.STRING,), Type.SEATS, "seats"),
    "thrown_in": Fact((Type.STRING,), Type.NUMBER),
    "bids_made": Fact((Type.SEAT,), Type.NUMBER),
    "bid_held": Fact((), Type.BOOL),
    "bid_jump": Fact((Type.SEAT,), Type.NUMBER, "seats"),
    "bid_number": Fact((Type.SEAT,), Type.NUMBER, "seats"),
    "pass_number": Fact((Type.SEAT,), Type.NUMBER, "seats"),
    "passed_over": Fact((Type.SEAT,), Type.STRING, "seats"),
    "runs": Fact((Type.CARDS, Type.NUMBER), Type.CARDS, "cards"),
    "announce_passes": Fact((Type.SEAT,), Type.NUMBER, "seats"),
    "answer": Fact((Type.STRING,), Type.SEATS, "seats"),
    "asker": Fact((Type.STRING,), Type.SEAT),
}
