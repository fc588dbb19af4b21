"""Plain words for the values a ruleset's sections hold: card selectors, packets of the deal,
where a talon goes, the engine's events and enumerated settings.

Where it sits: used by `tarot.presentation.explain.page` to turn a loaded ruleset's document into
sentences. Expressions are quoted as written (in backticks), not paraphrased: the expression
language is meant to be read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

EVENTS = {
    "cut": "when the cut card is shown",
    "discard": "for each card discarded",
    "discards_done": "when a player has finished discarding",
    "card_played": "for each card played",
    "trick_end": "for each card of a trick, when the trick is over",
    "settlement": "at the end of the hand",
}

SETTINGS = {
    "after_dealer": "the player after the dealer",
    "dealer": "the dealer",
    "taker": "the winner of the auction",
    "before_play": "before the first lead, in order of play",
    "before_own_first_card": "by each player just before he plays to the first trick",
    "captured": "goes to the winner of the trick like any other card",
    "kept": "goes to its holder's tricks",
    "holder": "its holder",
    "tricks_and_discards": "the cards won in tricks and the player's own discards",
    "discarder": "the player who discarded them",
    "nothing": "the debt lapses",
    "fool_surrendered": "the Fool goes to the trick's winner at the end of the hand",
    "pile": "the side's tricks, then its discards, at the end a talon set aside for it",
    "tricks": "the side's tricks only",
    "next_dealer": "the next dealer (the thrown-in deal counts as a hand with no score)",
    "same_dealer": "the same dealer",
}


def code(expression: object) -> str:
    """An expression (or a literal) quoted on one line."""
    if isinstance(expression, bool):
        return "`true`" if expression else "`false`"
    return "`" + " ".join(str(expression).split()) + "`"


def setting(value: object) -> str:
    """An enumerated setting in words (the value itself when it has no words here)."""
    return SETTINGS.get(str(value), str(value).replace("_", " "))


def event(name: str) -> str:
    return EVENTS.get(name, f"at the event {name}")


def listing(items: Sequence[object], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def selector(spec: Mapping) -> str:
    """The cards a card selector picks, in words."""
    if "any_of" in spec:
        return listing([selector(part) for part in spec["any_of"]], "or")
    parts = []
    ranks = spec.get("ranks")
    suits = spec.get("suits")
    if ranks is not None:
        of = f" of {listing(suits)}" if suits else " of every suit"
        parts.append(f"rank {listing(ranks)}{of}")
    elif suits is not None:
        parts.append(f"every card of {listing(suits)}")
    trumps = spec.get("trumps")
    if trumps == "all":
        parts.append("every trump")
    elif trumps is not None:
        parts.append(
            f"trump {listing(trumps)}" if len(trumps) == 1 else f"trumps {listing(trumps)}"
        )
    if spec.get("fool"):
        parts.append("the Fool")
    if "sets" in spec:
        parts.append("among the set " + listing(spec["sets"], "or"))
    return ", ".join(parts) if parts else "every card"


def packet_step(step: Mapping, players: int) -> str:
    """One step of the deal: rounds of packets, the talon and the piles laid in it."""
    rounds = step["rounds"]
    parts = []
    if step.get("each"):
        parts.append(f"{_cards(step['each'])} to each player")
    elif step.get("others") or step.get("dealer"):
        others, dealer = _cards(step.get("others", 0)), _cards(step.get("dealer", 0))
        parts.append(f"{others} to each other player and {dealer} to the dealer")
    if step.get("talon"):
        after = step.get("talon_after", players)
        when = "at the end" if after >= players else f"after the {_ordinal(after)} player's packet"
        parts.append(f"{_cards(step['talon'])} to the talon {when}")
    if step.get("piles"):
        parts.append(f"1 card onto each of each player's {step['piles']} piles")
    times = "once" if rounds == 1 else f"{rounds} rounds, each"
    return f"{times}: {listing(parts)}"


def hands_over(spec: Mapping) -> str:
    """A declaration's cards handed over to the declarer, in words."""
    asked = (
        f"The declarer names one card of {code(spec['cards'])} he does not hold, aloud, and"
        " whoever holds it hands it to him (nobody, when it lies elsewhere)"
        if spec.get("named")
        else f"Each card of {code(spec['cards'])} another player holds is handed to the declarer"
    )
    told = (
        "; only the two know who held it" if spec.get("told", True) is False else ", shown to all"
    )
    return (
        f"{asked}{told}; for each he gives back a card of {code(spec['in_return'])} of his"
        " choosing (any card of his, when he has none of them)."
    )


def talon_use(spec: Mapping) -> str:
    """Where a talon goes, once any cards of a kind are taken from it."""
    takes = [_talon_take(take) for take in spec.get("takes", [])]
    where = _talon_destination(spec)
    if takes:
        where = f"{where}, once {' and then '.join(takes)}"
    if "ends_hand" in spec:
        where += f"; the hand ends there, settled at once, when {code(spec['ends_hand'])}"
    if "scored_by" in spec:
        where += (
            "; what of it is still on the table when play ends scores for the first seat of"
            f" {code(spec['scored_by'])}, worked out then (for nobody before)"
        )
    return where


def _talon_take(take: Mapping) -> str:
    """Cards of a kind a seat takes from the talon, in words."""
    end = take.get("from", "top")
    which = (
        f"the cards of {code(take['cards'])} lying in a row at its {end}"
        if take.get("taking", "every") == "in_a_row"
        else f"every card of {code(take['cards'])} (looking from its {end})"
    )
    shown = ", shown to all," if take.get("shown") else ""
    return f"{code(take['seat'])} has taken {which}{shown} and discarded as many"


def _talon_destination(spec: Mapping) -> str:
    """Where a talon goes."""
    to, seat = spec.get("to", "out_of_play"), spec.get("seat")
    packets = spec.get("packets")
    if packets is not None:
        rest = packets["rest"]
        left = (
            f"to the tricks of {code(rest.get('seat'))}"
            if rest["to"] == "tricks"
            else "out of play"
        )
        into = (
            "into his hand (then discards as many cards)"
            if to == "hand"
            else "onto his scoring pile"
        )
        forbidden = packets.get("forbidden")
        unless = (
            ""
            if forbidden is None
            else f", never one for which {code(forbidden)} holds while another may be taken"
        )
        return (
            f"face up in {packets['count']} packet(s); {code(seat)} takes {packets['choose']}"
            f" of them whole {into}{unless}; the rest go {left}"
        )
    shown = "shown to all, then " if spec.get("shown") else ""
    if to == "trick_winners":
        return f"{_cards(spec.get('per_trick', 1))} at a time, face up, to each trick's winner"
    shares = spec.get("shares")
    if to == "hand" and shares is not None:
        return (
            f"{shown}{code(shares['first'])} cards into the hand of {code(seat)}, the rest"
            f" {_cards(shares.get('others', 1))} at a time to each other player in turn; each"
            " then discards as many cards"
        )
    if to == "hand":
        return f"{shown}into the hand of {code(seat)}, who then discards as many cards"
    if to == "pile":
        return f"{shown}unseen onto the scoring pile of {code(seat)}"
    return f"{shown}{'aside' if 'scored_by' in spec else 'out of play'}, unseen"


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _ordinal(number: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10 if number not in (11, 12, 13) else 0)
    return f"{number}{suffix or 'th'}"


def trump_order(spec: Mapping) -> list[str]:
    """The deck's `trump_order` in words: the Fool as a trump, groups of equal trumps."""
    order = spec.get("trump_order", {})
    lines = []
    if spec.get("fool") and order.get("fool") == "highest":
        lines.append(f"The Fool is the highest trump, above trump {spec.get('trumps', 0)}.")
    for group in order.get("equal", []):
        first = "last" if group.get("wins") == "last" else "first"
        lines.append(
            f"Trumps {listing(group['trumps'])} rank alike; of two in one trick the {first}"
            " played wins."
        )
    return lines


#: the play rules given by an expression, in words (before the expression)
_PLAY_EXPRESSIONS = {
    "forced": "Cards that must be played whenever the trick rules allow one",
    "lead_forbidden": "Cards that may not be led while another may",
    "held_back": "Cards that may not be played while another may",
    "ends_when": "Play stops, the cards still held unplayed, after a trick when",
    "pile_tops_to_hand": (
        "When play begins and after each trick, a face-up top of a player's piles goes into"
        " his hand, shown to all, and the card beneath turns up, while the top is one of"
    ),
}


def leader(value: object) -> str:
    """Who leads to the first trick, as a phrase starting with a capital."""
    if isinstance(value, str) and value not in SETTINGS:
        return f"The seat {code(value)}"
    return setting(value).capitalize()


def play_rules(spec: Mapping, with_leader: bool = True) -> list[str]:
    """The play rules beyond following and trumping, in words (a contract's own, or the
    ruleset's, whose leader is told with the trick rules); their `sides` the page says."""
    lines = []
    if with_leader and "first_leader" in spec:
        lines.append(f"{leader(spec['first_leader'])} leads to the first trick.")
    for key, text in (
        ("must_beat", "A player must beat the trick when he can."),
        ("trumps_as_suit", "Trumps play as a plain suit: they win only when a trump is led."),
    ):
        if spec.get(key) is True:
            lines.append(text)
    lines += [
        f"{text}: {code(spec[key])}." for key, text in _PLAY_EXPRESSIONS.items() if key in spec
    ]
    lines += [
        f"For the hand, the cards of {code(change['cards'])} (worked out when play begins)"
        f" rank {_RANK_PLACES[change['to']]}."
        for change in spec.get("rank_changes", [])
    ]
    return lines  # the sides they give: `page`, with their source


#: where a play rule's `rank_changes` puts cards, in words
_RANK_PLACES = {
    "highest_trump": "as trumps, above every other trump",
    "lowest_trump": "as trumps, below every other trump",
    "highest_in_suit": "above every other card of their suit (or of the trumps)",
    "lowest_in_suit": "below every other card of their suit (or of the trumps)",
}
