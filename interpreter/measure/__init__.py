"""Playing many hands of a ruleset and measuring them: `tarot simulate` and the at-the-table
half of `tarot diff`.

Where it sits: above the engine. `runner` plays hand numbers under one or more rulesets
(optionally over several processes) and yields `HandSummary`s (`hand_summary`) in hand order;
`measures` and `comparison` fold them into streaming statistics (`statistics`), choosing what
fits the game's shape (`shape`); `games` plays whole games of a ruleset played to a score;
`report` prints the result, `rows` writes one row per hand, `plot` draws the distributions.
"""
