"""Stage 3 of loading a ruleset: compiling the checked document into the `Ruleset` the engine
runs.

`ruleset_compiler` builds the rules, card tables and rule index and compiles every expression
(through `tarot.expressions`); `contexts` is the vocabulary the expressions are compiled
against: which names and facts exist at each place of a ruleset. Run by
`tarot.compile.loader` after `tarot.load` and `tarot.check`.
"""

from __future__ import annotations

from collections.abc import Sequence


def source_text(source: str | Sequence[str] | None) -> str:
    """A rule's `source` as one text: the key, or the keys joined ("" when none is given)."""
    if source is None:
        return ""
    return source if isinstance(source, str) else ", ".join(source)
