"""Check stage, second part: what the schema cannot say about a ruleset.

Pipeline: schema_check -> options -> **semantic_checks** -> compile (all run by
:mod:`~tarot.compile.loader`). Reads the document with its readings in place
and reports, each at its file position: sources cited but not listed, card sets and suits
named but not defined (or defined in a circle, or empty), a deal that does not add up to the
pack or leaves unequal hands, contracts that do not all give the same values, a talon sent to
a hand or pile without saying whose, a partner call without an auction, counting by unknown
sets, and names that cannot be used (a word of the expression language, a name already
taken). Expressions are not looked at here: their names and types are checked as they are
compiled.

It makes only what its checks need, and compile takes those over as they are: the pack (its
cards and card sets, whose sizes the deal is checked against) and the deal's packet steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tarot.check.card_sets import checked_sets, selector_values, standing_in
from tarot.check.draft import Draft
from tarot.check.lasting_checks import check_lasting
from tarot.core.actions import PASS_TEXT
from tarot.core.cards import Deck, build_deck, fool_is_trump
from tarot.core.ruleset import PacketStep
from tarot.core.vocabulary import EVENT_VARIABLES, FACTS, variables_for
from tarot.errors import did_you_mean
from tarot.expressions.builtins import BUILTIN_NAMES
from tarot.expressions.parser import KEYWORDS

__all__ = ["CheckedParts", "check_document"]


@dataclass
class CheckedParts:
    """What the checks made and found, for the compile stage."""

    deck: Deck
    #: The deal's steps and the discard counts (dealer, others); None where the players,
    #: the deal or the discard section is broken.
    packets: tuple[PacketStep, ...] | None = None
    discard_counts: tuple[int, int] | None = None
    #: Every value name the contracts give (`contract.NAME`).
    contract_values: frozenset[str] = frozenset()
    #: Definitions whose name cannot be used (reported): not compiled.
    refused_definitions: set[str] = field(default_factory=set)


def check_document(draft: Draft) -> CheckedParts | None:
    """Check ``draft`` (problems go into it); None when the pack cannot be made, since
    every later check reads it."""
    data = draft.data
    _check_sources(draft, data, ())
    deck = _pack(draft)
    if deck is None:
        return None
    checked = CheckedParts(deck)
    if not draft.broken.any_section("players", "deal", "discard"):
        sit_out = data["players"].get("sit_out")
        players = data["players"]["count"] if sit_out is None else sit_out["in_hand"]
        checked.packets = _packets(draft, players, len(deck))
        counts = data.get("discard", {}).get("counts", {"dealer": 0, "others": 0})
        checked.discard_counts = (counts["dealer"], counts["others"])
        _check_hand_sizes(draft, checked.packets, players, checked.discard_counts)
        if sit_out is not None:
            _check_dealer_alike(draft, checked.packets, checked.discard_counts)
    talon = None if checked.packets is None else sum(p.rounds * p.talon for p in checked.packets)
    checked.contract_values = _check_contracts(draft, talon)
    if not draft.broken.whole("bidding"):
        _check_auction(draft)
    if not draft.broken.whole("talon"):
        _check_talon_use(draft, ("talon",), data.get("talon"), talon)
    bonuses = _announcement_ids(draft)
    if not draft.broken.whole("doubling"):
        _check_doubling(draft, bonuses)
    if not draft.broken.whole("partner_call"):
        _check_partner_call(draft)
    if not draft.broken.whole("counting"):
        _check_counting(draft, deck)
    _check_option_names(draft)
    checked.refused_definitions = _check_definition_names(draft, deck)
    check_lasting(draft, lambda name: _taken(name, "", deck))
    if not draft.broken.whole("questions"):
        _check_questions(draft)
    return checked


def _check_questions(draft: Draft) -> None:
    """Questions asked during play have distinct ids (their answers are read by id)."""
    seen: set[str] = set()
    for i, question in enumerate(draft.data.get("questions", [])):
        if question["id"] in seen:
            draft.problem(("questions", i, "id"), f"a second question named {question['id']!r}")
        seen.add(question["id"])


# --- sources -------------------------------------------------------------------------------


def _check_sources(draft: Draft, node: object, parts: tuple) -> None:
    known = draft.data.get("sources", {})
    # a source with a problem of its own still names one: the names are the section's keys
    if parts in draft.broken or not isinstance(known, dict):
        return
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "source" and parts[:1] != ("sources",):
                for ref in [value] if isinstance(value, str) else value:
                    if ref not in known:
                        draft.problem(
                            parts + (key,),
                            f"unknown source {ref!r}; sources: " + ", ".join(sorted(known)),
                        )
            else:
                _check_sources(draft, value, parts + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _check_sources(draft, value, parts + (i,))


# --- the pack and the deal -----------------------------------------------------------------


def _pack(draft: Draft) -> Deck | None:
    """The pack, once its suits and trumps are known to be well defined; else None. A card set
    that is not well defined is reported and stood for by every card (`check.card_sets`)."""
    before = len(draft.problems)
    spec = draft.data["deck"]
    sets = spec.setdefault("card_sets", {})
    suits = {s["name"] for s in spec.get("suits", [])}
    for i, selector in enumerate(spec.get("removed", [])):
        for suit in selector_values(selector, "suits"):
            if suit not in suits:
                draft.problem(
                    ("deck", "removed", i),
                    f"unknown suit {suit!r}; suits: " + ", ".join(sorted(suits)),
                )
    _check_trump_order(draft, spec)
    if len(draft.problems) > before:
        return None
    order, wrong = checked_sets(draft, sets, suits)
    deck = build_deck(spec, order)
    for name, members in deck.sets.items():
        if not members:
            draft.problem(("deck", "card_sets", name), f"card set {name!r} has no cards")
    return standing_in(deck, wrong)


def _check_trump_order(draft: Draft, spec: dict) -> None:
    """Each group of equal trumps names trumps the pack has, and no trump is in two groups."""
    order = spec.get("trump_order", {})
    trumps = int(spec.get("trumps", 0))
    if order.get("fool") == "highest" and not spec.get("fool"):
        draft.problem(
            ("deck", "trump_order", "fool"),
            "the Fool cannot rank as the highest trump: the pack has no Fool (`fool: true`)",
        )
    last = trumps + (1 if fool_is_trump(spec) else 0)
    grouped: dict[int, int] = {}
    for i, group in enumerate(order.get("equal", [])):
        for j, number in enumerate(group["trumps"]):
            where = ("deck", "trump_order", "equal", i, "trumps", j)
            if not 1 <= number <= last:
                fool = (
                    " (the Fool ranked as the highest trump is the last)" if last > trumps else ""
                )
                draft.problem(where, f"no trump {number}: the pack's trumps are 1 to {last}{fool}")
            elif number in grouped:
                draft.problem(where, f"trump {number} is already in group {grouped[number] + 1}")
            else:
                grouped[number] = i


def _packets(draft: Draft, players: int, pack: int) -> tuple[PacketStep, ...]:
    steps = []
    for step in draft.data["deal"].get("packets", []):
        dealer = step.get("each", step.get("dealer", 0))
        others = step.get("each", step.get("others", 0))
        talon, after = step.get("talon", 0), step.get("talon_after", players)
        piles = step.get("piles", 0)
        steps.append(PacketStep(step["rounds"], dealer, others, talon, min(after, players), piles))
    dealt = sum(
        s.rounds * (s.dealer + s.others * (players - 1) + s.talon + s.piles * players)
        for s in steps
    )
    talon = sum(s.rounds * s.talon for s in steps)
    if talon and "talon" not in draft.data and "bidding" not in draft.data:
        draft.problem(
            ("deal", "packets"),
            f"the deal lays {talon} cards in a talon but no `talon` section says where they go",
        )
    if dealt != pack:
        draft.problem(
            ("deal", "packets"),
            f"the deal does not add up: it deals {dealt} cards but the pack has {pack}",
        )
    return tuple(steps)


def _check_hand_sizes(
    draft: Draft, packets: tuple[PacketStep, ...], players: int, discards: tuple[int, int]
) -> None:
    dealer = sum(s.rounds * s.dealer for s in packets) - discards[0]
    others = sum(s.rounds * s.others for s in packets) - discards[1]
    if dealer < 0 or others < 0:
        draft.problem(
            ("discard", "counts"),
            "more cards to discard than are dealt: the dealer would keep "
            f"{dealer} cards and the others {others}",
        )
        return
    if players > 1 and dealer != others:
        draft.problem(
            ("discard", "counts"),
            f"after discarding the dealer holds {dealer} "
            f"cards and the others {others}; tricks need equal hands",
        )


def _check_dealer_alike(
    draft: Draft, packets: tuple[PacketStep, ...], discards: tuple[int, int]
) -> None:
    """Where a seat sits a hand out the dealer may be the one who does, so the deal and the
    discards treat the dealer as any other seat."""
    for i, step in enumerate(packets):
        if step.dealer != step.others:
            draft.problem(
                ("deal", "packets", i),
                f"the dealer gets {step.dealer} cards and the others {step.others}, but with "
                "`players.sit_out` the dealer may sit the hand out: give every seat the same "
                "(`each`)",
            )
    if discards[0] != discards[1]:
        draft.problem(
            ("discard", "counts"),
            f"the dealer discards {discards[0]} cards and the others {discards[1]}, but with "
            "`players.sit_out` the dealer may sit the hand out: give every seat the same",
        )


# --- auction, talon, partner, counting -----------------------------------------------------


def _check_contracts(draft: Draft, talon: int | None) -> frozenset[str]:
    """Every contract gives the same values; the names of those values."""
    spec = draft.data.get("bidding")
    if spec is None:
        return frozenset()
    contracts = spec.get("contracts", [])
    keys = [frozenset(c.get("values", {})) for c in contracts]
    values = frozenset.union(*keys) if keys else frozenset()
    for i, contract in enumerate(contracts):
        missing = sorted(values - keys[i])
        if missing:
            draft.problem(
                ("bidding", "contracts", i, "values"),
                f"contract {contract['id']!r} gives no value for "
                + ", ".join(missing)
                + " (every contract must give the same values)",
            )
        where = ("bidding", "contracts", i, "talon")
        _check_talon_use(draft, where, contract.get("talon"), talon)
        _check_joining(draft, ("bidding", "contracts", i), contract)
    return values


def _check_joining(draft: Draft, where: tuple, contract: dict) -> None:
    """`join_at` and `join_needed` need `join` (the seats that may join); a bid that needs a
    seat to join it is one made in the bidding, not one offered only once all have passed."""
    for key in ("join_at", "join_needed"):
        if key in contract and "join" not in contract:
            draft.problem(
                where + (key,),
                f"`{key}` needs `join`: the seats that may join this contract's bidder",
            )
    if contract.get("join_needed") and contract.get("only_when_all_passed"):
        draft.problem(
            where + ("join_needed",),
            "a contract offered only once every seat has passed cannot need a seat to join"
            " it: nobody bids it in the bidding; remove `join_needed` or"
            " `only_when_all_passed`",
        )


def _check_auction(draft: Draft) -> None:
    """A forced or compulsory contract is one of the contracts."""
    spec = draft.data.get("bidding", {})
    ids = [contract.get("id") for contract in spec.get("contracts", [])]
    named: list[tuple[tuple[str | int, ...], dict | None]] = [
        (("bidding", "all_passed"), spec.get("all_passed"))
    ]
    named += [(("bidding", "compulsory", i), c) for i, c in enumerate(spec.get("compulsory", []))]
    for where, forced in named:
        if forced is not None and forced.get("contract") not in ids:
            draft.problem(
                where + ("contract",),
                f"unknown contract {forced.get('contract')!r}; contracts: "
                + ", ".join(map(str, ids)),
            )


def _check_talon_use(draft: Draft, where: tuple, spec: dict | None, talon: int | None) -> None:
    """`talon`: the number of cards the deal lays in the talon (None if unknown)."""
    if spec is None:
        return
    to = spec.get("to", "out_of_play")
    if to not in ("out_of_play", "stock", "trick_winners") and spec.get("seat") is None:
        draft.problem(where, f"a talon that goes to a {to} needs `seat`: whose {to}")
    if "shares" in spec and (to != "hand" or "packets" in spec):
        draft.problem(
            where + ("shares",),
            "a talon is shared out only into hands, and not laid out in packets: write"
            " `to: hand` without `packets`",
        )
    if spec.get("takes") and "packets" in spec:
        draft.problem(
            where + ("takes",),
            "cards are taken by kind from a talon that is not laid out in packets (the"
            " packets would no longer be of equal size): drop `takes` or `packets`",
        )
    packets = spec.get("packets")
    if packets is None:
        return
    count, choose = packets["count"], packets["choose"]
    if to not in ("hand", "pile"):
        draft.problem(
            where + ("to",),
            f"packets taken go to a hand or a pile, not {to!r}: write `to: hand` or `to: pile`",
        )
    if choose > count:
        draft.problem(
            where + ("packets", "choose"),
            f"the talon's seat cannot take {choose} of {count} packets: `choose` is at most"
            " `count`",
        )
    if talon is not None and talon % count:
        draft.problem(
            where + ("packets", "count"),
            f"the talon's {talon} cards cannot be laid out in {count} packets of equal size",
        )
    if packets["rest"]["to"] == "tricks" and packets["rest"].get("seat") is None:
        draft.problem(
            where + ("packets", "rest"), "packets left to a seat's tricks need `seat`: whose"
        )


def _check_doubling(draft: Draft, bonuses: set[str] | None) -> None:
    """No doubling is named like the word that declines one; doublings made with the
    announcements have announcements to be made with; targets have distinct ids, and each says
    who doubles it first or names a bonus that may be announced (`bonuses`; None when the
    announcements are left out for a problem of their own, so nothing is said of them)."""
    spec = draft.data.get("doubling")
    if spec is None:
        return
    for i, step in enumerate(spec["steps"]):
        if step == PASS_TEXT:
            draft.problem(
                ("doubling", "steps", i),
                f"a doubling cannot be named {PASS_TEXT!r}: that word declines one",
            )
    repeat = spec.get("repeat")
    if repeat is not None and repeat["step"] == PASS_TEXT:
        draft.problem(
            ("doubling", "repeat", "step"),
            f"a doubling cannot be named {PASS_TEXT!r}: that word declines one",
        )
    if repeat is not None and "limit" not in repeat and spec.get("factor", 2) <= 1:
        draft.problem(
            ("doubling", "repeat"),
            f"with a `factor` of {spec['factor']} the doublings would never reach the numbers'"
            " range, which is all that ends them without a `limit`: give `limit` (the most"
            " doublings a target may have)",
        )
    if spec.get("with_announcements") and "announcements" not in draft.data:
        draft.problem(
            ("doubling", "with_announcements"),
            "the doublings are made in the round of announcements, but the ruleset has no"
            " `announcements`: add that section or remove `with_announcements`",
        )
    seen: set[str] = set()
    for i, target in enumerate(spec["targets"]):
        where = ("doubling", "targets", i)
        if target["id"] in seen:
            draft.problem(where + ("id",), f"a second target named {target['id']!r}")
        seen.add(target["id"])
        bonus = target.get("announcement")
        if bonus is None and "by" not in target:
            draft.problem(
                where,
                "a target needs `by` (the seats that may double it first), unless it is an"
                " announced bonus's: give `announcement: ID`",
            )
        elif bonus is not None and bonuses is not None and bonus not in bonuses:
            named = ", ".join(sorted(bonuses)) or "none: the ruleset has no `announcements`"
            draft.problem(
                where + ("announcement",),
                f"no announcement {bonus!r}; the bonuses that may be announced: {named}",
            )


def _announcement_ids(draft: Draft) -> set[str] | None:
    """The ids of the bonuses that may be announced (None when the section is left out for
    a problem of its own); a second bonus of the same id is reported."""
    ids: set[str] = set()
    spec = draft.data.get("announcements")
    if spec is None:
        return ids
    if draft.broken.whole("announcements"):
        return None
    for i, bonus in enumerate(spec["table"]):
        if bonus["id"] in ids:
            draft.problem(
                ("announcements", "table", i, "id"), f"a second bonus named {bonus['id']!r}"
            )
        ids.add(bonus["id"])
    return ids


def _check_partner_call(draft: Draft) -> None:
    if "partner_call" in draft.data and "bidding" not in draft.data:
        draft.problem(("partner_call",), "a partner call needs a taker: add a `bidding` section")


def _check_counting(draft: Draft, deck: Deck) -> None:
    counting = draft.data["counting"]
    for i, entry in enumerate(counting.get("values", [])):
        if entry["set"] not in deck.sets:
            draft.problem(
                ("counting", "values", i, "set"),
                f"unknown card set {entry['set']!r}; {did_you_mean(entry['set'], deck.sets)}"
                "sets: " + ", ".join(deck.sets),
            )
    group = counting.get("group_size", 1)
    credit = counting.get("partial_group_credit", [0] * (group - 1))
    if len(credit) != group - 1:
        draft.problem(
            ("counting", "partial_group_credit"),
            f"needs {group - 1} entries (one per possible leftover), has {len(credit)}",
        )


# --- names ---------------------------------------------------------------------------------


def _check_option_names(draft: Draft) -> None:
    for section, prefix in (("options", "option"), ("parameters", "param")):
        for name in draft.data.get(section, {}):
            if name in KEYWORDS:
                draft.problem(
                    (section, name),
                    f"{name!r} is a word of the expression language: {prefix}.{name}"
                    " could not be written; choose another name",
                )


def _check_definition_names(draft: Draft, deck: Deck) -> set[str]:
    """The definitions whose name (or whose seat's name) cannot be used, reported."""
    refused = set()
    definitions = draft.data.get("definitions", {})
    for name, spec in definitions.items():
        where = ("definitions", name)
        if where in draft.broken:
            continue
        taken = _taken(name, "", deck)
        if taken:
            draft.problem(where, taken)
            refused.add(name)
            continue
        seat_name = spec.get("of_seat")
        taken = _taken(seat_name, " for the seat", deck) if seat_name else ""
        if seat_name in definitions or taken:
            draft.problem(
                where + ("of_seat",),
                taken or f"{seat_name!r} is a definition's name; choose another for the seat",
            )
            refused.add(name)
    return refused


def _taken(name: str, what: str, deck: Deck) -> str:
    """Why `name` cannot name a definition (or, with `what`, its seat): empty if it can."""
    if name in KEYWORDS or name in BUILTIN_NAMES or name in ("option", "param"):
        return f"{name!r} is a word of the expression language; choose another name{what}"
    context = {n for event in EVENT_VARIABLES for n in variables_for(event, True, True)}
    if name in context or name in FACTS or name in deck.sets:
        return f"{name!r} is already a name in rulesets; choose another{what}"
    return ""
