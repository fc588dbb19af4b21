"""A readable account of a finished hand: the deal, discards, declarations, every trick,
every payment with the rule that made it, the card points and the net per seat."""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.engine.state import HandState
from interpreter.ruleset import Ruleset


def seat_name(state: HandState, seat: int) -> str:
    return f"Seat {seat}" + (" (dealer)" if seat == state.dealer else "")


def _cards(ruleset: Ruleset, cards: Sequence[int]) -> str:
    deck = ruleset.deck.cards
    ordered = sorted(cards, key=lambda c: _sort_key(ruleset, c))
    return ", ".join(deck[c].id for c in ordered)


def _sort_key(ruleset: Ruleset, card: int) -> tuple:
    c = ruleset.deck.cards[card]
    if c.fool:
        return (len(ruleset.deck.suits) + 1, 0)
    if c.is_trump:
        return (len(ruleset.deck.suits), -c.strength)
    return (ruleset.deck.suits.index(c.suit), -c.strength)


def _payments_at(state: HandState, at: str) -> list[str]:
    lines = []
    for p in state.payments:
        if p.at == at:
            name = state.ruleset.rule_label(p.rule)
            rule = state.ruleset.rule(p.rule)
            source = rule.source if rule is not None else ""
            cite = f" [{source}]" if source else ""
            lines.append(f"    pay: seat {p.payer} -> seat {p.payee}  {p.amount}  {name}{cite}")
    return lines


def hand_transcript(state: HandState) -> str:
    ruleset = state.ruleset
    deck = ruleset.deck.cards
    out = [f"=== Hand {state.number} of {ruleset.title}: seat {state.dealer} deals ==="]
    if state.cut_card is not None:
        out.append(f"Cut card (to the dealer): {deck[state.cut_card].label()}")
        out += _payments_at(state, "cut")
    for deal in state.abandoned:
        reason = ruleset.rule_label("thrown_in:" + deal["thrown_in"])
        out.append(f"A deal is thrown in ({reason}); the same dealer deals again.")
    out.append("Deal:")
    for seat, hand in enumerate(state.hands_dealt):
        out.append(f"  {seat_name(state, seat)} [{len(hand)}]: {_cards(ruleset, hand)}")
    for seat, piles in enumerate(state.piles_dealt):
        if piles:
            shown = "; ".join(
                " ".join(deck[c].id for c in pile[:-1]) + f" [{deck[pile[-1]].id}]"
                for pile in piles
            )
            out.append(f"  {seat_name(state, seat)} piles (bottom first, [top] face up): {shown}")
    if state.talon_dealt:
        out.append(f"  Talon [{len(state.talon_dealt)}]: {_cards(ruleset, state.talon_dealt)}")
    out += _before_play(state)
    if state.thrown_in is not None:
        reason = ruleset.rule_label("thrown_in:" + state.thrown_in)
        out.append(f"The deal is thrown in: {reason}")
        return "\n".join(out)
    if any(state.discards):
        out.append("Discards:")
        for seat, cards in enumerate(state.discards):
            if cards:
                out.append(f"  {seat_name(state, seat)}: {_cards(ruleset, cards)}")
        out += _payments_at(state, "discard")
    shown = {(seat, decl): cards for seat, decl, cards in state.shown}
    declared = [
        d for d in state.decisions if d["kind"] == "declare" and not d["choice"].endswith(":none")
    ]
    if declared:
        out.append("Declarations:")
        for d in declared:
            decl, _, level = d["choice"].partition(":")
            if level == "none":
                continue
            cards = shown.get((d["seat"], decl), [])
            display = f" showing {_cards(ruleset, cards)}" if cards else ""
            out.append(f"  Seat {d['seat']}: {ruleset.rule_label(d['choice'])}{display}")
        out += _payments_at(state, "declarations")
    out.append("Play:")
    exchanges = {}
    for exchange in state.exchanges:
        exchanges.setdefault(exchange["after_trick"], []).append(exchange)
    for trick in state.tricks:
        played = ", ".join(f"{c['seat']}:{c['card']}" for c in trick["cards"])
        out.append(f"  Trick {trick['number']:2}: {played}  -> seat {trick['winner']}")
        out += _payments_at(state, f"trick {trick['number']}")
        for exchange in exchanges.get(trick["number"], []):
            out.append(
                f"    for the Fool: seat {exchange['from']} gives {exchange['card']}"
                f" to seat {exchange['to']}"
            )
    points = state.card_points()
    out.append("Card points: " + ", ".join(f"seat {s} {p}" for s, p in enumerate(points)))
    if state.claimed:
        claimed = ", ".join(f"seat {s}" for s in state.claimed)
        out.append(f"The game is claimed during play by {claimed}")
    if state.ruleset.hand_score is not None:
        out.append("Scored: " + ", ".join(f"seat {s} {p:+}" for s, p in enumerate(state.scores)))
    out += _payments_at(state, "settlement")
    out.append("Net: " + ", ".join(f"seat {s} {n:+}" for s, n in enumerate(state.returns())))
    return "\n".join(out)


def game_line(hands: int, winners: Sequence[int]) -> str:
    """Who won a game played to a score, after how many hands."""
    seats = " and ".join(f"seat {s}" for s in winners)
    verb = "wins" if len(winners) == 1 else "share"
    return f"Game over after {hands} hand(s): {seats} {verb} the game"


def _before_play(state: HandState) -> list[str]:
    """Redeal answers, bids, the call and the talon's fate, in the order they happened."""
    out = []
    labels = {"redeal": "asks", "bid": "bids", "call": "calls"}
    for d in state.decisions:
        if d["kind"] in labels:
            choice = d["choice"].replace(":", " ").replace("_", " ")
            out.append(f"  Seat {d['seat']} {labels[d['kind']]} {choice}")
    if state.taker is not None:
        partner = (
            f", partner seat {state.partner} (the holder of the called card)"
            if state.partner is not None
            else (" alone" if state.called_card is not None else "")
        )
        out.append(f"Taker: seat {state.taker}, {state.contract.replace('_', ' ')}{partner}")
    for seat, what, _cards in state.shown:
        if what == "talon":
            out.append(f"  The talon is shown and goes to seat {seat}")
    for seat, aside in enumerate(state.set_aside):
        if aside:
            out.append(f"  The talon counts for seat {seat}'s side, unseen")
    if out:
        out.insert(0, "Auction:" if state.ruleset.bidding else "Before play:")
    return out


def totals_line(hands: int, totals: Sequence[float]) -> str:
    """Each seat's total after `hands` hands."""
    return f"Totals after {hands} hand(s): " + ", ".join(
        f"seat {s} {t:+}" for s, t in enumerate(totals)
    )
