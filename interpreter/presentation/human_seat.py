"""A person at the terminal as a player: shows what the seat may see, reads the choice.

Where it sits: beside the computer agents, seated by `tarot play --human SEAT`. At each of its
decisions it writes what happened since it last decided (other seats' plays, tricks won,
payments with their rules; `tarot.presentation.seat_news`), then where the hand stands and its
hand with the legal choices numbered (`tarot.presentation.seat_screen`), and reads an answer until
one is legal. A wrong answer is refused in one line and the question asked again; the state
is not touched until a legal choice is made. Whatever arrives is read safely: bytes that are
not UTF-8, control characters and lines longer than `MAX_LINE` are refused with a message
(and never echoed raw to the terminal). End of input or `quit` raises `LeftTable`.
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

from tarot.engine.score_sheet import score_sheet
from tarot.engine.seat_view import SeatView
from tarot.engine.state import HandState
from tarot.presentation.seat_news import Seen, news_lines
from tarot.presentation.seat_screen import (
    chosen_line,
    decision_lines,
    help_lines,
    resolve,
    result_lines,
)

HELP = {"?", "help"}
REDISPLAY = {"h", "hand"}
QUIT = {"q", "quit"}
MAX_LINE = 1000  # characters in one answer; a longer line is read to its end and refused
_NOT_TEXT = re.compile(r"[\ud800-\udfff]")  # bytes that were not UTF-8 (surrogateescape)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class LeftTable(Exception):
    """The person ended the input or asked to leave; nothing of the current hand is kept."""


class HumanAgent:
    def __init__(
        self,
        name: str = "human",
        input: TextIO | None = None,
        output: TextIO | None = None,
        seat: int | None = None,
    ) -> None:
        self.name = name
        self.input = input if input is not None else _tolerant(sys.stdin)
        self.output = output if output is not None else sys.stdout
        self.seat = seat  # known from the first decision if not given
        self._state: HandState | None = None
        self._seen = Seen()

    def choose(self, state: HandState, seat: int) -> str:
        self.seat = seat
        view = SeatView(state, seat)  # all the seat is told or shown comes from here
        self._catch_up(state, view)
        decision = state.decision
        assert decision is not None  # an agent is asked only while a decision is open
        choices = decision.choices
        if len(choices) == 1:
            self._say(chosen_line(state.ruleset, decision.kind, choices[0], forced=True))
            return choices[0]
        self._say("", *decision_lines(view))
        while True:
            answer = self._ask("> ")
            unreadable = _unreadable(answer)
            if unreadable:
                self._say(f"Not accepted: {unreadable}.")
                continue
            command = answer.strip().lower()
            if command in HELP:
                self._say(*help_lines(view))
                continue
            if command in REDISPLAY:
                self._say(*decision_lines(view))
                continue
            if command in QUIT:
                raise LeftTable("you left the table")
            choice, why = resolve(view, answer)
            if choice is not None:
                self._say(chosen_line(state.ruleset, decision.kind, choice))
                return choice
            self._say(f"Not accepted: {why}." if command else "Please choose (? for help).")

    def hand_over(self, state: HandState) -> None:
        """Tell the person the rest of a finished hand and its result."""
        if self.seat is None:
            return
        view = SeatView(state, self.seat)
        self._catch_up(state, view)
        self._say("", *result_lines(view, score_sheet(state)))

    def wait(self, prompt: str) -> None:
        """Wait for the person to press Enter (between hands); `q` or end of input leaves."""
        if self._ask(prompt).strip().lower() in QUIT:
            raise LeftTable("you left the table")

    def _catch_up(self, state: HandState, view: SeatView) -> None:
        if state is not self._state:
            self._state, self._seen = state, Seen()
        news = news_lines(view, self._seen)
        if news:
            self._say("", *news)

    def _ask(self, prompt: str) -> str:
        """One line of input (a longer one comes back cut at `MAX_LINE` + 1 characters)."""
        self.output.write(prompt)
        self.output.flush()
        line = self.input.readline(MAX_LINE + 1)
        if not line:
            raise LeftTable("end of input")
        rest = line
        while len(rest) > MAX_LINE and not rest.endswith("\n"):  # skip to the line's end
            rest = self.input.readline(MAX_LINE + 1)
        if not _interactive(self.input):  # scripted answers: show them as if typed
            shown = _printable(line.rstrip("\n"))
            self.output.write(shown[:80] + ("..." if len(shown) > 80 else "") + "\n")
        return line

    def _say(self, *lines: str) -> None:
        self.output.write("".join(line + "\n" for line in lines))
        self.output.flush()


def _tolerant(stream: TextIO) -> TextIO:
    """Standard input read so that bytes which are not UTF-8 come through (as surrogates,
    refused by `_unreadable`) instead of stopping the game."""
    try:
        stream.reconfigure(errors="surrogateescape")  # type: ignore[attr-defined]
    except (AttributeError, ValueError):  # not a text file of the system (a test's stream)
        pass
    return stream


def _unreadable(line: str) -> str | None:
    """Why a line typed at the table cannot be an answer at all, or None."""
    if len(line) > MAX_LINE:
        return f"the line is too long (more than {MAX_LINE} characters)"
    if _NOT_TEXT.search(line):
        return "the line is not UTF-8 text"
    if _CONTROL.search(line.rstrip("\r\n")):
        return "the line holds control characters"
    return None


def _printable(text: str) -> str:
    """The line as it may be shown on a terminal: control characters and bytes that were
    not UTF-8 written as escapes."""
    text = _NOT_TEXT.sub(lambda bad: f"\\x{ord(bad.group()) & 0xFF:02x}", text)
    return _CONTROL.sub(lambda bad: f"\\x{ord(bad.group()):02x}", text)


def _interactive(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
