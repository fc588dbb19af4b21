"""What one seat may see of a hand, as lines of text: the screen of a person's seat.

Where it sits: between the engine's `SeatView` (what one seat may know of a `HandState`) and
`tarot.presentation.human_seat` (which reads the person's answers) and `tarot play --human`
in `tarot.cli`; what happened between two decisions is told by `tarot.presentation.seat_news`.
Every function here reads a seat's view and returns text (or resolves an answer); nothing
reads input or writes output, and nothing reads the state's hidden cards.

A seat sees its own hand and discards, every card played, the cards shown in declarations,
every payment, and the other seats' decisions except those of a private kind (a discard),
of which it learns only how many cards went. Nothing here knows a particular game: suits,
cards and rule names come from the ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from tarot.core.actions import (
    Action,
    Announce,
    Answer,
    DecisionKind,
    Declare,
    Double,
    Hold,
    JoinBid,
    NoDeclaration,
    TakePacket,
    action_text,
    read_action,
)
from tarot.core.cards import COURT_LETTERS, Card, Deck, roman
from tarot.core.ruleset import Declaration, Ruleset
from tarot.engine import tricks as trick_rules
from tarot.engine.events import At, Payment, at_trick
from tarot.engine.phases.talon import REST_SHOWN, TAKEN_BY_KIND, TAKEN_SHOWN, told_text
from tarot.engine.score_sheet import Sheet, sheet_lines
from tarot.engine.seat_view import Facing, SeatView
from tarot.expressions.builtins import Number
from tarot.expressions.numbers import shown

PLAY, DISCARD = DecisionKind.PLAY, DecisionKind.DISCARD
#: shown cards that went elsewhere than a hand: talon packets onto a pile or to tricks
OFF_HAND = frozenset({TAKEN_SHOWN["pile"], REST_SHOWN})
#: shown cards of the talon that went into a hand
TALON_INTO_HAND = frozenset({TAKEN_SHOWN["hand"], TAKEN_BY_KIND})


# --- seats, amounts and cards ------------------------------------------------------------


def who(seat: int, me: int) -> str:
    return "you" if seat == me else f"seat {seat}"


def verb(seat: int, me: int, verb: str) -> str:
    return verb if seat == me else verb + "s"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def amount(value: Number | float) -> str:
    """A number as people read it (`expressions.numbers.shown`: `3`, `45.5`, `13 1/3`)."""
    return shown(value)


def signed(value: Number) -> str:
    return ("+" if value > 0 else "") + amount(value) if value else "0"


def quantity(ruleset: Ruleset, value: Number) -> str:
    """An amount with the ruleset's unit: "1 point", "2.5 points", "13 1/3 points"."""
    return f"{amount(value)} {ruleset.unit.of(value)}"


def sort_key(deck: Deck, index: int) -> tuple[int, int]:
    """Suits in the deck's order, each from high to low; then trumps upwards; then the rest."""
    card = deck.cards[index]
    if card.fool:
        return (len(deck.suits) + 1, 0)
    if card.is_trump:
        return (len(deck.suits), card.strength)
    assert card.suit is not None  # every card but the trumps and the Fool has a suit
    return (deck.suits.index(card.suit), -card.strength)


def sorted_hand(deck: Deck, cards: Iterable[int]) -> list[int]:
    """A hand as players hold it (see `sort_key`)."""
    return sorted(cards, key=lambda index: sort_key(deck, index))


def short_name(card: Card) -> str:
    """The card within its row of the hand: rank letter or pip, trump number, or its label."""
    if card.trump is not None:
        return roman(card.trump)
    if card.fool:
        return card.label()
    return COURT_LETTERS.get(str(card.rank), str(card.rank))


def _row_title(card: Card) -> str:
    if card.is_trump:
        return "trumps"
    return "" if card.fool else str(card.suit)


def card_list(deck: Deck, cards: Iterable[int]) -> str:
    return ", ".join(deck.cards[c].label() for c in cards)


# --- choices --------------------------------------------------------------------------------


def choice_label(
    ruleset: Ruleset,
    choice: str,
    values: Mapping[str, Number] | None = None,
    kind: DecisionKind | str | None = None,
) -> str:
    """A choice's text as a person reads it (`action_label` of the action it names); `kind`:
    the kind of decision it answers, when known (else told by the text's form)."""
    deck = ruleset.deck
    if kind is None or choice in deck.by_id:  # a card's id names the card, in any decision
        kind = _kind_of(ruleset, choice)
    try:
        action = read_action(kind, choice, deck)
    except ValueError:
        return choice.replace("_", " ")
    return action_label(ruleset, action, values)


def action_label(
    ruleset: Ruleset, action: Action, values: Mapping[str, Number] | None = None
) -> str:
    """An action as a person reads it: a card by its label, a declaration by its name and
    level (and worth, when `values` gives it), a hold, a packet, an announcement or a
    doubling by the names the ruleset gives; anything else as written, without underscores."""
    if isinstance(action, int):
        return ruleset.deck.cards[action].label()
    if isinstance(action, Hold | JoinBid) and ruleset.bidding is not None:
        if action.contract in ruleset.bidding.ranks:
            verb = "hold" if isinstance(action, Hold) else "join the bid"
            return f"{verb} {ruleset.bidding.contract(action.contract).name}"
    if isinstance(action, TakePacket):
        return f"take packet {action.number}"
    if isinstance(action, Announce) and action.announcement in _bonus_names(ruleset):
        return f"announce {_bonus_names(ruleset)[action.announcement]}"
    if isinstance(action, Double) and _doubles(ruleset, action):
        target = _target_names(ruleset)[action.target]
        if action.step is None:
            return f"do not double {target}"
        return f"{action.step.replace('_', ' ')}: {target}"
    asked = {question.id: question.name for question in ruleset.questions}
    if isinstance(action, Answer) and action.question in asked:  # a question during play
        return f"{'ask' if action.yes else 'do not ask'}: {asked[action.question]}"
    if isinstance(action, Declare | NoDeclaration):
        declaration = _declaration(ruleset, action.declaration)
        if declaration is not None and isinstance(action, NoDeclaration):
            return f"do not declare {declaration.name}"
        if declaration is not None and isinstance(action, Declare):
            # a worth of 0 is not told: the declaration may still change what the settlement
            # pays
            value = (values or {}).get(action.level)
            worth = f", worth {quantity(ruleset, value)}" if value else ""
            return f"declare {declaration.name} ({action.level.replace('_', ' ')}){worth}"
    return action_text(action, ruleset.deck).replace("_", " ")


def _bonus_names(ruleset: Ruleset) -> dict[str, str]:
    bonuses = ruleset.announcements
    return {} if bonuses is None else {bonus.id: bonus.name for bonus in bonuses.table}


def _target_names(ruleset: Ruleset) -> dict[str, str]:
    doubling = ruleset.doubling
    return {} if doubling is None else {t.id: t.name for t in doubling.targets}


def _doubles(ruleset: Ruleset, action: Double) -> bool:
    """Whether a doubling names a target and a step (or none: declined) of the ruleset."""
    doubling = ruleset.doubling
    return (
        doubling is not None
        and action.target in _target_names(ruleset)
        and (action.step is None or action.step in (*doubling.steps, doubling.repeat))
    )


def _declaration(ruleset: Ruleset, declaration_id: str) -> Declaration | None:
    return next((d for d in ruleset.declarations if d.id == declaration_id), None)


#: the kinds of decision a choice's text may answer, tried in this order when it is not told
_KINDS_BY_FORM = (
    DecisionKind.DECLARE,
    DecisionKind.DOUBLE,
    DecisionKind.ANNOUNCE,
    DecisionKind.PACKET,
)


def _names_known(ruleset: Ruleset, action: Action) -> bool:
    """Whether an action read from a text names what the ruleset has (a declaration, a
    doubling's target and step, a bonus) or a packet of the talon."""
    if isinstance(action, Declare | NoDeclaration):
        return _declaration(ruleset, action.declaration) is not None
    if isinstance(action, Double):
        return _doubles(ruleset, action)
    if isinstance(action, Announce):
        return action.announcement in _bonus_names(ruleset)
    return isinstance(action, TakePacket)


def _kind_of(ruleset: Ruleset, choice: str) -> DecisionKind:
    """The kind of decision a choice's text answers, as its form and the ruleset's names tell
    it: a card's id is played; a bid (as written) when no other kind names the ruleset's."""
    if choice in ruleset.deck.by_id:
        return DecisionKind.PLAY
    for kind in _KINDS_BY_FORM:
        try:
            action = read_action(kind, choice, ruleset.deck)
        except ValueError:
            continue
        if _names_known(ruleset, action):
            return kind
    return DecisionKind.BID


def chosen_line(ruleset: Ruleset, kind: str, choice: str, forced: bool = False) -> str:
    """What the seat just did, in the second person (`forced`: it had no other choice)."""
    label = choice_label(ruleset, choice, kind=kind)
    if choice in ruleset.deck.by_id:
        line = f"You {kind.replace('_', ' ')} {label}"
    else:
        line = f"You choose: {label}"
    return line + (" (your only choice)." if forced else ".")


def cards_in_hand(view: SeatView, choices: Sequence[str]) -> bool:
    """Whether every choice is a card of the seat's hand (played, discarded...), so the
    choices are shown as marks on the hand rather than as a list."""
    by_id = view.ruleset.deck.by_id
    hand = set(view.playable)
    return bool(choices) and all(c in by_id and by_id[c] in hand for c in choices)


def numbered_choices(view: SeatView) -> list[str]:
    """The legal choices in the order they are numbered on screen, from 1: cards of the hand
    in the order the hand is shown; other choices as the ruleset gives them."""
    choices = list(_facing(view).choices)
    if not cards_in_hand(view, choices):
        return choices
    deck = view.ruleset.deck
    return sorted(choices, key=lambda c: sort_key(deck, deck.by_id[c]))


# --- the hand and the table -----------------------------------------------------------------


def _facing(view: SeatView) -> Facing:
    """The decision the view's seat faces (the screen is shown only for one)."""
    if view.facing is None:
        raise ValueError(f"seat {view.seat} faces no decision")
    return view.facing


def hand_lines(view: SeatView, numbered: Sequence[str] = ()) -> list[str]:
    """The seat's hand, one row per suit, with `[n]` before the cards that may be chosen."""
    deck = view.ruleset.deck
    number = {deck.by_id[c]: n for n, c in enumerate(numbered, 1) if c in deck.by_id}
    rows: dict[str, list[str]] = {}
    for index in sorted_hand(deck, view.playable):
        card = deck.cards[index]
        mark = f"[{number[index]}]" if index in number else ""
        rows.setdefault(_row_title(card), []).append(mark + short_name(card))
    width = max((len(title) for title in rows), default=0) + 2
    count = len(view.hand)
    legend = "; [n] = you may choose it" if number else ""
    tops = " and the tops of your piles" if view.pile_tops[view.seat] else ""
    lines = [
        f"Your hand{tops}, each suit high to low "
        f"({count} card{'s' if count != 1 else ''} in hand{legend}):"
    ]
    lines += [f"  {title:{width}}" + "  ".join(items) for title, items in rows.items()]
    return lines


def sides_line(view: SeatView) -> str | None:
    """Who took the contract and who plays with whom, as far as this seat may know: a called
    partner is named only to himself until the called card is played."""
    if view.taker is None:
        return None
    me = view.seat
    contract = (view.contract or "").replace("_", " ")
    line = f"Taker: {who(view.taker, me)} ({contract})"
    if view.called_card is not None:
        called = view.ruleset.deck.cards[view.called_card].label()
        known = view.partner_known
        if view.partner is None and known:
            line += f", alone (called {called})"
        elif view.partner is not None:
            line += f", with {who(view.partner, me)} (called {called})"
        else:
            line += f", with the holder of the {called}"
    return line + "."


def piles_line(view: SeatView) -> str | None:
    """The face-up tops of every seat's piles on the table."""
    deck = view.ruleset.deck
    parts = [
        f"{who(s, view.seat)} {card_list(deck, tops)}"
        for s, tops in enumerate(view.pile_tops)
        if tops
    ]
    return "Face up on the piles: " + "; ".join(parts) if parts else None


def packets_line(view: SeatView) -> str | None:
    """The talon laid out face up in packets, numbered, while any is on the table."""
    if not any(view.packets):
        return None
    deck = view.ruleset.deck
    laid = [
        f"[{n}] {card_list(deck, packet)}" for n, packet in enumerate(view.packets, 1) if packet
    ]
    return "The talon, laid out in packets: " + "; ".join(laid)


def doubled_line(view: SeatView) -> str | None:
    """What has been doubled so far, and what it now counts for."""
    doubling = view.ruleset.doubling
    if doubling is None or not view.doubled:
        return None
    names = {target.id: target.name for target in doubling.targets}
    parts = [
        f"{names.get(target, target)} x{amount(doubling.factor**times)}"
        for target, times in view.doubled.items()
    ]
    return "Doubled: " + ", ".join(parts)


def announced_line(view: SeatView) -> str | None:
    """The bonuses announced so far, and by whom."""
    bonuses = view.ruleset.announcements
    if bonuses is None or not view.announced:
        return None
    names = {bonus.id: bonus.name for bonus in bonuses.table}
    made = [f"{names.get(bonus, bonus)} (seat {seat})" for seat, bonus in view.announced]
    return "Announced: " + ", ".join(made)


def told_line(view: SeatView) -> str | None:
    """How many cards of a kind each seat laid away, as the rules tell all once the discards
    are done (`discard.told`): for each seat that laid cards away."""
    me = view.seat
    seats = [s for s in range(len(view.told)) if view.discard_sizes[s] or view.told[s]]
    if not seats:
        return None
    return told_text(view.ruleset, [(who(s, me), view.told[s]) for s in seats])


def table_line(view: SeatView) -> str:
    """The trick on the table so far, its number and who led it."""
    deck, me = view.ruleset.deck, view.seat
    if not view.trick:
        return f"Trick {view.trick_number}: {who(view.leader, me)} to lead."
    played = ", ".join(f"{who(s, me)} {deck.cards[c].label()}" for s, c in view.trick)
    return f"Trick {view.trick_number}, led by {who(view.leader, me)}: {played}."


def shown_line(view: SeatView) -> str | None:
    """Cards other seats showed in declarations and have not played yet."""
    me = view.seat
    played = view.played()
    held: dict[int, list[int]] = {}
    for seat, what, cards in view.shown:
        # the talon a seat took and then laid cards away from: which are left is not known
        if what in TALON_INTO_HAND and view.discard_sizes[seat]:
            continue
        if seat != me and what not in OFF_HAND:
            for card in cards:
                if card not in played and card not in held.setdefault(seat, []):
                    held[seat].append(card)
    parts = [
        f"{who(s, me)} {card_list(view.ruleset.deck, cards)}" for s, cards in held.items() if cards
    ]
    return "Shown, not yet played: " + "; ".join(parts) if parts else None


def net_line(view: SeatView, heading: str = "Net so far") -> str:
    seats = ", ".join(f"{who(s, view.seat)} {signed(v)}" for s, v in enumerate(view.returns))
    return f"{heading} ({view.ruleset.unit.plural}): {seats}"


def decision_lines(view: SeatView) -> list[str]:
    """Everything the seat is shown when it must decide: where the hand stands, its hand
    with the choices marked, and for other decisions the numbered list of choices."""
    decision = _facing(view)
    ruleset, me = view.ruleset, view.seat
    dealer = ", the dealer" if view.dealer == me else ""
    stage = f"trick {view.trick_number}" if decision.kind == PLAY else decision.kind
    if decision.kind == DISCARD:
        done = len(view.discards)
        total = done + view.to_discard  # the talon taken counts
        stage += f" {done + 1} of {total}" if done < total else ""
    lines = [f"--- Hand {view.number}, {stage}: you are seat {me}{dealer} ---"]
    lines.append(net_line(view))
    lines += [
        line
        for line in (
            sides_line(view),
            announced_line(view),
            told_line(view),
            doubled_line(view),
            piles_line(view),
            packets_line(view),
        )
        if line
    ]
    shown = shown_line(view)
    if shown:
        lines.append(shown)
    if view.discards:
        lines.append("Your discards: " + card_list(ruleset.deck, view.discards))
    if decision.kind == PLAY or view.trick:
        lines.append(table_line(view))
        paid = [p for p in view.payments if p.when == current_trick(view)]
        lines += ["  " + line for line in payment_lines(ruleset, paid, me)]
    numbered = numbered_choices(view)
    if cards_in_hand(view, numbered):
        lines += hand_lines(view, numbered)
        lines.append(_card_question(decision.kind, numbered))
        return lines
    lines += hand_lines(view)
    values = decision.level_values
    lines.append(f"Choose ({decision.kind.replace('_', ' ')}):")
    lines += [
        f"  [{n}] {choice_label(ruleset, c, values, decision.kind)}"
        for n, c in enumerate(numbered, 1)
    ]
    lines.append(f"Type the [number] of your choice (1 to {len(numbered)}); ? for help.")
    return lines


def _card_question(kind: str, numbered: Sequence[str]) -> str:
    verb = capital(kind.replace("_", " "))
    return f"{verb} which card? Type its [number] or its id ({numbered[0]}); ? for help."


def help_lines(view: SeatView) -> list[str]:
    numbered = numbered_choices(view)
    deck = view.ruleset.deck
    first = numbered[0]
    lines = [f"Type the number in [ ] of your choice (1 to {len(numbered)})"]
    if first in deck.by_id:
        label = deck.cards[deck.by_id[first]].label()
        lines[0] += f", or a card's id ({first}) or name ({label})."
    else:
        lines[0] += " or the choice as written."
    lines.append("  h or hand: show the table and your hand again")
    lines.append("  ? or help: this help")
    lines.append("  q or quit (or Ctrl-D): leave the table; finished hands are kept")
    return lines


# --- reading an answer ----------------------------------------------------------------------


def _normal(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").replace("_", " ").split())


def resolve(view: SeatView, answer: str) -> tuple[str | None, str]:
    """The choice an answer names (a number on screen, a card's id or name, or a choice as
    written), or None and a one-line reason why it names none of the legal choices."""
    numbered = numbered_choices(view)
    text = answer.strip()
    if text.isdecimal():  # digits int() reads, of any script; a long run of them is no choice
        n = int(text) if len(text) <= 9 else None
        if n is not None and 1 <= n <= len(numbered):
            return numbered[n - 1], ""
        shown = n if n is not None else f"a {len(text)}-digit number"
        return None, f"there is no choice [{shown}]: choose 1 to {len(numbered)}"
    wanted = _normal(text)
    kind = _facing(view).kind
    for choice in numbered:
        if wanted in (_normal(choice), _normal(choice_label(view.ruleset, choice, kind=kind))):
            return choice, ""
    card = _named_card(view, text)
    if card is not None:
        return None, _refusal(view, card)
    return None, f"{text!r} is not one of the choices (? for help)"


def refusal(view: SeatView, answer: str) -> str:
    """Why an answer that names none of the legal choices is refused, as a person is told it
    at the terminal or in the browser: for a card, why that card may not be chosen now."""
    card = _named_card(view, answer)
    if card is not None:
        return _refusal(view, card)
    return f"{answer.strip()[:80]!r} is not one of the choices"


def _named_card(view: SeatView, answer: str) -> Card | None:
    """The card of the deck an answer names by its id or its label, if any."""
    wanted = _normal(answer)
    for card in view.ruleset.deck.cards:
        if wanted in (_normal(card.id), _normal(card.label())):
            return card
    return None


def _refusal(view: SeatView, card: Card) -> str:
    """Why a card named by the person cannot be chosen now."""
    label = card.label()
    if card.index not in view.hand:
        return f"{label} is not in your hand"
    kind = _facing(view).kind
    if kind != PLAY:
        return f"you may not {DecisionKind(kind).verb} {label} now"
    return f"you may not play {label} now: {_play_reason(view, card)}"


def _play_reason(view: SeatView, card: Card) -> str:
    deck = view.ruleset.deck
    legal = [deck.cards[deck.by_id[c]] for c in _facing(view).choices]
    trick = list(view.trick)
    rules = view.play_rules
    if card.index in trick_rules.legal_cards(rules, view.trick_pack, view.playable, trick):
        return "the rules keep it back for now"  # the hand's forced, held-back or lead rules
    if not view.trick:
        return "it may not lead"
    suited = [c for c in legal if not c.is_excuse]
    if rules.must_beat and suited and all(c.suit == card.suit for c in suited):
        return "it does not beat the trick, and you must beat it"
    lead = trick_rules.led_card(deck.cards, list(view.trick))
    required = [c for c in legal if not c.fool]
    if lead is None or not required:
        return "it is not among the legal cards"
    if all(c.is_trump for c in required):
        if card.is_trump:
            return "you must play a higher trump"
        if lead.is_trump:
            return "trumps were led and you must play a trump"
        return f"you have no {lead.suit}, so you must play a trump"
    suits = {c.suit for c in required}
    if len(suits) == 1 and lead.suit in suits:
        return f"you must follow {lead.suit}"
    return "it is not among the legal cards"


# --- payments ----------------------------------------------------------------------------


def current_trick(view: SeatView) -> At | None:
    """The moment payments in the trick on the table are made at (None between tricks)."""
    return at_trick(view.trick_number) if view.trick else None


def payment_lines(ruleset: Ruleset, payments: Sequence[Payment], me: int) -> list[str]:
    """One line per payer and rule, in order: who pays how much to whom, and the rule's name;
    for a rule that reads an option, the reading in force and its source too."""
    lines = []
    group: list[Payment] = []
    for payment in [*payments, None]:
        if group and (
            payment is None
            or (payment.rule, payment.payer, payment.amount, payment.at)
            != (group[0].rule, group[0].payer, group[0].amount, group[0].at)
            or payment.payee in {p.payee for p in group}
        ):
            first = group[0]
            each = " each" if len(group) > 1 else ""
            payees = _and([who(p.payee, me) for p in group])
            lines.append(
                f"{capital(who(first.payer, me))} {verb(first.payer, me, 'pay')} "
                f"{quantity(ruleset, first.amount)}{each} to {payees}: "
                f"{ruleset.rule_label(first.rule)}"
                + (f" [{ruleset.citation(first.rule)}]" if ruleset.rule_options(first.rule) else "")
            )
            group = []
        if payment is not None:
            group.append(payment)
    return lines


# --- the end of the hand --------------------------------------------------------------------


def result_lines(view: SeatView, sheet: Sheet) -> list[str]:
    """A finished hand: its score sheet (the terms of the settlement, the card points, the net
    of each rule's payments per seat) and the net."""
    ruleset, me = view.ruleset, view.seat
    lines = [f"=== Hand {view.number} over ==="]
    if view.thrown_in is not None:
        reason = ruleset.rule_label("thrown_in:" + view.thrown_in)
        return [*lines, f"The deal is thrown in before play: {reason}. Nothing is paid."]
    if view.card_points is None:
        raise ValueError(f"hand {view.number} is not over")
    seats = [who(s, me) for s in range(ruleset.players)]
    lines += sheet_lines(sheet, seats, ruleset.unit.plural)
    lines.append(net_line(view, "Net this hand"))
    return lines
