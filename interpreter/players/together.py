"""Many hands played side by side, the search players' play-outs of all of them batched at
once.

Where it sits: between the runner of many hands (`tarot.measure.runner`, through
`measure.hand_summary`) and the agents. An agent that can decide as a coroutine (the search
player's `deciding`) yields its play-outs waiting for the batch back end
(`tarot.players.batched_playouts.Pending`) instead of playing them; `play_together` advances
every hand to its next such wait, plays all their waiting play-outs in one batch per moment
of trick play (`batched_playouts.finish`), and goes on. A batch of one decision holds some
50-250 play-outs, too few to pay for the fixed cost of each array step; the decisions of
many hands together fill it. Whole sittings play side by side the same way, their later
hands marked (`staged`) so that they keep step. Each play-out's random numbers are keyed by
its own decision, so every choice, and every hand, is the same as when played alone.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, TypeVar

from tarot.core.agent import Agent
from tarot.engine.state import HandState

if TYPE_CHECKING:
    from tarot.players.batched_playouts import Pending

T = TypeVar("T")
#: a hand (or anything) played as a coroutine: it yields play-outs to batch, returns a T
Playing = Generator["Pending", None, T]


def deciding(agent: Agent, state: HandState, seat: int) -> Playing[str]:
    """The agent's choice, as a coroutine when the agent can decide as one."""
    coroutine = getattr(agent, "deciding", None)
    if coroutine is None:
        return agent.choose(state, seat)
    choice: str = yield from coroutine(state, seat)
    return choice


def staged(playing: Playing[T], stage: int) -> Playing[T]:
    """`playing` (a hand of a sitting), its waits marked as of the sitting's hand `stage`
    (from 0): `play_together` plays the waits of earlier hands first, so that the sittings
    played side by side keep to the same hand and their play-outs share batches."""
    try:
        pending = next(playing)
        while True:
            pending.stage = stage
            yield pending
            pending = playing.send(None)
    except StopIteration as done:
        result: T = done.value
        return result


def pools_playouts(agents: Sequence[Agent]) -> bool:
    """Whether any of the agents yields play-outs to batch (`play_together` then pays)."""
    return any(hasattr(agent, "deciding") for agent in agents)


def play_together(playing: Sequence[Playing[T]]) -> list[T]:
    """Run the coroutines side by side until each returns; their results in order.

    Each round, the coroutines that are not waiting run on to their next wait; then the
    waiting play-outs that begin earliest (in the earliest hand of a sitting, `staged`, then
    at the least trick and cards on its table) are played, all in one batch, and only their
    coroutines go on. The hands that are ahead wait for the others to catch up, so most
    hands come to each moment of trick play together and their play-outs share its batch."""
    results: dict[int, T] = {}
    waiting: dict[int, Pending] = {}
    ready = list(enumerate(playing))
    while ready or waiting:
        for index, coroutine in ready:
            try:
                waiting[index] = coroutine.send(None)
            except StopIteration as done:
                results[index] = done.value
        if not waiting:
            break
        from tarot.players.batched_playouts import finish  # numpy: imported only when used

        starts = {index: (p.stage, *min(p.waiting)) for index, p in waiting.items()}
        earliest = min(starts.values())
        chosen = [index for index, start in starts.items() if start == earliest]
        finish([waiting.pop(index) for index in chosen])
        ready = [(index, playing[index]) for index in chosen]
    return [results[index] for index in range(len(playing))]
