"""The search player's play-outs batched (`tarot.players.batched_playouts`): scalar states taken
up by the batch back end in the middle of trick play agree with the scalar engine exactly
(each row's cards replayed through it: every payment equal), and the array card habit is the
scalar play-outs' greedy policy (same mean results per action, within sampling noise)."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
from batch_checks import refusing

from tarot.batch.state import BatchState
from tarot.compile.loader import load_ruleset
from tarot.core.actions import DecisionKind
from tarot.engine.game import deal_hand, play_hand
from tarot.engine.state import HandState
from tarot.players.batched_playouts import (
    batchable,
    forces_cards,
    play_states,
    replay_row,
    runs,
)
from tarot.players.playouts import greedy_policy, play_out
from tarot.players.random_agent import RandomAgent
from tarot.players.sampling import Sampler
from tarot.players.search_agent import SearchAgent
from tarot.records.batch_agreement import _payments

TRUMP_ORDER = str(Path(__file__).parent / "data" / "batch" / "trump-order.yaml")


def _moment(ruleset_id: str, number: int, trick: int, on_table: int) -> HandState:
    """Hand `number` played by random players up to a card decision of trick `trick` with
    `on_table` cards on the table (or the first card decision after it)."""
    ruleset = load_ruleset(ruleset_id)
    state = deal_hand(ruleset, 5, number)
    player = RandomAgent(number)
    while (decision := state.decision) is not None:
        if (
            decision.kind is DecisionKind.PLAY
            and (state.play.trick_number, len(state.zones.trick)) >= (trick, on_table)
            and len(decision.actions) > 1
        ):
            return state
        state.apply_action(player.choose(state, decision.seat))
    raise AssertionError(f"hand {number} of {ruleset_id} ended before trick {trick}")


def _trials(state: HandState, samples: int, seed: int) -> tuple[list[HandState], np.ndarray]:
    """Guessed deals of the deciding seat, each with every legal card played (the states
    the search player's play-outs start from), and each one's guess."""
    decision = state.decision
    assert decision is not None
    sampler, rng = Sampler(state, decision.seat), random.Random(seed)
    trials, streams = [], []
    for sample in range(samples):
        guessed = sampler.sample(rng)
        for action in decision.actions:
            trial = guessed.clone()
            trial.apply_action(action)
            if trial.decision is not None:
                trials.append(trial)
                streams.append(sample)
    return trials, np.array(streams, dtype=np.int64)


def _replays_exactly(starts: list[HandState], batch: BatchState, where: object) -> None:
    """Each row of the logged `batch`, its cards played through the scalar engine from the
    state it was made from, ends the hand with the same payments and the same result."""
    for row, start in enumerate(starts):
        replayed = replay_row(start, batch, row)
        assert replayed.is_terminal()
        made = [p.as_record() for p in replayed.payments[len(start.payments) :]]
        assert made == _payments(batch, row), (where, row)
        assert replayed.returns() == batch.net[row].tolist(), (where, row)


@pytest.mark.parametrize(
    ("ruleset_id", "trick", "on_table"),
    [
        ("marolles-1637", 2, 0),
        ("marolles-1637", 7, 1),
        ("marolles-1637-fool-last-trick-kept", 18, 0),
        ("marolles-1637-wickson", 3, 1),
        ("french-tarot", 4, 2),
        ("french-tarot-5", 2, 3),
        ("jeu-de-tarot", 5, 1),
        ("early-french", 3, 2),  # a hand's score, at the settlement of each play-out
        (TRUMP_ORDER, 2, 1),  # trumps in an order of their own, a tie won by the last
        (TRUMP_ORDER, 9, 2),
    ],
)
def test_batched_play_outs_replay_exactly(ruleset_id: str, trick: int, on_table: int) -> None:
    for number in (1, 2):
        state = _moment(ruleset_id, number, trick, on_table)
        trials, streams = _trials(state, 3, number)
        assert trials and all(batchable(t) for t in trials)
        batch = play_states(trials, 11, streams, explore=0.3, logging=True)
        _replays_exactly(trials, batch, (ruleset_id, number))


def _guessed(state: HandState, samples: int, seed: int) -> list[HandState]:
    """Guessed deals of the deciding seat, at the decision itself (no card applied)."""
    decision = state.decision
    assert decision is not None
    sampler, rng = Sampler(state, decision.seat), random.Random(seed)
    return [sampler.sample(rng) for _ in range(samples)]


@pytest.mark.parametrize(
    ("ruleset_id", "trick", "on_table"),
    [
        ("marolles-1637", 2, 0),
        ("marolles-1637", 6, 2),  # the card forced ends the trick
        ("french-tarot-5", 3, 4),
        ("minchiate", 4, 3),  # a counting card killed is paid as the trick ends
        ("hungarian-tarokk", 5, 1),
        (TRUMP_ORDER, 4, 1),
    ],
)
def test_a_card_forced_first_plays_as_the_scalar_engine_applies_it(
    ruleset_id: str, trick: int, on_table: int
) -> None:
    """Each guessed deal laid into the batch once and every legal card played there as the
    row's first card (`forces_cards`): each row replays exactly through the scalar engine
    from the guessed deal, and its result is the one of the same card applied by the scalar
    engine first and the batch taking the hand up after it, the same draws for both."""
    for number in (1, 2):
        state = _moment(ruleset_id, number, trick, on_table)
        decision = state.decision
        assert decision is not None
        guessed = _guessed(state, 3, number)
        assert all(forces_cards(g) for g in guessed)
        rows = [(g, card) for g in guessed for card in decision.actions]
        states = [g for g, _card in rows]
        forced = np.array([card for _g, card in rows], dtype=np.int64)
        streams = np.repeat(np.arange(len(guessed), dtype=np.int64), len(decision.actions))
        batch = play_states(states, 11, streams, explore=0.3, logging=True, forced=forced)
        _replays_exactly(states, batch, (ruleset_id, number))
        applied = []
        for start, card in rows:
            trial = start.clone()
            trial.apply_action(card)
            applied.append(trial)
        assert all(batchable(t) for t in applied)
        after = play_states(applied, 11, streams, explore=0.3)
        assert after.net.tolist() == batch.net.tolist(), (ruleset_id, number)


def test_cards_are_not_forced_where_play_may_end_early() -> None:
    """A ruleset whose play may end before its last card (a claim of the game, an end of
    play by rule) and the last trick keep the card applied by the scalar engine first."""
    state = _moment("marolles-1637", 3, 10, 0)
    assert forces_cards(state)
    player = RandomAgent(3)
    while state.play.trick_number < state.play.total_tricks:
        assert state.decision is not None
        state.apply_action(player.choose(state, state.decision.seat))
    assert batchable(state) and not forces_cards(state)  # the last trick
    early = _moment("early-french", 3, 4, 1)  # a seat may claim the game after a trick
    assert batchable(early) and not forces_cards(early)


@pytest.mark.parametrize(("trick", "on_table"), [(1, 1), (5, 2), (8, 1)])
def test_cards_kept_back_for_the_last_trick_are_taken_up(trick: int, on_table: int) -> None:
    """Hungarian Tarokk's Pagat ultimo keeps the Pagat for the last trick: a play-out taken
    up with it kept back plays it only when the scalar engine would (each row replayed
    through the scalar engine, which refuses a card it does not offer)."""
    kept = 0
    for number in (2, 3):
        state = _moment("hungarian-tarokk", number, trick, on_table)
        kept += bool(state.announce.kept_back)
        trials, streams = _trials(state, 3, number)
        assert trials and all(batchable(t) for t in trials)
        batch = play_states(trials, 11, streams, explore=0.3, logging=True)
        _replays_exactly(trials, batch, number)
    assert kept  # the hands chosen have a card kept back: the check can fail


def test_the_batch_starts_from_the_hand_as_it_stands() -> None:
    """A state with payments already made and a game total behind it: the batch's result is
    the hand's result, the total left out (as `HandState.returns`)."""
    state = _moment("marolles-1637", 3, 12, 1)
    state.totals_before = [40, -25, -15]
    assert state.payments  # payments made before the batch takes over
    trials, streams = _trials(state, 2, 3)
    batch = play_states(trials, 2, streams, explore=0.0, logging=True)
    for row, trial in enumerate(trials):
        assert replay_row(trial, batch, row).returns() == batch.net[row].tolist()


def test_the_card_habit_is_the_scalar_greedy_policy() -> None:
    """From the same guessed deals, the batched and the scalar play-outs of each card give
    the same mean result for the deciding seat, within 4 standard errors."""
    state = _moment("marolles-1637", 4, 3, 1)
    decision = state.decision
    assert decision is not None
    seat, samples = decision.seat, 150
    trials, streams = _trials(state, samples, 4)
    batched = play_states(trials, 4, streams, explore=0.1).net[:, seat]
    actions = len(decision.actions)
    scalar = []
    for i, trial in enumerate(trials):
        copy = trial.clone()
        play_out(copy, greedy_policy, random.Random(i))
        scalar.append(copy.returns()[seat])
    compared = 0
    for action in range(actions):
        ours = batched[action::actions].tolist()
        theirs = scalar[action::actions]
        error = math.sqrt(_variance(ours) / len(ours) + _variance(theirs) / len(theirs))
        difference = sum(ours) / len(ours) - sum(theirs) / len(theirs)
        assert abs(difference) <= 4 * error + 1e-9, (action, difference, error)
        compared += error > 0
    assert compared >= 2  # the play-outs differ from deal to deal: the check can fail


def _variance(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / (len(values) - 1)


def test_what_the_batch_cannot_take_up_is_played_by_the_scalar_engine(monkeypatch) -> None:
    assert runs(load_ruleset("marolles-1637"))
    questions = Path(__file__).parent / "data" / "rulesets" / "questions-in-play.yaml"
    # questions asked during play: the batch plays them, but not in a play-out
    asking = deal_hand(load_ruleset(str(questions)), 1, 3)
    chooser = random.Random(3)
    while asking.decision is not None and asking.decision.kind is not DecisionKind.PLAY:
        asking.apply_action(chooser.choice(asking.legal_actions()))
    assert asking.decision is not None  # a card to play
    assert runs(asking.ruleset) and not batchable(asking)
    refusing(monkeypatch)  # a ruleset the batch back end does not run: none is taken up
    assert not runs(load_ruleset(str(questions)))
    # a declaration still to come before a seat's first card: not taken up in trick 1
    french = _moment("french-tarot", 1, 1, 0)
    assert french.play.trick_number == 1 and not batchable(french)
    assert batchable(_moment("french-tarot", 1, 2, 0))


def test_search_setting_batch() -> None:
    assert SearchAgent(1).batch and SearchAgent(1).name == "search"
    assert not SearchAgent(1, batch="off").batch
    assert SearchAgent(1, batch="off").name == "search(batch=off)"
    assert not SearchAgent(1, rollout="heuristic").batch  # no array form
    assert not SearchAgent(1, seconds=0.5).batch  # samples not known beforehand
    with pytest.raises(ValueError, match="batch must be one of auto, off"):
        SearchAgent(1, batch="yes")


def test_search_players_with_batched_play_outs_finish_a_hand() -> None:
    ruleset = load_ruleset("marolles-1637")
    state = deal_hand(ruleset, 1, 1)
    play_hand(state, [SearchAgent(seat, samples=2) for seat in range(ruleset.players)])
    assert state.is_terminal() and sum(state.returns()) == 0
