"""What of the hand an expression's value depends on, worked out when it is compiled.

Where it sits: beside the compiler (`expressions.compiler`), which gives every compiled node
the set of what it reads, merged from its parts; the ruleset's compiler uses it to tell
which declarations depend on nothing but the declarer and the cards in his hand
(`only_on_own`), so that the engine may work them out once for the same hand
(`engine.phases.declare`), and which definitions read the auction's words alone
(`only_on_auction`), so that the engine works them out once for the deal after the auction.
The set is conservative: anything it cannot follow is written
so that no question about it is answered yes.

Each entry is text:
  - a context variable read: its name (`player`);
  - a game fact called: `name(variable)` when its one argument is a bare variable
    (`hand(player)`), `name(?)` when the argument is computed, `name()` without one;
  - a definition of a seat, called as a fact: what its body reads, its seat written `@`,
    put in place of the variable it is called with (`?` when the argument is computed);
    one whose body reads nothing is taken for a game fact;
  - a definition remembered for the hand, which reads the state: what it reads and
    `REMEMBERED` (its value is remembered for the state, not for the variables in scope);
  - a value of the contract: `CONTRACT`.
Bound variables (`c` in `count(c in hand(player): ...)`) are not entries: they depend on
what they range over.
"""

from __future__ import annotations

from collections.abc import Iterable

PARAMETER = "@"  # a definition of a seat's own seat, in what it reads
COMPUTED = "?"  # an argument that is not a bare variable
REMEMBERED = "definition"
CONTRACT = frozenset({"contract.value"})
#: the facts of the auction's words (who bid, held, leapt or passed, and when): none changes
#: once the auction is over
AUCTION_FACTS = frozenset(
    {
        "bids_made",
        "bid_held",
        "bid_jump",
        "bid_number",
        "pass_number",
        "passed_over",
        "bid_position",
    }
)
#: the names fixed for a deal: the seats in play, their number and the dealer
DEAL_NAMES = frozenset({"seats", "players", "dealer"})


def of_call(
    name: str, fact_reads: frozenset[str], argument: str | None, has_arguments: bool
) -> frozenset[str]:
    """What a call of fact `name` reads: the call itself; for a definition of a seat (a fact
    whose body's reads are known), what its body reads, its seat put in place of the
    argument."""
    given = argument if argument is not None else COMPUTED if has_arguments else ""
    if fact_reads:
        return frozenset(_put(entry, PARAMETER, given or COMPUTED) for entry in fact_reads)
    return frozenset({f"{name}({given})"})


def as_parameter(reads: Iterable[str], seat_name: str) -> frozenset[str]:
    """What a definition of a seat reads, its seat variable `seat_name` written `@`."""
    return frozenset(_put(entry, seat_name, PARAMETER) for entry in reads)


def remembered(reads: frozenset[str]) -> frozenset[str]:
    """What a use of a definition remembered for the hand reads."""
    return reads | {REMEMBERED} if reads else reads


def only_on_own(reads: Iterable[str], seat: str, facts: Iterable[str]) -> bool:
    """Whether a value reading `reads` depends on nothing but the variable `seat` and the
    `facts` of that seat."""
    allowed = {seat, *(f"{fact}({seat})" for fact in facts)}
    return all(entry in allowed for entry in reads)


def only_on_auction(reads: Iterable[str], seat: str | None = None) -> bool:
    """Whether a value reading `reads` depends on nothing but the auction's words (its facts,
    with any argument), the names fixed for the deal and the variable `seat` (a definition of
    a seat's own); and on something of the auction."""
    entries = set(reads) - {REMEMBERED}
    facts = {entry for entry in entries if entry.partition("(")[0] in AUCTION_FACTS}
    return bool(facts) and all(entry in DEAL_NAMES or entry == seat for entry in entries - facts)


def _put(entry: str, old: str, new: str) -> str:
    """`entry` with the variable `old` (read, or a call's argument) written `new`."""
    if entry == old:
        return new
    if entry.endswith(f"({old})"):
        return f"{entry[: -len(old) - 2]}({new})"
    return entry
