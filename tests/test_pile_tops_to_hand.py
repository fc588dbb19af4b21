"""Pile tops taken into the hand (`play.pile_tops_to_hand`, LANGUAGE.md "Pile tops taken into
the hand"), on the small game `tests/data/rulesets/pile-tops-to-hand.yaml`: a trump or King
lying face up on a pile goes into its owner's hand, shown to all, and the card beneath turns
up, when play begins and after every trick; the same game without the key leaves them on the
piles. Records replay, the transcript and `tarot explain` say it, the batch back end runs it,
and the computer players play it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from batch_checks import replayed

import tarot
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.engine.pile_tops import WHAT
from tarot.players.sampling import determinize
from tests.commands import run_in_process

GAME = Path(__file__).parent / "data" / "rulesets" / "pile-tops-to-hand.yaml"
TAKEN = ("trump-1 trump-2 trump-3 trump-4 trump-5 trump-6 swords-K cups-K").split()


def _tops(state: tarot.State) -> list[str]:
    engine = state.engine
    ids = engine.ruleset.deck.cards.ids
    return [ids[pile[-1]] for piles in engine.zones.piles for pile in piles if pile]


def _without_the_key(tmp_path: Path) -> Path:
    plain = tmp_path / "plain.yaml"
    text = GAME.read_text(encoding="utf-8")
    plain.write_text(text.replace('  pile_tops_to_hand: "trumps + kings"\n', ""), "utf-8")
    return plain


def _first_card(state: tarot.State) -> None:
    """Every decision up to the first card of play taken (there are none in this game)."""
    assert state.decision_kind == "play"


@pytest.mark.parametrize("seed", range(1, 21))
def test_no_trump_or_king_lies_on_top_once_play_begins_and_after_each_trick(seed):
    ruleset = tarot.load(str(GAME))
    state = ruleset.new_hand(seed=seed)
    dealt = state.deal
    _first_card(state)
    ids = state.engine.ruleset.deck.cards.ids
    shown = [ids[c] for _seat, _what, cards in state.engine.shown for c in cards]
    assert not set(_tops(state)) & set(TAKEN)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
        if not state.engine.zones.trick:  # a trick just taken
            assert not set(_tops(state)) & set(TAKEN)
    record = state.record()["hands"][0]
    taken = [c for entry in record["shown"] for c in entry["cards"]]
    assert all(e["what"] == "pile_tops_to_hand" for e in record["shown"])
    assert set(taken) <= set(TAKEN)
    # every card taken lay in its taker's piles as dealt, and every card was played once
    for entry in record["shown"]:
        assert set(entry["cards"]) <= {c for p in dealt["piles"][entry["seat"]] for c in p}
    played = [c["card"] for t in record["tricks"] for c in t["cards"]]
    assert sorted(played) == sorted(c.id for c in ruleset.cards)
    assert set(shown) <= set(taken)  # those taken when play began among them


def test_without_the_key_a_trump_or_king_stays_on_top(tmp_path):
    plain = tarot.load(str(_without_the_key(tmp_path)))
    keyed = tarot.load(str(GAME))
    seeds = [s for s in range(1, 30) if set(_tops(plain.new_hand(seed=s))) & set(TAKEN)]
    assert seeds  # the deal often turns up a trump or King
    for seed in seeds:
        state = keyed.new_hand(seed=seed)
        assert not set(_tops(state)) & set(TAKEN)
        hand = state.engine.zones.hands
        assert sum(map(len, hand)) > 8  # taken into the hands, dealt four each


def test_the_card_taken_is_known_to_the_other_seat_and_kept_in_its_guesses():
    """The other seat sees the cards taken (`Observation.shown`), and every deal the search
    player guesses for it keeps them in the taker's hand."""
    for seed in range(1, 30):
        state = tarot.load(str(GAME)).new_hand(seed=seed)
        taken = [(s, cards) for s, what, cards in state.engine.shown if what == WHAT]
        if taken:
            break
    seat, cards = taken[0]
    other = 1 - seat
    seen = [s for s in state.observation(other).shown if s.what == WHAT]
    ids = state.engine.ruleset.deck.cards.ids
    assert [(s.seat, [c.id for c in s.cards]) for s in seen] == [(seat, [ids[c] for c in cards])]
    for guess in range(10):
        sample = determinize(state.engine, other, random.Random(guess))
        assert set(cards) <= set(sample.zones.hands[seat])


def test_records_replay_and_the_transcript_and_explain_say_it(capsys, tmp_path):
    record = tmp_path / "game.json"
    status, out, _ = run_in_process(
        capsys, "play", str(GAME), "--seed", "1", "--hands", "3", "--record", str(record)
    )
    assert status == 0
    assert "takes from its piles into its hand, shown to all" in out
    assert run_in_process(capsys, "replay", str(record), "--ruleset", str(GAME))[0] == 0
    status, page, _ = run_in_process(capsys, "explain", str(GAME))
    words = " ".join(page.split())
    assert status == 0 and "goes into his hand, shown to all, and the card beneath" in words


def test_the_batch_back_end_runs_it(capsys):
    """Every hand replayed through the scalar engine: tests/test_batch_pile_tops.py."""
    assert supports(load_ruleset(str(GAME))) == []
    status, out, err = run_in_process(
        capsys, "simulate", str(GAME), "--hands", "20", "--backend", "auto", "--seed", "1"
    )
    assert status == 0 and "batch back end" in out, out + err


def test_a_ruleset_the_batch_runs_still_runs_there_with_the_key(tmp_path):
    """French Tarot for two (piles on the table) runs on the batch back end, with the key
    added too, its hands replaying through the scalar engine."""
    variant = tmp_path / "variant.yaml"
    variant.write_text(
        'extends: french-tarot-2\ntitle: variant\nplay:\n  pile_tops_to_hand: "kings"\n',
        encoding="utf-8",
    )
    replayed(load_ruleset(str(variant)), 1, 20)


@pytest.mark.parametrize("agents", ["heuristic", "search"])
def test_the_computer_players_play_it(agents):
    state = tarot.play(tarot.load(str(GAME)), seed=3, agents=agents)
    assert state.is_terminal() and sum(state.returns()) == 0
