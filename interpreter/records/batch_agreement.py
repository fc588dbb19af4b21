"""The batch back end checked against the scalar engine, hand by hand.

Where it sits: beside the batch back end (`tarot.batch`), used by its tests and by a
run that samples hands. `batch_records` plays hands in a batch with a log kept and gives,
for each, what a game record says of it (its packs, dealer, decisions, payments, transfers
and lasting values, and net); `replay` plays each record's decisions through the scalar
engine as a record replay does (`tarot.records.replay`: each decision checked for seat, kind
and legality) and raises `ReplayMismatch` at the first payment or result that differs. For a
ruleset that plays sittings, `sitting_records` and `replay_sitting` do the same for whole
sittings, hand after hand. `SampleCheck` does both for one hand (or sitting) in `SAMPLE` of
a run (`--backend auto`; the runner checks each chunk as it comes back) and stops the run
with `BatchDisagreement` at the first that differs; `check_sample` checks a list of hands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from tarot.batch import keyed_random
from tarot.batch.lasting_values import LastingLayout
from tarot.batch.run import play_batch, program_of, summaries
from tarot.batch.scaled_amounts import exact_values
from tarot.batch.sittings import sitting_hands
from tarot.batch.state import BatchState
from tarot.core.ruleset import HAND_SCORE, Ruleset
from tarot.core.summary import HandSummary, paid_by_rule, sole_leader
from tarot.engine.game import game_winners, plays_sittings, sitting_seed
from tarot.engine.lasting import TRICK, LastingValues, starting_values
from tarot.engine.state import HandState
from tarot.errors import TarotError
from tarot.expressions.builtins import magnitude
from tarot.expressions.numbers import approximate
from tarot.records.replay import ReplayMismatch, apply_decision, compare


def batch_records(
    ruleset: Ruleset, seed: int, numbers: Sequence[int], keep: Sequence[int] | None = None
) -> list[dict]:
    """Hands `numbers` played in one batch, each (or each of those numbered in `keep`) as
    the part of a hand record it fills."""
    state = play_batch(ruleset, seed, numbers, logging=True)
    return [record for record in _records(state) if keep is None or record["number"] in keep]


def _records(state: BatchState) -> list[dict]:
    """Each hand of a batch played with a log, as the part of a hand record it fills."""
    records = []
    for row, summary in enumerate(summaries(state)):
        records.append(
            {
                "number": summary.number,
                "dealer": summary.dealer,
                "packs": _packs(state, row),
                "decisions": _decisions(state, row),
                "payments": _payments(state, row),
                **_lasting(state, row),
                "net": exact_values(state.net[row], state.scale),
                # a hand's score is the summary's, not a payment: the record has payments
                "fired": {k: n for k, n in summary.fired.items() if k != HAND_SCORE},
                "paid": _rounded({k: v for k, v in summary.paid.items() if k != HAND_SCORE}),
                "winners": sorted(summary.winners),
            }
        )
    return records


def sitting_records(ruleset: Ruleset, seeds: Sequence[int]) -> list[list[dict]]:
    """The sittings (games) of these seeds played in one batch (`batch.sittings`), each as
    its hands' records in order: each starts from the game totals and lasting values it was
    played from."""
    sittings: list[list[dict]] = [[] for _ in seeds]
    for going, state in sitting_hands(ruleset, seeds, logging=True):
        for lane, record in zip(going.tolist(), _records(state), strict=True):
            sittings[lane].append(record)
    return sittings


def _packs(state: BatchState, row: int) -> list[list[str]]:
    """The hand's packs: its first deal's, then each deal again's (the last is played)."""
    ids, size = state.ruleset.deck.cards.ids, len(state.ruleset.deck)
    seed, number = state.seed_of(np.asarray([row])), state.numbers[row : row + 1]
    return [
        [ids[c] for c in keyed_random.permutations(seed, number, size, again)[0].tolist()]
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
                "amount": exact_values(amounts[at : at + 1], state.scale)[0],  # type: ignore[index]
                "at": when,
            }
        )
    return made


def _lasting(state: BatchState, row: int) -> dict:
    """A hand's lasting state as records write it (`engine.lasting.record_of`), for a
    ruleset that has one: the values it started from, the transfers, the values it left."""
    if state.ruleset.lasting is None:
        return {}
    layout = program_of(state.ruleset).lasting.layout  # type: ignore[union-attr]
    made = []
    for entry in state.transfer_log:
        at = _at(entry.rows, row)
        if at is None:
            continue
        rule, seat, account, amounts, moment, trick = entry.what
        amount = float(amounts[at])  # type: ignore[index]
        into = amount > 0
        move = {
            "rule": rule,
            "from": seat if into else account,
            "to": account if into else seat,
            "amount": exact_values(np.asarray([abs(amount)]), state.scale)[0],
            "at": moment,
        }
        if moment == TRICK:
            move["trick"] = trick
        made.append(move)
    before = layout.values(state.lasting_before[row]).as_record()
    after = layout.values(state.lasting[row]).as_record()
    return {
        "lasting": {"before": before, "transfers": made, "after": after},
        "totals_before": exact_values(state.totals_before[row], state.scale),
    }


def replay(ruleset: Ruleset, record: dict) -> HandState:
    """The record's hand played again by the scalar engine from its pack and decisions
    (in a sitting, from the game totals and lasting values the record starts from);
    ReplayMismatch at the first decision refused or payment, transfer, result or count that
    differs."""
    where = f"hand {record['number']}"
    by_id = ruleset.deck.by_id
    packs = [[by_id[card] for card in pack] for pack in record["packs"]]

    def repack(again: int) -> list[int]:
        if again >= len(packs):
            raise ReplayMismatch(f"{where}.packs", f"the scalar engine deals a {again + 1}th time")
        return packs[again]

    lasting = None
    if "lasting" in record:
        layout = program_of(ruleset).lasting.layout  # type: ignore[union-attr]
        lasting = _values(layout, record["lasting"]["before"])
    state = HandState(
        ruleset,
        record["dealer"],
        packs[0],
        record["number"],
        record.get("totals_before"),
        repack=repack,
        lasting=lasting,
    )
    for i, decision in enumerate(record["decisions"]):
        apply_decision(state, decision, f"{where}.decisions[{i}]")
    if not state.is_terminal():
        raise ReplayMismatch(f"{where}.decisions", "the batch's decisions stop before the end")
    compare(record["payments"], [p.as_record() for p in state.payments], f"{where}.payments")
    _exactly([p["amount"] for p in record["payments"]], [p.amount for p in state.payments],
             f"{where}.payments", "amount")  # fmt: skip
    if "lasting" in record:
        made = [move.as_record() for move in state.transfers]
        compare(record["lasting"]["transfers"], made, f"{where}.lasting.transfers")
        after = state.lasting.as_record()
        compare(record["lasting"]["after"], after, f"{where}.lasting.after")
    compare(record["net"], state.returns(), f"{where}.net")
    _exactly(record["net"], state.returns(), f"{where}.net")
    compare(record["fired"], dict(sorted(state.fired.items())), f"{where}.fired")
    compare(record["paid"], _rounded(_moved(state)), f"{where}.paid")
    if "winners" in record:
        compare(record["winners"], _winners(state), f"{where}.winners")
    return state


def _exactly(batch: Sequence[object], scalar: Sequence[object], where: str, key: str = "") -> None:
    """ReplayMismatch unless each of the batch's numbers is an exact number (an int or a
    Fraction, never a float) equal to the scalar engine's: `compare` also takes, as records
    written before numbers were exact hold them, the float nearest the number."""
    for i, (mine, theirs) in enumerate(zip(batch, scalar, strict=True)):
        if isinstance(mine, float | bool) or mine != theirs:
            at = f"{where}[{i}]" + (f".{key}" if key else "")
            raise ReplayMismatch(at, f"the batch gave {mine!r}, the scalar engine {theirs!r}")


def _values(layout: LastingLayout, written: dict) -> LastingValues:
    """Lasting values as a record writes them, read back."""
    seats = {name: list(written[name]) for name, (_, per) in layout.columns.items() if per}
    table = {name: written[name] for name, (_, per) in layout.columns.items() if not per}
    return LastingValues(seats, table)


def _moved(state: HandState) -> dict[str, float]:
    """What each rule moved: its payments' amounts, and its transfers' (as
    `measure.hand_summary.moved_by_rule` adds them)."""
    paid = paid_by_rule(state.payments)
    for move in state.transfers:
        paid[move.rule] = paid.get(move.rule, 0.0) + approximate(magnitude(move.amount))
    return paid


def replay_sitting(ruleset: Ruleset, records: Sequence[dict], where: str) -> list[HandState]:
    """A sitting's hand records replayed in turn through the scalar engine (`replay`), each
    checked to start from the totals and lasting values the hand before left (the start
    values first), and the sitting to end where the scalar engine's game ends;
    ReplayMismatch naming the sitting (`where`) and the hand at the first difference."""
    game = ruleset.game
    assert game is not None  # a ruleset that plays sittings
    totals: list = [0] * ruleset.players
    lasting = starting_values(ruleset, None).as_record()
    played = []
    for i, record in enumerate(records):
        at = f"{where}, hand {record['number']}"
        compare(record["number"], i + 1, f"{at}.number")
        compare(record["totals_before"], totals, f"{at}.totals_before")
        compare(record["lasting"]["before"], lasting, f"{at}.lasting.before")
        try:
            state = replay(ruleset, record)
        except ReplayMismatch as error:
            raise ReplayMismatch(f"{where}, {error.where}", error.message) from None
        played.append(state)
        totals = [t + r for t, r in zip(totals, state.returns(), strict=True)]
        lasting = state.lasting.as_record()
        over = bool(game_winners(state)) or record["number"] >= game.max_hands
        if over != (i == len(records) - 1):
            said = "ends" if over else "goes on"
            raise ReplayMismatch(at, f"the scalar engine's game {said} after this hand")
    return played


#: one hand in this many of a run played with `--backend auto` is replayed (a replay costs
#: tens of batch hands, so that the check stays a small part of the run's time)
SAMPLE = 1000
#: most hands (or sittings) of the sample played again in one batch: a batch costs about the
#: same for one hand as for some tens, so the sample of many chunks is played together
WINDOW = 64


class BatchDisagreement(TarotError, RuntimeError):
    """A hand of the batch back end that the scalar engine does not play the same: a bug
    of the batch back end, which must not make a study."""


class SampleCheck:
    """The sample of a run's hands (or sittings) numbered `first` to `last` (included) that
    `check_sample` checks, checked as the run's hands come back (`check`): the hands of the
    sample are played again with a log and replayed through the scalar engine up to WINDOW
    at a time, the first time one of them comes back, and each hand's result in the run is
    compared with its replay's. A hand of the sample that the run does not play (one a
    results store gives) is still replayed when its window is."""

    def __init__(self, ruleset: Ruleset, seed: int, first: int, last: int) -> None:
        self.ruleset = ruleset
        self.seed = seed
        self.first = first
        self.last = last
        self.replayed: dict[int, list[float]] = {}  # number -> the net of its replay

    def sampled(self, number: int) -> bool:
        return (number - self.first) % SAMPLE == 0

    def check(self, played: Sequence[HandSummary]) -> None:
        """BatchDisagreement naming the hand (or sitting) and the first difference when one
        of `played` in the sample does not agree with the scalar engine."""
        for summary in played:
            if not self.sampled(summary.number):
                continue
            if summary.number not in self.replayed:
                self._replay_from(summary.number)
            self._compare(summary.number, self.replayed.pop(summary.number), summary.net)

    def _replay_from(self, number: int) -> None:
        """The sample's hands from `number` on, up to WINDOW of them, replayed."""
        window = list(range(number, self.last + 1, SAMPLE)[:WINDOW])
        if plays_sittings(self.ruleset):
            seeds = [sitting_seed(self.seed, n) for n in window]
            for n, records in zip(window, sitting_records(self.ruleset, seeds), strict=True):
                for record in records:
                    record["fired"] = dict(sorted(record["fired"].items()))
                where = f"sitting {n}"
                self._replayed(where, replay_sitting, self.ruleset, records, where)
                seats = range(self.ruleset.players)
                self.replayed[n] = [sum(r["net"][seat] for r in records) for seat in seats]
            return
        for record in batch_records(self.ruleset, self.seed, window):
            record["fired"] = dict(sorted(record["fired"].items()))
            self._replayed(f"hand {record['number']}", replay, self.ruleset, record)
            self.replayed[record["number"]] = record["net"]

    def _replayed(self, what: str, play: Callable[..., object], *args: object) -> None:
        """`play(*args)`, a replay: BatchDisagreement naming `what` where it differs."""
        try:
            play(*args)
        except ReplayMismatch as error:
            raise self._disagreement(what, error) from None

    def _compare(self, number: int, replayed: list[float], net: Sequence[float]) -> None:
        try:
            if plays_sittings(self.ruleset):
                where = f"sitting {number}"
                compare(_rounded_list(replayed), _rounded_list(net), f"{where}.net")
            else:
                where = f"hand {number}"
                compare(replayed, list(net), f"{where}.net (in its batch)")
        except ReplayMismatch as error:
            raise self._disagreement(where, error) from None

    def _disagreement(self, where: str, error: ReplayMismatch) -> BatchDisagreement:
        return BatchDisagreement(
            f"--backend auto: the batch back end and the scalar engine differ on {where} of "
            f"{self.ruleset.id} (seed {self.seed}): {error}; the run was stopped, since its "
            "results cannot be trusted (--backend scalar plays it on the scalar engine)"
        )


def check_sample(ruleset: Ruleset, seed: int, played: Sequence[HandSummary], first: int) -> None:
    """Replay through the scalar engine the hands of `played` numbered first, first + SAMPLE,
    ... (played again alone, with a log: the same hands, as draws are keyed by hand), and
    check that each gives the result it gave in `played`; BatchDisagreement naming the hand
    and the first difference when one does not agree (`SampleCheck`, over `played`)."""
    last = max((h.number for h in played), default=first)
    SampleCheck(ruleset, seed, first, last).check(played)


def _rounded_list(values: Sequence[float]) -> list[float]:
    return [round(float(v), 9) for v in values]


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


def batch_sitting_hands(
    ruleset: Ruleset, seed: int, numbers: Sequence[int] | None = None
) -> Iterator[HandState]:
    """The hands of the game seeded `seed` (a sitting, for a ruleset that plays sittings) as
    the batch back end plays it, each replayed through the scalar engine from the hand
    before, every payment and transfer checked: all of them, or those numbered `numbers`."""
    records = sitting_records(ruleset, [seed])[0]
    for record in records:
        record["fired"] = dict(sorted(record["fired"].items()))
    try:
        played = replay_sitting(ruleset, records, f"the game of seed {seed}")
    except ReplayMismatch as error:
        raise BatchDisagreement(
            f"--backend batch: the batch back end and the scalar engine differ on the game of "
            f"{ruleset.id} with seed {seed}: {error}"
        ) from None
    yield from (state for state in played if numbers is None or state.number in numbers)
