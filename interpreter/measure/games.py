"""Whole games of a ruleset that plays several hands: how long a game lasts, who wins it.

Where it sits: beside the hand runner, for `tarot simulate` on a ruleset with a `game` (a
score target or a number of hands; `shape.GameShape.several_hands`). The hands of a
simulation are each played alone, from zero totals, which is what a comparison of two
readings needs; a game is a run of hands whose totals carry over, and whose end and winners
the ruleset decides from them (`game.ends_when`, `game.winners`, a claim during play). So
games are played here on their own: game G is the game `tarot play RULESET --seed S` deals,
with S = `game_seed(seed, G)`, played from hand 1 until it ends (or its `max_hands`).

Measures: the number of hands a game lasts (mean with a t interval) and each seat's win rate
(Wilson interval; a game whose winners are shared counts as a win for each of them).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from tqdm import tqdm

from tarot.core.ruleset import Ruleset
from tarot.engine.collector import few_collections
from tarot.engine.game import deal_hand, game_winners, play_hand
from tarot.expressions.builtins import Number
from tarot.measure.statistics import Rate, RunningMean
from tarot.players.lineup import seat_agents


@dataclass(frozen=True)
class GameSummary:
    number: int
    seed: int  # the seed `tarot play` replays the game with
    hands: int
    winners: tuple[int, ...]  # () when it reached its last hand without ending


def game_seed(seed: int, number: int) -> int:
    """The seed of game `number` (from 1) of a run with `seed`: a hash of both, so that
    games of one run share no deal."""
    digest = hashlib.sha256(f"tarot-game/{seed}/{number}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def play_game_summarized(
    ruleset: Ruleset, seed: int, number: int, agents: Sequence[str]
) -> GameSummary:
    """Game `number` of the run with `seed`, hand after hand with the totals carried over."""
    assert ruleset.game is not None  # only rulesets that play several hands have games
    own_seed = game_seed(seed, number)
    totals: list[Number] = [0] * ruleset.players
    winners: tuple[int, ...] = ()
    hand = 0
    while hand < ruleset.game.max_hands and not winners:
        hand += 1
        state = deal_hand(ruleset, own_seed, hand, totals)
        with few_collections():
            play_hand(state, seat_agents(agents, own_seed, hand, ruleset.players))
        totals = [t + r for t, r in zip(totals, state.returns(), strict=True)]
        winners = game_winners(state)
    return GameSummary(number, own_seed, hand, winners)


class GameMeasures:
    def __init__(self, players: int) -> None:
        self.players = players
        self.games = 0
        self.length = RunningMean()
        self.wins = [Rate() for _ in range(players)]
        self.unfinished = 0  # games that reached their last hand without ending

    def add(self, game: GameSummary) -> None:
        self.games += 1
        self.length.add(game.hands)
        for seat, rate in enumerate(self.wins):
            rate.add(seat in game.winners)
        self.unfinished += not game.winners

    def report(self) -> dict:
        return {
            "games": self.games,
            "hands_per_game": self.length.estimate().as_dict(),
            "win_rate_by_seat": [rate.as_dict() for rate in self.wins],
            "unfinished": self.unfinished,
        }


def play_games(
    ruleset: Ruleset, seed: int, agents: Sequence[str], hands: int
) -> tuple[GameMeasures, bool]:
    """Games one after another until they have used `hands` hands (at least one game);
    returns the measures and whether a stop (Ctrl-C) ended them early, keeping the games
    finished before it."""
    measures = GameMeasures(ruleset.players)
    used = 0
    bar = tqdm(total=hands, unit="hand", desc="games", file=sys.stderr, disable=None)
    try:
        while used < hands or measures.games == 0:
            game = play_game_summarized(ruleset, seed, measures.games + 1, agents)
            measures.add(game)
            used += game.hands
            bar.update(game.hands)
    except KeyboardInterrupt:
        return measures, True
    finally:
        bar.close()
    return measures, False
