"""A game of several hands: seeded shuffles, the dealer moving round, agents deciding.

`shuffled_pack` gives the same pack for the same (seed, hand number) under any ruleset with
the same number of cards, so two rulesets can be compared on identical deals. `deal_hand`
makes hand N of a seeded game on its own; `play_hands` runs agents through a run of hands,
yielding each finished state, and `play_game` hands them all back in a list; `dealt_hands`
deals a run's hands one by one for a caller that plays them its own way (side by side with
other runs' hands, `measure.hand_summary.sitting_summarized`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence

from tarot.core.agent import Agent
from tarot.core.ruleset import Ruleset
from tarot.engine import draws
from tarot.engine.collector import few_collections
from tarot.engine.first_dealer import first_dealer
from tarot.engine.lasting import LastingValues
from tarot.engine.state import HandState
from tarot.expressions.builtins import Number

Seating = Callable[[int], Sequence[Agent]]  # hand number -> the agents for that hand


def hand_rng(seed: int, number: int) -> random.Random:
    return random.Random(f"tarot-deal/{seed}/{number}")


def shuffled_pack(size: int, seed: int, number: int, redeal: int = 0) -> list[int]:
    """Shuffle, then cut: a random number of cards moved from the top to the bottom
    (`redeal`: the k-th new deal of the same hand, after deals thrown in)."""
    rng = (
        hand_rng(seed, number)
        if not redeal
        else random.Random(f"tarot-deal/{seed}/{number}/redeal-{redeal}")
    )
    pack = list(range(size))
    draws.shuffle(rng, pack)
    cut = rng.randrange(1, size) if size > 1 else 0
    return pack[cut:] + pack[:cut]


def sitting_seed(seed: int, number: int) -> int:
    """The game seed of sitting `number` (from 1) of a run seeded `seed`, for rulesets whose
    unit of simulation is a sitting: `tarot play RULESET --seed` with it plays the sitting."""
    return random.Random(f"tarot-sitting/{seed}/{number}").randrange(10**15)


def plays_sittings(ruleset: Ruleset) -> bool:
    """Whether the ruleset's hands depend on the hands before (lasting state) within a
    sitting that ends by rule: then a simulation plays whole sittings, not single hands."""
    return ruleset.lasting is not None and ruleset.game is not None


def dealer_of(ruleset: Ruleset, number: int, seed: int) -> int:
    """The seat that deals hand `number` of the game with this seed: from the first dealer
    (fixed, or drawn for from the seed), the deal passing as `next_dealer` says."""
    step = 1 if ruleset.next_dealer == "next" else 0
    return (first_dealer(ruleset, seed) + step * (number - 1)) % ruleset.players


def deal_hand(
    ruleset: Ruleset,
    seed: int,
    number: int,
    totals_before: Sequence[Number] | None = None,
    lasting: LastingValues | None = None,
) -> HandState:
    """Hand `number` (from 1) of the game with this seed, dealt and waiting for decisions
    (`totals_before`: the game totals so far, for rulesets that play to a score; `lasting`:
    the counters the hand before left, for rulesets with lasting state)."""
    size = len(ruleset.deck)
    return HandState(
        ruleset,
        dealer_of(ruleset, number, seed),
        shuffled_pack(size, seed, number),
        number,
        totals_before,
        repack=lambda redeal: shuffled_pack(size, seed, number, redeal),
        lasting=lasting,
    )


def play_hand(state: HandState, agents: Sequence[Agent]) -> HandState:
    # a hand not over has a decision open (`is_terminal` and `current_player`, read once)
    while (decision := state.decision) is not None:
        seat = decision.seat
        state.apply_action(agents[seat].choose(state, seat))
    return state


def play_game(
    ruleset: Ruleset,
    seed: int,
    agents: Sequence[Agent] | Seating,
    hands: int | Iterable[int] | None = 1,
    on_hand: Callable[[HandState], None] | None = None,
) -> list[HandState]:
    """Play hands 1..`hands` (or the given hand numbers), or with `hands=None` a whole game:
    hands until the ruleset's game ends (one hand for a ruleset without a game end).
    `agents` is either one list kept for the whole game or a function giving fresh agents
    for each hand number. Returns every finished hand (`play_hands` keeps none)."""
    played = []
    for state in play_hands(ruleset, seed, agents, hands):
        if on_hand is not None:
            on_hand(state)
        played.append(state)
    return played


def play_hands(
    ruleset: Ruleset,
    seed: int,
    agents: Sequence[Agent] | Seating,
    hands: int | Iterable[int] | None = 1,
    play: Callable[[HandState, Sequence[Agent]], object] = play_hand,
) -> Iterator[HandState]:
    """The hands of `play_game`, each yielded as it finishes and not kept, so a long run
    needs no more memory than one hand (`play`: how the agents play a hand out)."""
    for state in dealt_hands(ruleset, seed, hands):
        with few_collections():
            play(state, agents(state.number) if callable(agents) else agents)
        yield state


def dealt_hands(
    ruleset: Ruleset, seed: int, hands: int | Iterable[int] | None = 1
) -> Iterator[HandState]:
    """The hands of `play_hands`, each yielded as dealt, for the caller to play out before
    it asks for the next (which starts from the totals and lasting values the hand left):
    hands 1..`hands`, the given hand numbers, or with `hands=None` until the game ends."""
    whole_game = hands is None
    if whole_game:
        numbers: Iterable[int] = range(1, ruleset.game.max_hands + 1) if ruleset.game else [1]
    else:
        # hands is not None here (whole_game is False)
        numbers = range(1, hands + 1) if isinstance(hands, int) else hands  # type: ignore[assignment]
    totals: list[Number] = [0] * ruleset.players
    lasting: LastingValues | None = None  # the sitting's start values for the first hand
    for number in numbers:
        state = deal_hand(ruleset, seed, number, totals, lasting)
        yield state
        assert state.is_terminal()  # the caller played the hand out before asking for more
        totals = [t + r for t, r in zip(totals, state.returns(), strict=True)]
        lasting = state.lasting
        if whole_game and game_winners(state):
            break


def game_winners(last: HandState) -> tuple[int, ...]:
    """Who has won the game once this hand is over: the seats that claimed it during play,
    or the ruleset's winners if its game has ended; () while it goes on."""
    game = last.ruleset.game
    if game is None:
        return ()
    if last.play.claimed:
        return last.play.claimed
    over = last.sitting_over  # worked out at the end of the hand when its end pays
    if not (last.evaluate(game.ends_when) if over is None else over):
        return ()
    winners = last.evaluate(game.winners)
    return (winners,) if isinstance(winners, int) else tuple(winners)
