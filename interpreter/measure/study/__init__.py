"""`tarot study BASE`: which of a ruleset's doubts (its options) matter, alone and together.

Where it sits: above `tarot.measure`. `factors` turns the ruleset's options into
two-level factors (the default reading against one other); `design` lays out the runs of a
full or fractional factorial design over them (with the optional `pydoe` library) and says
which two-way interactions it confounds; `responses` reads what each run's hand gave;
`effects` folds each hand's contrasts into streaming means with t intervals; `report`
prints the effects ranked by size; `command` joins them to the runner, which plays the same
deals under every run of the design (paired), with the results store when asked.
"""
