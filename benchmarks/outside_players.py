"""Outside players: programs nobody here wrote, seated behind our agent interface.

Where it sits: under `benchmarks/strength.py`, which plays them against our agents on paired
deals. Nothing in `interpreter/` knows them; they are measuring sticks, not dependencies.

`magmacrunch` is the rule-based computer player of the French Tarot program on PyPI,
magmacrunch-tarot (its `ai_bid`, `ai_discards` and `ai_card`). Its package is a top-level
`tarot`, which would take this project's command's name, so it is installed apart:

    pip install --no-deps --target DIR magmacrunch-tarot

and `--magmacrunch DIR` is passed; its rules module is loaded from its file under a name of
its own (`speed.magmacrunch_rules`). The adapter plays our `french-tarot` (with the readings
its program plays, `speed.FRENCH_READINGS`), translating what the seat can see into the
program's cards and its choice back into our action:

  - bids: `ai_bid` with the best contract so far (its own random draws from the agent's seed);
  - the discard: `ai_discards` on the hand with the chien, laid away one card at a time as our
    engine asks, a card our rules refuse replaced by its next choice;
  - declarations: its computers declare every poignée they hold, at the highest level, and
    never announce a chelem; a poignée shows its lowest trumps (`poignee_cards`);
  - cards: `ai_card` on its hand and the trick; a card our rules refuse (never seen) would be
    replaced by its cheapest legal card;
  - a petit sec: its program deals again, so it asks for the redeal.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from tarot.core.actions import DecisionKind
from tarot.engine.state import HandState

MAGMACRUNCH = "magmacrunch"
# our contract ids and the program's bid names, lowest first
CONTRACTS = {
    "petite": "PRISE",
    "garde": "GARDE",
    "garde_sans": "GARDE_SANS",
    "garde_contre": "GARDE_CONTRE",
}
RANKS = {"King": "R", "Queen": "D", "Cavalier": "C", "Jack": "V"}  # ours -> its letters
POIGNEE, CHELEM = "poignee", "chelem"


class MagmacrunchAgent:
    """magmacrunch-tarot's computer player in one seat of our `french-tarot`."""

    name = MAGMACRUNCH

    def __init__(self, rules: ModuleType, seed: int | str = 0) -> None:
        self.rules = rules
        self.rng = random.Random(f"magmacrunch/{seed}")
        self.discards: list[str] = []  # its six, chosen at the first discard decision
        self._cards: dict[int, Any] = {}

    def choose(self, state: HandState, seat: int) -> str:
        decision = state.decision
        assert decision is not None  # an agent is asked only while a decision is open
        choices = decision.choices
        kind = decision.kind
        if kind == DecisionKind.BID:
            return self._bid(state, seat, choices)
        if kind == DecisionKind.DISCARD:
            return self._discard(state, seat, choices)
        if kind == DecisionKind.DECLARE:
            return _declare(choices)
        if kind == DecisionKind.SHOW:
            return self._cheapest(state, choices, trumps_first=True)
        if kind == DecisionKind.PLAY:
            return self._play(state, seat, choices)
        if kind == DecisionKind.REDEAL:
            return next((c for c in choices if c.endswith(":redeal")), choices[0])
        return choices[0]  # no other kind arises in french-tarot

    def card(self, state: HandState, index: int) -> Any:
        """The program's card for our card `index`."""
        if index not in self._cards:
            ours = state.ruleset.deck.cards[index]
            rules = self.rules
            if ours.fool:
                theirs = rules.Card(rules.EXCUSE, number=rules.EXCUSE_NUMBER)
            elif ours.is_trump:
                theirs = rules.Card(rules.TRUMP, number=ours.trump)
            else:
                theirs = rules.Card(rules.SUITED, ours.suit, RANKS.get(ours.rank, str(ours.rank)))
            self._cards[index] = theirs
        return self._cards[index]

    def _hand(self, state: HandState, seat: int) -> list[Any]:
        return [self.card(state, c) for c in state.zones.hands[seat]]

    def _ids(self, state: HandState) -> dict[str, str]:
        """The program's card ids -> ours."""
        ids = state.ruleset.deck.cards.ids
        return {self.card(state, i).id: ids[i] for i in range(len(ids))}

    def _bid(self, state: HandState, seat: int, choices: list[str]) -> str:
        current = "PASSE" if state.auction.contract is None else CONTRACTS[state.auction.contract]
        wanted = self.rules.ai_bid(
            self._hand(state, seat), current, state.auction.taker == seat, self.rng.random
        )
        ours = {bid: contract for contract, bid in CONTRACTS.items()}
        chosen = ours.get(wanted, "pass")
        return chosen if chosen in choices else "pass"

    def _discard(self, state: HandState, seat: int, choices: list[str]) -> str:
        ids = self._ids(state)
        if not self.discards:
            self.discards = [ids[c.id] for c in self.rules.ai_discards(self._hand(state, seat))]
        for card in self.discards:
            if card in choices:
                self.discards.remove(card)
                return card
        hand = self._hand(state, seat)
        ranked = sorted(
            (c for c in hand if ids[c.id] in choices),
            key=lambda c: (not self.rules._plain(c), self.rules._dog_score(c, hand)),
        )
        return ids[ranked[0].id]

    def _play(self, state: HandState, seat: int, choices: list[str]) -> str:
        rules = self.rules
        trick = rules.Trick()
        for player, index in state.trick:
            card = self.card(state, index)
            trick.cards.append((card, player))
            if card.type == rules.SUITED and not trick.led_trump and not trick.led_suit:
                trick.led_suit = card.suit
            if card.type == rules.TRUMP:
                trick.led_trump = True
                trick.highest_trump = max(trick.highest_trump, card.number)
        wanted = rules.ai_card(self._hand(state, seat), trick)
        chosen = self._ids(state).get(wanted) if wanted is not None else None
        return chosen if chosen in choices else self._cheapest(state, choices)

    def _cheapest(self, state: HandState, choices: list[str], trumps_first: bool = False) -> str:
        """The choice of least worth to the program (trumps before the Excuse, if asked)."""
        by_id = state.ruleset.deck.by_id
        rules = self.rules

        def worth(choice: str) -> tuple[bool, float, int]:
            card = self.card(state, by_id[choice])
            return (
                trumps_first and card.type != rules.TRUMP,
                card.point_value,
                rules.strength(card),
            )

        return min(choices, key=worth)


def _declare(choices: list[str]) -> str:
    """Every poignée at its highest level (listed last of the levels), never a chelem."""
    if choices[0].startswith(f"{POIGNEE}:"):
        levels = [c for c in choices if not c.endswith(":none")]
        return levels[-1] if levels else choices[-1]
    return next(c for c in choices if c.endswith(":none"))
