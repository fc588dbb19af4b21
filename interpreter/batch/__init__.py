"""The batch back end: many hands of one ruleset played at once with numpy.

Pipeline: the compiled `Ruleset` (never the YAML) -> `program.Program` (its expressions
compiled to array code by `array_exprs`, over `tables` and `masks`) -> `phases` (the deal,
redeals, the auction and the call, the talon and the discards, the declarations, trick play,
the Fool's exchange and the settlement, for every hand of a batch at once, with the random
player of `players` drawing from `keyed_random`) -> `run.summaries` (the scalar engine's
`HandSummary` per hand). `support.supports` names what a ruleset asks that the batch back
end cannot run; `agree` replays its hands through the scalar engine.
"""
