"""Source 003's figures for the independent checker: the deal by number of players, the bids
and their multipliers, the targets by bouts, the poignée thresholds and values, and the
bonuses. Each is copied from the text of 003 (the poignée thresholds with three and five
players from its variant paragraphs)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TableSize:
    """What changes with the number of players."""

    hand_size: int
    packet: int
    talon: int
    poignee: dict[str, int]


TABLES = {
    4: TableSize(18, 3, 6, {"single": 10, "double": 13, "triple": 15}),
    3: TableSize(24, 4, 6, {"single": 13, "double": 15, "triple": 18}),
    # 003 gives no packet size for five players; 15 cards go in threes as with four.
    5: TableSize(15, 3, 3, {"single": 8, "double": 10, "triple": 13}),
}

# Bids from lowest to highest, by the names the records use, with their multipliers.
BIDS = ["petite", "garde", "garde_sans", "garde_contre"]
MULTIPLIER = {"petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
TAKER_SEES_TALON = {"petite", "garde"}

TARGET_BY_BOUTS = {3: 36, 2: 41, 1: 51, 0: 56}
GAME_POINTS = 25
PETIT_AU_BOUT = 10
POIGNEE_VALUE = {"single": 20, "double": 30, "triple": 40}
CHELEM_ANNOUNCED_MADE = 400
CHELEM_ANNOUNCED_FAILED = -200
CHELEM_UNANNOUNCED = 200

# Cards that may never go to the chien in the deal: the first and last three of the pack.
PACK_ENDS_KEPT_FROM_TALON = 3
# "Le Petit": the 1 of trumps among the first three cards a player is dealt.
LE_PETIT_CARDS = 3
