"""Decisions judged by play-outs (tarot.players.judging), the play-out habits for every
kind of decision (tarot.players.playouts), and what they make of bids and
announcements in French Tarot."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tarot.compile.loader import load_ruleset
from tarot.core.actions import PASS, Bid, DecisionKind, Declare, NoDeclaration
from tarot.engine.game import deal_hand
from tarot.engine.state import HandState
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.judging import BIDDING, clearly_better, pick
from tarot.players.playouts import greedy_policy
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent

FRENCH = load_ruleset("french-tarot")
BIDS = [Bid("petite"), Bid("garde"), PASS]
CHELEM = [Declare("chelem", "announced"), NoDeclaration("chelem")]


def test_a_tie_with_the_conservative_answer_keeps_it() -> None:
    for seed in range(20):
        assert pick(CHELEM, [[5.0, -5.0], [0.0, 0.0]], random.Random(seed)) == 1


def test_a_tie_between_other_answers_is_drawn_not_the_first() -> None:
    answers = [Bid("petite"), Bid("garde")]
    chosen = {pick(answers, [[1.0], [1.0]], random.Random(seed)) for seed in range(20)}
    assert chosen == {0, 1}


def test_an_answer_must_beat_the_conservative_one_clearly() -> None:
    noisy = [[60.0, -50.0, 40.0, -40.0], [0.0] * 4]  # +2.5 on average, by luck
    assert pick(CHELEM, noisy, random.Random(1)) == 1
    steady = [[30.0, 20.0, 25.0, 35.0], [0.0] * 4]
    assert pick(CHELEM, steady, random.Random(1)) == 0
    assert clearly_better([1.0], [0.0]) and not clearly_better([0.0], [1.0])


def test_a_bid_is_made_when_it_comes_out_ahead_often_enough() -> None:
    """Over a pass, a bid ahead on at least `BIDDING` of the deals is made even where its
    mean is below the pass's; one ahead on fewer is not, and a clearly better one is."""
    deals = 10
    ahead = next(k for k in range(deals + 1) if k / deals >= BIDDING)  # the fewest enough

    def judged(wins: int) -> list[list[float]]:
        petite = [50.0] * wins + [-100.0] * (deals - wins)
        return [petite, [2 * x for x in petite], [0.0] * deals]  # a garde pays twice

    often = judged(ahead)
    assert sum(often[0]) < 0 and pick(BIDS, often, random.Random(1)) == 0
    assert pick(BIDS, judged(ahead - 1), random.Random(1)) == 2
    steady = [[30.0, 20.0, 25.0, 35.0], [60.0, 40.0, 50.0, 70.0], [0.0] * 4]
    assert pick(BIDS, steady, random.Random(1)) == 1  # the best mean of the bids
    assert pick([PASS], [[0.0]], random.Random(1)) == 0


def decisions(kind: DecisionKind, seeds: range) -> Iterator[HandState]:
    """French Tarot hands played by random players up to each decision of `kind`."""
    for seed in seeds:
        state = deal_hand(FRENCH, seed, 1)
        agent = RandomAgent(seed)
        while (decision := state.decision) is not None:
            if decision.kind == kind:
                yield state
            state.apply_action(agent.choose(state, decision.seat))


def test_play_outs_pass_at_the_auction() -> None:
    bids = 0
    for state in decisions(DecisionKind.BID, range(1, 6)):
        assert greedy_policy(state, random.Random(0)) == PASS
        bids += 1
    assert bids


def test_play_outs_declare_only_what_is_worth_more_than_nothing() -> None:
    """A chelem announced is worth 0 to the declarer's level table (it pays at the end):
    not made in a play-out. A poignée's level is worth its bonus: declared."""
    seen = set()
    for state in decisions(DecisionKind.DECLARE, range(1, 60)):
        decision = state.decision
        assert decision is not None
        chosen = greedy_policy(state, random.Random(0))
        worth = max(decision.level_values.values())
        if worth > 0:
            assert isinstance(chosen, Declare) and decision.level_values[chosen.level] == worth
        else:
            assert isinstance(chosen, NoDeclaration)
        seen.add(worth > 0)
    assert seen == {True, False}, "both kinds of declaration were asked"


def test_the_heuristic_player_announces_no_chelem_it_cannot_make() -> None:
    """Judged by what it pays at once, an announcement paid at the end paid nothing, and the
    heuristic player made one at random: now it is played out, and a chelem announced on
    an ordinary hand loses."""
    asked = 0
    for state in decisions(DecisionKind.DECLARE, range(1, 40)):
        decision = state.decision
        assert decision is not None
        if decision.declaration is None or decision.declaration.id != "chelem":
            continue
        asked += 1
        choice = HeuristicAgent(asked).choose(state, decision.seat)
        assert choice == "chelem:none"
    assert asked >= 5


@pytest.mark.slow
def test_the_search_player_takes_strong_hands_and_passes_weak_ones() -> None:
    """At the first bid of many deals, the hands it bids on hold more trumps and more bouts
    (the ruleset's own card sets) than those it passes on, and it passes on most hands.
    Before play-outs had later bidders pass and no chelem announced at random, it bid on
    30 of these 35 hands, with half a bout on average."""
    trumps, bouts = FRENCH.deck.sets["trumps"], FRENCH.deck.sets["bouts"]
    taken: list[tuple[int, int]] = []
    passed: list[tuple[int, int]] = []
    for number in range(1, 41):
        state = deal_hand(FRENCH, 11, number)
        decision = state.decision
        if decision is None or decision.kind != DecisionKind.BID:
            continue  # a deal thrown in, or a redeal question first
        hand = state.zones.hands[decision.seat]
        counts = (sum(c in trumps for c in hand), sum(c in bouts for c in hand))
        choice = SearchAgent(number, samples=4).choose(state, decision.seat)
        (passed if choice == "pass" else taken).append(counts)
    assert taken and passed

    def mean(rows: list[tuple[int, int]], i: int) -> float:
        return sum(row[i] for row in rows) / len(rows)

    assert mean(taken, 0) > mean(passed, 0)
    assert mean(taken, 1) > mean(passed, 1)
    assert len(passed) > 2 * len(taken)
    assert mean(taken, 1) >= 1.5, "more than one bout on average in the hands it takes"


def test_the_heuristic_player_judges_a_bid_on_enough_deals_to_read_the_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bid over a pass is made on a share of deals ahead (`BIDDING`): judged on four deals
    the share could only be read as a half; the heuristic player judges it on more."""
    from tarot.players import heuristic_agent

    judged: list[int] = []
    real = heuristic_agent.play_each

    def counting(*arguments, **keywords):
        results = real(*arguments, **keywords)
        judged.append(len(results[0]))
        return results

    monkeypatch.setattr(heuristic_agent, "play_each", counting)
    state = deal_hand(FRENCH, 1, 1)
    assert state.decision is not None and state.decision.kind == DecisionKind.BID
    HeuristicAgent(1).choose(state, state.decision.seat)
    (deals,) = judged
    assert deals == heuristic_agent.BIDDING_SAMPLES
    fewest_ahead = next(k for k in range(deals + 1) if k / deals >= BIDDING)
    assert fewest_ahead / deals < 0.5


def test_the_play_outs_have_a_habit_for_every_kind_of_decision():
    """A kind of decision added to the engine needs its habit, or play-outs stop on it."""
    from tarot.core.actions import DecisionKind
    from tarot.players.playouts import HABITS

    assert set(HABITS) == set(DecisionKind)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["search", "heuristic"])
def test_four_players_pass_out_at_most_about_a_third_of_french_deals(kind: str) -> None:
    """The auction alone, 60 deals (seed 1): a deal thrown in is common, not the rule."""
    from tarot.players.lineup import seat_agents

    passed = 0
    for number in range(1, 61):
        state = deal_hand(FRENCH, 1, number)
        agents = seat_agents([kind] * FRENCH.players, 1, number, FRENCH.players)
        taken = False
        while (decision := state.decision) is not None and decision.kind == DecisionKind.BID:
            action = agents[decision.seat].choose(state, decision.seat)
            taken = taken or action != "pass"
            state.apply_action(action)
        passed += not taken
    assert passed <= 20
