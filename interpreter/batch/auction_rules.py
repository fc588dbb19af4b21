"""The auction's rules as array code: who bids first, who may hold the highest bid, who may
not pass, to whom each contract is open, the contract played when all pass, who may join
each contract's taker.

Where it sits: compiled once per ruleset with the rest of its `Program`
(`tarot.batch.program`), raising `Unsupported` naming the key it cannot compile, and read
by the batch's auction (`tarot.batch.phases.bidding`). The scalar engine reads the same
keys from `Ruleset.bidding` in `tarot.engine.phases.auction`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarot.batch.array_exprs import ArrayCompiler, Node
from tarot.batch.values import Unsupported
from tarot.core.ruleset import Bidding


@dataclass(frozen=True)
class ArrayForced:
    """A contract played without bids (when all passed, or compulsory): its rank, the
    condition that makes it compulsory (None: played when all passed), its taker (None:
    no taker)."""

    rank: int
    when: Node | None
    taker: Node | None


@dataclass(frozen=True)
class ArrayBidding:
    first: Node | None  # the seat that speaks first (None: the dealer's next)
    hold: Node | None  # the seats that may hold the highest bid
    must_bid: Node | None  # the seats that may not pass while they may bid or hold
    open_to: tuple[Node | None, ...]  # by contract rank: whether `player` may bid it
    all_passed: ArrayForced | None
    compulsory: tuple[ArrayForced, ...]
    join: tuple[Node | None, ...] = ()  # by contract rank: the seats that may join its taker


def compile_bidding(compiler: ArrayCompiler, bidding: Bidding | None) -> ArrayBidding | None:
    """The ruleset's auction as array code (None without one)."""
    if bidding is None:
        return None

    def optional(where: str, compiled: object, event: str) -> Node | None:
        if compiled is None:
            return None
        try:
            return compiler.expression(compiled, event)
        except Unsupported as error:
            raise Unsupported(f"{where}: {error}") from None

    def forced(where: str, contract: str, when: object, taker: object) -> ArrayForced:
        return ArrayForced(
            bidding.rank(contract),
            optional(where, when, "auction"),
            optional(where, taker, "auction"),
        )

    every = bidding.all_passed
    return ArrayBidding(
        first=optional("bidding.first", bidding.first, "auction"),
        hold=optional("bidding.hold", bidding.hold, "hold"),
        must_bid=optional("bidding.must_bid", bidding.must_bid, "hold"),
        open_to=tuple(
            optional(f"bidding.contracts[{i}].open_to", c.open_to, "bid_check")
            for i, c in enumerate(bidding.contracts)
        ),
        all_passed=None
        if every is None
        else forced("bidding.all_passed", every.contract, None, every.taker),
        compulsory=tuple(
            forced(f"bidding.compulsory[{i}]", entry.contract, entry.when, entry.taker)
            for i, entry in enumerate(bidding.compulsory)
        ),
        join=tuple(
            optional(f"bidding.contracts[{i}].join", c.join, "call")
            for i, c in enumerate(bidding.contracts)
        ),
    )
