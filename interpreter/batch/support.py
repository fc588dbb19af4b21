"""What the batch back end can run: `supports(ruleset)` names every mechanism, rule or value
of a ruleset it cannot run, so that the command runs that ruleset on the scalar engine (or
refuses, when the batch back end was asked for by name).

Where it sits: before any hand is played, called by the runner's choice of back end
(`tarot.batch.backend`). The mechanisms are the language's (`tarot.core.mechanisms`,
every key of the schema in one): this module says which it runs (`RUNS`) and what it lacks
for each of the others (`REFUSED`), and a test fails on a mechanism it has not ruled on. The
facts come from the same kind of registry (`tarot.batch.facts`), checked when each rule is
compiled; the flow's steps by their kind (`BATCH_STEPS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tarot.batch.exactness import inexact_values
from tarot.batch.values import Unsupported
from tarot.core.flow import Phase
from tarot.core.mechanisms import PROSE, mechanism_of, written_paths
from tarot.core.ruleset import Ruleset

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
        Phase.ANNOUNCE,
        Phase.DOUBLE,
        Phase.PLAY,
    }
)

#: the mechanisms of the language (`tarot.core.mechanisms`) the batch back end runs
RUNS = frozenset(
    {
        "title",
        "period",
        "description",
        "sources",
        "unit",
        "extends",
        "options",  # their readings are in the compiled ruleset
        "parameters",
        "deck",  # the batch reads the compiled tables
        "deck.trump_order",  # the cards' strengths and `beats_equal` (`batch.tables`)
        "players",
        "deal",
        "flow",  # its steps are checked one by one: see `_flow`
        "talon",
        "talon.shares",  # `batch.phases.talon`
        "talon.ends_hand",
        "talon.scored_by",  # named once play is over (`batch.phases.settle`)
        "discard.scored_by",
        "discard",
        "discard.told",  # `batch.phases.discard._tell`
        "declarations",
        "bidding",  # each contract's talon is checked by compiling it
        "bidding.rounds",  # the auction: `batch.phases.bidding`, its rules compiled by
        "bidding.first",  # `batch.auction_rules`
        "bidding.hold",
        "bidding.must_bid",
        "bidding.winner_may_raise",
        "bidding.all_passed",
        "bidding.compulsory",
        "bidding.contracts[].open_to",
        "bidding.contracts[].only_when_all_passed",
        "partner_call",
        "partner_call.after",  # the call is a step of the flow, wherever it stands
        "announcements",  # `batch.phases.announce`
        "doubling",  # `batch.phases.double`, or in the round of announcements (`announce`)
        # cards shown to all change only what each seat knows, which neither the batch's
        # random players nor any fact reads: nothing of a batch hand depends on them
        "show",
        "play",
        "redeal",  # each rule is checked by compiling it
        "definitions",  # each is checked where a rule uses it
        "payments",  # each rule is checked by compiling it
        "settlement",
        "counting",
        "game",  # whole games are the scalar engine's (`measure.games`): a hand is played alone
        "game.claim_during_play",
        "play.ends_when",
        "play.winner_exceptions",  # `batch.phases.exceptions`
        "hand_score",
        "talon.takes",
        "declarations.table[].compulsory",
        "play.sides",
        "deal.packets[].piles",
        "talon.packets",  # `batch.phases.packets`
        "lasting",  # `batch.lasting`; a sitting's hands in sequence: `batch.sittings`
        # each key of a contract's own play rules is ruled on as the same key of `play`
        # (`_document`); the hands of each contract play under its rules
        "talon.per_trick",  # the talon to the trick winners: `batch.phases.stock`
        "bidding.contracts[].play",  # `batch.contract_play`
        "play.must_beat",  # `batch.phases.play.legal`
        "play.trumps_as_suit",  # `batch.contract_play.plain_trump_tables`
        "play.forced",  # `batch.phases.card_rules`
        "play.held_back",
        "play.lead_forbidden",
        "doubling.repeat",  # `batch.doubling_rules.next_allowed`
        "players.sit_out",  # `batch.seating`: the seats sitting out masked out of every round
        "play.pile_tops_to_hand",  # `batch.phases.pile_tops`
        "talon.packets.forbidden",  # `batch.phases.packets._allowed`
        "deal.first_dealer_draw",  # the game's draw, once per seed: `batch.phases.deal`
        "discard.all_or_none",  # `batch.phases.discard._all_or_none`
        "play.rank_changes",  # `batch.rank_changes`, each group of hands with its tables
        "declarations.table[].hands_over.named",  # `batch.phases.declare._named`
        "announcements.reopen",  # `batch.phases.announce._reopen`
        "bidding.contracts[].join",  # `batch.phases.joining`, asked once the auction is won
        "bidding.contracts[].join_at",  # and in the bidding (`batch.phases.bidding._bids`)
        "redeal[].agreed_by",  # `batch.phases.agreement`
        "questions",  # `batch.phases.questions`, asked from trick play
    }
)
#: the mechanisms it does not run, each with what it lacks
REFUSED: dict[str, str] = {}
#: keys of the mechanisms it runs whose every value it does not run: the values it does
_VALUES: dict[tuple[str, str], set[object]] = {
    ("discard", "scores_for"): {"discarder"},
    ("counting", "pile"): {"tricks_and_discards"},
    ("counting", "method"): {"groups", "sum"},
}
_TIMINGS = {"before_play", "before_own_first_card"}
#: a contract's own play rules, whose keys are ruled on as the same keys of `play`
_CONTRACT_PLAY = "bidding.contracts[].play"


def _as_play(path: str) -> str:
    """The schema path of a key of a contract's own play rules as the same key of `play`."""
    if path.startswith(_CONTRACT_PLAY + "."):
        return "play" + path[len(_CONTRACT_PLAY) :]
    return path


def _document(document: Mapping) -> list[str]:
    """The mechanisms the document writes that the batch back end does not run, each named
    where it is first written."""
    found: dict[str, str] = {}
    for path, where in written_paths(document):
        path = _as_play(path)
        mechanism = mechanism_of(path)
        if mechanism in RUNS or (mechanism is None and path.rsplit(".", 1)[-1] in PROSE):
            continue
        if mechanism is None:
            kind = "a section" if "." not in path else "a key"
            found.setdefault(path, f"{where}: {kind} the batch back end does not know")
        else:
            why = REFUSED.get(mechanism, "a mechanism the batch back end has not ruled on")
            found.setdefault(mechanism, f"{where}: {why}")
    problems = list(found.values())
    for (section, key), allowed in _VALUES.items():
        value = document.get(section, {}).get(key)
        if value is not None and value not in allowed:
            problems.append(f"{section}.{key}: {value!r} is not run by the batch back end")
    contracts = document.get("bidding", {}).get("contracts", [])
    plays = [("play", document.get("play", {}))] + [
        (f"bidding.contracts[{i}].play", c["play"]) for i, c in enumerate(contracts) if "play" in c
    ]
    for where, play in plays:
        if play.get("excuse", {}).get("kept_by", "holder") != "holder":
            problems.append(
                f"{where}.excuse.kept_by: only the holder keeps the excuse in the batch"
            )
    return problems


def _compiled(ruleset: Ruleset) -> list[str]:
    """What the compiled ruleset asks that the batch back end does not run, among the
    mechanisms it runs: values it does not know, and the flow's steps."""
    found = []
    for declaration in ruleset.declarations:
        timing = declaration.timing or ruleset.declaration_timing
        if timing not in _TIMINGS:
            found.append(f"declaration {declaration.id}: the timing {timing!r}")
    found += _flow(ruleset)
    found += _contract_excuses(ruleset)
    found += inexact_values(ruleset)  # exact numbers that float64 cannot hold
    if not _even_hands(ruleset):
        found.append("deal and discard: the seats do not start play with as many cards each")
    return found


def _contract_excuses(ruleset: Ruleset) -> list[str]:
    """A contract's own Fool's exchange or cards playing as the Fool: the batch works these
    out by the ruleset's play rules alone (`batch.phases.exchange`, `play._excuses`)."""
    contracts = () if ruleset.bidding is None else ruleset.bidding.contracts
    found = []
    for i, contract in enumerate(contracts):
        own = contract.play
        if own is None:
            continue
        for key in ("excuse_exchange", "excuse_cards"):
            if getattr(own, key) is not getattr(ruleset.play, key):
                word = "exchange" if key == "excuse_exchange" else "cards"
                found.append(
                    f"bidding.contracts[{i}].play.excuse.{word}: a contract's own Fool's"
                    f" {word} (the batch back end plays the ruleset's)"
                )
    return found


def _flow(ruleset: Ruleset) -> list[str]:
    """The flow's steps the batch back end does not run: the kinds of step it has no phase
    for."""
    return [
        f"flow[{i}]: the step kind `{step.word}`"
        for i, step in enumerate(ruleset.flow)
        if step.phase not in BATCH_STEPS
    ]


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
