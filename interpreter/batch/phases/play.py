"""Trick play: the legal cards of every hand at once, a card chosen, the trick won, the
payments of each card played and each trick's end.

Where it sits: a batch phase (`tarot.batch.phases`) after the declarations; the scalar
engine's is `tarot.engine.phases.play`, with the trick rules of
`tarot.engine.tricks` (follow suit, trump, overtrump, beat the trick, the Fool) here as mask
operations. Each hand plays under its contract's play rules (`tarot.batch.contract_play`):
the hands of each set of rules are played as a batch of their own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tarot.batch.contract_play import TrickPlay
from tarot.batch.lasting import pay_transfers
from tarot.batch.masks import Bools, Ints, Masks, any_card, count
from tarot.batch.phases import exchange, piles, questions, stock
from tarot.batch.phases.announce import keep_back
from tarot.batch.phases.card_rules import restricted
from tarot.batch.phases.declare import BEFORE_OWN_FIRST_CARD, declare_seat
from tarot.batch.phases.exceptions import exceptional_winner
from tarot.batch.phases.pile_tops import take_pile_tops
from tarot.batch.phases.settle import settle
from tarot.batch.players import choose_card
from tarot.batch.program import Program
from tarot.batch.state import BatchState, Logged
from tarot.batch.tables import DeckTables
from tarot.batch.values import Cards, Ctx, per_row
from tarot.core.ruleset import PlayRules
from tarot.engine.events import At, PaymentTime
from tarot.engine.lasting import TRICK


class Excuses:
    """The cards that play as the Fool: the deck's Fools, or in rulesets that choose them
    per hand (`play.excuse.cards`), each hand's own; with the deck's tables as the hand's
    play rules play it (`tables`: the state's, unless given)."""

    def __init__(self, state: BatchState, per_hand: bool, tables: DeckTables | None = None) -> None:
        self.tables = state.tables if tables is None else tables
        self.per_hand = per_hand
        self.mask: Masks = state.excuses if per_hand else self.tables.fools

    def of(self, cards: Ints) -> Bools:
        """Whether each card ([hands] or [hands, k]) plays as the Fool in its hand."""
        if not self.per_hand:
            return self.tables.is_fool[cards]
        shape = (len(self.mask), *([1] * (cards.ndim - 1)), self.tables.layout.words)
        return self.tables.layout.contains(self.mask.reshape(shape), cards)


def _lead(excuses: Excuses, trick: Ints, played: int) -> Ints:
    """The card that sets what must be followed: the first that is not a Fool (-1: none)."""
    lead = np.full(trick.shape[0], -1, dtype=np.int64)
    for position in range(played):
        card = trick[:, position]
        open_ = (lead < 0) & ~excuses.of(card)
        lead = np.where(open_, card, lead)
    return lead


def _overtrumping(rules: PlayRules, tables: DeckTables, trumps: Masks, best: Ints) -> Masks:
    if not rules.overtrump:
        return trumps
    higher = trumps & tables.beating_trumps[best]
    return np.where(any_card(higher)[:, None], higher, trumps)


def legal(rules: PlayRules, excuses: Excuses, hand: Masks, trick: Ints, played: int) -> Masks:
    """The cards each hand may play to its trick of `played` cards (`tricks.legal_cards`)."""
    tables = excuses.tables
    others = hand & ~excuses.mask
    has_others = any_card(others)[:, None]
    if played == 0:
        return hand if rules.fool_may_lead else np.where(has_others, others, hand)
    lead = _lead(excuses, trick, played)
    trumps = others & tables.trumps
    has_trumps = any_card(trumps)[:, None]
    overtrumps = trumps
    if rules.overtrump:
        strengths = tables.strength[trick[:, :played]]
        best = np.where(tables.is_trump[trick[:, :played]], strengths, 0).max(axis=1)
        overtrumps = _overtrumping(rules, tables, trumps, best)
    safe_lead = np.maximum(lead, 0)
    lead_trump = tables.is_trump[lead]
    if rules.trump_when_trump_led:
        on_trump = np.where(has_trumps, overtrumps, others)
    else:
        on_trump = others
    on_suit = others
    if rules.trump_when_void:
        on_suit = np.where(has_trumps, overtrumps, others)
    if rules.follow_suit and len(tables.suits):
        suit = tables.suit[safe_lead]
        following = others & tables.suits[np.maximum(suit, 0)]
        on_suit = np.where(any_card(following)[:, None], following, on_suit)
    required = np.where(lead_trump[:, None], on_trump, on_suit)
    if rules.must_beat:
        beating = required & _beating(excuses, trick, played, lead)
        required = np.where(any_card(beating)[:, None], beating, required)
    choices = required | (hand & excuses.mask)
    choices = np.where((lead < 0)[:, None], hand, choices)
    return np.where((count(hand) <= 1)[:, None], hand, choices)


def _keys(tables: DeckTables, cards: Ints, lead_suit: Ints) -> Ints:
    """What each card ([hands, k]) counts for in its hand's trick: 1000 + strength for a
    trump, its strength for a card of the suit led (`lead_suit`, [hands]: -1 for a trump led
    or none), -1 for another."""
    follows = (tables.suit[cards] == lead_suit[:, None]) & (lead_suit[:, None] >= 0)
    strength = tables.strength[cards]
    return np.where(tables.is_trump[cards], 1000 + strength, np.where(follows, strength, -1))


def _beating(excuses: Excuses, trick: Ints, played: int, lead: Ints) -> Masks:
    """The cards that would take the lead in each trick from every card on it
    (`tricks._beating`): stronger than the best, or as strong and of a group whose last
    played wins; every card where nothing is led yet."""
    tables = excuses.tables
    lead_suit = np.where(lead >= 0, tables.suit[np.maximum(lead, 0)], -1)
    lead_suit = np.where(tables.is_trump[lead], -1, lead_suit)
    on_table = trick[:, :played]
    best = np.where(excuses.of(on_table), -1, _keys(tables, on_table, lead_suit)).max(axis=1)
    cards = np.arange(tables.layout.cards)[None, :]
    keys = _keys(tables, np.broadcast_to(cards, (len(trick), tables.layout.cards)), lead_suit)
    later = tables.beats_equal[cards]
    beats = (keys > best[:, None]) | ((keys == best[:, None]) & (keys >= 0) & later)
    beats |= (lead < 0)[:, None]
    return tables.layout.from_bools(beats)


def winners(excuses: Excuses, trick: Ints, seats: Ints) -> Ints:
    """The seat that wins each trick (`tricks.trick_winner`)."""
    tables = excuses.tables
    size, players = trick.shape
    lead = _lead(excuses, trick, players)
    lead_suit = np.where(lead >= 0, tables.suit[np.maximum(lead, 0)], -2)
    excuse, trump = excuses.of(trick), tables.is_trump[trick]
    strength = tables.strength[trick]
    follows = (tables.suit[trick] == lead_suit[:, None]) & ~trump
    key = np.where(trump, 1000 + strength, np.where(follows, strength, -1))
    key = np.where(excuse, -1, key)
    if not tables.beats_equal.any():  # of equal cards the first played wins
        return seats[np.arange(size), np.argmax(key, axis=1)]
    later = tables.beats_equal[trick]
    best, at = key[:, 0], np.zeros(size, dtype=np.int64)
    for position in range(1, players):
        here = key[:, position]
        takes = (here > best) | ((here == best) & (here >= 0) & later[:, position])
        best, at = np.where(takes, here, best), np.where(takes, position, at)
    return seats[np.arange(size), at]


#: a card for each hand: (state, seats to play, their legal cards, the trick so far, cards
#: on it, the excuses) -> (the cards chosen, how many there were to choose from)
CardChooser = Callable[[BatchState, Ints, Masks, Ints, int, Excuses], tuple[Ints, Ints]]


def random_card(
    state: BatchState, seats: Ints, legal: Masks, _trick: Ints, _played: int, _excuses: Excuses
) -> tuple[Ints, Ints]:
    """The random player's card (`players.choose_card`)."""
    return choose_card(state, np.arange(state.size), seats, legal, "play")


@dataclass(frozen=True)
class Resume:
    """Trick play taken up in the middle of a hand (the search player's play-outs): the
    trick being played, how many there are, and the cards already on its table ([hands,
    players], -1 past the `played` first). The state's `excuses` are each hand's.
    `forced`: the card each hand plays next, as a choice already made (a search player's
    action tried): played without asking the chooser, and not counted among its decisions."""

    trick_number: int
    total_tricks: int
    trick: Ints
    played: int
    forced: Ints | None = None

    def part(self, rows: Ints) -> Resume:
        """The same for the hands `rows` alone."""
        forced = None if self.forced is None else self.forced[rows]
        return dataclasses.replace(self, trick=self.trick[rows], forced=forced)


def play(
    program: Program,
    state: BatchState,
    chooser: CardChooser = random_card,
    resume: Resume | None = None,
) -> None:
    """Trick play to the end of every hand of `state`, each under its contract's play rules
    (the hands of each set of rules in a batch of their own; a chooser with a `subset`
    method, whose draws are kept by row, is given the rows of each); then the settlement
    of every hand at once, wherever its play ended."""
    state.played_tricks = np.zeros(state.size, dtype=np.int64)
    groups = list(program.plays.groups(state.contract))
    if resume is None:  # the ranks a hand's cards play at are changed as play begins
        groups = [
            group for trick_play, rows in groups for group in _ranked(trick_play, state, rows)
        ]
    if len(groups) == 1:
        _play(program, groups[0][0], state, chooser, resume)
    else:
        _play_groups(program, state, chooser, resume, groups)
    _settle(program, state)


def _play_groups(
    program: Program,
    state: BatchState,
    chooser: CardChooser,
    resume: Resume | None,
    groups: list[tuple[TrickPlay, Ints]],
) -> None:
    """The hands of each set of play rules played as a batch of their own."""
    for trick_play, rows in groups:
        part = state.take(rows)
        subset = getattr(chooser, "subset", None)
        _play(
            program,
            trick_play,
            part,
            chooser if subset is None else subset(rows),
            None if resume is None else resume.part(rows),
        )
        state.put(rows, part)


def _ranked(trick_play: TrickPlay, state: BatchState, rows: Ints) -> list[tuple[TrickPlay, Ints]]:
    """The hands `rows` that play under `trick_play`, in groups whose cards rank alike
    (`play.rank_changes`: `tarot.batch.rank_changes`), each group's rules with its tables."""
    changes = trick_play.rank_changes
    if changes is None:
        return [(trick_play, rows)]
    return [
        (
            dataclasses.replace(
                trick_play,
                tables=changed.tables,
                rank_changes=None,
                excuses_kept=changed.excuses_kept,
            ),
            rows[places],
        )
        for changed, places in changes.groups(state, rows)
    ]


def _play(
    program: Program,
    trick_play: TrickPlay,
    state: BatchState,
    chooser: CardChooser,
    resume: Resume | None,
) -> None:
    """Trick play for hands that all play under `trick_play`."""
    ruleset, tables = state.ruleset, state.tables
    layout, n = tables.layout, tables.seating.in_hand  # the seats in play
    rows = np.arange(state.size)
    rules = trick_play.rules
    before_first_card = any(
        (d.timing or ruleset.declaration_timing) == BEFORE_OWN_FIRST_CARD
        for d in ruleset.declarations
    )
    names = state.names(rows)
    forced = None
    if resume is None:
        leader = state.leader[:1]
        state.total_tricks = int(count(state.hands[0, leader[0]]))
        state.total_tricks += int(piles.cards_on_piles(state, rows[:1], leader)[0])
        state.total_tricks += int(stock.drawn_left(program, state, rows[:1])[0]) // n
        excuses = _excuses(program, state, names, trick_play.tables, trick_play.excuses_kept)
        first = 1
        if trick_play.pile_tops_to_hand is not None:
            take_pile_tops(trick_play.pile_tops_to_hand, state, 1)
    else:
        state.total_tricks = resume.total_tricks
        first = resume.trick_number
        forced = resume.forced
        fools = (state.excuses == tables.fools[None, :]).all()
        excuses = Excuses(state, per_hand=not fools, tables=trick_play.tables)
    for number in range(first, state.total_tricks + 1):
        state.trick_number = number
        last = number == state.total_tricks
        trick = np.full((state.size, n), -1, dtype=np.int64)
        trick_seats = state.round_from(rows, state.leader)
        on_table = layout.empty(state.size)
        start = 0
        if resume is not None and number == first:
            start = resume.played
            trick[:, :start] = resume.trick[:, :start]
            on_table = np.bitwise_or.reduce(layout.from_cards(trick), axis=1)
        state.trick_cards = trick  # filled in as the cards fall
        at = At(PaymentTime.TRICK, number)
        variables = {
            **names,
            "trick_number": number,
            "last_trick": last,
            "leader": state.leader.copy(),
        }
        if start == 0 and program.hand.questions:  # asked before the trick is led
            questions.ask_before(program, state, rows, number)
        for position in range(start, n):
            seats = trick_seats[:, position]
            counts: Ints | None = None
            if forced is not None and number == first and position == start:
                cards = forced  # chosen already: the chooser's decisions start after it
                if state.logging:
                    state.decision_log.append(
                        Logged(np.arange(state.size), ("card", "play", seats, cards))
                    )
            else:
                if number == 1 and before_first_card:
                    declare_seat(program, state, seats, BEFORE_OWN_FIRST_CARD)
                hand = piles.playable(state, rows, seats)
                choices = legal(rules, excuses, hand, trick, position)
                if trick_play.restricts:
                    seen = {**variables, "player": seats, "trick": Cards((on_table,))}
                    choices = restricted(trick_play, Ctx(state, rows, seen), choices, position == 0)
                if program.announcements is not None:
                    choices = keep_back(state, seats, choices)
                cards, counts = chooser(state, seats, choices, trick, position, excuses)
            bits = layout.from_cards(cards)
            state.hands[rows, seats] &= ~bits
            piles.take_top(state, rows, seats, cards)
            state.played[rows, seats] |= bits
            trick[:, position] = cards
            on_table = on_table | bits
            ctx = Ctx(
                state,
                rows,
                {**variables, "player": seats, "card": cards, "trick": Cards((on_table,))},
            )
            program.fire(state, "card_played", ctx, at)
            ending = None
            if position == n - 1:
                _end_trick(
                    program, trick_play, state, excuses, trick, trick_seats, variables, at, last
                )
                if (state.debtors[:, :1] >= 0).any():  # a Fool is still to be paid for
                    exchange.pay_debts(program, state, names)
                if trick_play.pile_tops_to_hand is not None:
                    take_pile_tops(trick_play.pile_tops_to_hand, state, number)
                if last:  # settled with the others once they are over (`_settle`)
                    state.played_tricks[:] = number
                elif trick_play.ends_play:
                    ending = _play_ended(trick_play, state, names)
            if counts is not None:
                state.decided(rows, counts)
        if ending is not None and ending.any():
            _play_on(program, trick_play, state, chooser, ~ending, number + 1)
            return


def _play_ended(trick_play: TrickPlay, state: BatchState, names: dict[str, object]) -> Bools:
    """The hands whose play ends after this trick (a seat claimed the game, or the play
    rules' `ends_when` holds): they play no more (and are settled with the others)."""
    ctx = Ctx(state, np.arange(state.size), names)
    ending = np.zeros(state.size, dtype=np.bool_)
    for rule in trick_play.ends_play:
        ending |= per_row(rule.fn(ctx), state.size).astype(np.bool_)
    state.played_tricks[ending] = state.trick_number
    return ending


def _settle(program: Program, state: BatchState) -> None:
    """The settlement of every hand once its play is over, all at once: as the scalar
    engine settles each hand after its last card, before the decision that played it is
    noted, each hand's leader after that decision is noted again."""
    state.trick_number = (
        state.total_tricks
    )  # past the last trick (each hand's own: `played_tricks`)
    settle(program, state, state.names(np.arange(state.size)))
    state.note_leaders(np.arange(state.size))


def _play_on(
    program: Program,
    trick_play: TrickPlay,
    state: BatchState,
    chooser: CardChooser,
    going: Bools,
    number: int,
) -> None:
    """The tricks from `number` on, played by the hands `going` alone (the others are over)."""
    rows = np.flatnonzero(going)
    if not len(rows):
        return
    part = state.take(rows)
    blank = np.full((part.size, state.tables.seating.in_hand), -1, dtype=np.int64)
    resume = Resume(number, state.total_tricks, blank, 0)
    subset = getattr(chooser, "subset", None)
    _play(program, trick_play, part, chooser if subset is None else subset(rows), resume)
    state.put(rows, part)


def _excuses(
    program: Program,
    state: BatchState,
    names: dict[str, object],
    tables: DeckTables,
    kept: Masks | None = None,
) -> Excuses:
    """The cards that play as the Fool in each hand, worked out as play begins (`tables`:
    the deck's as the hand's play rules play it; `kept`: with the ranks changed, the cards
    that may still play as the Fool)."""
    rule = program.hand.excuse_cards
    if rule is None:
        return Excuses(state, per_hand=False, tables=tables)
    rows = np.arange(state.size)
    chosen = rule.fn(Ctx(state, rows, names)).union()
    if kept is not None:
        chosen = chosen & kept
    state.excuses = np.ascontiguousarray(
        np.broadcast_to(chosen, (state.size, state.tables.layout.words))
    )
    return Excuses(state, per_hand=True, tables=tables)


def _end_trick(
    program: Program,
    trick_play: TrickPlay,
    state: BatchState,
    excuses: Excuses,
    trick: Ints,
    seats: Ints,
    variables: dict[str, object],
    at: At,
    last: bool,
) -> None:
    tables, rows = state.tables, np.arange(state.size)
    layout = tables.layout
    play_rules = trick_play.rules
    winner = winners(excuses, trick, seats)
    if last and play_rules.fool_wins_last_trick_after_all:
        winner = _fool_wins_after_all(state, excuses, trick, seats, winner)
    if trick_play.exceptions:
        winner = exceptional_winner(trick_play.exceptions, state, seats, variables, winner)
    fool_kept = not last or play_rules.fool_in_last_trick == "kept"
    on_table = layout.from_cards(trick)
    whole = Cards((np.bitwise_or.reduce(on_table, axis=1),))
    for position in range(trick.shape[1]):
        card, seat = trick[:, position], seats[:, position]
        excused = excuses.of(card) & fool_kept
        keeper = np.where(excused, seat, winner)
        state.won[rows, keeper] |= on_table[:, position]
        if play_rules.excuse_exchange is not None:
            exchange.owe(state, keeper, winner)
        ctx = Ctx(
            state,
            rows,
            {
                **variables,
                "player": seat,
                "card": card,
                "trick": whole,
                "winner": winner,
                "keeper": keeper,
            },
        )
        program.fire(state, "trick_end", ctx, at)
    state.trick_cards = np.full_like(trick, -1)  # the trick is taken, and logged
    places = state.trick_number * state.players + np.arange(trick.shape[1])[None, :]
    state.fell_at[rows[:, None], trick] = places
    state.fell_by[rows[:, None], trick] = seats
    state.tricks_won[rows, winner] += 1
    won_with = np.argmax(seats == winner[:, None], axis=1)
    state.winning_cards[rows, state.trick_number - 1] = trick[rows, won_with]
    state.last_trick = whole.terms[0]
    state.last_winner = winner
    if program.lasting is not None:  # the transfers see the trick taken
        trick_names = {**variables, "trick": whole, "winner": winner}
        pay_transfers(program.lasting, state, TRICK, rows, trick_names)
    state.leader = winner
    stock.after_trick(program, state, winner)


def _fool_wins_after_all(
    state: BatchState, excuses: Excuses, trick: Ints, seats: Ints, winner: Ints
) -> Ints:
    """The last trick goes to a Fool led to it by a side that won every trick before."""
    rows = np.arange(state.size)
    first = seats[:, 0]
    side = state.sides(rows, first)
    side_tricks = np.where(side, state.tricks_won, 0).sum(axis=1)
    wins = excuses.of(trick[:, 0]) & (side_tricks == state.trick_number - 1)
    return np.where(wins, first, winner)
