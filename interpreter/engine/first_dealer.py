"""The first dealer of a game: the ruleset's fixed seat, or drawn for (`deal.first_dealer_draw`).

Where it sits: under the dealer's rotation (`engine.game.dealer_of`), before any hand is dealt.
The draw is the game's, not a hand's: its pack is shuffled from the game's seed apart from the
hands' packs (so a ruleset that draws deals the same hands as one that does not), and every
hand of the game, a replayed one included, finds its dealer from it again. Each seat in turn
from seat 0 draws the top card; the ruleset's `rank` numbers each card drawn, and the seats
whose cards rank best draw again while more than one is left and the pack has a card for each.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tarot.core.ruleset import FirstDealerDraw, Ruleset
from tarot.engine import draws
from tarot.engine.seating import Seating, seating
from tarot.expressions import EvaluationError, Scope


@dataclass(frozen=True)
class DealerDraw:
    """What the draw for the first deal drew, round by round ((seat, card) in the order
    drawn), each card's rank, and the seat that deals first."""

    rounds: tuple[tuple[tuple[int, int], ...], ...]
    ranks: tuple[tuple[object, ...], ...]  # the rank of each card drawn, as `rounds`
    dealer: int


@dataclass(frozen=True)
class _Table:
    """What an expression of the draw may read: the ruleset (no hand is dealt yet)."""

    ruleset: Ruleset

    @property
    def seating(self) -> Seating:
        """The order round the whole table, for `next_seat`."""
        return seating(self.ruleset.players)


def draw_rng(seed: int) -> random.Random:
    return random.Random(f"tarot-first-dealer/{seed}")


def first_dealer(ruleset: Ruleset, seed: int) -> int:
    """The seat that deals the first hand of the game with this seed."""
    draw = dealer_draw(ruleset, seed)
    return ruleset.first_dealer if draw is None else draw.dealer


def dealer_draw(ruleset: Ruleset, seed: int) -> DealerDraw | None:
    """The draw for the first deal of the game with this seed; None where the ruleset names
    a fixed first dealer."""
    rule = ruleset.first_dealer_draw
    if rule is None:
        return None
    pack = list(range(len(ruleset.deck)))
    draws.shuffle(draw_rng(seed), pack)
    n = ruleset.players
    scope = Scope(_Table(ruleset), {"seats": tuple(range(n)), "players": n})
    seats, rounds, ranks = list(range(n)), [], []
    while len(seats) > 1 and len(pack) >= len(seats):
        drawn = tuple((seat, pack.pop(0)) for seat in seats)
        ranked = tuple(_rank(rule, scope, seat, card) for seat, card in drawn)
        rounds.append(drawn)
        ranks.append(ranked)
        best = min(ranked) if rule.lowest else max(ranked)  # type: ignore[type-var]
        seats = [seat for (seat, _card), rank in zip(drawn, ranked, strict=True) if rank == best]
    return DealerDraw(tuple(rounds), tuple(ranks), seats[0])


def _rank(rule: FirstDealerDraw, scope: Scope, seat: int, card: int) -> object:
    scope.vars["player"], scope.vars["card"] = seat, card
    try:
        return rule.rank(scope)
    except EvaluationError as error:
        error.where = error.where or getattr(rule.rank, "where", "")
        raise
