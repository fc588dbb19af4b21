"""One row per hand per ruleset, written as it comes: JSON Lines or CSV, by file extension.

Where it sits: `--out FILE` of `tarot simulate` and `tarot diff --hands`. Rows are flat (one
column per seat, per option and per rule) so that `pandas.read_json(path, lines=True)` and
`pandas.read_csv(path)` give a table with no further work. Each row names everything its hand
was played with (`provenance.RunKey`: the ruleset's name, file and content hash, the reading of
every option, the agent of each seat with its settings, the seed, the hand number, the
program's version and the back end that played it), so one row alone is enough to play its hand
again with `tarot play`; the `unit` column, after the results (`net_N`), names what they are
counted in: the ruleset's unit. In a game with an auction, `taker`, `partner`, `contract`,
`made`, `taker_net` and each seat's `side_N` (attack or defence) say who took and how it went;
`fired.RULE` is how many times each rule paid in the hand and `paid.RULE` what it paid (the sum
of its payments' amounts), a column per rule and bonus. Rows are written as the hands finish, a
hand's rows whole or not at all (`output_files.PieceFile`), so an interrupted run keeps every
finished hand on disk, and a write that fails (a full disk) keeps the rows of the hands before
it and says so.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path

from tarot.core.output_files import OutputError, PieceFile
from tarot.core.ruleset import Ruleset
from tarot.core.summary import HandSummary, rule_keys
from tarot.measure.provenance import RunKey

FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}


def row_format(path: str) -> str:
    """The row format the file name asks for; refuses other names (OutputError)."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise OutputError(
            f"--out {path}: name the file .jsonl (JSON Lines, one object per line) or .csv; "
            f"got {suffix or 'no extension'!r}"
        )
    return FORMATS[suffix]


def row_columns(rulesets: Sequence[Ruleset], keys: Sequence[RunKey]) -> list[str]:
    """The columns of the rows of hands played under `rulesets` with these `keys`."""
    players = max(r.players for r in rulesets)
    rules = sorted({key for r in rulesets for key in rule_keys(r)})
    options = sorted({name for key in keys for name, _ in key.options})
    return (
        ["ruleset", "ruleset_file", "ruleset_hash"]
        + [f"option.{name}" for name in options]
        + ["agents", "seed", "hand", "version", "backend", "dealer"]
        + [f"net_{seat}" for seat in range(players)]
        + ["unit", "decisions", "choices", "winner", "decided_at", "lead_changes"]
        + ["taker", "partner", "contract", "made", "taker_net"]
        + [f"side_{seat}" for seat in range(players)]
        + [f"fired.{rule}" for rule in rules]
        + [f"paid.{rule}" for rule in rules]
    )


#: a seat's side in a hand with a taker (`side_N`): the taker and his partner attack
ATTACK, DEFENCE = "attack", "defence"


def auction_columns(hand: HandSummary) -> dict:
    """The auction's columns of a hand: who took, his partner, the contract, whether it was
    made (the taker ended the hand ahead, bonuses included, as `measures.TakerMeasures`
    counts it), the taker's result and each seat's side; all None when nobody took (or the
    game has no auction, or the row is a whole sitting)."""
    if hand.taker is None or hand.contract is None:
        return {}
    taker_net = hand.net[hand.taker]
    columns: dict = {
        "taker": hand.taker,
        "partner": hand.partner,
        "contract": hand.contract,
        "made": taker_net > 0,
        "taker_net": taker_net,
    }
    for seat in range(len(hand.net)):
        columns[f"side_{seat}"] = ATTACK if seat in hand.attackers else DEFENCE
    return columns


def hand_row(
    columns: Sequence[str], ruleset: Ruleset, key: RunKey, rules: Sequence[str], hand: HandSummary
) -> dict:
    """One hand's row: every column of `columns`, those that do not apply None."""
    row: dict = dict.fromkeys(columns)
    row.update(
        ruleset=key.ruleset,
        ruleset_file=key.ruleset_file,
        ruleset_hash=key.ruleset_hash,
        agents=",".join(key.agents),
        seed=key.seed,
        version=key.version,
        backend=key.backend,
        unit=ruleset.unit.plural,
        hand=hand.number,
        dealer=hand.dealer,
        decisions=hand.decisions,
        choices=hand.choices,
        winner=hand.winner,
        decided_at=hand.decided_at,
        lead_changes=hand.lead_changes,
    )
    for name, reading in key.options:
        row[f"option.{name}"] = reading
    for seat, value in enumerate(hand.net):
        row[f"net_{seat}"] = value
    row.update(auction_columns(hand))
    for rule in rules:
        row[f"fired.{rule}"] = hand.fired.get(rule, 0)
        row[f"paid.{rule}"] = hand.paid.get(rule, 0)
    return row


class RowWriter:
    """The rows of a run: `rulesets` and the `keys` of their hands, in the same order."""

    def __init__(self, path: str, rulesets: Sequence[Ruleset], keys: Sequence[RunKey]) -> None:
        self.format = row_format(path)
        self.rulesets = list(rulesets)
        self.keys = list(keys)
        self._rule_keys = [rule_keys(r) for r in rulesets]
        self.columns = row_columns(rulesets, keys)
        self._file = PieceFile("--out", path, "the rows of the {} hand(s)")
        self._text = io.StringIO(newline="")
        self._csv = None
        if self.format == "csv":
            self._csv = csv.DictWriter(self._text, self.columns)
            self._csv.writeheader()
            self._add(counted=False)

    def row(self, ruleset: Ruleset, key: RunKey, rules: Sequence[str], hand: HandSummary) -> dict:
        return hand_row(self.columns, ruleset, key, rules, hand)

    def write(self, results: Sequence[HandSummary]) -> None:
        """The rows of one hand (one per ruleset); OutputError if they cannot be written."""
        for ruleset, key, rules, hand in zip(
            self.rulesets, self.keys, self._rule_keys, results, strict=True
        ):
            row = self.row(ruleset, key, rules, hand)
            if self._csv is not None:
                self._csv.writerow(row)
            else:
                self._text.write(json.dumps(row) + "\n")
        self._add()

    def _add(self, counted: bool = True) -> None:
        piece = self._text.getvalue().encode("utf-8")
        self._text.seek(0)
        self._text.truncate()
        self._file.add(piece, counted=counted)

    def close(self) -> None:
        self._file.close()
