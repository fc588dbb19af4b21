"""A readable account of a finished hand: the deal, discards, declarations, every trick,
every payment with the rule that made it and its source (the source of each option reading
in force that the rule reads, then the rule's own), the card points and the net per seat.

Where it sits: after the engine (`tarot.engine.state`), printed by `tarot play`. Two views
(`View`): for a player (`PLAYER`: cards by their names, `King of cups`, `trump XXI`, and the
payments without their sources), which `tarot play` prints; and the full account
(`SOURCES`: cards by their ids, as records write them, every payment with its sources and the
readings it rests on), which `tarot play --sources` and `State.transcript()` give.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass

from tarot.core.actions import (
    Action,
    Announce,
    Answer,
    DecisionKind,
    Declare,
    Double,
    Hold,
    Join,
    JoinBid,
    Pass,
    TakePacket,
    action_text,
    read_action,
)
from tarot.core.ruleset import Ruleset
from tarot.engine import tricks as trick_rules
from tarot.engine.events import (
    AT_CUT,
    AT_DECLARATIONS,
    AT_DISCARD,
    AT_SETTLEMENT,
    At,
    at_trick,
)
from tarot.engine.first_dealer import dealer_draw
from tarot.engine.lasting import DEAL, SETTLEMENT, SITTING_END, TRICK
from tarot.engine.phases.announce import KEPT_SHOWN
from tarot.engine.phases.ask import ANSWER_SHOWN
from tarot.engine.phases.talon import (
    REST_SHOWN,
    TO_TRICK_WINNERS,
    talon_scored_by,
    talon_use,
    told_text,
)
from tarot.engine.score_sheet import score_sheet, sheet_lines
from tarot.engine.state import HANDED_OVER, HandState
from tarot.expressions.builtins import Number
from tarot.expressions.numbers import shown as number_text
from tarot.expressions.numbers import signed
from tarot.presentation.lasting_text import transfer_lines, values_line


@dataclass(frozen=True)
class View:
    """How a transcript names cards (`names`: `King of cups` rather than `cups-K`) and whether
    a payment shows its sources and the option readings it rests on (`sources`)."""

    names: bool
    sources: bool


PLAYER = View(names=True, sources=False)
SOURCES = View(names=False, sources=True)

#: the view of the transcript being written (set by `hand_transcript` for its helpers)
_view: ContextVar[View] = ContextVar("transcript_view", default=SOURCES)


def card_text(ruleset: Ruleset, card: int | str) -> str:
    """A card (its index, or its id) as the transcript's view names it."""
    found = ruleset.deck.cards[card if isinstance(card, int) else ruleset.deck.by_id[card]]
    return found.label() if _view.get().names else found.id


def seat_name(state: HandState, seat: int) -> str:
    return f"Seat {seat}" + (" (dealer)" if seat == state.dealer else "")


def sits_out_line(state: HandState, seat: int) -> str:
    """A seat sitting the hand out (`players.sit_out`), said before the deal."""
    return f"  {seat_name(state, seat)} sits this hand out (players.sit_out)"


def table_order(ruleset: Ruleset) -> str:
    """Where the seats sit, from the ruleset's direction of play: seats are numbered in
    the order of play, which passes to each seat's left (clockwise) or right."""
    side = "left" if ruleset.direction == "clockwise" else "right"
    return f"play passes {ruleset.direction}, so each seat's next sits on its {side}"


def _cards(ruleset: Ruleset, cards: Sequence[int]) -> str:
    ordered = sorted(cards, key=lambda c: _sort_key(ruleset, c))
    return ", ".join(card_text(ruleset, c) for c in ordered)


def _sort_key(ruleset: Ruleset, card: int) -> tuple:
    c = ruleset.deck.cards[card]
    if c.fool:
        return (len(ruleset.deck.suits) + 1, 0)
    if c.is_trump:
        return (len(ruleset.deck.suits), -c.strength)
    assert c.suit is not None  # every card but the trumps and the Fool has a suit
    return (ruleset.deck.suits.index(c.suit), -c.strength)


def _payments_at(state: HandState, at: At) -> list[str]:
    lines = []
    for p in state.payments:
        if p.when == at:
            name = state.ruleset.rule_label(p.rule)
            citation = state.ruleset.citation(p.rule) if _view.get().sources else ""
            cite = f" [{citation}]" if citation else ""
            paid = f"{number_text(p.amount)} {state.ruleset.unit.of(p.amount)}"
            share = (
                " (sitting out, as a defender)"
                if state.seating.out and {p.payer, p.payee} & set(state.seating.out)
                else ""
            )
            lines.append(f"    pay: seat {p.payer} -> seat {p.payee}  {paid}  {name}{share}{cite}")
    return lines


def hand_transcript(state: HandState, view: View = SOURCES) -> str:
    """The hand as text, in `view` (the full account unless told)."""
    token = _view.set(view)
    try:
        return _hand_transcript(state)
    finally:
        _view.reset(token)


def players_line(names: Sequence[str]) -> str:
    """Who plays each seat, as the record names the players ("random" chooses at random
    among the legal actions)."""
    seats = ", ".join(f"seat {seat} {name}" for seat, name in enumerate(names))
    note = ""
    if any(name == "random" for name in names):
        note = (
            " (random: a computer player choosing at random among the legal moves; "
            "--agents heuristic or search, or --level, seats better ones)"
        )
    return f"Players: {seats}{note}"


def first_dealer_lines(ruleset: Ruleset, seed: int, view: View = SOURCES) -> list[str]:
    """The draw for the first deal of the game with this seed, round by round, and who deals
    first; [] where the ruleset names a fixed first dealer."""
    draw = dealer_draw(ruleset, seed)
    if draw is None:
        return []
    assert ruleset.first_dealer_draw is not None  # a draw is made only then
    best = "lowest" if ruleset.first_dealer_draw.lowest else "highest"
    token = _view.set(view)
    try:
        lines = []
        for again, (drawn, ranks) in enumerate(zip(draw.rounds, draw.ranks, strict=True)):
            cards = ", ".join(
                f"seat {seat} {card_text(ruleset, card)} ({number_text(rank)})"  # type: ignore[arg-type]
                for (seat, card), rank in zip(drawn, ranks, strict=True)
            )
            said = (
                "Drawn again by the seats tied"
                if again
                else f"Drawn for the first deal, the {best} rank dealing"
            )
            lines.append(f"{said}: {cards}")
    finally:
        _view.reset(token)
    return [*lines, f"Seat {draw.dealer} deals first (deal.first_dealer_draw)"]


def _hand_transcript(state: HandState) -> str:
    ruleset = state.ruleset
    deck = ruleset.deck.cards
    out = [f"=== Hand {state.number} of {ruleset.title}: seat {state.dealer} deals ==="]
    out += values_line(ruleset, state.lasting_before, "before the hand")
    if state.deal.cut_card is not None:
        out.append(f"Cut card (to the dealer): {deck[state.deal.cut_card].label()}")
        out += _payments_at(state, AT_CUT)
    for deal in state.abandoned:
        reason = ruleset.rule_label("thrown_in:" + deal["thrown_in"])
        out.append(f"A deal is thrown in ({reason}); the same dealer deals again.")
    out.append(f"Deal ({table_order(ruleset)}):")
    out += [sits_out_line(state, seat) for seat in state.seating.out]
    for seat, hand in enumerate(state.deal.hands_dealt):
        if seat not in state.seating.out:
            out.append(f"  {seat_name(state, seat)} [{len(hand)}]: {_cards(ruleset, hand)}")
    for seat, piles in enumerate(state.deal.piles_dealt):
        if piles:
            faces = "; ".join(
                " ".join(card_text(ruleset, c) for c in pile[:-1])
                + f" [{card_text(ruleset, pile[-1])}]"
                for pile in piles
            )
            out.append(f"  {seat_name(state, seat)} piles (bottom first, [top] face up): {faces}")
    if state.deal.talon_dealt:
        out.append(
            f"  Talon [{len(state.deal.talon_dealt)}]: {_cards(ruleset, state.deal.talon_dealt)}"
        )
    out += transfer_lines(ruleset, state.transfers, DEAL)
    out += _shown_by_rules(state, None, "  ")
    out += _before_play(state)
    if state.thrown_in is not None:
        reason = ruleset.rule_label("thrown_in:" + state.thrown_in)
        out.append(f"The deal is thrown in: {reason}")
        return "\n".join(out)
    if state.talon_phase.ended_hand:
        out.append("The hand ends with the talon (its `ends_hand` holds): no card is played")
    else:
        out += _play_lines(state)
    out += _payments_at(state, AT_SETTLEMENT)
    out += transfer_lines(ruleset, state.transfers, SETTLEMENT)
    if state.sitting_over:
        out.append("The sitting ends with this hand:")
        out += transfer_lines(ruleset, state.transfers, SITTING_END)
    seats = [f"seat {s}" for s in range(ruleset.players)]
    out += sheet_lines(score_sheet(state), seats, ruleset.unit.plural)
    net = ", ".join(f"seat {s} {signed(n)}" for s, n in enumerate(state.returns()))
    out.append(f"Net ({ruleset.unit.plural}): {net}")
    out += values_line(ruleset, state.lasting, "after the hand")
    return "\n".join(out)


def _play_lines(state: HandState) -> list[str]:
    """The discards, a late call, the declarations, announcements and doublings, the tricks
    and the card points: the hand from the talon to the end of play."""
    ruleset = state.ruleset
    out: list[str] = []
    out += _discard_lines(state)
    out += _late_call_lines(state)
    shown = {(seat, decl): cards for seat, decl, cards in state.shown}
    by_rules = [
        (seat, read_action(DecisionKind.DECLARE, choice, ruleset.deck), " (by the rules)")
        for seat, choice in state.declare.by_rule
    ]
    chosen = [
        (seat, action, "") for seat, kind, action in _taken(state) if kind == DecisionKind.DECLARE
    ]
    declared = [(s, a, how) for s, a, how in by_rules + chosen if isinstance(a, Declare)]
    if declared:
        out.append("Declarations:")
        for seat, action, how in declared:
            cards = shown.get((seat, action.declaration), [])
            display = f" showing {_cards(ruleset, cards)}" if cards else ""
            label = ruleset.rule_label(action_text(action, ruleset.deck))  # as payments name it
            out.append(f"  Seat {seat}: {label}{how}{display}")
            out += _handed_over(state, seat, action.declaration)
        out += _payments_at(state, AT_DECLARATIONS)
    out += _announcement_lines(state)
    out += _doubling_lines(state)
    out.append("Play:" + _sides_line(state))
    out += _shown_by_rules(state, 0, "  ")
    out += _pile_tops_taken(state, 0, "  ")
    out += _play_rules_lines(state)
    given = _talon_to_winners(state)
    exchanges: dict[int, list[dict]] = {}
    for exchange in state.play.exchanges:
        exchanges.setdefault(exchange["after_trick"], []).append(exchange)
    for trick, (_n, _leader, seat_cards, _winner) in zip(
        state.tricks, state.play.trick_log, strict=True
    ):
        played = ", ".join(_played(ruleset, c["seat"], c["card"]) for c in trick["cards"])
        exception = _exception_note(state, seat_cards, trick["winner"], trick["number"])
        out += _questions_asked(state, trick["number"])
        out.append(f"  Trick {trick['number']:2}: {played}  -> seat {trick['winner']}{exception}")
        for cards in given.get(trick["number"], []):
            out.append(f"    from the talon to seat {trick['winner']}: {_cards(ruleset, cards)}")
        out += _payments_at(state, at_trick(trick["number"]))
        out += transfer_lines(ruleset, state.transfers, TRICK, trick["number"])
        for exchange in exchanges.get(trick["number"], []):
            out.append(
                f"    for the Fool: seat {exchange['from']} gives "
                f"{card_text(ruleset, exchange['card'])}"
                f" to seat {exchange['to']}"
            )
        out += _shown_by_rules(state, trick["number"], "    ")
        out += _pile_tops_taken(state, trick["number"], "    ")
    unplayed = sum(map(len, state.hands))
    if unplayed and not state.play.claimed:
        out.append(f"Play stops: the play rules end it ({unplayed} cards not played)")
    out += _scored_at_the_end(state)
    points = state.card_points()
    said = ", ".join(f"seat {s} {number_text(points[s])}" for s in state.seating.in_play)
    out.append("Card points: " + said)
    out += _side_points_line(state)
    if state.play.claimed:
        claimed = ", ".join(f"seat {s}" for s in state.play.claimed)
        out.append(f"The game is claimed during play by {claimed}")
    if state.ruleset.hand_score is not None:
        scored = ", ".join(f"seat {s} {signed(p)}" for s, p in enumerate(state.scores))
        out.append(f"Scored ({ruleset.unit.plural}): {scored}")
    return out


def _scored_at_the_end(state: HandState) -> list[str]:
    """Who the discards and the talon left on the table score for, where the ruleset names
    the seat once play is over (`scored_by`)."""
    discards = [card for own in state.discards for card in own]
    named = (
        (
            "The discards",
            "discard",
            state.ruleset.discard_scored_by,
            discards,
            state.play.discards_to,
        ),
        (
            "The talon left on the table",
            "talon",
            talon_scored_by(state),
            state.talon,
            state.play.talon_to,
        ),
    )
    return [
        f"{what} ({len(cards)} cards, {_card_points(state.count(cards))}) "
        f"{'score' if key == 'discard' else 'scores'} for "
        f"{'nobody' if seat is None else f'seat {seat}'} ({key}.scored_by)"
        for what, key, rule, cards, seat in named
        if rule is not None and cards
    ]


def _card_points(points: object) -> str:
    return f"{points} card point" + ("" if points == 1 else "s")


def _played(ruleset: Ruleset, seat: int, card: str) -> str:
    """A card played to a trick: `1:trump-8` (the record's way), or `seat 1 trump VIII`."""
    if _view.get().names:
        return f"seat {seat} {card_text(ruleset, card)}"
    return f"{seat}:{card}"


def _shown_by_rules(state: HandState, after_trick: int | None, indent: str) -> list[str]:
    """The cards the ruleset's `show` rules showed after the deal (None), when play began
    (0) or after a trick."""
    rules = {rule.id: rule for rule in state.ruleset.shows if rule.after_trick == after_trick}
    return [
        f"{indent}Shown to all ({rules[what].name}): seat {seat} {_cards(state.ruleset, cards)}"
        for seat, what, cards in state.shown
        if what in rules
    ]


def _pile_tops_taken(state: HandState, after_trick: int, indent: str) -> list[str]:
    """The face-up pile tops the play rules took into a hand when play began (0) or after a
    trick (`pile_tops_to_hand`)."""
    return [
        f"{indent}Seat {seat} takes from its piles into its hand, shown to all:"
        f" {_cards(state.ruleset, list(cards))} (pile_tops_to_hand)"
        for after, seat, cards in state.play.tops_taken
        if after == after_trick
    ]


def _play_rules_lines(state: HandState) -> list[str]:
    """The play rules in force beyond following suit and trumping, from the hand's `play`
    (its contract's own, when it gives one), so that a transcript tells why a card had to
    fall or why play stopped early."""
    rules = state.play.rules
    said = [
        text
        for present, text in (
            (rules.must_beat, "must beat the trick when able (must_beat)"),
            (rules.trumps_as_suit, "trumps are a plain suit (trumps_as_suit)"),
            (rules.forced is not None, "some cards must fall when allowed (forced)"),
            (rules.lead_forbidden is not None, "some cards may not be led (lead_forbidden)"),
            (rules.held_back is not None, "some cards are held back (held_back)"),
            (rules.ends_when is not None, "play stops once its rule holds (ends_when)"),
        )
        if present
    ]
    said += [f"winner exception: {exception.name}" for exception in rules.winner_exceptions]
    said += [
        f"{_cards(state.ruleset, cards)} {'ranks' if len(cards) == 1 else 'rank'}"
        f" {_PLACE_WORDS[place]} (rank_changes)"
        for cards, place in state.play.ranks_changed
        if cards
    ]
    if not said:
        return []
    contract = state.auction.contract
    own = contract is not None and state.play.rules is not state.ruleset.play
    whose = f" of {contract.replace('_', ' ')}" if own and contract else ""
    return [f"  Play rules{whose}: " + "; ".join(said)]


#: where `rank_changes` put cards for the hand, in words
_PLACE_WORDS = {
    "highest_trump": "as trumps above every other",
    "lowest_trump": "as trumps below every other",
    "highest_in_suit": "above every other card of their suit",
    "lowest_in_suit": "below every other card of their suit",
}


def _exception_note(
    state: HandState, trick: Sequence[tuple[int, int]], winner: int, number: int
) -> str:
    """ " (by NAME)" when a winner exception gave the trick to another seat than the trick
    rules would (a Fool winning the last trick after all is not one)."""
    rules = state.play.rules
    if not rules.winner_exceptions:
        return ""
    if rules.fool_wins_last_trick_after_all and number == state.play.total_tricks:
        return ""
    if trick_rules.trick_winner(state.play.trick_pack, list(trick), state.play.excuses) == winner:
        return ""
    return " (by " + " or ".join(e.name for e in rules.winner_exceptions) + ")"


def _handed_over(state: HandState, seat: int, declaration: str) -> list[str]:
    """The card a declarer named for his declaration, the cards handed to him (and by whom,
    where the others were not told), and those he gave back."""
    ruleset = state.ruleset
    named = [
        (card, holder)
        for s, d, card, holder in state.declare.named
        if (s, d) == (seat, declaration)
    ]
    out = [
        f"    asks for {card_text(ruleset, card)}"
        + ("; nobody holds it: nothing is handed over" if holder is None else "")
        for card, holder in named
    ]
    what = f"{declaration}:{HANDED_OVER}"
    received = [c for s, w, cards in state.shown if s == seat and w == what for c in cards]
    unseen = [
        (holder, card)
        for s, holder, d, card in state.declare.handed_unseen
        if (s, d) == (seat, declaration)
    ]
    if not received and not unseen:
        return out
    back = [
        card
        for s, kind, card in _taken(state)
        if kind == DecisionKind.GIVE and s == seat and isinstance(card, int)
    ]
    secretly = "".join(
        f" ({card_text(ruleset, card)} by seat {holder}, not told to the others)"
        for holder, card in unseen
    )
    cards = _cards(ruleset, received + [card for _holder, card in unseen])
    return [*out, f"    handed over: {cards}{secretly}; given back: {_cards(ruleset, back)}"]


def game_line(hands: int, winners: Sequence[int]) -> str:
    """Who won a game played to a score, after how many hands."""
    seats = " and ".join(f"seat {s}" for s in winners)
    verb = "wins" if len(winners) == 1 else "share"
    return f"Game over after {hands} hand(s): {seats} {verb} the game"


def _discard_lines(state: HandState) -> list[str]:
    """Every card each seat discarded, as chosen (a card later handed over from the discards
    for the Fool is still among them, and said to be), how many of a kind each laid away where
    that is told to all, and the payments for them."""
    ruleset = state.ruleset
    chosen: list[list[int]] = [[] for _ in range(ruleset.players)]
    for seat, kind, card in _taken(state):
        if kind == DecisionKind.DISCARD and isinstance(card, int):
            chosen[seat].append(card)
    if not any(chosen):
        return []
    out = ["Discards:"]
    for seat, cards in enumerate(chosen):
        if not cards:
            continue
        out.append(f"  {seat_name(state, seat)}: {_cards(ruleset, cards)}")
        gone = [card for card in cards if card not in state.discards[seat]]
        for exchange in state.play.exchanges:
            card = ruleset.deck.by_id[exchange["card"]]
            if exchange["from"] == seat and card in gone:
                gone.remove(card)
                out.append(
                    f"    {card_text(ruleset, exchange['card'])} is later handed over for the Fool"
                    f" (after trick {exchange['after_trick']}, to seat {exchange['to']})"
                )
    out += _told_line(state, [seat for seat, cards in enumerate(chosen) if cards])
    return out + _payments_at(state, AT_DISCARD)


def _told_line(state: HandState, discarders: list[int]) -> list[str]:
    """How many cards of `discard.told` each seat that discarded laid away, as told to all."""
    if not state.discard.told or not discarders:
        return []
    return [
        "  " + told_text(state.ruleset, [(f"seat {s}", state.discard.told[s]) for s in discarders])
    ]


def _sides_line(state: HandState) -> str:
    """The sides, when the play rules give them: " sides 0+2 against 1+3"."""
    if state.play.side_table is None:
        return ""
    sides = sorted(set(state.play.side_table))
    return " sides " + " against ".join("+".join(map(str, side)) for side in sides)


def _side_points_line(state: HandState) -> list[str]:
    """Where seats pool their tricks (a taker's side, the play rules' sides), the card points
    of each side's pooled piles, as the rules count them: counted in groups, a side's points
    are not the sum of its seats'."""
    sides = list(dict.fromkeys(state.side_of(seat) for seat in state.seating.in_play))
    if all(len(side) == 1 for side in sides):
        return []
    said = ", ".join(
        f"seats {'+'.join(map(str, side))} {number_text(state.side_points(side[0]))}"
        if len(side) > 1
        else f"seat {side[0]} {number_text(state.side_points(side[0]))}"
        for side in sides
    )
    return [f"Card points by side: {said}"]


def _calls_after_discards(state: HandState) -> bool:
    call = state.ruleset.partner_call
    return call is not None and call.after_discards


def _late_call_lines(state: HandState) -> list[str]:
    """The call made once the discards are done (`partner_call.after: discards`)."""
    if not _calls_after_discards(state):
        return []
    calls = [
        f"  Seat {d['seat']} calls {d['choice']}" for d in state.decisions if d["kind"] == "call"
    ]
    return ["Call:", *calls] if calls else []


def _taken(state: HandState) -> list[tuple[int, DecisionKind, Action]]:
    """Every decision of the hand as (seat, kind, action): the typed actions of the texts the
    hand's log keeps for its record."""
    deck = state.ruleset.deck
    return [
        (d["seat"], DecisionKind(d["kind"]), read_action(d["kind"], d["choice"], deck))
        for d in state.decisions
    ]


def _answer_text(state: HandState, answer: Answer) -> str:
    """An answer to a question of the flow, as `question: yes`."""
    names = {s.question.id: s.question.name for s in state.ruleset.flow if s.question}
    return f"{names.get(answer.question, answer.question)}: {'yes' if answer.yes else 'no'}"


def _before_play(state: HandState) -> list[str]:
    """Redeal answers, bids, the call and the talon's fate, in the order they happened."""
    out = []
    labels = {"redeal": "asks", "bid": "bids", "call": "calls"}
    if _calls_after_discards(state):
        del labels["call"]  # told after the discards (`_late_call_lines`)
    deck = state.ruleset.deck
    in_play = {question.id for question in state.ruleset.questions}  # told before their trick
    for seat, kind, action in _taken(state):
        if isinstance(action, Answer) and action.question in in_play:
            continue
        if kind in labels:
            verb = labels[kind]
            if isinstance(action, Hold):
                verb, said = "holds", action.contract
            elif isinstance(action, JoinBid):
                verb, said = "joins the bid", action.contract
            else:  # a bid, a pass, a card called, a redeal's answer (`RULE redeal`)
                said = action_text(action, deck).replace(":", " ")
            out.append(f"  Seat {seat} {verb} {said.replace('_', ' ')}")
        elif isinstance(action, Join):
            out.append(f"  Seat {seat} {'joins the taker' if action.joins else 'stays out'}")
        elif isinstance(action, Answer):
            out.append(f"  Seat {seat} answers {_answer_text(state, action)}")
    if state.auction.voided is not None:
        out.append(
            f"  Nobody joined the bid {state.auction.voided.replace('_', ' ')}, which counts"
            " only if a seat joins it: it does not stand, as when every seat passes"
        )
    if state.auction.taker is not None:
        partner = (
            f", partner seat {state.auction.partner} (the holder of the called card)"
            if state.auction.partner is not None
            else (" alone" if state.auction.called_card is not None else "")
        )
        contract = state.auction.contract
        assert contract is not None  # set with the taker, by the winning bid
        out.append(f"Taker: seat {state.auction.taker}, {contract.replace('_', ' ')}{partner}")
        if state.auction.joined:
            out.append(
                "  Joined the taker: " + ", ".join(f"seat {s}" for s in state.auction.joined)
            )
    elif state.auction.contract is not None:
        out.append(f"Contract: {state.auction.contract.replace('_', ' ')}, with no taker")
    if state.auction.compulsory:
        out.append("  The contract is compulsory: there is no auction")
    packets = _packet_lines(state)
    out += packets
    for seat, what, _shown in [] if packets else state.shown:
        if what == "talon":
            out.append(f"  The talon is shown and goes to seat {seat}")
    turned_up = [set(cards) for _seat, what, cards in state.shown if what == "talon"]
    for seat, taken in state.talon_phase.shared:
        if any(set(taken) <= up for up in turned_up):
            continue  # said where the talon was turned up
        out.append(f"  Seat {seat} takes from the talon: {_cards(state.ruleset, taken)}")
    for seat, aside in enumerate(state.set_aside):
        if aside:
            out.append(f"  The talon counts for seat {seat}'s side, unseen")
    if out:
        out.insert(0, "Auction:" if state.ruleset.bidding else "Before play:")
    return out


def _packet_lines(state: HandState) -> list[str]:
    """The talon laid out in packets, the packets taken and where the rest went."""
    if not state.deal.talon_dealt or state.talon_phase.packet_taker is None:
        return []
    use = talon_use(state)
    assert use is not None and use.packets is not None  # a packet taker is set only then
    ruleset, packets = state.ruleset, use.packets
    size = len(state.deal.talon_dealt) // packets.count
    laid = [
        state.deal.talon_dealt[i : i + size] for i in range(0, len(state.deal.talon_dealt), size)
    ]
    shown = "; ".join(f"[{n}] {_cards(ruleset, p)}" for n, p in enumerate(laid, 1))
    out = [f"  The talon is laid out in {packets.count} packets: {shown}"]
    for seat, _kind, action in _taken(state):
        if isinstance(action, TakePacket):
            out.append(f"  Seat {seat} takes packet {action.number}")
    rest = [(seat, cards) for seat, what, cards in state.shown if what == REST_SHOWN]
    for seat, cards in rest:
        out.append(f"  The packets left ({_cards(ruleset, cards)}) go to seat {seat}'s tricks")
    if not rest and packets.choose < packets.count:
        out.append("  The packets left stay out of play")
    return out


def _talon_to_winners(state: HandState) -> dict[int, list[list[int]]]:
    """By trick number, the talon's cards its winner took, when the talon goes to the trick
    winners (the first trick's winner the top cards, and so on)."""
    use = (
        talon_use(state)
        if state.auction.contract is not None or not state.ruleset.bidding
        else None
    )
    if use is None or use.to != TO_TRICK_WINNERS:
        return {}
    talon, step = state.deal.talon_dealt, use.per_trick
    return {
        number: [talon[(number - 1) * step : number * step]]
        for number in range(1, len(state.play.trick_log) + 1)
        if talon[(number - 1) * step : number * step]
    }


def _announcement_lines(state: HandState) -> list[str]:
    """Each bonus announced, by whom, and the cards its announcer keeps for the last trick,
    with the doublings made among them (`doubling.with_announcements`), in the order said."""
    section = state.ruleset.announcements
    if section is None or not (state.announce.announced or _doubled_with_announcements(state)):
        return []
    names = {bonus.id: bonus.name for bonus in section.table}
    kept = {(seat, what): cards for seat, what, cards in state.shown}
    out = ["Announcements:"]
    made: dict[str, int] = {}
    told = 0  # bonuses announced so far
    for seat, kind, action in _taken(state):
        if kind != DecisionKind.ANNOUNCE or isinstance(action, Pass):
            continue
        if isinstance(action, Double):  # doubled in the round of announcements
            if action.step is not None:
                out.append(_doubling_line(state, seat, action, made))
            continue
        assert isinstance(action, Announce)  # an announcement's other actions
        said = action.announcement
        cards = kept.get((seat, f"{KEPT_SHOWN}:{said}"))
        keeping = f", keeping {_cards(state.ruleset, cards)} for the last trick" if cards else ""
        out.append(f"  Seat {seat} announces {names.get(said, said)}{keeping}")
        told += 1
        for after, seats in state.announce.reopened:
            if after == told:
                out.append(f"  The announcements reopen for {_seats_named(seats)}")
    return out


def _questions_asked(state: HandState, trick: int) -> list[str]:
    """Each question asked before the trick's lead, with its answer told to all."""
    out = []
    for question in state.ruleset.questions:
        asked = state.ask.answers.get(question.id)
        if asked is None or asked[1] != trick:
            continue
        asker, _trick, holders = asked
        what = f"{ANSWER_SHOWN}:{question.id}"
        held = {seat: cards for seat, said, cards in state.shown if said == what}
        told = "; ".join(f"seat {s} holds {_cards(state.ruleset, held[s])}" for s in holders)
        told = told or "no seat holds any of them"
        out.append(f"  Seat {asker} asks: {question.name} Told to all: {told}")
    return out


def _seats_named(seats: Sequence[int]) -> str:
    """`seat 3`, `seats 0 and 2`."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"


def _doubled_with_announcements(state: HandState) -> bool:
    doubling = state.ruleset.doubling
    return doubling is not None and doubling.with_announcements and bool(state.double.doubled)


def _doubling_line(state: HandState, seat: int, action: Double, made: dict[str, int]) -> str:
    """A doubling or its refusal (`pass`) as the transcript says it; a doubling past the
    named `steps` (`doubling.repeat`) with its number and the multiplier it makes. `made`
    counts the doublings told so far, target by target, and is updated."""
    doubling = state.ruleset.doubling
    assert doubling is not None  # a doubling is made only in rulesets with `doubling`
    names = {target.id: target.name for target in doubling.targets}
    step = "pass" if action.step is None else action.step.replace("_", " ")
    line = f"  Seat {seat}: {step} ({names.get(action.target, action.target)})"
    if action.step is None:
        return line
    times = made[action.target] = made.get(action.target, 0) + 1
    if times <= len(doubling.steps):
        return line
    return f"{line}, doubling {times}, x{number_text(doubling.factor**times)}"


def _doubling_lines(state: HandState) -> list[str]:
    """Each doubling and each refusal, then what each target doubled stands at."""
    doubling = state.ruleset.doubling
    asked = [
        (seat, action)
        for seat, kind, action in _taken(state)
        if kind == DecisionKind.DOUBLE and isinstance(action, Double)
    ]
    if doubling is None or not (asked or _doubled_with_announcements(state)):
        return []
    names = {target.id: target.name for target in doubling.targets}
    out = ["Doublings:"]
    made: dict[str, int] = {}
    for seat, action in asked:
        out.append(_doubling_line(state, seat, action, made))
    for target, times in state.double.doubled.items():
        factor = doubling.factor**times
        target_name = names.get(target, target)
        out.append(f"  {target_name}: doubled {times} time(s), x{number_text(factor)}")
    return out


def totals_line(hands: int, totals: Sequence[Number], unit: str) -> str:
    """Each seat's total after `hands` hands, in `unit` (plural)."""
    return f"Totals after {hands} hand(s), in {unit}: " + ", ".join(
        f"seat {s} {signed(t)}" for s, t in enumerate(totals)
    )
