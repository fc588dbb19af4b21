"""Sittings in batches: for a ruleset whose hands depend on the hands before (lasting state
and a game end, `engine.game.plays_sittings`), each lane of a batch is one sitting, its hands
played in sequence, each starting from the lasting values and game totals the hand before
left, until the game ends in that lane (or its `max_hands`). Sitting N of a run seeded S is
the game seeded `sitting_seed(S, N)`, as on the scalar engine.

Where it sits: beside `tarot.batch.run`, called by the runner (`tarot.measure.runner`) and
by the replay of sittings (`tarot.records.batch_agreement`). Hand k of the game seeded G draws
its cards and choices keyed by (G, k), as a hand alone of a batch run seeded G would, so a
sitting plays the same alone or in any batch, and its record replays from its seed.
`sitting_summaries` boils each sitting down to one `HandSummary` as
`measure.hand_summary.play_sitting_summarized` does: its net and rule counts the sum of its
hands', its running result read after every decision of every hand, each hand a `Deal`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from tarot.batch.lasting import game_over
from tarot.batch.lasting_values import Carried
from tarot.batch.masks import Ints
from tarot.batch.run import BATCH, play_batch, program_of, summaries
from tarot.batch.scaled_amounts import unscaled
from tarot.batch.state import BatchState
from tarot.core.ruleset import Ruleset
from tarot.core.summary import Deal, HandSummary, sole_leader
from tarot.engine.game import sitting_seed


def sitting_hands(
    ruleset: Ruleset, seeds: Sequence[int], logging: bool = False
) -> Iterator[tuple[Ints, BatchState]]:
    """The sittings (games) of these seeds played side by side: for each hand number from
    1, the lanes (as indices into `seeds`) still going and their hand played as one batch
    state."""
    program = program_of(ruleset)
    lasting, game = program.lasting, ruleset.game
    assert lasting is not None and game is not None  # a ruleset that plays sittings
    lanes = np.asarray(seeds, dtype=np.int64)
    going = np.arange(len(lanes))
    values = lasting.layout.start(ruleset, len(lanes))
    totals = np.zeros((len(lanes), ruleset.players))
    scored = np.zeros((len(lanes), ruleset.players))
    for hand in range(1, game.max_hands + 1):
        carried = Carried(lanes[going], values[going], totals[going], scored[going])
        state = play_batch(ruleset, 0, np.full(len(going), hand), logging, carried)
        yield going, state
        totals[going] += state.net
        scored[going] = state.scored
        values[going] = state.lasting
        going = going[~game_over(lasting, state)]
        if not len(going):
            return


def sitting_summaries(
    ruleset: Ruleset,
    seed: int,
    numbers: Sequence[int],
) -> list[HandSummary]:
    """The summaries of sittings `numbers`, BATCH sittings at a time (as
    `run.play_summaries`)."""
    found: list[HandSummary] = []
    numbers = list(numbers)
    for start in range(0, len(numbers), BATCH):
        found += _summarized(ruleset, seed, numbers[start : start + BATCH])
    return found


def _summarized(ruleset: Ruleset, seed: int, numbers: list[int]) -> list[HandSummary]:
    """One summary per sitting of `numbers`, played as one batch."""
    hands: list[list[HandSummary]] = [[] for _ in numbers]
    leaders: list[list[int]] = [[] for _ in numbers]
    seeds = [sitting_seed(seed, number) for number in numbers]
    totals = np.zeros((len(numbers), ruleset.players))  # added up exactly, in 1/scale
    scale = 1
    for going, state in sitting_hands(ruleset, seeds):
        totals[going] += state.net
        scale = state.scale
        for lane, row, summary in zip(
            going.tolist(), range(state.size), summaries(state), strict=True
        ):
            hands[lane].append(summary)
            leaders[lane] += state.leaders[row, : summary.decisions + 1].tolist()
    nets = unscaled(totals, scale).tolist()
    return [
        _sitting(number, played, led, net)
        for number, played, led, net in zip(numbers, hands, leaders, nets, strict=True)
    ]


def _sitting(
    number: int, hands: list[HandSummary], led: list[int], net: list[float]
) -> HandSummary:
    """A sitting's hands as one summary, each seat a side alone (`_Running.summary`); `net`:
    the sitting's result, added up exactly and measured as floats."""
    fired: dict[str, int] = {}
    paid: dict[str, float] = {}
    for hand in hands:
        for rule, times in hand.fired.items():
            fired[rule] = fired.get(rule, 0) + times
        for rule, amount in hand.paid.items():
            paid[rule] = paid.get(rule, 0.0) + amount
    total = tuple(int(v) if v == int(v) else v for v in net)
    winner = sole_leader(total)
    leaders = [None if seat < 0 else seat for seat in led]
    decided_at = None
    if winner is not None:
        decided_at = len(leaders) - 1
        while decided_at > 0 and leaders[decided_at - 1] == winner:
            decided_at -= 1
    changes, previous = 0, None
    for leader in leaders:
        if leader is not None:
            changes += previous is not None and leader != previous
            previous = leader
    return HandSummary(
        number=number,
        dealer=hands[0].dealer,
        net=total,
        decisions=sum(h.decisions for h in hands),
        choices=sum(h.choices for h in hands),
        winner=winner,
        decided_at=decided_at,
        lead_changes=changes,
        fired=fired,
        paid=paid,
        winners=() if winner is None else (winner,),
        deals=tuple(Deal(h.dealer, h.net, h.taker, h.partner, h.contract) for h in hands),
    )
