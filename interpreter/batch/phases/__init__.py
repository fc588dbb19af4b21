"""The phases of many hands at once, in the scalar engine's order: the deal, redeals, the
auction and the partner call, the talon and the discards, the declarations, trick play (with
the Fool's exchange) and the settlement.

Where it sits: run by `tarot.batch.run` on one `BatchState`; each phase module does
for every hand of the batch what the scalar phase of the same name does for one
(`tarot.engine.phases`). Every hand of a batch takes the same steps at the same time
except where the rules let them differ (declarations, cards shown, discards), where the
hands that have nothing to do are left out of the step; a hand whose deal is thrown in
leaves the batch (`BatchState.take`/`put`).
"""
