"""The batch back end (`tarot.batch`) on games with an auction or a talon: redeals
(and deals dealt again by the same dealer), bids, the partner call, the talon taken or set
aside, discards, declarations before a seat's first card, cards handed over for a
declaration, the Fool's exchange, the last trick it may win and cards that play as Fools.
Every hand tested replays through the scalar engine with every payment, the net and the
rule counts equal; means agree with the scalar engine's in distribution."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from batch_checks import means_agree, replayed

from tarot.batch.run import play_batch, summaries
from tarot.compile.loader import load_ruleset
from tarot.records.batch_agreement import batch_records, replay

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


@pytest.mark.parametrize("target", FRENCH)
def test_every_payment_agrees_with_the_scalar_engine(target):
    records, kinds, fired = replayed(loaded(target), 11, 120)
    assert {"bid", "play", "declare"} <= set(kinds)
    assert fired["contract"] > 80 and fired["thrown_in:le_petit"] > 0
    assert sum(len(r["payments"]) for r in records) > 150


def test_other_readings_agree_with_the_scalar_engine():
    _records, kinds, _fired = replayed(loaded("french-tarot", OTHER_READINGS), 3, 300)
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
        exchanged += bool(state.play.exchanges)
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


def test_french_tarot_means_agree_in_distribution():
    contracts = ("petite", "garde", "garde_sans", "garde_contre")
    means_agree(
        loaded("french-tarot"),
        21,
        1500,
        {c: (lambda h, c=c: h.contract == c) for c in contracts},
    )


@pytest.mark.parametrize("target", JEU)
def test_jeu_de_tarot_agrees_with_the_scalar_engine(target):
    records, _kinds, fired = replayed(loaded(target), 11, 120)
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
    assert any(len(replay(ruleset, r).play.excuses) == 2 for r in played_on)


def test_jeu_de_tarot_means_agree_in_distribution():
    means_agree(loaded("jeu-de-tarot"), 4, 1000, {})


@pytest.mark.parametrize("target", WICKSON)
def test_a_talon_without_auction_and_cards_handed_over_agree(target):
    ruleset = loaded(target)
    records, kinds, _fired = replayed(ruleset, 13, 80)
    if ruleset.talon is not None and ruleset.talon.to == "hand":
        assert kinds["discard"] == 6 * len(records)  # the talon taken, as many laid away
    if target.endswith("third-handed-over"):
        assert kinds["give"] > 10  # a card given back for the third one handed over
