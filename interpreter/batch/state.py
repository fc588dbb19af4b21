"""Many hands of one ruleset at once: every zone an array over the hands.

Where it sits: the state the batch back end's phases (`interpreter.batch.phases`) change and
its expressions (`interpreter.batch.array_exprs`) read. Zones are masks of shape
[hands, seats, words]; a hand's results, the rules that paid and the decisions taken are
arrays over the hands too. When the run keeps a log (`BatchState.logging`), each decision
and payment is noted per hand for the replay through the scalar engine (`agree.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from interpreter.batch.masks import Bools, Ints, Masks
from interpreter.batch.tables import DeckTables
from interpreter.ruleset import Ruleset

Floats = npt.NDArray[np.float64]


@dataclass
class Logged:
    """One batched decision or payment, for the hands `rows`."""

    rows: Ints
    what: tuple[
        object, ...
    ]  # (kind, seat array, choice...) or (rule key, payer, payee, amount, at)


@dataclass
class BatchState:
    ruleset: Ruleset
    tables: DeckTables
    seed: int
    numbers: Ints  # each hand's number
    dealer: Ints
    packs: Ints  # [hands, cards]: each hand's pack, top card first
    hands: Masks
    discards: Masks
    won: Masks
    played: Masks
    net: Floats  # [hands, seats]: payments received less paid
    declared: Bools  # [hands, seats, declarations]
    declared_values: Floats
    fired: npt.NDArray[np.int32]  # [hands, rule keys]: times each rule paid
    paid: Floats  # [hands, rule keys]: the sum of the amounts each rule paid
    rule_keys: dict[str, int]
    leader: Ints
    tricks_won: Ints  # [hands, seats]
    last_trick: Masks  # [hands, words]: the cards of the last finished trick
    last_winner: Ints  # -1 before any trick
    trick_number: int = 0
    total_tricks: int = 0
    decisions: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    choices: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    leaders: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int8))
    leading: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    logging: bool = False
    decision_log: list[Logged] = field(default_factory=list)
    payment_log: list[Logged] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.numbers)

    @property
    def players(self) -> int:
        return self.ruleset.players

    def note_leaders(self, rows: Ints) -> None:
        """After a decision of `rows`: the sole leader of each one's running result (-1 when
        the best is shared), as the scalar summary notes it."""
        at = self.decisions[rows]
        if at.size and int(at.max()) >= self.leaders.shape[1]:
            wider = np.full((self.size, 2 * self.leaders.shape[1] + 8), -1, dtype=np.int8)
            wider[:, : self.leaders.shape[1]] = self.leaders
            self.leaders = wider
        self.leaders[rows, at] = self.leading[rows]

    def lead_changed(self, rows: Ints) -> None:
        """Payments were made in `rows`: their sole leaders again."""
        self.leading[rows] = sole_leaders(self.net[rows])

    def decided(self, rows: Ints, counts: Ints) -> None:
        """`rows` took one decision each, among `counts` legal choices."""
        self.decisions[rows] += 1
        self.choices[rows] += counts
        self.note_leaders(rows)


def sole_leaders(net: Floats) -> npt.NDArray[np.int8]:
    best = net.max(axis=1, keepdims=True)
    at_best = net == best
    alone = at_best.sum(axis=1) == 1
    return np.where(alone, np.argmax(at_best, axis=1), -1).astype(np.int8)
