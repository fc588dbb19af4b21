"""A ruleset as the Python API loads it: `load(name_or_path, options=...)` -> `Ruleset`;
`rulesets()`, every ruleset a name finds.

Where it sits: in front of `tarot.compile.loader.load_ruleset` (which loads, checks and
compiles, raising `RulesetError` with every problem and its position). The API's `Ruleset`
keeps the compiled one beside how it was named (a built-in name or a file) and the readings
chosen, which runs of many hands need to name their hands (`tarot.simulate`, `tarot.diff`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from tarot.api.cards import Card
from tarot.api.hand import State
from tarot.api.view import cards_of
from tarot.compile.loader import load_ruleset
from tarot.core.ruleset import Ruleset as CompiledRuleset
from tarot.engine.chosen_deal import chosen_deal
from tarot.engine.game import deal_hand, dealer_of
from tarot.engine.state import HandState
from tarot.errors import Problem, RulesetError
from tarot.load import paths

#: how a record names a seat whose decisions are taken by hand through `State.apply`
STEPPED = "human"


class Ruleset:
    """A loaded ruleset: `id`, `title`, `players`, `unit`, `options` (every option's reading
    in force), `option_readings` (every option's readings), `cards` (the pack as `Card`s),
    and `new_hand(seed)` (or `new_hand(deal=...)`)."""

    def __init__(
        self, compiled: CompiledRuleset, target: str, chosen: Mapping[str, str] | None = None
    ) -> None:
        self.compiled = compiled  # the engine's ruleset
        self.target = target  # the built-in name or the file it was loaded from
        self.chosen = dict(chosen or {})  # the readings asked for when it was loaded

    @property
    def id(self) -> str:
        return self.compiled.id

    @property
    def title(self) -> str:
        return self.compiled.title

    @property
    def players(self) -> int:
        return self.compiled.players

    @property
    def unit(self) -> str:
        """What results are counted in (plural: `points`, or the ruleset's own unit)."""
        return self.compiled.unit.plural

    @property
    def options(self) -> dict[str, str]:
        """Every option of the ruleset with the reading in force."""
        return dict(self.compiled.options)

    @property
    def option_readings(self) -> dict[str, tuple[str, ...]]:
        """Every option of the ruleset with all its readings, in the order the ruleset
        writes them (the reading in force is in `options`): what `load(name, options=...)`
        and `tarot diff BASE --option NAME` choose among."""
        return self.compiled.option_readings()

    @property
    def cards(self) -> tuple[Card, ...]:
        """The pack, in the ruleset's order."""
        return cards_of(self.compiled)

    def card(self, card_id: str) -> Card:
        """The card with this id; KeyError naming the pack's size if there is none."""
        index = self.compiled.deck.by_id.get(card_id)
        if index is None:
            raise KeyError(f"{self.id} has no card {card_id!r} (its pack: {len(self.cards)} cards)")
        return self.cards[index]

    def new_hand(self, seed: int = 1, hand: int = 1, deal: Mapping | None = None) -> State:
        """Hand `hand` of the game seeded `seed`, dealt and waiting for its first decision:
        the deal `tarot play RULESET --seed SEED --hand HAND` plays. With `deal`, the cards
        are dealt as it lays them out instead (`docs/api.md`, "A chosen deal": `hands`, one
        list of card ids per seat in the order dealt, `talon`, `piles` where the ruleset
        deals piles, and `dealer`, the hand's by the rotation when left out); a deal that
        does not fit the ruleset raises `tarot.DealError` (a ValueError) naming every
        problem. The seed still seeds the players of `tarot.play` and names the record."""
        check_deal(seed, hand)
        if deal is None:
            dealt = deal_hand(self.compiled, seed, hand)
        else:
            chosen = chosen_deal(self.compiled, deal, dealer_of(self.compiled, hand, seed))
            dealt = HandState(self.compiled, chosen.dealer, chosen.pack, hand, chosen=True)
        return State(self, dealt, seed, [STEPPED] * self.players)

    def __repr__(self) -> str:
        chosen = "".join(f", {name}={reading}" for name, reading in sorted(self.chosen.items()))
        return f"<tarot.Ruleset {self.id} ({self.players} players{chosen})>"


def rulesets() -> dict[str, Path]:
    """Every ruleset a name finds, as `tarot rules` lists them: the built-in ones and those
    of the user's folders (`TAROT_PATH`), name -> the file it is read from, by name."""
    return paths.named_rulesets()


def check_deal(seed: int, hand: int) -> None:
    """Refuse a seed or hand number that names no deal (TypeError, ValueError)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a whole number, not {seed!r}")
    if isinstance(hand, bool) or not isinstance(hand, int) or hand < 1:
        raise ValueError(f"hand is numbered from 1, not {hand!r}")


def load(name_or_path: str | Path, options: Mapping[str, str] | None = None) -> Ruleset:
    """A built-in ruleset by name (as `tarot rules` lists them) or a ruleset file, with the
    readings of its options that `options` chooses (`{"OPTION": "READING"}`). Raises
    `RulesetError` listing every problem, each with its file position where it has one."""
    if not isinstance(name_or_path, (str, Path)):
        raise TypeError(f"load() takes a ruleset's name or a path, not {name_or_path!r}")
    chosen = dict(options or {})
    bad = [name for name, reading in chosen.items() if not isinstance(reading, str)]
    if bad:
        raise RulesetError(
            [Problem(None, "$", f"option {name}: a reading is a name (text)") for name in bad]
        )
    return Ruleset(load_ruleset(name_or_path, chosen), str(name_or_path), chosen)


def as_ruleset(ruleset: Ruleset | str | Path) -> Ruleset:
    """A ruleset given to `play`, `simulate` or `diff`: loaded already, or by name or path."""
    return ruleset if isinstance(ruleset, Ruleset) else load(ruleset)
