"""Game records: writing them, reading them strictly, replaying them, and the batch back
end's hands checked by replay.

Where it sits: above the engine, the players and presentation, below the measures and
commands.
"""
