"""A game record written hand by hand as the hands finish (`tarot play --record FILE`).

Where it sits: beside `tarot.records.record`, which says what a record holds. `RecordFile`
writes the very bytes `record_json.record_text(game_record(...))` would write for all the hands
at the end, but one hand at a time through an `output_files.PieceFile`: memory stays flat in
the number of hands, and a regular file holds a complete record of the finished hands at
every moment, so a run stopped by a signal or a full disk keeps them.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarot.core.output_files import OutputError, PieceFile
from tarot.core.ruleset import Ruleset
from tarot.engine.state import HandState
from tarot.records.record import first_game_winners, game_record, hand_record
from tarot.records.record_json import RecordError, record_text

_HANDS = "\0hands\0"  # stands for the list of hands while the rest of the record is written
_INDENT = "  "  # a hand's depth in the record: inside the record, inside its list of hands


class RecordFile:
    """The record of a game being played; the file is opened when the first hand finishes
    (no file at all when none does)."""

    def __init__(
        self,
        path: str,
        ruleset: Ruleset,
        seed: int,
        agent_names: Sequence[str],
        backend: str = "scalar",
    ) -> None:
        self.path = path
        self.hands = 0
        self._frame = game_record(ruleset, seed, agent_names, [], backend)
        self._file: PieceFile | None = None

    def add(self, state: HandState) -> None:
        hand = hand_record(state)
        self._frame["totals"] = [
            total + net for total, net in zip(self._frame["totals"], hand["net"], strict=True)
        ]
        self._frame["game_winners"] = self._frame["game_winners"] or first_game_winners([state])
        try:  # strict JSON: a value it cannot hold stops the record before the hand
            head, tail = self._split()
            text = record_text(hand).replace("\n", "\n" + _INDENT)
        except RecordError as error:
            raise OutputError(f"hand {state.number} not recorded: {error}") from None
        if self._file is None:
            self._file = PieceFile("--record", self.path, "the record of the {} hand(s)")
            piece = head + text
        else:
            piece = ",\n" + _INDENT + text
        self._file.add(piece.encode("utf-8"), (tail + "\n").encode("utf-8"))
        self.hands += 1

    def close(self) -> None:
        if self._file is not None:
            self._file.close()

    def _split(self) -> tuple[str, str]:
        """The record's text before the first hand and after the last one."""
        self._frame["hands"] = [_HANDS]
        head, tail = record_text(self._frame).split(record_text(_HANDS))
        return head, tail
