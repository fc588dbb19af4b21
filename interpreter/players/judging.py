"""Judging a decision by play-outs: every legal action tried on the same guessed deals, then
one chosen, with a stated preference for the conservative answer.

Where it sits: under the search agent (every decision) and the heuristic agent (decisions
whose worth shows only at the end of the hand, such as bids). `play_each` deals the cards the
seat cannot see again (`tarot.players.sampling`), applies each legal action to a clone
of that guess and plays the hand out with a play-out policy (`tarot.players.playouts`),
each action with the same random numbers (common random numbers), and keeps what each
action gave the seat on each guess. `pick` chooses among them:

  - the action of the best mean; among actions of the same mean, a draw from the agent's
    own seeded generator (never the first listed);
  - but where the decision has a conservative answer (a pass, no declaration), the best
    action replaces it only when it beats it by more than `CONFIDENCE` standard errors of
    their paired differences. A bid judged on a handful of guessed deals looks good by luck
    now and then, and the best of several bids looks good by luck more often than any one:
    without this margin, the search player took weak hands, and lost on them.
  - a bid, though, is made over a pass also when it came out ahead of the pass on at least
    a share `BIDDING` of the guessed deals (its mean may then be below the pass's). By mean
    and margin alone, four players of a game with a one-round auction and a lone taker
    passed out most deals even with no margin at all: their play-outs judge most hands a
    player would take as losing a little, where sources call a deal thrown in common, not
    the rule. The share is the highest that has four search players pass out at most about
    a third of such a game's deals (`docs/players/strength.md`, "How the players bid").
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from tarot.core.actions import Action, NoDeclaration, Pass
from tarot.engine.collector import few_collections
from tarot.engine.state import HandState
from tarot.expressions.numbers import approximate
from tarot.players.playouts import Policy, play_out
from tarot.players.sampling import Sampler

CONFIDENCE = 1.0  # standard errors by which an action must beat the conservative answer
BIDDING = 0.3  # or a bid a pass: the share of deals on which it comes out ahead
CONSERVATIVE = (Pass, NoDeclaration)  # the answers that commit a seat to nothing


def play_each(
    state: HandState,
    seat: int,
    policy: Policy,
    rng: random.Random,
    more: Callable[[int], bool],
    only: Sequence[int] | None = None,
    sampler: Sampler | None = None,
) -> list[list[float]]:
    """For each legal action (or each of the indexes `only`), the seat's result on each
    guessed deal (`more(done)`: whether to guess another, asked before each; at least one is
    played; `sampler`: the decision's, when its deals are guessed in more than one stage)."""
    decision = state.decision
    assert decision is not None  # a decision is judged only while it is open
    actions = decision.actions if only is None else [decision.actions[i] for i in only]
    sampler = sampler or Sampler(state, seat)
    results: list[list[float]] = [[] for _ in actions]
    done = 0
    with few_collections():
        while done == 0 or more(done):
            guessed = sampler.sample(rng)
            playout_seed = rng.getrandbits(64)
            for action, kept in zip(actions, results, strict=True):
                trial = guessed.clone()
                trial.apply_action(action)
                play_out(trial, policy, random.Random(playout_seed))
                kept.append(approximate(trial.returns()[seat]))
            done += 1
    return results


def pick(actions: Sequence[Action], results: list[list[float]], rng: random.Random) -> int:
    """The index of the chosen action (see the module's docstring)."""
    means = [sum(kept) / len(kept) for kept in results]
    safe = conservative(actions)
    bidding = safe is not None and isinstance(actions[safe], Pass)
    if safe is not None and not bidding and means[safe] == max(means):
        return safe
    others = [i for i in range(len(actions)) if i != safe]
    if not others:
        return 0
    best_mean = max(means[i] for i in others)
    tied = [i for i in others if means[i] == best_mean]
    best = tied[0] if len(tied) == 1 else rng.choice(tied)
    if safe is None or clearly_better(results[best], results[safe]):
        return best
    if bidding and ahead_share(results[best], results[safe]) >= BIDDING:
        return best
    return safe


def ahead_share(chosen: list[float], safe: list[float]) -> float:
    """The share of the deals on which `chosen` gave more than `safe`."""
    return sum(a > b for a, b in zip(chosen, safe, strict=True)) / len(chosen)


def survivors(
    actions: Sequence[Action], results: list[list[float]], keep: int, rng: random.Random
) -> list[int]:
    """The indexes, in listing order, of the `keep` actions of the best means (ties drawn
    from `rng`), and the conservative answer beside them if the decision has one (`pick`
    weighs the others against it)."""
    means = [sum(found) / len(found) for found in results]
    ranked = sorted(range(len(actions)), key=lambda i: (-means[i], rng.random()))
    kept = set(ranked[:keep])
    safe = conservative(actions)
    if safe is not None:
        kept.add(safe)
    return sorted(kept)


def conservative(actions: Sequence[Action]) -> int | None:
    """The index of the answer that commits the seat to nothing, if the decision has one."""
    return next((i for i, a in enumerate(actions) if isinstance(a, CONSERVATIVE)), None)


def clearly_better(chosen: list[float], safe: list[float], margin: float = CONFIDENCE) -> bool:
    """Whether `chosen` beats `safe` on the same deals by more than `margin` standard
    errors of the paired differences (by anything, with one deal, or when every difference
    is the same)."""
    differences = [a - b for a, b in zip(chosen, safe, strict=True)]
    n = len(differences)
    mean = sum(differences) / n
    if n < 2:
        return mean > 0
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    return mean > margin * math.sqrt(variance / n)
