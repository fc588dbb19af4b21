"""Python's garbage collector, set for playing hands: fewer collections, none of what was loaded.

Where it sits: around the loops that play many hands or many play-outs (`engine.game`'s play
loop, the simulation runner's workers, the search player's decision). A hand allocates many
short-lived objects (decisions, records, event variables) and makes almost no reference
cycles, so the collector's default (a young collection every 700 allocations, each looking
again at every object still alive: the compiled ruleset, earlier hands) cost 20-23% of a
random hand. `few_collections()` freezes what exists when it starts (it is not looked at
again until the block ends, when `gc.unfreeze` hands it back) and collects the young
generation every `YOUNG_THRESHOLD` allocations instead. The collector frees nothing the
program can still reach and no engine object has a finalizer, so results are the same.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 10_000  # allocations between young collections inside the block

_depth = 0  # blocks open now: only the outermost asks what was frozen before it


@contextmanager
def few_collections() -> Iterator[None]:
    """Inside the block, what existed before it is frozen and young collections are rarer;
    both are as they were after it (blocks may nest)."""
    global _depth
    threshold = gc.get_threshold()
    # gc.get_freeze_count() walks every frozen object: asked once,
    # by the outermost block, before anything is frozen, it costs nothing
    hand_back = _depth == 0 and not gc.get_freeze_count()
    _depth += 1
    gc.freeze()
    gc.set_threshold(max(threshold[0], YOUNG_THRESHOLD), *threshold[1:])
    try:
        yield
    finally:
        _depth -= 1
        gc.set_threshold(*threshold)
        if hand_back:  # the outermost block hands back what it froze
            gc.unfreeze()
