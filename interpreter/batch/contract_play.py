"""The trick rules of each contract as array code: every set of play rules a hand may play
under (the ruleset's own `play`, and each contract's own `bidding.contracts[].play` laid
over it), and which hands play under which.

Where it sits: compiled once per ruleset with the rest of its `Program`
(`tarot.batch.program`, raising `Unsupported` naming the rule it cannot compile) and read by
the batch phases that depend on the hand's play rules: the first leader
(`tarot.batch.phases.leader`), the sides set by rule (`tarot.batch.phases.sides`) and trick
play (`tarot.batch.phases.play`), each of which runs a group of hands under one set of
rules. The scalar engine's is `Ruleset.play_for`, settled by
`tarot.engine.phases.play.settle_rules`; the pack of a hand whose trumps play as a plain
suit is `Pack.plain_trumps`, here `plain_trump_tables`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from tarot.batch.array_exprs import ArrayCompiler, Node
from tarot.batch.masks import Ints, Masks, distinct
from tarot.batch.phases.sides import compile_sides
from tarot.batch.rank_changes import ArrayRankChanges, compile_rank_changes
from tarot.batch.tables import DeckTables
from tarot.batch.trick_rules import ArrayException, compile_exceptions
from tarot.batch.values import Unsupported
from tarot.core.ruleset import PlayRules, Ruleset


@dataclass(frozen=True)
class TrickPlay:
    """One set of play rules as array code: the rules, the deck's tables as they play it
    (`tables`: the trumps a plain suit where `trumps_as_suit` says so), the card rules that
    narrow the legal cards (`forced`, `held_back`, `lead_forbidden`, each a card
    expression at the `playing` event), what may end play after a trick, the exceptions to
    who wins one, the first leader given by a rule, the sides set by rule, the pile tops
    taken into the hand (`pile_tops_to_hand`, at the `playing` event too), and the cards
    ranking otherwise for a hand (`rank_changes`: `tarot.batch.rank_changes`, whose groups
    of hands each play under a copy of these rules with their own tables)."""

    rules: PlayRules
    tables: DeckTables
    own: bool  # the ruleset's own play rules (not a contract's)
    forced: Node | None = None
    held_back: Node | None = None
    lead_forbidden: Node | None = None
    ends_play: tuple[Node, ...] = ()
    exceptions: tuple[ArrayException, ...] = ()
    leader: Node | None = None
    sides: Node | None = None
    pile_tops_to_hand: Node | None = None  # face-up pile tops taken into the hand
    rank_changes: ArrayRankChanges | None = None  # cards ranking otherwise for a hand
    # with the ranks changed: the cards that may still play as the Fool (None: unchanged)
    excuses_kept: Masks | None = None

    @property
    def restricts(self) -> bool:
        return not (self.forced is None and self.held_back is None and self.lead_forbidden is None)


@dataclass(frozen=True)
class ContractPlays:
    """Every set of play rules of a ruleset (`plays[0]`: the ruleset's own) and, by
    contract rank, the index of the set its hands play under."""

    plays: tuple[TrickPlay, ...]
    by_contract: Ints  # [contracts]: an index into `plays`

    @property
    def own(self) -> TrickPlay:
        return self.plays[0]

    @property
    def sets_sides(self) -> bool:
        """Whether some set of rules sets the sides by rule."""
        return any(play.sides is not None for play in self.plays)

    def of(self, contract: Ints) -> Ints:
        """The index of the set of rules each hand plays under, by its contract (-1: none,
        the ruleset's own)."""
        if len(self.plays) == 1:
            return np.zeros(len(contract), dtype=np.int64)
        return np.where(contract >= 0, self.by_contract[np.maximum(contract, 0)], 0)

    def groups(self, contract: Ints) -> Iterator[tuple[TrickPlay, Ints]]:
        """Each set of rules some hand plays under, with those hands' rows (in order)."""
        which = self.of(contract)
        for index in distinct(which):
            yield self.plays[index], np.flatnonzero(which == index)


def compile_plays(
    compiler: ArrayCompiler,
    ruleset: Ruleset,
    tables: DeckTables,
    ends_play: Callable[[PlayRules, str], tuple[Node, ...]],
) -> ContractPlays:
    """The ruleset's play rules and each contract's own as array code; `ends_play` gives
    what may end play after a trick under a set of rules written at a place."""
    plain: list[DeckTables] = []  # made once, for every set that plays trumps as a suit

    def trick_tables(rules: PlayRules) -> DeckTables:
        if not rules.trumps_as_suit:
            return tables
        if not plain:
            plain.append(plain_trump_tables(tables))
        return plain[0]

    def one(rules: PlayRules, where: str, own: bool) -> TrickPlay:
        def compiled_at(compiled: object, key: str, event: str) -> Node:
            try:
                return compiler.expression(compiled, event)
            except Unsupported as error:
                raise Unsupported(f"{where}.{key}: {error}") from None

        def optional(compiled: object, key: str, event: str) -> Node | None:
            return None if compiled is None else compiled_at(compiled, key, event)

        exceptions = compile_exceptions(compiler, rules, where)
        try:
            sides = None if rules.sides is None else compile_sides(compiler, rules.sides)
        except Unsupported as error:
            raise Unsupported(f"{where}.sides: {error}") from None
        tables_played = trick_tables(rules)
        deck = ruleset.deck
        return TrickPlay(
            rules,
            tables_played,
            own,
            forced=optional(rules.forced, "forced", "playing"),
            held_back=optional(rules.held_back, "held_back", "playing"),
            lead_forbidden=optional(rules.lead_forbidden, "lead_forbidden", "playing"),
            ends_play=ends_play(rules, where),
            exceptions=exceptions,
            leader=optional(rules.leader, "first_leader", "play"),
            sides=sides,
            pile_tops_to_hand=optional(rules.pile_tops_to_hand, "pile_tops_to_hand", "playing"),
            rank_changes=compile_rank_changes(
                rules.rank_changes,
                lambda compiled, key: compiled_at(compiled, key, "play"),
                deck.cards.plain_trumps if rules.trumps_as_suit else deck.cards,
                tables_played,
                tuple(deck.suits),
            ),
        )

    plays = [one(ruleset.play, "play", True)]
    by_contract: list[int] = []
    contracts = () if ruleset.bidding is None else ruleset.bidding.contracts
    for i, contract in enumerate(contracts):
        if contract.play is None or contract.play is ruleset.play:
            by_contract.append(0)
            continue
        by_contract.append(len(plays))
        plays.append(one(contract.play, f"bidding.contracts[{i}].play", False))
    return ContractPlays(tuple(plays), np.array(by_contract, dtype=np.int64))


def plain_trump_tables(tables: DeckTables) -> DeckTables:
    """The deck's tables with the trumps played as one more plain suit (`Pack.plain_trumps`):
    they follow and win only when a trump is led, and nothing obliges a player to trump."""
    layout = tables.layout
    trumps = tables.is_trump[:-1]
    plain_suit = len(tables.suits)
    no_trump = np.zeros_like(tables.is_trump)
    return dataclasses.replace(
        tables,
        suit=np.where(trumps, plain_suit, tables.suit),
        trumps=layout.empty(),
        suits=np.concatenate([tables.suits, tables.trumps[None, :]]),
        beating_trumps=np.zeros_like(tables.beating_trumps),
        is_trump=no_trump,
    )
