"""The phases a hand can be in; the value is the word tests and views use."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    REDEAL = "redeal"  # the deal, and requests to have it thrown in
    BID = "bid"
    CALL = "call"
    DISCARD = "discard"  # the talon taken or set aside, then the discards
    DECLARE = "declare"
    ANNOUNCE = "announce"  # bonuses announced before play
    DOUBLE = "double"  # doublings before play
    PLAY = "play"
    DONE = "done"  # settled, or thrown in


#: how an error names the moment of the hand it happened at (play names its trick)
MOMENTS = {
    Phase.REDEAL: "at the deal",
    Phase.BID: "during the auction",
    Phase.CALL: "at the call",
    Phase.DISCARD: "during the discard",
    Phase.DECLARE: "during the declarations",
    Phase.ANNOUNCE: "during the announcements",
    Phase.DOUBLE: "during the doublings",
    Phase.DONE: "at the end of the hand",
}
