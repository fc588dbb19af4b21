"""The transcript of a hand: every card discarded (one later handed over for the Fool
included, and said to be), and payments cited to the reading in force of every option their
rule reads, with the rule's own source when no reading names it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.events import AT_SETTLEMENT, At, PaymentTime
from tarot.engine.game import play_game
from tarot.engine.state import HandState, Payment
from tarot.players.lineup import seat_agents
from tarot.presentation.seat_screen import payment_lines
from tarot.presentation.transcript import hand_transcript
from tests.test_explain import SMALL


def _hands(name: str, seed: int, hands: int, options: dict | None = None) -> list[HandState]:
    ruleset = load_ruleset(name, options)
    return play_game(
        ruleset, seed, lambda n: seat_agents(("random",), seed, n, ruleset.players), hands
    )


def _discard_line(text: str, seat: int) -> str:
    after = text.split("\nDiscards:\n", 1)[1]
    return next(line for line in after.splitlines() if line.startswith(f"  Seat {seat}"))


def test_a_discard_handed_over_for_the_fool_is_still_shown() -> None:
    (state,) = _hands("french-tarot", 112, 1)  # `tarot play french-tarot --seed 112`
    (exchange,) = state.play.exchanges
    giver, card = exchange["from"], exchange["card"]
    discarded = [d["choice"] for d in state.decisions if d["kind"] == "discard"]
    assert card in discarded
    assert state.ruleset.deck.by_id[card] not in state.discards[giver]  # it left the discards
    text = hand_transcript(state)
    line = _discard_line(text, giver)
    assert sorted(line.split(": ", 1)[1].split(", ")) == sorted(discarded)
    assert f"    {card} is later handed over for the Fool (after trick" in text


def test_every_discard_shown_over_many_hands() -> None:
    for state in _hands("french-tarot", 7, 40):
        text = hand_transcript(state)
        for seat in range(state.ruleset.players):
            chosen = [
                d["choice"] for d in state.decisions if d["kind"] == "discard" and d["seat"] == seat
            ]
            if chosen:
                shown = _discard_line(text, seat).split(": ", 1)[1].split(", ")
                assert sorted(shown) == sorted(chosen)


@pytest.fixture()
def small(tmp_path: Path):
    path = tmp_path / "small.yaml"
    path.write_text(SMALL, encoding="utf-8")
    return path


def test_citation_names_the_reading_in_force(small: Path) -> None:
    default = load_ruleset(small)
    # the reading's source is the rule's own: named once
    assert default.citation("top_won") == "stake=small: book"
    large = load_ruleset(small, {"stake": "large"})
    assert large.citation("top_won") == "stake=large: notes; rule: book"
    assert large.citation("points") == "notes"  # reads no option


def test_transcript_and_seat_news_cite_the_reading(small: Path) -> None:
    ruleset = load_ruleset(small, {"stake": "large"})
    states = play_game(ruleset, 3, lambda n: seat_agents(("random",), 3, n, 2), 20)
    lines = [
        line for state in states for line in hand_transcript(state).splitlines() if "pay:" in line
    ]
    won = [line for line in lines if "Top trump won" in line]
    assert won and all(
        line.endswith("  6 points  Top trump won [stake=large: notes; rule: book]") for line in won
    )
    points = [line for line in lines if "Card points" in line]
    assert points and all(line.endswith("Card points [notes]") for line in points)
    news = payment_lines(ruleset, [Payment("top_won", 1, 0, 6, At(PaymentTime.TRICK, 2))], 0)
    assert news == ["Seat 1 pays 6 points to you: Top trump won [stake=large: notes; rule: book]"]
    plain = payment_lines(ruleset, [Payment("points", 1, 0, 1, AT_SETTLEMENT)], 0)
    assert plain == ["Seat 1 pays 1 point to you: Card points"]  # reads no option: no citation


def test_builtin_payment_cites_the_chosen_reading() -> None:
    states = _hands("marolles-1637", 1, 100, {"ultimo_failure": "literal"})
    ruleset = states[0].ruleset
    reading = ruleset.document["options"]["ultimo_failure"]["readings"]["literal"]
    source = (
        reading["source"] if isinstance(reading["source"], str) else ", ".join(reading["source"])
    )
    lost = [
        line
        for state in states
        for line in hand_transcript(state).splitlines()
        if "Ultimo lost" in line and "pay:" in line  # the payments, not the score sheet's row
    ]
    assert lost
    for line in lost:
        assert f"  1 marque  Ultimo lost [ultimo_failure=literal: {source}" in line


def test_tarot_play_shows_a_game_and_keeps_ids_and_sources_to_sources() -> None:
    """`tarot play` prints the hand for a player (who plays, cards by their names, payments
    by their rules' names); `--sources` the full account (cards by ids, every source); the
    record keeps every id either way."""
    from commands import tarot

    shown = tarot("play", "marolles-1637", "--seed", "5")
    assert shown.returncode == 0, shown.stderr
    first, *rest = shown.stdout.splitlines()
    assert first.startswith("Players: seat 0 random, seat 1 random, seat 2 random (random: ")
    text = "\n".join(rest)
    ruleset = load_ruleset("marolles-1637")
    deck = ruleset.deck.cards
    assert "trump XXI" in text and "King of cups" in text and "the Fool" in text  # all dealt
    assert re.search(r"Trick  1: seat \d (trump [IVX]+|\w+ of \w+|the Fool), seat \d", text)
    assert not any(f" {card.id}," in text or f":{card.id}" in text for card in deck)
    assert "[" not in "".join(line for line in rest if "pay:" in line), "no sources by default"
    full = tarot("play", "marolles-1637", "--seed", "5", "--sources")
    assert full.returncode == 0, full.stderr
    assert "mcleod]" in full.stdout and ":trump-" in full.stdout
    recorded = tarot("play", "marolles-1637", "--seed", "5", "--record", "-", "--quiet")
    assert '"swords-K"' in recorded.stdout or '"id": "swords-K"' in recorded.stdout
