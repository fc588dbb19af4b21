"""The phases a hand can be in (`tarot.core.flow.Phase`, the kinds of a flow's steps) and
how an error names each moment of the hand."""

from __future__ import annotations

from tarot.core.flow import Phase

__all__ = ["MOMENTS", "Phase"]

#: how an error names the moment of the hand it happened at (play names its trick)
MOMENTS = {
    Phase.DEAL: "at the deal",
    Phase.REDEAL: "at the deal",
    Phase.ASK: "at a question",
    Phase.BID: "during the auction",
    Phase.CALL: "at the call",
    Phase.TALON: "at the talon",
    Phase.DISCARD: "during the discard",
    Phase.DECLARE: "during the declarations",
    Phase.ANNOUNCE: "during the announcements",
    Phase.DOUBLE: "during the doublings",
    Phase.DONE: "at the end of the hand",
}
