"""What a study measures in each hand of each run: the responses whose effects it estimates.

Where it sits: between the runner's `HandSummary`s and `effects`. Every response is a number
that every hand has, so that its effect can be taken hand by hand on paired deals:

- the net result of each place at the table (the dealer, the next player, ...) and of each
  seat, in the ruleset's unit; places rather than seats lead, because the dealer moves round
  and a rule that favours the dealer averages out over seat numbers;
- the measures `tarot simulate` prints for the game's shape (`measure.shape.GameShape`):
  the spread of results in a hand, what the winners won and what every rule paid (the
  swing), in the unit; decisions per hand; and for a taker against defenders, whether the
  hand was taken and made (rates), the taker's and a defender's result (0 when nobody
  took); for each for himself, each place's wins and the drawn hands (rates) and the lead
  changes;
- what each rule paid in the hand (0 where it did not fire), in the unit.

Nothing here names a game: the shape and the rules are read from the ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tarot.core.ruleset import Ruleset
from tarot.core.summary import HandSummary, rule_keys
from tarot.measure.measures import spread
from tarot.measure.report import place_name
from tarot.measure.shape import GameShape

UNIT, RATE, COUNT = "unit", "rate", "count"  # what a response is counted in


@dataclass(frozen=True)
class Response:
    key: str  # its name in the JSON report
    label: str
    kind: str  # UNIT, RATE (a share: its effects in percentage points) or COUNT
    group: str  # "place", "seat", "measure" or "rule"
    read: Callable[[HandSummary], float]


def _at_place(players: int, place: int) -> Callable[[HandSummary], float]:
    return lambda hand: hand.net[(hand.dealer + place) % players]


def _at_seat(seat: int) -> Callable[[HandSummary], float]:
    return lambda hand: hand.net[seat]


def _paid(rule: str) -> Callable[[HandSummary], float]:
    return lambda hand: hand.paid.get(rule, 0.0)


def _winners(hand: HandSummary) -> tuple[int, ...]:
    if hand.winners:
        return hand.winners
    return () if hand.winner is None else (hand.winner,)


def _won_at(players: int, place: int) -> Callable[[HandSummary], float]:
    return lambda hand: float((hand.dealer + place) % players in _winners(hand))


def _taker_result(hand: HandSummary) -> float:
    return 0.0 if hand.taker is None else hand.net[hand.taker]


def _defence_result(hand: HandSummary) -> float:
    if hand.taker is None:
        return 0.0
    defenders = [v for seat, v in enumerate(hand.net) if seat not in hand.attackers]
    return sum(defenders) / len(defenders) if defenders else 0.0


def _made(hand: HandSummary) -> float:
    return float(hand.taker is not None and hand.net[hand.taker] > 0)


def _shape_measures(shape: GameShape, unit: str) -> list[Response]:
    players = shape.players
    common = [
        Response("spread", "spread of results (sd)", UNIT, "measure", lambda h: spread(h.net)),
        Response(
            "moved",
            f"won by the winners ({unit})",
            UNIT,
            "measure",
            lambda h: sum(v for v in h.net if v > 0),
        ),
        Response(
            "swing",
            f"paid by every rule, the swing ({unit})",
            UNIT,
            "measure",
            lambda h: sum(h.paid.values()),
        ),
        Response("decisions", "decisions per hand", COUNT, "measure", lambda h: h.decisions),
    ]
    if shape.sides:
        return common + [
            Response("taken", "hands taken", RATE, "measure", lambda h: h.taker is not None),
            Response("made", "hands made (taker ahead)", RATE, "measure", _made),
            Response("taker", "taker's result (0 untaken)", UNIT, "measure", _taker_result),
            Response(
                "defence", "a defender's result (0 untaken)", UNIT, "measure", _defence_result
            ),
        ]
    return common + [
        *(
            Response(f"win.{p}", f"wins, {place_name(p)}", RATE, "measure", _won_at(players, p))
            for p in range(players)
        ),
        Response("draws", "drawn hands", RATE, "measure", lambda h: h.winner is None),
        Response(
            "lead_changes", "lead changes per hand", COUNT, "measure", lambda h: h.lead_changes
        ),
    ]


def responses_for(rulesets: Sequence[Ruleset]) -> list[Response]:
    """The responses of a study whose runs play `rulesets` (one shape and player count:
    the runs are paired), the rules of every run included."""
    first = rulesets[0]
    players, unit = first.players, first.unit.plural
    found = [
        Response(f"place.{p}", place_name(p), UNIT, "place", _at_place(players, p))
        for p in range(players)
    ]
    found += [Response(f"seat.{s}", f"seat {s}", UNIT, "seat", _at_seat(s)) for s in range(players)]
    found += _shape_measures(GameShape.of(first), unit)
    rules = sorted({key for ruleset in rulesets for key in rule_keys(ruleset)})
    found += [Response(f"rule.{rule}", rule, UNIT, "rule", _paid(rule)) for rule in rules]
    return found
