"""The shape of a game, read from its compiled ruleset: what the measures of a run can mean.

Where it sits: between the compiled `Ruleset` and the measures. `RulesetMeasures` keeps what
every shape needs and what its own shape needs; `report` prints the measures that mean
something for it. Nothing here looks at a game's name: the shape is read from the ruleset's
tables.

- Taker against defenders (the ruleset has an auction with contracts): one side wins or
  loses the contract, the others share one result, so "the best result" is nearly always
  shared and the measures of a winner mean nothing. What means something is how often each
  contract is bid and made, what the taker wins by contract, and what the defence wins.
- Each for himself (no auction): every seat plays alone and the hand has a winner; the
  measures of who won, by how much and when (Ludii's) apply.
- Partners without an auction (the play rules' `sides`: seats opposite, partners drawn):
  the measures of each for himself, read by sides (a side wins a hand as one), and how often
  the dealer's side wins against how often another side does.
- Several hands (the ruleset has a `game`: a score target or a number of hands): besides the
  hand, the game itself: how many hands it lasts and how often each seat wins it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarot.core.ruleset import Ruleset


@dataclass(frozen=True)
class GameShape:
    players: int
    contracts: tuple[str, ...] = ()  # the auction's contracts, lowest first; () without one
    several_hands: bool = False  # the ruleset plays a game of several hands
    partners: bool = False  # sides from the play rules, without an auction

    @property
    def sides(self) -> bool:
        """A taker (and a partner) against defenders, chosen by an auction."""
        return bool(self.contracts)

    @staticmethod
    def of(ruleset: Ruleset) -> GameShape:
        contracts: tuple[str, ...] = ()
        if ruleset.bidding is not None:
            contracts = tuple(contract.id for contract in ruleset.bidding.contracts)
        partners = not contracts and ruleset.play.sides is not None
        return GameShape(ruleset.players, contracts, ruleset.game is not None, partners)

    def as_dict(self) -> dict:
        return {
            "players": self.players,
            "taker_against_defenders": self.sides,
            "contracts": list(self.contracts),
            "several_hands": self.several_hands,
            "partners": self.partners,
        }
