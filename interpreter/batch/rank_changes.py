"""Cards that rank otherwise for one hand (`play.rank_changes`) in the batch back end: the
hands of a batch grouped by the cards each change moves in them, each group played with
the deck's tables as its changed pack gives them.

Where it sits: compiled with a set of play rules (`tarot.batch.contract_play`, the changes'
cards at the `play` event) and read by trick play (`tarot.batch.phases.play`) when play
begins. The scalar engine's is `tarot.engine.rank_changes.changed_pack`, applied once per
hand to the pack its tricks play with; here that same function makes the pack of each group
of hands whose changes move the same cards (made once per group, and kept), and
`pack_tables` turns it into the tables the trick rules read. A card moved among the trumps
or out of its suit no longer plays as the Fool (`excuses_kept`). Only the trick rules read
the change: card sets, points and facts keep the deck's tables.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from tarot.batch.array_exprs import Node
from tarot.batch.masks import Ints, Masks
from tarot.batch.state import BatchState
from tarot.batch.tables import DeckTables
from tarot.batch.values import Ctx
from tarot.core.cards import TRUMP_SUIT, Pack
from tarot.engine.rank_changes import changed_pack

#: the groups' tables kept per set of play rules, at most (each set of cards moved has its own)
_KEPT = 4096


@dataclass(frozen=True)
class Changed:
    """The tables of a group of hands whose changes moved the same cards, and the cards that
    may still play as the Fool there (those whose trumpness and suit are unchanged)."""

    tables: DeckTables
    excuses_kept: Masks


@dataclass(frozen=True)
class ArrayRankChanges:
    """A set of play rules' `rank_changes`: each entry's cards as array code and its place,
    over the pack its tricks play with (`pack`, and its tables `tables`)."""

    changes: tuple[tuple[Node, str], ...]
    pack: Pack
    tables: DeckTables
    suits: tuple[str, ...]  # the deck's suits, in the tables' order
    made: dict[bytes, Changed] = field(default_factory=dict)  # by the cards moved

    def groups(self, state: BatchState, rows: Ints) -> Iterator[tuple[Changed, Ints]]:
        """The hands `rows` grouped by the cards the changes move in each: each group's
        tables, with its places among `rows`."""
        ctx = Ctx(state, rows, state.names(rows))
        words = state.tables.layout.words
        moved = np.stack(
            [np.broadcast_to(node.fn(ctx).union(), (len(rows), words)) for node, _ in self.changes],
            axis=1,
        )  # [rows, changes, words]
        keys, which = np.unique(moved.reshape(len(rows), -1), axis=0, return_inverse=True)
        which = which.reshape(-1)
        for k, key in enumerate(keys):
            yield self._changed(key.reshape(len(self.changes), words)), np.flatnonzero(which == k)

    def _changed(self, moved: Masks) -> Changed:
        key = moved.tobytes()
        if key not in self.made:
            if len(self.made) >= _KEPT:
                self.made.clear()
            layout = self.tables.layout
            cards = [np.flatnonzero(layout.to_bools(m)).tolist() for m in moved]
            places = [place for _node, place in self.changes]
            pack = changed_pack(self.pack, list(zip(cards, places, strict=True)))
            self.made[key] = pack_tables(self.tables, self.pack, pack, self.suits)
        return self.made[key]


def compile_rank_changes(
    rules_changes: tuple,
    expression: Callable[[object, str], Node],
    pack: Pack,
    tables: DeckTables,
    suits: tuple[str, ...],
) -> ArrayRankChanges | None:
    """A set of play rules' `rank_changes` (each `RankChange`) as array code, over the pack
    its tricks play with and its tables; None when it has none."""
    if not rules_changes:
        return None
    changes = tuple(
        (expression(change.cards, f"rank_changes[{i}].cards"), change.to)
        for i, change in enumerate(rules_changes)
    )
    return ArrayRankChanges(changes, pack, tables, suits)


def pack_tables(base: DeckTables, before: Pack, pack: Pack, suits: tuple[str, ...]) -> Changed:
    """The tables of `base` (made from the pack `before`) as the changed `pack` gives
    them: each card's suit, trumpness and strength, the trumps that beat each strength,
    the cards that beat an equal card played before them and the Fools still playing as
    such. Strengths are shifted up together so that none is below 1 (the trick rules read
    0 as no trump on the table and -1 as a card that cannot win); only their order within
    the trumps, and within each suit, counts."""
    layout = base.layout
    size = len(pack)
    index = {name: i for i, name in enumerate(suits)}
    index[TRUMP_SUIT] = len(suits)
    suit = np.array(
        [
            -1 if c in pack.trumps or pack.suit[c] is None else index[pack.suit[c]]  # type: ignore[index]
            for c in range(size)
        ],
        dtype=np.int64,
    )
    raw = np.array(pack.strength, dtype=np.int64)
    strength = raw + max(0, 1 - int(raw.min(initial=1)))
    trumps = sorted(pack.trumps)
    is_trump = np.zeros(size + 1, dtype=np.bool_)
    is_trump[trumps] = True
    beats_equal = np.zeros(size + 1, dtype=np.bool_)
    beats_equal[list(pack.beats_equal)] = True
    top = int(strength.max(initial=0)) + 1
    beating = np.stack(
        [
            layout.of(t for t in trumps if strength[t] > s or (beats_equal[t] and strength[t] == s))
            for s in range(top + 1)
        ]
    )
    groups = len(suits) + (TRUMP_SUIT in pack.suit)
    was_trump = np.isin(np.arange(size), sorted(before.trumps))
    was_suit = [before.suit[c] for c in range(size)]
    kept = (was_trump == is_trump[:size]) & np.array(
        [was_suit[c] == pack.suit[c] for c in range(size)], dtype=np.bool_
    )
    fools = base.is_fool[:size] & kept
    is_fool = np.append(fools, False)
    tables = dataclasses.replace(
        base,
        suit=suit,
        strength=strength,
        trumps=layout.of(trumps),
        fools=layout.of(np.flatnonzero(fools).tolist()),
        suits=np.stack([layout.of(np.flatnonzero(suit == i).tolist()) for i in range(groups)])
        if groups
        else layout.empty(0),
        beating_trumps=beating,
        is_trump=is_trump,
        is_fool=is_fool,
        beats_equal=beats_equal,
    )
    return Changed(tables, layout.from_bools(kept))
