"""What the batch back end can run, as a whitelist: `supports(ruleset)` names every rule,
section or mechanism of a ruleset it does not know, so that the command runs that ruleset
on the scalar engine (or refuses, when the batch back end was asked for by name).

Where it sits: before any hand is played, called by the runner's choice of back end
(`tarot.measure.runner`) and by `tarot simulate`/`tarot diff --backend`. Everything
not listed here is refused, including mechanisms added to the rulesets or to the compiled
`Ruleset` after this list was written: a section, key or compiled field it has never seen
is named, not guessed at.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from tarot.batch.values import Unsupported
from tarot.core.flow import Phase
from tarot.core.ruleset import PlayRules, Ruleset

#: the kinds of step of a hand's flow the batch back end has a phase for (`batch.run`)
BATCH_STEPS = frozenset(
    {
        Phase.DEAL,
        Phase.REDEAL,
        Phase.ASK,
        Phase.BID,
        Phase.CALL,
        Phase.TALON,
        Phase.DISCARD,
        Phase.DECLARE,
        Phase.PLAY,
    }
)

#: the sections of a ruleset, and the keys inside those it knows, it can run
_SECTIONS: dict[str, frozenset[str] | None] = {
    "title": None,
    "period": None,
    "description": None,
    "sources": None,
    "unit": None,
    "options": None,  # their readings are in the compiled ruleset
    "parameters": None,
    "extends": None,
    "deck": frozenset(
        {
            "suits",
            "courts",
            "pips",
            "trumps",
            "fool",
            "removed",
            "card_sets",
            "source",
            "assumption",
        }
    ),  # any pack in the trumps' numbered order: the batch reads the compiled deck's tables
    "players": frozenset({"count", "direction", "source", "assumption"}),
    "deal": frozenset(
        {"cut", "first_dealer", "next_dealer", "packets", "redeal_by", "source", "assumption"}
    ),
    "play": frozenset(
        {
            "excuse",
            "first_leader",
            "follow_suit",
            "overtrump",
            "trump_when_trump_led",
            "trump_when_void",
            "source",
            "assumption",
        }
    ),
    "discard": frozenset(
        {"counts", "forbidden", "never", "scores_for", "shown", "source", "assumption"}
    ),
    "declarations": frozenset({"maximal", "table", "timing", "source", "assumption"}),
    "payments": None,  # each rule is checked by compiling it
    "settlement": None,
    "counting": frozenset(
        {"group_size", "partial_group_credit", "pile", "values", "method", "source", "assumption"}
    ),
    "definitions": None,  # each is checked where a rule uses it
    "redeal": None,  # each rule is checked by compiling it
    "bidding": None,  # each contract's talon is checked by compiling it
    "partner_call": frozenset({"when", "cards", "source", "assumption"}),
    "talon": None,
    "flow": None,  # its steps are checked one by one: see `_flow`
    "game": frozenset(
        {"ends_when", "winners", "max_hands", "description", "source", "assumption"}
    ),  # whole games are the scalar engine's (`measure.games`): a hand is played alone
}
_EXCUSE = frozenset(
    {"in_last_trick", "kept_by", "may_lead", "wins_last_trick_after_all", "exchange", "cards"}
)
_DECLARATION = frozenset(
    {
        "id",
        "name",
        "levels",
        "shows",
        "from",
        "to",
        "timing",
        "paid_when_declared",
        "hands_over",
        "source",
        "assumption",
        "description",
    }
)
_LEVEL = frozenset({"id", "when", "value", "shows", "show_count", "source", "assumption"})
#: keys whose every value the batch does not run: the values it does
_VALUES = {
    ("discard", "scores_for"): {"discarder"},
    ("counting", "pile"): {"tricks_and_discards"},
    ("counting", "method"): {"groups", "sum"},
}
_TIMINGS = {"before_play", "before_own_first_card"}
_LEADERS = {"after_dealer", "dealer", "taker"}

#: compiled fields of the Ruleset and PlayRules it reads; any other must be at its default
_KNOWN_RULESET_FIELDS = frozenset(
    {
        "id",
        "title",
        "path",
        "content_hash",
        "players",
        "direction",
        "deck",
        "first_dealer",
        "next_dealer",
        "redeal_by",
        "cut_shown",
        "flow",
        "packets",
        "discard_counts",
        "discard_forbidden",
        "discard_never",
        "discard_shown",
        "declarations",
        "declarations_maximal",
        "declaration_timing",
        "play",
        "payments",
        "settlement",
        "counting",
        "unit",
        "options",
        "option_reads",
        "sources",
        "document",
        "written",
        "removed",  # ids a variant removed: read by the load-time id check only
        "definitions",
        "option_values",
        "params",
        "talon",
        "bidding",
        "partner_call",
        "redeals",
        "game",
    }
)
_KNOWN_PLAY_FIELDS = frozenset(
    {
        "first_leader",
        "follow_suit",
        "trump_when_void",
        "trump_when_trump_led",
        "overtrump",
        "fool_may_lead",
        "fool_in_last_trick",
        "fool_wins_last_trick_after_all",
        "excuse_exchange",
        "excuse_cards",
    }
)


def _at_default(instance: object, field: dataclasses.Field) -> bool:
    value = getattr(instance, field.name)
    if field.default is not dataclasses.MISSING:
        return bool(value == field.default)
    if field.default_factory is not dataclasses.MISSING:
        return bool(value == field.default_factory())
    return False


def _unknown_fields(instance: object, known: frozenset[str], what: str) -> list[str]:
    return [
        f"{what}.{field.name}: a mechanism the batch back end does not know"
        for field in dataclasses.fields(instance)  # type: ignore[arg-type]
        if field.name not in known and not _at_default(instance, field)
    ]


def _document(document: Mapping) -> list[str]:
    found = []
    for section, value in document.items():
        if section not in _SECTIONS:
            found.append(f"{section}: a section the batch back end does not run")
            continue
        keys = _SECTIONS[section]
        if keys is not None and isinstance(value, Mapping):
            found += [
                f"{section}.{key}: not run by the batch back end"
                for key in value
                if key not in keys
            ]
    for (section, key), allowed in _VALUES.items():
        value = document.get(section, {}).get(key)
        if value is not None and value not in allowed:
            found.append(f"{section}.{key}: {value!r} is not run by the batch back end")
    excuse = document.get("play", {}).get("excuse", {})
    found += [
        f"play.excuse.{key}: not run by the batch back end" for key in excuse if key not in _EXCUSE
    ]
    if excuse.get("kept_by", "holder") != "holder":
        found.append("play.excuse.kept_by: only the holder keeps the Fool in the batch back end")
    for i, entry in enumerate(document.get("declarations", {}).get("table", [])):
        where = f"declarations.table[{i}] ({entry.get('id', '?')})"
        found += [
            f"{where}.{key}: not run by the batch back end"
            for key in entry
            if key not in _DECLARATION
        ]
        for j, level in enumerate(entry.get("levels", [])):
            found += [
                f"{where}.levels[{j}].{key}: not run by the batch back end"
                for key in level
                if key not in _LEVEL
            ]
    return found


#: compiled fields of the auction, its contracts and the talon's use it reads
_KNOWN_BIDDING_FIELDS = frozenset({"contracts", "source"})
_KNOWN_CONTRACT_FIELDS = frozenset({"id", "name", "values", "talon", "source"})
_KNOWN_TALON_FIELDS = frozenset({"to", "seat", "shown"})
_KNOWN_REDEAL_FIELDS = frozenset({"id", "name", "when", "choice", "source"})
_KNOWN_DECLARATION_FIELDS = frozenset(
    {
        "id",
        "name",
        "levels",
        "shows",
        "payers",
        "payees",
        "source",
        "timing",
        "paid_when_declared",
        "options",
        "hands_over",
        "on_own_cards",  # what the compiler found its levels read: nothing to run
    }
)


def _compiled(ruleset: Ruleset) -> list[str]:
    found = _unknown_fields(ruleset, _KNOWN_RULESET_FIELDS, "ruleset")
    found += _unknown_fields(ruleset.play, _KNOWN_PLAY_FIELDS, "play")
    if ruleset.talon is not None:
        found += _unknown_fields(ruleset.talon, _KNOWN_TALON_FIELDS, "talon")
    for redeal in ruleset.redeals:
        found += _unknown_fields(redeal, _KNOWN_REDEAL_FIELDS, f"redeal ({redeal.id})")
    for declaration in ruleset.declarations:
        where = f"declaration ({declaration.id})"
        found += _unknown_fields(declaration, _KNOWN_DECLARATION_FIELDS, where)
    if ruleset.bidding is not None:
        found += _unknown_fields(ruleset.bidding, _KNOWN_BIDDING_FIELDS, "bidding")
        for contract in ruleset.bidding.contracts:
            where = f"bidding.contracts ({contract.id})"
            found += _unknown_fields(contract, _KNOWN_CONTRACT_FIELDS, where)
            if contract.talon is not None:
                found += _unknown_fields(contract.talon, _KNOWN_TALON_FIELDS, f"{where}.talon")
    play: PlayRules = ruleset.play
    if play.first_leader not in _LEADERS:
        found.append(f"play.first_leader: {play.first_leader!r} is not run by the batch back end")
    if any(step.piles for step in ruleset.packets):
        found.append("deal.packets: piles on the table (not run by the batch back end)")
    if ruleset.game is not None and ruleset.game.claim is not None:
        found.append("game.claim_during_play: a game claimed during play")
    for declaration in ruleset.declarations:
        timing = declaration.timing or ruleset.declaration_timing
        if timing not in _TIMINGS:
            found.append(f"declaration {declaration.id}: the timing {timing!r}")
    found += _flow(ruleset)
    if not _even_hands(ruleset):
        found.append("deal and discard: the seats do not start play with as many cards each")
    return found


def _flow(ruleset: Ruleset) -> list[str]:
    """The flow's steps the batch back end does not run: a deal in several steps, a step
    with a `when`, and the kinds of step it has no phase for."""
    found = []
    deals = [step for step in ruleset.flow if step.phase == Phase.DEAL]
    if len(deals) > 1:
        found.append("flow: a deal in several steps (decisions between its packets)")
    found += [
        f"flow[{i}]: a `{step.word}` step with a `when`"
        for i, step in enumerate(ruleset.flow)
        if step.when is not None
    ]
    found += [
        f"flow[{i}]: the step kind `{step.word}`"
        for i, step in enumerate(ruleset.flow)
        if step.phase not in BATCH_STEPS
    ]
    return found


def _even_hands(ruleset: Ruleset) -> bool:
    """Whether every seat holds as many cards as the others once the discards are made."""
    n = ruleset.players
    dealer_gets = sum(step.rounds * step.dealer for step in ruleset.packets)
    others_get = sum(step.rounds * step.others for step in ruleset.packets)
    dealer_discards, others_discard = ruleset.discard_counts
    return n == 1 or dealer_gets - dealer_discards == others_get - others_discard


def supports(ruleset: Ruleset, agents: Sequence[str] = ("random",)) -> list[str]:
    """Every rule or mechanism of `ruleset` (and every player of `agents`) the batch back
    end cannot run, each named; [] when it can run the whole of it."""
    found = [
        f"the player {agent!r}: only the random player runs in the batch back end"
        for agent in dict.fromkeys(agents)
        if agent != "random"
    ]
    found += _document(ruleset.document)
    found += _compiled(ruleset)
    if not found:
        from tarot.batch.run import program_of

        try:
            program_of(ruleset)
        except Unsupported as error:
            found.append(str(error))
    return found
