"""The zones of a hand's cards as attributes of its state: `state.hands` is `state.zones.hands`.

Where it sits: the base of `HandState` (`tarot.engine.state`), whose phases read and replace
zones through these attributes. Written out one by one rather than made by a helper, so that a
compiled build (mypyc) compiles them too.
"""

from __future__ import annotations

from tarot.engine.zones import Zones


class ZoneAttributes:
    """Each zone of `zones`, read and replaced as an attribute."""

    zones: Zones

    @property
    def hands(self) -> list[list[int]]:
        """The state's `zones.hands`."""
        return self.zones.hands

    @hands.setter
    def hands(self, cards: list[list[int]]) -> None:
        self.zones.hands = cards

    @property
    def discards(self) -> list[list[int]]:
        """The state's `zones.discards`."""
        return self.zones.discards

    @discards.setter
    def discards(self, cards: list[list[int]]) -> None:
        self.zones.discards = cards

    @property
    def won(self) -> list[list[int]]:
        """The state's `zones.won`."""
        return self.zones.won

    @won.setter
    def won(self, cards: list[list[int]]) -> None:
        self.zones.won = cards

    @property
    def played(self) -> list[list[int]]:
        """The state's `zones.played`."""
        return self.zones.played

    @played.setter
    def played(self, cards: list[list[int]]) -> None:
        self.zones.played = cards

    @property
    def set_aside(self) -> list[list[int]]:
        """The state's `zones.set_aside`."""
        return self.zones.set_aside

    @set_aside.setter
    def set_aside(self, cards: list[list[int]]) -> None:
        self.zones.set_aside = cards

    @property
    def piles(self) -> list[list[list[int]]]:
        """The state's `zones.piles`."""
        return self.zones.piles

    @piles.setter
    def piles(self, cards: list[list[list[int]]]) -> None:
        self.zones.piles = cards

    @property
    def talon(self) -> list[int]:
        """The state's `zones.talon`."""
        return self.zones.talon

    @talon.setter
    def talon(self, cards: list[int]) -> None:
        self.zones.talon = cards

    @property
    def trick(self) -> list[tuple[int, int]]:
        """The state's `zones.trick`."""
        return self.zones.trick

    @trick.setter
    def trick(self, cards: list[tuple[int, int]]) -> None:
        self.zones.trick = cards
