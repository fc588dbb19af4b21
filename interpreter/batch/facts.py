"""The game facts an expression may ask for (`hand(s)`, `points(s)`...), over many hands.

Where it sits: called by the array compiler's closures (`tarot.batch.array_exprs`)
with the evaluation's `Ctx` and the arguments' values. Each fact gives what the scalar
engine's fact of the same name gives (`tarot.compile.contexts.SCALAR_FACTS`), under the
vocabulary's name (`tarot.core.vocabulary.FACTS`); the facts that need state the batch back end
does not keep are named in `REFUSED_FACTS` with what it lacks, and a ruleset that asks for
one runs on the scalar engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np

from tarot.batch.card_runs import runs
from tarot.batch.exactness import constant
from tarot.batch.masks import Masks
from tarot.batch.scaled_amounts import unscaled
from tarot.batch.state import THROWN_IN, BatchState
from tarot.batch.values import Cards, Ctx, Unsupported, Value, per_row, seat_mask
from tarot.core.actions import HOLD_TEXT


def _seat_rows(ctx: Ctx, seat: Value) -> tuple[np.ndarray, np.ndarray]:
    return ctx.rows, per_row(seat, ctx.size)


def _zone(name: str) -> Callable[[Ctx, Value], Cards]:
    def fact(ctx: Ctx, seat: Value) -> Cards:
        rows, seats = _seat_rows(ctx, seat)
        return Cards((getattr(ctx.state, name)[rows, seats],))

    return fact


def _piles(state: BatchState, rows: np.ndarray) -> Masks:
    """Each seat's scoring pile: tricks won, own discards, any talon set aside for it; where
    the ruleset names a seat for them once play is over (`scored_by`), every discard and the
    talon left on the table score for that seat alone, and until then for nobody."""
    piles = state.won[rows] | state.set_aside[rows]
    seats = np.arange(state.players)[None, :]
    if state.ruleset.discard_scored_by is None:
        piles = piles | state.discards[rows]
    else:
        every = np.bitwise_or.reduce(state.discards[rows], axis=1)  # [rows, words]
        to = state.discards_to[rows][:, None] == seats
        piles = piles | np.where(to[..., None], every[:, None, :], np.uint64(0))
    to_talon = state.talon_to[rows][:, None] == seats
    if to_talon.any():
        piles = piles | np.where(to_talon[..., None], state.talon[rows][:, None, :], np.uint64(0))
    return piles


def _pile(ctx: Ctx, seat: Value) -> Cards:
    rows, seats = _seat_rows(ctx, seat)
    return Cards((_piles(ctx.state, rows)[np.arange(len(rows)), seats],))


def pile_points(state: BatchState, piles: Masks) -> np.ndarray:
    """Card points of piles ([..., words]) as the ruleset counts them (float64)."""
    counting = state.ruleset.counting
    held = state.tables.layout.to_bools(piles)
    values = state.tables.values
    total = held @ values
    if counting.method == "sum":
        return total
    size = held.sum(axis=-1)
    counting_cards = held @ (values != 0).astype(np.float64)
    whole, leftover = np.divmod(size, counting.group_size)
    credit = np.array([0.0, *counting.partial_group_credit], dtype=np.float64)
    return total - counting_cards + whole + credit[leftover]


def _points(ctx: Ctx, seat: Value) -> Value:
    return pile_points(ctx.state, _pile(ctx, seat).terms[0])


def _side_cards(ctx: Ctx, seat: Value) -> Masks:
    rows, seats = _seat_rows(ctx, seat)
    members = ctx.state.sides(rows, seats)
    piles = np.where(members[..., None], _piles(ctx.state, rows), np.uint64(0))
    return np.bitwise_or.reduce(piles, axis=1)


def _side_pile(ctx: Ctx, seat: Value) -> Cards:
    return Cards((_side_cards(ctx, seat),))


def _side_points(ctx: Ctx, seat: Value) -> Value:
    return pile_points(ctx.state, _side_cards(ctx, seat))


def _opponents(ctx: Ctx, seat: Value) -> Value:
    others = ~seat_mask(seat, ctx.size, ctx.state.players)
    return others & ctx.state.in_play(ctx.rows) if ctx.state.tables.seating.sits_out else others


def _side(ctx: Ctx, seat: Value) -> Value:
    rows, seats = _seat_rows(ctx, seat)
    return ctx.state.sides(rows, seats)


def _declaration(ctx: Ctx, declaration: Value) -> int | None:
    ids = [d.id for d in ctx.state.ruleset.declarations]
    return ids.index(declaration) if declaration in ids else None


def _declared(ctx: Ctx, seat: Value, declaration: Value) -> Value:
    index = _declaration(ctx, declaration)
    rows, seats = _seat_rows(ctx, seat)
    if index is not None:
        return ctx.state.declared[rows, seats, index]
    redeals = [rule.id for rule in ctx.state.ruleset.redeals]
    if declaration in redeals:  # a redeal rule played on
        return ctx.state.declared_redeals[rows, seats, redeals.index(declaration)]
    questions = [s.question.id if s.question else None for s in ctx.state.ruleset.flow]
    if declaration in questions:  # a question of the flow answered yes
        return ctx.state.answered[rows, seats, questions.index(declaration)]
    return np.zeros(ctx.size, dtype=np.bool_)


def _declared_value(ctx: Ctx, seat: Value, declaration: Value) -> Value:
    index = _declaration(ctx, declaration)
    if index is None:
        return np.zeros(ctx.size)
    rows, seats = _seat_rows(ctx, seat)
    return ctx.state.declared_values[rows, seats, index]


def _trump_number(ctx: Ctx, card: Value) -> Value:
    cards = ctx.state.ruleset.deck.cards
    table = np.array([c.trump or 0 for c in cards], dtype=np.int64)
    return table[per_row(card, ctx.size)]


def _next_seat(ctx: Ctx, seat: Value) -> Value:
    if ctx.state.tables.seating.sits_out:  # the next seat in play
        return ctx.state.next_seat(ctx.rows, per_row(seat, ctx.size))
    return (per_row(seat, ctx.size) + 1) % ctx.state.players


def _tricks_won(ctx: Ctx, seat: Value) -> Value:
    rows, seats = _seat_rows(ctx, seat)
    return ctx.state.tricks_won[rows, seats]


def _fallen(ctx: Ctx, cards: Cards) -> tuple[Value, Value, Value]:
    """Of the first card of `cards` to fall in a finished trick: the trick's number, the
    seat that played it and the trick's winner (0, -1, -1 where none has fallen)."""
    state = ctx.state
    wanted = state.tables.layout.to_bools(
        np.broadcast_to(cards.union(), (ctx.size, state.tables.layout.words))
    )
    at = np.where(
        wanted & (state.fell_at[ctx.rows] > 0), state.fell_at[ctx.rows], np.iinfo(np.int64).max
    )
    first = np.argmin(at, axis=1)
    fallen = at[np.arange(ctx.size), first] < np.iinfo(np.int64).max
    number = np.where(fallen, at[np.arange(ctx.size), first] // state.players, 0)
    seat = np.where(fallen, state.fell_by[ctx.rows, first], -1)
    won_with = state.winning_cards[ctx.rows, np.maximum(number - 1, 0)]
    winner = np.where(fallen, state.fell_by[ctx.rows, np.maximum(won_with, 0)], -1)
    return number, seat, winner


def _trick_of(ctx: Ctx, cards: Cards) -> Value:
    return _fallen(ctx, cards)[0]


def _taken_by(ctx: Ctx, cards: Cards) -> Value:
    return _fallen(ctx, cards)[2]


def _played_by(ctx: Ctx, cards: Cards) -> Value:
    """The seat that played the first of `cards` to fall, in the finished tricks or else in
    the trick being played (-1: none)."""
    _number, seat, _winner = _fallen(ctx, cards)
    state = ctx.state
    trick = state.trick_cards[ctx.rows]
    wanted = np.broadcast_to(cards.union(), (ctx.size, state.tables.layout.words))
    there = state.tables.layout.contains(wanted[:, None, :], trick)
    place = np.argmax(there, axis=1)
    order = state.round_from(ctx.rows, state.leader[ctx.rows])
    on_table = np.where(there.any(axis=1), order[np.arange(ctx.size), place], -1)
    return np.where(np.asarray(seat) >= 0, seat, on_table)


def _position_in_trick(ctx: Ctx, cards: Cards) -> Value:
    """The place (from 1) in the trick being played of its first card among `cards` (0:
    none)."""
    state = ctx.state
    trick = state.trick_cards[ctx.rows]
    wanted = np.broadcast_to(cards.union(), (ctx.size, state.tables.layout.words))
    there = state.tables.layout.contains(wanted[:, None, :], trick)
    return np.where(there.any(axis=1), np.argmax(there, axis=1) + 1, 0)


def _called_card(ctx: Ctx) -> Cards:
    """The card the taker called, as a group of one (empty: none called)."""
    return Cards((ctx.state.tables.layout.from_cards(ctx.state.called[ctx.rows]),))


def _bonus(ctx: Ctx, bonus: Value) -> int | None:
    """The index of the bonus named `bonus` in the announcements' table (None: none)."""
    section = ctx.state.ruleset.announcements
    ids = [] if section is None else [b.id for b in section.table]
    return ids.index(bonus) if bonus in ids else None


def _announced(ctx: Ctx, seat: Value, bonus: Value) -> Value:
    index = _bonus(ctx, bonus)
    rows, seats = _seat_rows(ctx, seat)
    if index is None:
        return np.zeros(ctx.size, dtype=np.bool_)
    made = ctx.state.announced[rows, np.maximum(seats, 0), index] > 0
    return np.where(seats >= 0, made, False)


def _announced_by(ctx: Ctx, bonus: Value) -> Value:
    index = _bonus(ctx, bonus)
    if index is None:
        return np.zeros((ctx.size, ctx.state.players), dtype=np.bool_)
    return ctx.state.announced[ctx.rows, :, index] > 0


def _target(ctx: Ctx, target: Value) -> int | None:
    """The index of the doubling target named `target` (None: none)."""
    doubling = ctx.state.ruleset.doubling
    ids = [] if doubling is None else [t.id for t in doubling.targets]
    return ids.index(target) if target in ids else None


def _doublings(ctx: Ctx, target: Value) -> Value:
    index = _target(ctx, target)
    return 0 if index is None else ctx.state.doubled[ctx.rows, index]


def _doubling_factor(ctx: Ctx, target: Value) -> Value:
    doubling, index = ctx.state.ruleset.doubling, _target(ctx, target)
    if doubling is None or index is None:
        return 1
    factor = cast("int | float", constant(doubling.factor))  # binary: `inexact_values`
    return np.power(factor, ctx.state.doubled[ctx.rows, index])


def _seat_count(field: str) -> Callable[[Ctx, Value], Value]:
    """A fact reading the state's count `field` ([hands, seats]) for a seat (0: no seat)."""

    def fact(ctx: Ctx, seat: Value) -> Value:
        rows, seats = _seat_rows(ctx, seat)
        return np.where(seats >= 0, getattr(ctx.state, field)[rows, np.maximum(seats, 0)], 0)

    return fact


def _bid_position(ctx: Ctx, seat: Value) -> Value:
    """The seat's place in the order the auction speaks in, from 1 (0 for no seat)."""
    rows, seats = _seat_rows(ctx, seat)
    if ctx.state.tables.seating.sits_out:  # its place among the seats in play, if it plays
        order = ctx.state.round_from(rows, ctx.state.bid_first[rows])
        there = order == seats[:, None]
        return np.where(there.any(axis=1), np.argmax(there, axis=1) + 1, 0)
    place = (seats - ctx.state.bid_first[rows]) % ctx.state.players + 1
    return np.where(seats >= 0, place, 0)


def _passed_over(ctx: Ctx, seat: Value) -> Value:
    """The highest bid the seat's latest pass passed over, as records write it ('' for
    none): the contract's name, or `hold:NAME` for a hold."""
    rows, seats = _seat_rows(ctx, seat)
    bidding = ctx.state.ruleset.bidding
    ids = [] if bidding is None else [c.id for c in bidding.contracts]
    # by code: a rank r at r, a hold of rank r at len + r (-2 - r read from the end), none
    names = np.array([*ids, *(f"{HOLD_TEXT}:{i}" for i in reversed(ids)), ""], dtype=object)
    code = np.where(seats >= 0, ctx.state.passed_over[rows, np.maximum(seats, 0)], -1)
    return names[code]


def _bid_held(ctx: Ctx) -> Value:
    return ctx.state.bid_held[ctx.rows]


def _tricks_played(ctx: Ctx) -> Value:
    state = ctx.state
    if state.settled and state.played_tricks.shape[:1] == (state.size,):
        return state.played_tricks[ctx.rows]  # play over, at different tricks
    return max(state.trick_number - 1, 0) if state.total_tricks else 0


def _last_trick_cards(ctx: Ctx) -> Value:
    return Cards((ctx.state.last_trick[ctx.rows],))


def _last_trick_winner(ctx: Ctx) -> Value:
    return ctx.state.last_winner[ctx.rows]


def _winning_card(ctx: Ctx, number: Value) -> Value:
    """The card that won the `number`-th finished trick (from 1); none past those played."""
    state = ctx.state
    index = per_row(np.asarray(number), ctx.size).astype(np.int64) - 1
    played = _tricks_played(ctx)
    there = (index >= 0) & (index < played)
    safe = np.clip(index, 0, state.winning_cards.shape[1] - 1)
    cards = state.winning_cards[ctx.rows, safe]
    return Cards((state.tables.layout.from_cards(np.where(there, cards, -1)),))


def _dealt_cards(ctx: Ctx, seat: Value, keep: Callable[[np.ndarray], np.ndarray]) -> Cards:
    """The cards dealt to each seat at the places of its deal that `keep` picks (from the
    deal's table of places, [dealer, seat, places] of the pack, -1 past the last)."""
    state = ctx.state
    rows, seats = _seat_rows(ctx, seat)
    places, packets = state.tables.places, state.tables.packet_numbers
    chosen = places[state.dealer[rows], seats]
    picked = keep(packets[state.dealer[rows], seats]) & (chosen >= 0)
    cards = np.take_along_axis(state.packs[rows], np.maximum(chosen, 0), axis=1)
    masks = state.tables.layout.from_cards(np.where(picked, cards, -1))
    return Cards((np.bitwise_or.reduce(masks, axis=1),))


def _packet(ctx: Ctx, seat: Value, number: Value) -> Cards:
    wanted = per_row(np.asarray(number), ctx.size)
    wanted = np.where(wanted >= 1, np.floor(wanted), 0)  # as `packets[int(number) - 1]`
    return _dealt_cards(ctx, seat, lambda packet: packet == wanted[:, None])


def _first_cards(ctx: Ctx, seat: Value, number: Value) -> Cards:
    wanted = per_row(np.asarray(number), ctx.size).astype(np.int64)
    return _dealt_cards(ctx, seat, lambda packet: np.arange(packet.shape[1]) < wanted[:, None])


def _talon(ctx: Ctx) -> Value:
    return Cards((ctx.state.talon_dealt[ctx.rows],))


def _hand_number(ctx: Ctx) -> Value:
    return ctx.state.numbers[ctx.rows]


def _thrown_in(ctx: Ctx, reason: Value) -> Value:
    """How many deals of the hand the redeal rule `reason` (or `'all_passed'`) threw in: the
    deals thrown in are counted as the rules that fired (`THROWN_IN`), and a deal thrown in
    for good ends the hand, so while a hand is played the count is of those dealt again."""
    key = ctx.state.rule_keys.get(f"{THROWN_IN}:{reason}")
    return 0 if key is None else ctx.state.fired[ctx.rows, key].astype(np.int64)


def _total(ctx: Ctx, seat: Value) -> Value:
    """The seat's game total: the hands before it in a sitting (none for a hand played
    alone), the hand's result so far, and in rulesets that score hands, the seat's score
    as it stands until the settlement."""
    rows, seats = _seat_rows(ctx, seat)
    state = ctx.state
    net = state.net[rows, seats]
    if state.totals_before.shape[:1] == (state.size,):  # a sitting's hand: the game before
        net = net + state.totals_before[rows, seats]
    if state.hand_score is not None and not state.settled:
        scored = state.hand_score(Ctx(state, ctx.rows, {**state.names(ctx.rows), "player": seats}))
        net = net + per_row(scored, len(rows)) * state.scale
    # counted in 1/scale: the nearest float, which only comparisons read (`ArrayCompiler`)
    return unscaled(net, state.scale)


def _question(ctx: Ctx, question: Value) -> int | None:
    """The index of the question during play named `question` (None: none)."""
    ids = [q.id for q in ctx.state.ruleset.questions]
    return ids.index(question) if question in ids else None


def _answer(ctx: Ctx, question: Value) -> Value:
    """The seats found holding a card of the question (none if it was not asked)."""
    index = _question(ctx, question)
    if index is None:
        return np.zeros((ctx.size, ctx.state.players), dtype=np.bool_)
    return ctx.state.answers[ctx.rows, index]


def _asker(ctx: Ctx, question: Value) -> Value:
    """The seat that asked the question (-1: nobody did)."""
    index = _question(ctx, question)
    return -1 if index is None else ctx.state.asker[ctx.rows, index]


#: the batch back end's implementation of the vocabulary's facts, by name
ARRAY_FACTS: dict[str, Callable[..., Value]] = {
    "hand": _zone("hands"),
    "discards": _zone("discards"),
    "tricks": _zone("won"),
    "played": _zone("played"),
    "pile": _pile,
    "points": _points,
    "winning_card": _winning_card,
    "packet": _packet,
    "first_cards": _first_cards,
    "talon": _talon,
    "opponents": _opponents,
    "declared": _declared,
    "declared_value": _declared_value,
    "trump_number": _trump_number,
    "next_seat": _next_seat,
    "side": _side,
    "side_pile": _side_pile,
    "side_points": _side_points,
    "tricks_won": _tricks_won,
    "tricks_played": _tricks_played,
    "bid_position": _bid_position,
    "told_discards": _seat_count("told"),
    "called_card": _called_card,
    "doublings": _doublings,
    "doubling_factor": _doubling_factor,
    "announced": _announced,
    "announced_by": _announced_by,
    "position_in_trick": _position_in_trick,
    "trick_of": _trick_of,
    "taken_by": _taken_by,
    "played_by": _played_by,
    "bids_made": _seat_count("bids_made"),
    "bid_held": _bid_held,
    "bid_jump": _seat_count("bid_jumps"),
    "bid_number": _seat_count("bid_at"),
    "pass_number": _seat_count("passed_at"),
    "passed_over": _passed_over,
    "last_trick_cards": _last_trick_cards,
    "last_trick_winner": _last_trick_winner,
    "hand_number": _hand_number,
    "total": _total,
    "runs": runs,
    "thrown_in": _thrown_in,
    "announce_passes": _seat_count("announce_passes"),
    "answer": _answer,  # questions during play: `batch.phases.questions`
    "asker": _asker,
}


#: the vocabulary's facts the batch back end does not run, each with what it lacks: a ruleset
#: that asks for one runs on the scalar engine
REFUSED_FACTS: dict[str, str] = {}


def fact(name: str) -> Callable[..., Value]:
    """The array implementation of a fact; Unsupported, with what it lacks, for a refused one."""
    if name not in ARRAY_FACTS:
        lacking = REFUSED_FACTS.get(name, "")
        reason = f" (it does not keep {lacking})" if lacking else ""
        raise Unsupported(f"the fact {name}() is not kept by the batch back end{reason}")
    return ARRAY_FACTS[name]
