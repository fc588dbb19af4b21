"""Helpers shared by the tests of games with a taker and defenders: hands brought to their
end card by card, and what each defender pays."""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.engine.state import HandState, Payment

TAKER, DEFENDER = 0, 1


def ids(ruleset, cards: Sequence[str]) -> list[int]:
    return [ruleset.deck.by_id[c] for c in cards]


def net(payments: Sequence[Payment], players: int) -> list[float]:
    result = [0] * players
    for p in payments:
        result[p.payer] -= p.amount
        result[p.payee] += p.amount
    return result


def pile_of(ruleset, named: Sequence[str], points: float, special: str) -> list[int]:
    """Cards counting exactly `points` (by the ruleset's own counting) that hold the cards
    named and no other card of the set `special` (the bouts, the honours)."""
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    chosen = ids(ruleset, named)
    values = ruleset.counting.values
    barred = ruleset.deck.sets[special]
    others = sorted(
        (c for c in range(len(ruleset.deck)) if c not in barred), key=lambda c: -values[c]
    )
    for card in others:
        if state.count([*chosen, card]) <= points:
            chosen.append(card)
    assert state.count(chosen) == points, (state.count(chosen), points)
    return chosen


def ended_by_hand(
    ruleset,
    taker_pile: Sequence[int],
    last_trick: tuple[int, list[str]],
    contract: str,
    tricks: list[tuple[int, list[int]]] | None = None,
    partner: int | None = None,
    set_aside: Sequence[int] = (),
) -> HandState:
    """A hand brought to its end by hand: the taker's cards (and any talon set aside for
    him), the last trick as given, every other card with the first defender."""
    state = HandState(ruleset, 3, list(range(len(ruleset.deck))))
    state.taker, state.contract, state.partner = TAKER, contract, partner
    state.hands = [[] for _ in range(ruleset.players)]
    state.talon = []
    state.won = [[] for _ in range(ruleset.players)]
    state.set_aside = [[] for _ in range(ruleset.players)]
    state.won[TAKER] = list(taker_pile)
    state.set_aside[TAKER] = list(set_aside)
    mine = set(taker_pile) | set(set_aside)
    state.won[DEFENDER] = [c for c in range(len(ruleset.deck)) if c not in mine]
    winner, cards = last_trick
    # one trick to each side before the last, so no slam unless asked for
    state.trick_cards = tricks or [(TAKER, []), (DEFENDER, []), (winner, ids(ruleset, cards))]
    return state


def each_defender_pays(state: HandState) -> float:
    """The one amount every defender pays the taker (negative: the taker pays them)."""
    payments = [p for p in state.settlement_for() if p.rule == "contract"]
    by_defender = {p.payer if p.payee == TAKER else p.payee: p for p in payments}
    assert set(by_defender) == set(state.defenders())
    amounts = {(p.amount if p.payee == TAKER else -p.amount) for p in payments}
    assert len(amounts) == 1, payments
    return amounts.pop()
