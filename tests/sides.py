"""Helpers shared by the tests of games with a taker and defenders: hands brought to their
end card by card, and what each defender pays."""

from __future__ import annotations

from collections.abc import Sequence

from tarot.engine.phases import play
from tarot.engine.phases.settle import settlement_with
from tarot.engine.state import HandState, Payment

TAKER, DEFENDER = 0, 1


def ids(ruleset, cards: Sequence[str]) -> list[int]:
    return [ruleset.deck.by_id[c] for c in cards]


def arranged_pack(ruleset, wanted: dict[int, list[str]], dealer: int = 0) -> list[int]:
    """A pack that deals the named cards to the given seats (dealer `dealer`), the rest in
    order; where each position goes is read off a deal of the pack in order."""
    probe = HandState(ruleset, dealer, list(range(len(ruleset.deck))))
    pack: list[int | None] = [None] * len(ruleset.deck)
    placed = set()
    for seat, cards in wanted.items():
        positions = sorted(probe.deal.hands_dealt[seat])
        for position, card in zip(positions, ids(ruleset, cards), strict=False):
            pack[position] = card
            placed.add(card)
    rest = iter(c for c in range(len(ruleset.deck)) if c not in placed)
    return [next(rest) if c is None else c for c in pack]


def net(payments: Sequence[Payment], players: int) -> list[float]:
    result = [0] * players
    for p in payments:
        result[p.payer] -= p.amount
        result[p.payee] += p.amount
    return result


def pile_of(
    ruleset, named: Sequence[str], points: float, special: str, excluding: Sequence[str] = ()
) -> list[int]:
    """Cards counting exactly `points` (by the ruleset's own counting) that hold the cards
    named and no other card of the set `special` (the bouts, the honours), nor any card of
    `excluding`."""
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    chosen = ids(ruleset, named)
    values = ruleset.counting.values
    barred = ruleset.deck.sets[special] | set(ids(ruleset, excluding))
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
    state = HandState(ruleset, 3 % ruleset.players, list(range(len(ruleset.deck))))
    state.auction.taker, state.auction.contract, state.auction.partner = TAKER, contract, partner
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
    won = tricks or [(TAKER, []), (DEFENDER, []), (winner, ids(ruleset, cards))]
    state.play.trick_log = trick_log(won)
    return state


def trick_log(won: Sequence[tuple[int, Sequence[int]]]) -> list:
    """Finished tricks given as (winner, cards) as the hand logs them: each card put to the
    winner, who leads."""
    return [(i + 1, w, [(w, c) for c in cards], w) for i, (w, cards) in enumerate(won)]


def each_defender_pays(state: HandState) -> float:
    """The one amount every defender pays the taker's side (negative: it pays them), to the
    taker or, for the one who settles with a called partner, to the partner."""
    attack = set(state.attackers())
    payments = [
        p
        for p in settlement_with(state)
        if p.rule in ("contract", "partner_share") and (p.payer in attack) != (p.payee in attack)
    ]
    by_defender = {p.payer if p.payee in attack else p.payee: p for p in payments}
    assert set(by_defender) == set(state.defenders())
    amounts = {(p.amount if p.payee in attack else -p.amount) for p in payments}
    assert len(amounts) == 1, payments
    return amounts.pop()


def played_out(
    ruleset,
    taker_pile: Sequence[str | int],
    final_tricks: Sequence[Sequence[tuple[int, str]]],
    contract: str | None,
    earlier_winners: Sequence[int] | None = None,
    partner: int | None = None,
    declared: dict[int, dict[str, float]] | None = None,
    excuses: Sequence[str] | None = None,
    discards: Sequence[str] = (),
    talon: Sequence[str] = (),
) -> HandState:
    """A hand whose last tricks are played card by card through the engine (`contract`
    None for a game without an auction, seat 0 still holding `taker_pile`): each of
    `final_tricks` lists its (seat, card id) in the order played. Before them the taker has
    won `taker_pile` (no card of the final tricks) and the first defender every other card;
    `earlier_winners` says who won each earlier trick (by default one to each side first);
    `declared` gives each seat's declarations with their values; `excuses`, the cards that
    play as the Fool in this hand (by default the ruleset's); `discards`, cards the taker
    laid away; `talon`, cards of the talon still on the table."""
    n, size = ruleset.players, len(ruleset.deck)
    final = [ruleset.deck.by_id[card] for trick in final_tricks for _seat, card in trick]
    mine = [c if isinstance(c, int) else ruleset.deck.by_id[c] for c in taker_pile]
    assert not set(mine) & set(final), "the taker's pile holds a card of the final tricks"
    state = HandState(ruleset, n - 1, list(range(size)))
    tricks = len(state.deal.hands_dealt[0])
    earlier_count = tricks - len(final_tricks)
    winners = list(earlier_winners or [TAKER, DEFENDER] + [DEFENDER] * (earlier_count - 2))
    assert len(winners) == earlier_count
    state.thrown_in, state.deal.redeal_queue, state.abandoned = None, [], []
    state.auction.taker = None if contract is None else TAKER  # no contract: every seat for itself
    state.auction.contract, state.auction.partner = contract, partner
    state.hands = [[] for _ in range(n)]
    for trick in final_tricks:
        for seat, card in trick:
            state.hands[seat].append(ruleset.deck.by_id[card])
    state.talon, state.discards = [], [[] for _ in range(n)]
    state.set_aside = [[] for _ in range(n)]
    state.won = [[] for _ in range(n)]
    state.won[TAKER] = mine
    away = ids(ruleset, [*discards, *talon])
    state.discards[TAKER] = ids(ruleset, discards)
    state.talon = ids(ruleset, talon)
    state.won[DEFENDER] = [c for c in range(size) if c not in set(mine) | set(final) | set(away)]
    # each earlier trick as (number, leader, plays, winner)
    state.play.trick_log = [(i + 1, w, [], w) for i, w in enumerate(winners)]
    for seat, values in (declared or {}).items():
        for name, value in values.items():
            state.declare.declared[seat].add(name)
            state.declare.values[seat][name] = value
    state.phase, state.decision = "play", None
    state.step = next(i for i, step in enumerate(ruleset.flow) if step.word == "play")
    state.play.trick_number, state.play.total_tricks = earlier_count + 1, tricks
    state.play.leader = final_tricks[0][0][0]
    state.play.excuses = (
        play.excuse_cards(state) if excuses is None else frozenset(ids(ruleset, excuses))
    )
    state._advance()
    for trick in final_tricks:
        for seat, card in trick:
            assert state.current_player() == seat, (seat, card, state.current_player())
            state.apply_action(card)
    assert state.is_terminal()
    return state


def offered_announcement(state: HandState, contract: str, action: str) -> set[int]:
    """Seat 1 bids `contract` and the others pass; every declaration is then declined.
    The seats that were offered `action` (e.g. `slam:announced`) on the way."""
    state.apply_action(contract)
    for _ in range(state.ruleset.players - 1):
        state.apply_action("pass")
    offered = set()
    while state.decision.kind == "declare":
        if action in state.legal_actions():
            offered.add(state.decision.seat)
        state.apply_action(state.legal_actions()[-1])
    return offered
