"""The typed tree: an expression once parsed and type-checked, the one form both runners read.

Where it sits: `compiler.py` checks a parse tree and makes, beside each checked node's
closure (the scalar runner), one `Typed` node; the whole tree is kept on the
`CompiledExpression` (`tree`). The batch back end's array runner
(`tarot.batch.array_exprs`) executes the same tree over many hands at once, so that it never
parses an expression again nor works out its types again. Each node carries its cost
(the checker's bound on the steps of one evaluation) and its dependence (what of the hand it
reads, `dependence.py`). Constants the checker could
compute (option values, literal arithmetic, the named card sets) are already folded into
`const` nodes.

The operations (`op`), their arguments (`args`) and the other fields each uses:

- `const`: `value` (a number, bool, text, or a tuple of card or seat ids, sorted for a card
  set, repeats kept for `X + Y`);
- `var`: a context variable `name` (the event's names: `taker`, `card`, `seats`, ...);
  `bound`: a variable `name` bound by the aggregation around it;
- `definition`: the ruleset's definition `name` (one without a seat);
  `contract`: `contract.NAME` (`name`), the value of the contract played;
- `add`, `sub`, `mul`, `div`, `floordiv`, `mod` (two arguments; `add` of CARDS joins them),
  `neg`;
- `lt`, `le`, `gt`, `ge`, `eq`, `ne`, `member`, `not_member`, `and`, `or`, `not`;
- `cond`: the test, the value if true, the value if false;
- `call`: the fact or the definition of a seat `name`, with its arguments;
- `builtin`: `count`, `max`, `min`, `abs`, `ceil`, `floor`, `round` (`name`);
- `aggregate`: `name` the kind (`sum`, `count`, `any`, `all`, `max`, `min`), `var` the bound
  variable, the collection and the body; `filter`: `var`, the collection and the condition.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .types import Type, Value


@dataclass(frozen=True, slots=True)
class Typed:
    """One checked node of an expression (see the module's list of operations)."""

    op: str
    type: Type
    args: tuple[Typed, ...] = ()
    name: str = ""
    value: Value = None
    var: str = ""
    cost: int = 1  # steps of one evaluation, each remembered definition counted as one
    reads: frozenset[str] = frozenset()  # what of the hand it depends on (`dependence`)

    @property
    def is_const(self) -> bool:
        return self.op == "const"

    def walk(self) -> Iterator[Typed]:
        """This node and every node under it (not inside the definitions it uses)."""
        yield self
        for arg in self.args:
            yield from arg.walk()

    def mentions(self, name: str) -> bool:
        """Whether the variable `name` (a context or a bound one) is read under this node."""
        return any(node.op in ("var", "bound") and node.name == name for node in self.walk())


def constant(type_: Type, value: Value) -> Typed:
    return Typed("const", type_, value=value)
