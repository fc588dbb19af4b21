"""The batch back end (`interpreter.batch`) on games with an auction or a talon: redeals
(and deals dealt again by the same dealer), bids, the partner call, the talon taken or set
aside, discards, declarations before a seat's first card, cards handed over for a
declaration, the Fool's exchange, the last trick it may win and cards that play as Fools. Every hand tested replays through
the scalar engine with every payment, the net and the rule counts equal; means agree with
the scalar engine's in distribution."""

from __future__ import annotations

import math
from collections import Counter
from functools import cache

import pytest

from interpreter.agents.lineup import seat_agents
from interpreter.batch.agree import batch_records, replay
from interpreter.batch.run import play_batch, play_summaries, summaries
from interpreter.batch.support import supports
from interpreter.measure.hand_summary import play_summarized
from interpreter.ruleset_loader import load_ruleset

FRENCH = ["french-tarot", "french-tarot-3", "french-tarot-5", "french-tarot-round-10"]
WICKSON = [
    "marolles-1637-wickson",
    "marolles-1637-wickson-2p",
    "marolles-1637-wickson-third-handed-over",
]
JEU = ["jeu-de-tarot", "jeu-de-tarot-3", "jeu-de-tarot-5", "jeu-de-tarot-abundance-to-winner"]
#: readings that take other paths: a redeal the player may refuse, the Fool surrendered,
#: chelems announced by either side and scored each, any poignée level
OTHER_READINGS = (
    ("petit_sec", "played"),
    ("excuse_debt", "fool_surrendered"),
    ("chelem_by", "either_side"),
    ("chelem_bonuses", "each_side"),
    ("poignee_level", "any_level"),
)


@cache
def loaded(target: str, options: tuple[tuple[str, str], ...] = ()):
    return load_ruleset(target, dict(options))


def _replayed(ruleset, seed: int, hands: int) -> list[dict]:
    records = batch_records(ruleset, seed, range(1, hands + 1))
    for record in records:
        record["fired"] = dict(sorted(record["fired"].items()))
        replay(ruleset, record)
    return records


@pytest.mark.parametrize("target", FRENCH)
def test_every_payment_agrees_with_the_scalar_engine(target):
    ruleset = loaded(target)
    assert supports(ruleset) == []
    records = _replayed(ruleset, 11, 120)
    kinds = Counter(d["kind"] for r in records for d in r["decisions"])
    assert {"bid", "play", "declare"} <= set(kinds)
    fired = Counter(key for r in records for key in r["fired"])
    assert fired["contract"] > 80 and fired["thrown_in:le_petit"] > 0
    assert sum(len(r["payments"]) for r in records) > 150


def test_other_readings_agree_with_the_scalar_engine():
    ruleset = loaded("french-tarot", OTHER_READINGS)
    assert supports(ruleset) == []
    records = _replayed(ruleset, 3, 300)
    kinds = Counter(d["kind"] for r in records for d in r["decisions"])
    assert kinds["redeal"] > 0 and kinds["discard"] > 0  # petit sec asked; a chien discarded


def test_all_passed_the_talon_set_aside_and_the_fool_paid_for():
    """In three-player hands: deals where everybody passed, talons set aside for the taker
    or the defence, and the Fool's exchange (with the Fool surrendered when never paid)."""
    ruleset = loaded("french-tarot-3", (("excuse_debt", "fool_surrendered"),))
    records = batch_records(ruleset, 5, range(1, 701))
    exchanged = set_aside = 0
    for record in records:
        record["fired"] = dict(sorted(record["fired"].items()))
        state = replay(ruleset, record)
        exchanged += bool(state.exchanges)
        set_aside += any(state.zones.set_aside)
    fired = Counter(key for r in records for key in r["fired"])
    assert fired["thrown_in:all_passed"] > 0
    assert exchanged > 100 and set_aside > 100


def test_a_partner_is_called_and_shares_the_side():
    ruleset = loaded("french-tarot-5")
    hands = summaries(play_batch(ruleset, 7, range(1, 301)))
    partners = [h.partner for h in hands if h.partner is not None]
    assert len(partners) > 100
    assert all(h.partner != h.taker for h in hands if h.partner is not None)


def test_the_same_hand_in_any_batch():
    ruleset = loaded("french-tarot")
    alone = batch_records(ruleset, 5, [17])
    among_others = batch_records(ruleset, 5, range(1, 300), keep=[17])
    assert alone == among_others


def _mean_and_error(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, variance / len(values)


def _means_agree(ruleset, seed: int, hands: int, measures: dict) -> None:
    """Means over `hands` of the batch back end's hands and the scalar engine's agree: each
    seat's result, the decisions, the taker's result, each rule's count and `measures`."""
    batch = play_summaries(ruleset, seed, range(1, hands + 1))
    scalar = [
        play_summarized(ruleset, seed, n, seat_agents(("random",), seed, n, ruleset.players))
        for n in range(1, hands + 1)
    ]
    measures = dict(measures)
    measures.update({f"seat {s}": (lambda h, s=s: h.net[s]) for s in range(ruleset.players)})
    measures["decisions"] = lambda h: h.decisions
    measures["choices"] = lambda h: h.choices
    measures["taker's result"] = lambda h: 0 if h.taker is None else h.net[h.taker]
    rules = {key for h in scalar for key in h.fired}
    assert len(rules) > 3
    for key in rules:
        measures[key] = lambda h, key=key: h.fired.get(key, 0)
    for name, measure in measures.items():
        a, var_a = _mean_and_error([measure(h) for h in batch])
        b, var_b = _mean_and_error([measure(h) for h in scalar])
        bound = 4.5 * math.sqrt(var_a + var_b) + 1e-9
        assert abs(a - b) <= bound, (name, a, b, bound)


def test_french_tarot_means_agree_in_distribution():
    contracts = ("petite", "garde", "garde_sans", "garde_contre")
    _means_agree(
        loaded("french-tarot"),
        21,
        1500,
        {c: (lambda h, c=c: h.contract == c) for c in contracts},
    )


@pytest.mark.parametrize("target", JEU)
def test_jeu_de_tarot_agrees_with_the_scalar_engine(target):
    ruleset = loaded(target)
    assert supports(ruleset) == []
    records = _replayed(ruleset, 11, 120)
    fired = Counter(key for r in records for key in r["fired"])
    assert fired["contract"] > 100
    assert sum(len(r["payments"]) for r in records) > 200


def test_deals_dealt_again_by_the_same_dealer_and_a_second_fool():
    """Jeu de Tarot deals a hand thrown in again within the hand (all passed, or Brass Balls
    asked for); Brass Balls played on makes the Magician a second Fool."""
    ruleset = loaded("jeu-de-tarot")
    records = batch_records(ruleset, 9, range(1, 1001))
    dealt_again = [r for r in records if len(r["packs"]) > 1]
    assert dealt_again
    played_on = [
        r for r in records if any(d["choice"].endswith(":play_on") for d in r["decisions"])
    ]
    assert played_on
    for record in dealt_again + played_on:
        record["fired"] = dict(sorted(record["fired"].items()))
        state = replay(ruleset, record)
        assert len(state.abandoned) == len(record["packs"]) - 1
    assert any(len(replay(ruleset, r).excuses) == 2 for r in played_on)


def test_jeu_de_tarot_means_agree_in_distribution():
    _means_agree(loaded("jeu-de-tarot"), 4, 1000, {})


@pytest.mark.parametrize("target", WICKSON)
def test_a_talon_without_auction_and_cards_handed_over_agree(target):
    ruleset = loaded(target)
    assert supports(ruleset) == []
    records = _replayed(ruleset, 13, 80)
    kinds = Counter(d["kind"] for r in records for d in r["decisions"])
    if ruleset.talon is not None and ruleset.talon.to == "hand":
        assert kinds["discard"] == 6 * len(records)  # the talon taken, as many laid away
    if target.endswith("third-handed-over"):
        assert kinds["give"] > 10  # a card given back for the third one handed over
