"""The batch back end checked against the scalar engine, hand by hand.

Where it sits: beside the batch back end (`tarot.batch`), used by its tests and by a
run that samples hands. `batch_records` plays hands in a batch with a log kept and gives,
for each, what a game record says of it (its packs, dealer, decisions, payments and net);
`replay` plays each record's decisions through the scalar engine as a record replay does
(`tarot.records.replay`: each decision checked for seat, kind and legality) and raises
`ReplayMismatch` at the first payment or result that differs. `check_sample` does both for
one hand in `SAMPLE` of a run (`--backend auto`) and stops the run with `BatchDisagreement`
at the first hand that differs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from tarot.batch import keyed_random
from tarot.batch.run import play_batch, summaries
from tarot.batch.state import BatchState
from tarot.batch.values import tidy
from tarot.core.ruleset import HAND_SCORE, Ruleset
from tarot.core.summary import HandSummary, paid_by_rule, sole_leader
from tarot.engine.state import HandState
from tarot.errors import TarotError
from tarot.records.replay import ReplayMismatch, apply_decision, compare


def batch_records(
    ruleset: Ruleset, seed: int, numbers: Sequence[int], keep: Sequence[int] | None = None
) -> list[dict]:
    """Hands `numbers` played in one batch, each (or each of those numbered in `keep`) as
    the part of a hand record it fills."""
    state = play_batch(ruleset, seed, numbers, logging=True)
    records = []
    for row, summary in enumerate(summaries(state)):
        if keep is not None and summary.number not in keep:
            continue
        records.append(
            {
                "number": summary.number,
                "dealer": summary.dealer,
                "packs": _packs(state, row),
                "decisions": _decisions(state, row),
                "payments": _payments(state, row),
                "net": list(summary.net),
                # a hand's score is the summary's, not a payment: the record has payments
                "fired": {k: n for k, n in summary.fired.items() if k != HAND_SCORE},
                "paid": _rounded({k: v for k, v in summary.paid.items() if k != HAND_SCORE}),
                "winners": sorted(summary.winners),
            }
        )
    return records


def _packs(state: BatchState, row: int) -> list[list[str]]:
    """The hand's packs: its first deal's, then each deal again's (the last is played)."""
    ids, size = state.ruleset.deck.cards.ids, len(state.ruleset.deck)
    number = state.numbers[row : row + 1]
    return [
        [ids[c] for c in keyed_random.permutations(state.seed, number, size, again)[0].tolist()]
        for again in range(int(state.deals[row]))
    ]


def _winners(state: HandState) -> list[int]:
    """The winning side as the scalar engine's hand summary reads it, in seat order."""
    sides = [state.side_of(seat) for seat in range(state.ruleset.players)]
    winner = sole_leader(state.returns(), sides)
    return [] if winner is None else sorted(sides[winner])


def _rounded(paid: dict[str, float]) -> dict[str, float]:
    """What each rule paid, in rule order, to 9 places: sums of fractions taken in another
    order may differ in the last bits."""
    return {rule: round(amount, 9) for rule, amount in sorted(paid.items())}


def _at(rows: np.ndarray, row: int) -> int | None:
    found = int(np.searchsorted(rows, row))
    return found if found < len(rows) and rows[found] == row else None


def _decisions(state: BatchState, row: int) -> list[dict]:
    ids = state.ruleset.deck.cards.ids
    taken = []
    for entry in state.decision_log:
        at = _at(entry.rows, row)
        if at is None:
            continue
        form, kind, seats, choices = entry.what
        choice = choices[at]  # type: ignore[index]
        text = ids[int(choice)] if form == "card" else str(choice)
        taken.append({"seat": int(seats[at]), "kind": kind, "choice": text})  # type: ignore[index]
    return taken


def _payments(state: BatchState, row: int) -> list[dict]:
    made = []
    for entry in state.payment_log:
        at = _at(entry.rows, row)
        if at is None:
            continue
        key, givers, takers, amounts, when = entry.what
        made.append(
            {
                "rule": key,
                "from": int(givers[at]),  # type: ignore[index]
                "to": int(takers[at]),  # type: ignore[index]
                "amount": tidy(np.asarray([amounts[at]]))[0],  # type: ignore[index]
                "at": when,
            }
        )
    return made


def replay(ruleset: Ruleset, record: dict) -> HandState:
    """The record's hand played again by the scalar engine from its pack and decisions;
    ReplayMismatch at the first decision refused or payment, result or count that differs."""
    where = f"hand {record['number']}"
    by_id = ruleset.deck.by_id
    packs = [[by_id[card] for card in pack] for pack in record["packs"]]

    def repack(again: int) -> list[int]:
        if again >= len(packs):
            raise ReplayMismatch(f"{where}.packs", f"the scalar engine deals a {again + 1}th time")
        return packs[again]

    state = HandState(ruleset, record["dealer"], packs[0], record["number"], repack=repack)
    for i, decision in enumerate(record["decisions"]):
        apply_decision(state, decision, f"{where}.decisions[{i}]")
    if not state.is_terminal():
        raise ReplayMismatch(f"{where}.decisions", "the batch's decisions stop before the end")
    compare(record["payments"], [p.as_record() for p in state.payments], f"{where}.payments")
    compare(record["net"], state.returns(), f"{where}.net")
    compare(record["fired"], dict(sorted(state.fired.items())), f"{where}.fired")
    compare(record["paid"], _rounded(paid_by_rule(state.payments)), f"{where}.paid")
    if "winners" in record:
        compare(record["winners"], _winners(state), f"{where}.winners")
    return state


#: one hand in this many of a run played with `--backend auto` is replayed (a replay costs
#: tens of batch hands, so that the check stays a small part of the run's time)
SAMPLE = 1000


class BatchDisagreement(TarotError, RuntimeError):
    """A hand of the batch back end that the scalar engine does not play the same: a bug
    of the batch back end, which must not make a study."""


def check_sample(ruleset: Ruleset, seed: int, played: Sequence[HandSummary], first: int) -> None:
    """Replay through the scalar engine the hands of `played` numbered first, first + SAMPLE,
    ... (played again alone, with a log: the same hands, as draws are keyed by hand), after
    checking that each gives the result it gave in its batch; BatchDisagreement naming the
    hand and the first difference when one does not agree."""
    wanted = {h.number: h for h in played if (h.number - first) % SAMPLE == 0}
    if not wanted:
        return
    for record in batch_records(ruleset, seed, sorted(wanted)):
        number = record["number"]
        try:
            compare(record["net"], list(wanted[number].net), f"hand {number}.net (in its batch)")
            record["fired"] = dict(sorted(record["fired"].items()))
            replay(ruleset, record)
        except ReplayMismatch as error:
            raise BatchDisagreement(
                f"--backend auto: the batch back end and the scalar engine differ on hand "
                f"{number} of {ruleset.id} (seed {seed}): {error}; the run was stopped, since "
                "its results cannot be trusted (--backend scalar plays it on the scalar engine)"
            ) from None


def batch_hands(ruleset: Ruleset, seed: int, numbers: Sequence[int]) -> Iterator[HandState]:
    """Hands `numbers` of the game seeded `seed` as the batch back end plays them, each
    replayed through the scalar engine with every payment checked: what `tarot play
    --backend batch` shows, so that a hand of a batch run can be looked at card by card."""
    for number in numbers:
        record = batch_records(ruleset, seed, [number])[0]
        record["fired"] = dict(sorted(record["fired"].items()))
        try:
            yield replay(ruleset, record)
        except ReplayMismatch as error:
            raise BatchDisagreement(
                f"--backend batch: the batch back end and the scalar engine differ on hand "
                f"{number} of {ruleset.id} (seed {seed}): {error}"
            ) from None
