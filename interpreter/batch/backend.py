"""Which back end plays a run: `--backend scalar`, `batch` or `auto` (the default).

Where it sits: called by the commands that play many hands (`tarot.cli.simulate`,
`tarot.cli.study`) once their rulesets are loaded, before any hand is played. `batch` on a
ruleset the batch back end cannot run is refused with the rule named (a RulesetError: exit
status 1); `auto` plays in batch only when every ruleset of the run (and every player) can
be, so that the rulesets of a comparison are played on the same deals, and says in one line
on stderr which rule or player made it fall back to the scalar engine; in batch, it replays
one hand in a thousand (and at least one per run) through the scalar engine and stops the run
at the first that differs. The choice depends on the rulesets and players alone, so a
command run again plays the same hands.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tarot.core.ruleset import Ruleset
from tarot.errors import Problem, RulesetError

BACKENDS = ("scalar", "batch", "auto")
DEFAULT_BACKEND = "auto"


def choose_backend(requested: str, rulesets: Sequence[Ruleset], agents: Sequence[str]) -> str:
    """The back end the run uses: "scalar", "batch", or "auto" for the batch back end with
    one hand in a thousand replayed through the scalar engine
    (`records.batch_agreement.SampleCheck`)."""
    if requested == "scalar":
        return "scalar"
    from tarot.batch.support import supports  # numpy: only for a run that may use it

    for ruleset in rulesets:
        missing = supports(ruleset, agents)
        if not missing:
            continue
        if requested == "batch":
            # a refusal of the command, not a place in the document: the ruleset names it
            raise RulesetError(
                [
                    Problem(None, ruleset.id, f"--backend batch cannot run {what}")
                    for what in missing
                ]
            )
        print(
            f"tarot: playing on the scalar engine, since the batch back end cannot run "
            f"{ruleset.id}: {missing[0]}",
            file=sys.stderr,
        )
        return "scalar"
    return requested
