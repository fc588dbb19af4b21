"""Trick play: whose turn, the legal cards, a card played, a trick won, the stock drawn from
after it, the Fool's debts paid, and a game claimed or play ended early.

Where it sits: a phase of the hand (`tarot.engine.phases`) after the declarations; it
asks for the declarations made before a seat's first card (`declare.next_declaration`). Who
may play what and who wins are the trick rules' (`tarot.engine.tricks`), narrowed by
the hand's own card rules (`restricted`). The hand's play rules are settled once the auction
and the call are over (`settle_rules`): the contract's own, the first leader and the sides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tarot.core.actions import Decision, DecisionKind
from tarot.core.cards import Pack
from tarot.core.ruleset import PlayRules  # at run time: the compiled build reads field types
from tarot.engine import sides
from tarot.engine import tricks as trick_rules
from tarot.engine.events import at_trick
from tarot.engine.lasting import TRICK, pay_transfers
from tarot.engine.phases import announce, ask, declare, settle, talon
from tarot.engine.pile_tops import take_pile_tops
from tarot.engine.rank_changes import changed_pack
from tarot.engine.seating import first_leader
from tarot.engine.showing import show_cards
from tarot.engine.values import selected_seats
from tarot.expressions import EvaluationError

if TYPE_CHECKING:
    from tarot.core.ruleset import Evaluator
    from tarot.engine.state import HandState

CARD_PLAYED, TRICK_END = "card_played", "trick_end"  # the events of trick play
PLAY = DecisionKind.PLAY

#: a finished trick: its number, its leader, its (seat, card) in play order, its winner
Trick = tuple[int, int, list[tuple[int, int]], int]


@dataclass(slots=True)
class PlayState:
    """Trick play's part of a hand's state (`state.play`): the hand's play rules (its
    contract's, once the auction is over), the pack as they play it and the sides they give
    (None: from the auction), see `settle_rules`; who leads, the trick being played and how
    many there are, the cards that play as the Fool; the hand's one trick history
    (`trick_log`); the Fool's debts and the cards handed over for them; when the called card
    fell, and the seats that claimed the game; once play is over, the seats the discards and
    the talon left on the table score for where the ruleset names them then (`scored_by`;
    None: nobody, or not yet); the cards `rank_changes` moved for the hand; the pile tops
    taken into a hand (`pile_tops_to_hand`) with the trick after which each was taken. The
    tricks logged and the exchanges made are never changed once written, so a copy shares
    them."""

    rules: PlayRules
    trick_pack: Pack
    side_table: tuple[tuple[int, ...], ...] | None
    leader: int
    trick_number: int
    total_tricks: int
    excuses: frozenset[int]
    trick_log: list[Trick]
    excuse_debts: list[tuple[int, int]]  # (the Fool's holder, the trick's winner)
    exchanges: list[dict]  # cards handed over for the Fool
    partner_shown_at: int | None  # the trick in which the called card fell
    claimed: tuple[int, ...]  # seats that claimed the game during play
    discards_to: int | None  # the seat every discard scores for, named when play ends
    talon_to: int | None  # the seat the talon left on the table scores for, named then
    ranks_changed: tuple[tuple[tuple[int, ...], str], ...]  # (cards, place) moved for the hand
    tops_taken: list[tuple[int, int, tuple[int, ...]]]  # (after trick, seat, cards) to the hand

    @classmethod
    def new(cls, rules: PlayRules, pack: Pack, leader: int, excuses: frozenset[int]) -> PlayState:
        """Before play: the ruleset's own play rules, no trick played yet."""
        return cls(
            rules, pack, None, leader, 0, 0, excuses, [], [], [], None, (), None, None, (), []
        )

    def copy(self) -> PlayState:
        return PlayState(
            self.rules,
            self.trick_pack,
            self.side_table,
            self.leader,
            self.trick_number,
            self.total_tricks,
            self.excuses,
            list(self.trick_log),
            list(self.excuse_debts),
            list(self.exchanges),
            self.partner_shown_at,
            self.claimed,
            self.discards_to,
            self.talon_to,
            self.ranks_changed,
            list(self.tops_taken),
        )


def settle_rules(state: HandState) -> None:
    """Once the auction and the call are over: the hand's play rules (its contract's own, if
    it has them), the pack as they play it, who leads to the first trick, and the sides."""
    ruleset = state.ruleset
    rules = state.play.rules = ruleset.play_for(state.auction.contract)
    cards = ruleset.deck.cards
    state.play.trick_pack = cards.plain_trumps if rules.trumps_as_suit else cards
    if rules.leader is not None:
        state.play.leader = _first_leader(state, rules.leader)
    elif rules.first_leader == "taker" and state.auction.taker is not None:
        state.play.leader = state.auction.taker
    elif rules is not ruleset.play:  # a contract's own rules may name another leader
        state.play.leader = first_leader(state.seating, state.dealer, rules.first_leader)
    state.play.side_table = None if rules.sides is None else sides.side_table(state, rules.sides)
    state._changed()


def _first_leader(state: HandState, rule: Evaluator) -> int:
    seats = selected_seats(state.evaluate(rule))
    if not seats:
        error = EvaluationError("`first_leader` selects nobody; it must give a seat")
        error.where = getattr(rule, "where", "")
        raise state._reported(error)
    return seats[0]


def enter(state: HandState) -> None:
    """The cards that play as the Fool in this hand, the number of tricks, and the cards
    shown when play begins (`show` rules with `after_trick: 0`)."""
    state.play.excuses = excuse_cards(state)
    if state.play.rules.rank_changes:
        _change_ranks(state)
    zones, players = state.zones, len(state.seating.in_play)
    state.play.total_tricks = (
        len(zones.hands[state.play.leader])
        + sum(map(len, zones.piles[state.play.leader]))
        + len(stock(state)) // players
    )
    state.play.trick_number = 1
    if state.play.rules.pile_tops_to_hand is not None:
        take_pile_tops(state, 0)
    if state.ruleset.shows:
        show_cards(state, 0)  # the rules that show cards when play begins


def decide(state: HandState) -> bool:
    """The next card (after the seat's declarations before its first card); False once
    every card is played."""
    zones = state.zones
    if not (any(zones.hands) or any(map(any, zones.piles))):  # `cards_left`
        return False
    ruleset = state.ruleset
    if ruleset.questions and not zones.trick and ask.decide_in_play(state):
        return True
    seat = state.seating.rounds[state.play.leader][len(zones.trick)]
    if state.play.trick_number == 1 and declare.next_declaration(
        state, seat, declare.BEFORE_OWN_FIRST_CARD
    ):
        return True
    rules, pack = state.play.rules, state.play.trick_pack
    playable = state.playable(seat) if zones.piles[seat] else zones.hands[seat]
    legal = trick_rules.legal_cards(rules, pack, playable, zones.trick, state.play.excuses)
    if rules.restricts:
        legal = restricted(state, seat, legal)
    if state.announce.kept_back:
        legal = announce.keep_back(state, seat, legal)
    if not legal:
        raise state._reported(EvaluationError(_nothing_to_play(seat, bool(playable))))
    # the hand's pack has the deck's ids (only its suits and trumps may differ)
    state.decision = Decision(seat, PLAY, legal, list(map(pack.ids.__getitem__, legal)))
    return True


def to_play(state: HandState) -> int:
    return state.seating.rounds[state.play.leader][len(state.zones.trick)]


def restricted(state: HandState, seat: int, legal: list[int]) -> list[int]:
    """The legal cards narrowed by the hand's card rules: a `forced` card the trick rules
    allow must be played; then, of the cards left, one `lead_forbidden` (when leading) or
    `held_back` is played only when nothing else may be (LANGUAGE.md, play rules)."""
    rules, trick = state.play.rules, state.zones.trick
    variables = {
        "player": seat,
        "trick": tuple(c for _s, c in trick),
        "trick_number": state.play.trick_number,
        "last_trick": state.play.trick_number == state.play.total_tricks,
        "leader": state.play.leader,
    }
    if rules.forced is not None:
        forced = frozenset(state.evaluate(rules.forced, variables))
        legal = [c for c in legal if c in forced] or legal
    for rule in (rules.lead_forbidden if not trick else None, rules.held_back):
        if rule is not None:
            refused = frozenset(state.evaluate(rule, dict(variables)))
            legal = [c for c in legal if c not in refused] or legal
    return legal


def _change_ranks(state: HandState) -> None:
    """The cards the play rules' `rank_changes` move for this hand, moved in the pack the
    tricks play with; a card made a trump no longer plays as the Fool."""
    changes = tuple(
        (tuple(state.evaluate(change.cards)), change.to) for change in state.play.rules.rank_changes
    )
    state.play.ranks_changed = changes
    before = state.play.trick_pack
    pack = state.play.trick_pack = changed_pack(before, changes)
    state.play.excuses = frozenset(
        card
        for card in state.play.excuses
        if (card in pack.trumps) == (card in before.trumps) and pack.suit[card] == before.suit[card]
    )
    state._changed()


def excuse_cards(state: HandState) -> frozenset[int]:
    """The cards that play as the Fool in this hand: the Fool, unless the play rules'
    `excuse.cards` say otherwise for the hand as dealt and declared."""
    rule = state.play.rules.excuse_cards
    return state.ruleset.deck.fools if rule is None else frozenset(state.evaluate(rule))


def cards_left(state: HandState) -> bool:
    """Whether any card is still to be played, from a hand or a pile on the table."""
    return any(state.zones.hands) or any(map(any, state.zones.piles))


def play(state: HandState, decision: Decision, card: int) -> None:
    seat, zones = decision.seat, state.zones
    hand = zones.hands[seat]
    if card in hand:
        hand.remove(card)
    else:  # the top of one of its piles; the card beneath is now the face-up top
        next(pile for pile in zones.piles[seat] if pile and pile[-1] == card).pop()
    zones.trick.append((seat, card))
    zones.played[seat].append(card)
    if card == state.auction.called_card and state.play.partner_shown_at is None:
        state.play.partner_shown_at = state.play.trick_number
    rules = state.ruleset.rule_index.by_card(CARD_PLAYED)[card]
    if rules:  # the event's variables are built only for a card that may fire a rule
        at = at_trick(state.play.trick_number)
        state._fire_rules(rules, state._trick_vars(seat, card), at)
    if len(zones.trick) == len(state.seating.in_play):
        _end_trick(state)


def _end_trick(state: HandState) -> None:
    zones, ruleset, memo = state.zones, state.ruleset, state.memo
    play_rules = state.play.rules
    trick, excuses = zones.trick, state.play.excuses
    last = state.play.trick_number == state.play.total_tricks
    winner = trick_rules.trick_winner(state.play.trick_pack, trick, excuses)
    first_seat, first_card = trick[0]
    if (
        last
        and play_rules.fool_wins_last_trick_after_all
        and first_card in excuses
        and all(w in state.side_of(first_seat) for *_, w in state.play.trick_log)
    ):
        winner = first_seat
    if play_rules.winner_exceptions:
        winner = _exceptional_winner(state, winner, last)
    fool_kept = not last or play_rules.fool_in_last_trick == "kept"
    at = at_trick(state.play.trick_number)
    won, by_card = zones.won, ruleset.rule_index.by_card(TRICK_END)
    for seat, card in trick:
        keeper = seat if card in excuses and fool_kept else winner
        won[keeper].append(card)
        if keeper != winner and play_rules.excuse_exchange and winner not in state.side_of(keeper):
            state.play.excuse_debts.append((keeper, winner))
        rules = by_card[card]
        if rules:
            memo.clear()  # `_changed`: the rule sees the cards taken so far
            trick_vars = state._trick_vars(seat, card)
            trick_vars.update(winner=winner, keeper=keeper)
            state._fire_rules(rules, trick_vars, at)
    state.play.trick_log.append((state.play.trick_number, state.play.leader, trick, winner))
    if ruleset.lasting is not None and ruleset.lasting.transfers_at(TRICK):
        memo.clear()  # `_changed`: the transfers see the trick taken
        names = {
            "trick": tuple(card for _seat, card in trick),
            "trick_number": state.play.trick_number,
            "last_trick": last,
            "leader": state.play.leader,
            "winner": winner,
        }
        pay_transfers(state, TRICK, names)
    zones.trick = []
    state.play.leader = winner
    if state.talon_phase.drawing:
        _draw(state, winner)
    elif state.talon_phase.per_trick:
        talon.give_to_winner(state, winner)
    memo.clear()
    if state.play.excuse_debts:
        pay_excuse_debts(state)
    memo.clear()
    if play_rules.pile_tops_to_hand is not None:
        take_pile_tops(state, state.play.trick_number)
    if ruleset.shows:
        show_cards(state, state.play.trick_number)
    state.play.trick_number += 1
    game = ruleset.game
    if game is not None and game.claim is not None and cards_left(state):
        state.play.claimed = tuple(selected_seats(game.claim(state._scope({}))))
        if state.play.claimed:
            settle.finish(state)
            return
    ends_when = play_rules.ends_when
    if ends_when is not None and cards_left(state) and state.evaluate(ends_when):
        settle.finish(state)  # the cards still held are played no more


def _exceptional_winner(state: HandState, winner: int, last: bool) -> int:
    """The seat that takes the trick under the first winner exception whose `when` holds:
    the one that played the first card of its `wins`; else `winner`, by the trick rules."""
    trick = state.zones.trick
    scope = state._scope(
        {
            "trick": tuple(card for _seat, card in trick),
            "trick_number": state.play.trick_number,
            "last_trick": last,
            "leader": state.play.leader,
            "winner": winner,
        }
    )
    for exception in state.play.rules.winner_exceptions:
        if exception.when(scope):
            wins = set(exception.wins(scope))
            taker = next((seat for seat, card in trick if card in wins), None)
            if taker is not None:
                return taker
    return winner


def stock(state: HandState) -> list[int]:
    """The cards still to be drawn, when the talon is a stock."""
    return state.zones.talon if state.talon_phase.drawing else []


def _draw(state: HandState, winner: int) -> None:
    """After a trick: each player, the winner first, draws the top card of the stock, while
    it has a card for each."""
    order, zones = state.seating.rounds[winner], state.zones
    if state.talon_phase.drawing and len(zones.talon) >= len(order):
        for seat in order:
            zones.hands[seat].append(zones.talon.pop(0))


def pay_excuse_debts(state: HandState, at_the_end: bool = False) -> None:
    """Hand over a card for each excused Fool as soon as its side has one to give. A talon
    set aside for a side is unseen until the hand is over, so it pays only `at_the_end`."""
    exchange = state.play.rules.excuse_exchange
    if exchange is None or not state.play.excuse_debts:
        return
    zones = state.zones
    after_trick = state.play.trick_number - 1 if at_the_end else state.play.trick_number
    eligible = set(exchange.cards(state._scope({})))
    values = state.ruleset.counting.values
    scored_later = state.ruleset.discard_scored_by is not None
    still_owed = []
    for debtor, creditor in state.play.excuse_debts:
        # the side's least valuable eligible card, from its tricks before its discards
        offers = [
            (values[c], order, c, member, zone)
            for member in state.side_of(debtor)
            for order, zone in enumerate(
                # discards named to score for a seat at the end are no member's own
                (zones.won[member], [] if scored_later else zones.discards[member])
                + ((zones.set_aside[member],) if at_the_end else ())
                if exchange.taken_from == "pile"
                else (zones.won[member],)
            )
            for c in zone
            if c in eligible
        ]
        if not offers:
            still_owed.append((debtor, creditor))
            continue
        *_rank, card, giver, zone = min(offers, key=lambda offer: offer[:3])
        zone.remove(card)
        zones.won[creditor].append(card)
        state.play.exchanges.append(
            {
                "from": giver,
                "to": creditor,
                "card": state.ruleset.deck.cards[card].id,
                "after_trick": after_trick,
            }
        )
    state.play.excuse_debts = still_owed


def _nothing_to_play(seat: int, holds_cards: bool) -> str:
    """Why a seat to play has no legal card: an empty hand (uneven hands), or play rules
    that leave none of its cards."""
    if not holds_cards:
        return (
            f"seat {seat} is to play but has no card left while other seats still hold cards: "
            "the deal and the discards (`deal.packets`, `discard.counts`, a flow step's "
            "`count`) must leave every seat in play as many cards"
        )
    return (
        f"seat {seat} is to play but the play rules (`play.forced`, `held_back`, "
        "`lead_forbidden`, `must_beat`) leave none of its cards"
    )
