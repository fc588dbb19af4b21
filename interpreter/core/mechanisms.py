"""The mechanisms of the language, by the place in a ruleset that writes each.

Where it sits: a shared noun, beside the facts of `vocabulary`. Every key the ruleset
schema knows belongs to one mechanism, named here by its path (or is prose: a source, an
assumption, a name); a back end that cannot run every mechanism
says, per mechanism, whether it runs it (the batch back end's `tarot.batch.support`), and
`tests/test_vocabulary.py` fails when the schema gains a key no mechanism covers or a
mechanism no back end has ruled on. Paths are written as in the schema: `a.b` for a key,
`a[]` for each entry of a list, `a{}` for each entry of a mapping whose keys the author names.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

#: every mechanism: a few words on it, and the schema paths that write it (a path ending in
#: `*`: it and every key under it)
MECHANISMS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "title": ("the ruleset's title", ("title",)),
    "period": ("the period the game is from", ("period",)),
    "description": ("the ruleset's description", ("description",)),
    "sources": ("the sources cited", ("sources*",)),
    "unit": ("the unit of payments", ("unit*",)),
    "extends": ("the ruleset it extends", ("extends",)),
    "options": ("options and their readings", ("options*",)),
    "parameters": ("named numbers", ("parameters*",)),
    "deck": (
        "the pack and its named card sets",
        ("deck", "deck.suits*", "deck.courts", "deck.pips", "deck.trumps", "deck.fool")
        + ("deck.removed*", "deck.card_sets*"),
    ),
    "deck.trump_order": ("trumps ranked in an order of their own", ("deck.trump_order*",)),
    "players": (
        "the seats and the direction of play",
        ("players", "players.count", "players.direction"),
    ),
    "deal": (
        "the deal in packets, the cut and the dealers",
        ("deal", "deal.cut*", "deal.first_dealer", "deal.next_dealer", "deal.redeal_by")
        + ("deal.packets", "deal.packets[].dealer", "deal.packets[].each")
        + ("deal.packets[].others", "deal.packets[].rounds", "deal.packets[].talon")
        + ("deal.packets[].talon_after",),
    ),
    "deal.packets[].piles": ("piles dealt face down on the table", ("deal.packets[].piles",)),
    "flow": ("the order of the hand's steps", ("flow*",)),
    "talon": (
        "the talon: where it goes, who sees it",
        ("talon", "talon.to", "talon.seat", "talon.shown"),
    ),
    "talon.packets": ("the talon laid out in packets", ("talon.packets*",)),
    "talon.per_trick": ("the talon as a stock drawn from after each trick", ("talon.per_trick",)),
    "talon.shares": ("the talon shared out", ("talon.shares*",)),
    "talon.takes": ("cards taken from the talon by rule", ("talon.takes*",)),
    "talon.ends_hand": ("a talon that ends the hand", ("talon.ends_hand",)),
    "discard": (
        "the discards: how many, which cards, who scores them",
        ("discard", "discard.counts*", "discard.forbidden", "discard.never")
        + ("discard.scores_for", "discard.shown"),
    ),
    "discard.all_or_none": ("discards made all or none", ("discard.all_or_none",)),
    "discard.told": ("the discards told to all", ("discard.told",)),
    "declarations": (
        "declarations from a table",
        ("declarations", "declarations.maximal", "declarations.timing", "declarations.table")
        + ("declarations.table[].from", "declarations.table[].to")
        + ("declarations.table[].hands_over*", "declarations.table[].levels*")
        + ("declarations.table[].paid_when_declared", "declarations.table[].shows")
        + ("declarations.table[].timing",),
    ),
    "declarations.table[].compulsory": (
        "compulsory declarations",
        ("declarations.table[].compulsory",),
    ),
    "bidding": (
        "an auction of contracts",
        ("bidding", "bidding.contracts", "bidding.contracts[].values*"),
    ),
    "bidding.all_passed": ("a contract when every seat passes", ("bidding.all_passed*",)),
    "bidding.compulsory": ("a compulsory contract", ("bidding.compulsory*",)),
    "bidding.first": ("the seat that bids first", ("bidding.first",)),
    "bidding.hold": ("holding the bid", ("bidding.hold",)),
    "bidding.must_bid": ("a seat that must bid", ("bidding.must_bid",)),
    "bidding.rounds": ("several rounds of bidding", ("bidding.rounds",)),
    "bidding.winner_may_raise": ("the winner raising his bid", ("bidding.winner_may_raise",)),
    "bidding.contracts[].join": ("seats joining the taker", ("bidding.contracts[].join",)),
    "bidding.contracts[].only_when_all_passed": (
        "a contract open only when all passed",
        ("bidding.contracts[].only_when_all_passed",),
    ),
    "bidding.contracts[].open_to": (
        "a contract open to some seats only",
        ("bidding.contracts[].open_to",),
    ),
    "bidding.contracts[].play": ("play rules of a contract", ("bidding.contracts[].play*",)),
    "partner_call": (
        "the taker calling a partner",
        ("partner_call", "partner_call.when", "partner_call.cards"),
    ),
    "partner_call.after": ("the partner called after the talon", ("partner_call.after",)),
    "announcements": ("announcements of bonuses", ("announcements*",)),
    "doubling": ("doubling", ("doubling*",)),
    "show": ("cards shown during play", ("show*",)),
    "play": (
        "the trick rules, the leader and the excuse",
        ("play", "play.first_leader", "play.follow_suit", "play.overtrump", "play.excuse*")
        + ("play.trump_when_trump_led", "play.trump_when_void"),
    ),
    "play.must_beat": ("a card that must beat the trick", ("play.must_beat",)),
    "play.trumps_as_suit": ("trumps played as a suit", ("play.trumps_as_suit",)),
    "play.forced": ("cards the rules force", ("play.forced",)),
    "play.held_back": ("cards held back for a trick", ("play.held_back",)),
    "play.lead_forbidden": ("leads forbidden", ("play.lead_forbidden",)),
    "play.winner_exceptions": ("exceptions to who wins a trick", ("play.winner_exceptions*",)),
    "play.sides": ("sides set by rule", ("play.sides*",)),
    "play.ends_when": ("play ended early", ("play.ends_when",)),
    "redeal": ("redeals", ("redeal", "redeal[].when", "redeal[].choice")),
    "redeal[].agreed_by": ("a redeal agreed by the other seats", ("redeal[].agreed_by",)),
    "definitions": ("named values", ("definitions*",)),
    "payments": ("payment rules", ("payments*",)),
    "settlement": ("settlement rules", ("settlement*",)),
    "counting": ("card points", ("counting*",)),
    "hand_score": ("a score per hand", ("hand_score*",)),
    "lasting": ("counters and accounts that last from hand to hand", ("lasting*",)),
    "game": (
        "how a game ends and who wins it",
        ("game", "game.ends_when", "game.winners", "game.max_hands"),
    ),
    "game.claim_during_play": ("a game claimed during play", ("game.claim_during_play",)),
    "discard.scored_by": (
        "the discards scoring, once play is over, for a seat an expression names",
        ("discard.scored_by",),
    ),
    "talon.scored_by": (
        "the talon left on the table scoring, once play is over, for a seat an expression names",
        ("talon.scored_by",),
    ),
    "deal.first_dealer_draw": (
        "the first dealer drawn for, by a rank an expression gives each card drawn",
        ("deal.first_dealer_draw*",),
    ),
    "play.rank_changes": ("cards ranking otherwise for one hand", ("play.rank_changes*",)),
    "declarations.table[].hands_over.named": (
        "a card the declarer names, handed over by whoever holds it, told to all or not",
        ("declarations.table[].hands_over.named", "declarations.table[].hands_over.told"),
    ),
    "doubling.repeat": ("a doubling repeated without a fixed end", ("doubling.repeat*",)),
    "announcements.reopen": (
        "announcements reopened for some seats",
        ("announcements.reopen",),
    ),
    "questions": ("questions asked during play, answered to all", ("questions*",)),
    "bidding.contracts[].join_at": (
        "joining the standing bid in the bidding, and bids that need a seat to join",
        ("bidding.contracts[].join_at", "bidding.contracts[].join_needed"),
    ),
    "play.pile_tops_to_hand": (
        "face-up pile tops taken into their owner's hand, shown to all",
        ("play.pile_tops_to_hand",),
    ),
    "talon.packets.forbidden": (
        "a talon packet that may not be taken while another may",
        ("talon.packets.forbidden",),
    ),
    "players.sit_out": (
        "more seats at the table than play a hand, the others sitting it out",
        ("players.sit_out*",),
    ),
}

#: the keys that are prose wherever they stand: said to the reader, never run
PROSE = frozenset({"source", "assumption", "description", "name", "id", "remove", "option"})

#: mappings whose keys the author names (their paths take `{}`)
NAMED_ENTRIES = frozenset(
    {
        "sources",
        "options",
        "options{}.readings",
        "bidding.contracts[].values",
        "parameters",
        "definitions",
        "deck.card_sets",
        "lasting.accounts",
        "lasting.counters",
    }
)

#: a contract's talon is the talon mechanism written for one contract
_SAME_AS = {"bidding.contracts[].talon": "talon"}
#: each path a mechanism names, and each subtree (`*`), to the mechanism
_EXACT = {path: name for name, (_, paths) in MECHANISMS.items() for path in paths}
_SUBTREES = {path[:-1]: name for path, name in _EXACT.items() if path.endswith("*")}


def mechanism_of(path: str) -> str | None:
    """The mechanism the schema path `path` writes; None for prose, or for a path no
    mechanism names."""
    if "." in path and path.rsplit(".", 1)[-1] in PROSE:
        return None
    for alias, same in _SAME_AS.items():
        if path == alias or path.startswith(alias + "."):
            path = same + path[len(alias) :]
    if path in _EXACT:
        return _EXACT[path]
    prefix = path
    while prefix:
        if prefix in _SUBTREES:
            return _SUBTREES[prefix]
        cut = max(prefix.rfind("."), prefix.rfind("[]"), prefix.rfind("{}"))
        prefix = prefix[:cut] if cut > 0 else ""
    return None


def written_paths(document: Mapping, path: str = "", where: str = "") -> Iterator[tuple[str, str]]:
    """Every key written in a ruleset's document: its schema path and where it stands
    (`declarations.table[2].compulsory`)."""
    for key, value in document.items():
        key_path = f"{path}.{key}" if path else str(key)
        key_where = f"{where}.{key}" if where else str(key)
        if path in NAMED_ENTRIES:
            key_path = f"{path}{{}}"
        yield key_path, key_where
        if isinstance(value, Mapping):
            yield from written_paths(value, key_path, key_where)
        elif isinstance(value, list):
            for i, entry in enumerate(value):
                if isinstance(entry, Mapping):
                    yield from written_paths(entry, f"{key_path}[]", f"{key_where}[{i}]")
