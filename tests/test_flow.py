"""The hand's flow as data (`flow`): the four orders of the small flow-*.yaml games, the
checks of a written flow, the default order of every built-in family, and `tarot explain`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from batch_checks import replayed
from small_games import edited, problems, replayed_games

from tarot.batch import support
from tarot.batch.support import supports
from tarot.compile.loader import load_ruleset
from tarot.core.actions import DecisionKind
from tarot.core.flow import STEP_KINDS, Phase
from tarot.engine.game import deal_hand, play_game
from tarot.engine.state import HandState
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.random_agent import RandomAgent
from tarot.players.search_agent import SearchAgent
from tarot.presentation.explain import explain_page
from tarot.records.record import game_record
from tarot.records.replay import replay_record

GAMES = Path(__file__).parent / "data" / "rulesets"
FLOWS = ("discard-first", "blind-exchange", "between-packets", "two-stage-auction")


def game(name: str):
    return load_ruleset(GAMES / f"flow-{name}.yaml")


def playing_on(state: HandState) -> str:
    """The first legal action, but never a request to throw the deal in."""
    return next(a for a in state.legal_actions() if not a.endswith(":redeal"))


def decide_until(state: HandState, stop, choose=playing_on) -> None:
    """Take `choose`'s action (by default the first legal one, playing on at a redeal)
    until `stop(state)` holds."""
    while not state.is_terminal() and not stop(state):
        state.apply_action(choose(state))


@pytest.mark.parametrize("name", FLOWS)
def test_each_flow_plays_and_replays_with_every_kind_of_player(name: str) -> None:
    ruleset = game(name)
    for seed in (1, 2):
        states = replayed_games(ruleset, seed, hands=3, mixed=False)
        assert all(state.phase == Phase.DONE for state in states)
    agents = [HeuristicAgent(1), SearchAgent(2, samples=2), RandomAgent(3)]
    states = play_game(ruleset, 3, agents, hands=3)
    replay_record(game_record(ruleset, 3, [a.name for a in agents], states), ruleset)


def test_discards_before_the_auction_come_before_any_bid() -> None:
    ruleset = game("discard-first")
    for seed in range(1, 8):
        state = deal_hand(ruleset, seed, 1)
        decide_until(state, lambda s: s.phase == Phase.BID)
        if state.is_terminal():
            continue  # thrown in at the redeal
        assert all(len(pile) == 1 for pile in state.zones.discards)
        kinds = [d["kind"] for d in state.decisions]
        assert kinds.count("discard") == 3 and "bid" not in kinds
        decide_until(state, lambda s: False)
        taker_discards = [d for d in state.decisions if d["kind"] == "discard"]
        if state.auction.taker is not None:  # the taker then lays the talon's two cards away
            assert len(taker_discards) == 5
            assert len(state.zones.discards[state.auction.taker]) == 3


def test_a_blind_exchange_lays_cards_away_before_the_talon_is_seen() -> None:
    ruleset = game("blind-exchange")
    checked = 0
    for seed in range(1, 10):
        state = deal_hand(ruleset, seed, 1)
        talon = list(state.deal.talon_dealt)
        decide_until(state, lambda s: s.phase == Phase.DISCARD)
        if state.is_terminal():
            continue
        taker = state.auction.taker
        assert state.decision is not None and state.decision.seat == taker
        assert not set(talon) & set(state.zones.hands[taker])  # not yet in his hand
        decide_until(state, lambda s: s.phase == Phase.PLAY)
        assert set(talon) <= set(state.zones.hands[taker])  # taken after, nothing more laid away
        assert len(state.zones.discards[taker]) == 2
        assert len(state.zones.hands[taker]) == len(state.zones.hands[(taker + 1) % 3])
        checked += 1
    assert checked


def test_a_redeal_between_two_packets_sees_the_first_packet_only() -> None:
    ruleset = game("between-packets")
    asked = 0
    for seed in range(1, 12):
        state = deal_hand(ruleset, seed, 1)
        if state.decision is not None and state.decision.kind == DecisionKind.REDEAL:
            assert all(len(hand) == 2 for hand in state.zones.hands)
            asked += 1
            state.apply_action(playing_on(state))
            decide_until(state, lambda s: s.phase == Phase.BID)
            assert all(len(hand) == 5 for hand in state.zones.hands)
    assert asked
    # the base game, whose one deal step hands out both packets, asks on five cards
    base = load_ruleset(GAMES / "flow-base.yaml")
    for seed in range(1, 12):
        state = deal_hand(base, seed, 1)
        if state.decision is not None and state.decision.kind == DecisionKind.REDEAL:
            assert all(len(hand) == 5 for hand in state.zones.hands)


def test_only_those_who_answered_yes_bid() -> None:
    ruleset = game("two-stage-auction")
    for seed in range(1, 10):
        state = deal_hand(ruleset, seed, 1)
        decide_until(state, lambda s: s.phase == Phase.ASK)
        if state.is_terminal():
            continue
        answers = {}
        while state.phase == Phase.ASK:
            seat = state.current_player()
            answer = "wants_to_play:yes" if seat == 1 else "wants_to_play:no"
            assert answer in state.legal_actions()
            state.apply_action(answer)
            answers[seat] = answer
        assert len(answers) == 3
        bidders = {d["seat"] for d in state.decisions if d["kind"] == "bid"}
        decide_until(state, lambda s: s.phase != Phase.BID)
        bidders |= {d["seat"] for d in state.decisions if d["kind"] == "bid"}
        assert bidders == {1}
        assert state.auction.taker == 1


def test_when_nobody_answers_yes_the_deal_is_thrown_in() -> None:
    ruleset = game("two-stage-auction")
    state = deal_hand(ruleset, 4, 1)
    decide_until(state, lambda s: s.phase == Phase.ASK)
    while state.phase == Phase.ASK:
        state.apply_action("wants_to_play:no")
    assert state.is_terminal() and state.thrown_in == "all_passed"


def test_a_step_with_when_is_skipped_when_it_does_not_hold(tmp_path: Path) -> None:
    def change(document: dict) -> None:
        document["flow"] = [
            "deal",
            {"bid": {}},
            {"talon": {"when": "contract == 'high'"}},
            "discard",
            "play",
        ]
        del document["redeal"]

    ruleset = load_ruleset(edited(GAMES / "flow-base.yaml", tmp_path, change))
    seen = set()
    for seed in range(1, 15):
        state = deal_hand(ruleset, seed, 1)
        rng = random.Random(seed)
        decide_until(state, lambda s: False, lambda s, rng=rng: rng.choice(s.legal_actions()))
        if state.auction.contract is None:
            continue
        taken = set(state.deal.talon_dealt) <= set(state.zones.discards[state.auction.taker]) | set(
            card for won in state.zones.won for card in won
        )
        assert taken == (state.auction.contract == "high"), seed
        assert state.zones.talon == (
            [] if state.auction.contract == "high" else state.deal.talon_dealt
        )
        seen.add(state.auction.contract)
    assert seen == {"low", "high"}


@pytest.mark.parametrize(
    ("flow", "message"),
    [
        (["deal", "bid", "talon", "discard"], "must end with the `play` step"),
        (["bid", "deal", "talon", "discard", "play"], "must begin with a `deal` step"),
        (["deal", "talon", "discard", "play"], "its flow has no `bid` step"),
        (["deal", "bid", "talon", "redeal", "play"], "right after a `deal` step"),
        (["deal", "bid", "bid", "talon", "play"], "`bid` may appear only once"),
        (["deal", "bid", "announce", "play"], "the ruleset has no `announcements` section"),
        ([{"deal": {"packets": [1]}}, "bid", "play"], "go on from packet step 0"),
        ([{"deal": {"packets": [0]}}, "bid", "play"], "give the rest to a `deal` step"),
        ([{"deal": {"packets": [0, 5]}}, "bid", "play"], "`deal.packets` has 2"),
        (["deal", "bid", {"play": {"when": "true"}}], "unknown key 'when'"),
        (
            ["deal", {"redeal": {"rules": ["no_trumps"]}}, "bid", "play"],
            "which is not a `redeal` rule's id (they are: no_trump)",
        ),
        (
            ["deal", {"ask": {"id": "no_trump"}}, "bid", "play"],
            "the question id 'no_trump' is already used",
        ),
    ],
)
def test_a_written_flow_is_checked_against_the_sections(tmp_path, flow, message) -> None:
    def change(document: dict) -> None:
        document["flow"] = flow

    found = problems(edited(GAMES / "flow-base.yaml", tmp_path, change))
    assert message in found
    assert "$.flow" in found


def test_a_misspelt_step_is_refused_by_the_schema(tmp_path: Path) -> None:
    def change(document: dict) -> None:
        document["flow"] = ["deal", "auction", "play"]

    assert "$.flow[1]" in problems(edited(GAMES / "flow-base.yaml", tmp_path, change))


@pytest.mark.parametrize(
    ("name", "order"),
    [
        ("early-french", ["deal", "talon", "discard", "play"]),
        ("marolles-1637", ["deal", "talon", "discard", "declare", "play"]),
        ("french-tarot", ["deal", "redeal", "bid", "talon", "discard", "declare", "play"]),
        (
            "french-tarot-5",
            ["deal", "redeal", "bid", "call", "talon", "discard", "declare", "play"],
        ),
        (
            "hungarian-tarokk",
            ["deal", "redeal", "bid", "talon", "discard", "call", "declare", "announce", "play"],
        ),
    ],
)
def test_a_ruleset_without_flow_goes_in_the_order_of_its_sections(name, order) -> None:
    ruleset = load_ruleset(name)
    assert [step.word for step in ruleset.flow] == order
    page = explain_page(ruleset)
    section = next(s for s in page.sections if s.title == "The order of the hand")
    assert len(section.rules[0].lines) == len(order) + 2  # the note, the steps, the settlement


def test_explain_says_the_order_of_a_written_flow() -> None:
    page = explain_page(game("two-stage-auction"))
    lines = next(s for s in page.sections if s.title == "The order of the hand").rules[0].lines
    assert lines[2].startswith("3. Each player in turn answers yes or no: Do you want to play?")
    assert "among `[s in seats if declared(s, 'wants_to_play')]` only" in lines[3]
    assert lines[-1] == "8. The settlement."


@pytest.mark.parametrize(
    "name", ["discard-first", "blind-exchange", "between-packets", "two-stage-auction"]
)
def test_the_batch_back_end_plays_the_flow_as_the_scalar_engine(name: str) -> None:
    ruleset = game(name)
    assert supports(ruleset) == []
    _records, kinds, fired = replayed(ruleset, 3, 120)  # each hand replayed, payment by payment
    assert kinds["discard"] and kinds["bid"]
    assert fired["game_won"] and fired["game_lost"]
    if name == "two-stage-auction":
        assert kinds["ask"] and fired["thrown_in:all_passed"]
    if name == "between-packets":  # asked on the first two cards alone, and thrown in
        assert kinds["redeal"] and fired["thrown_in:no_trump"]


def test_the_batch_back_end_takes_a_step_only_where_its_when_holds(tmp_path: Path) -> None:
    def skipped(document: dict) -> None:
        document["flow"] = [
            "deal",
            "redeal",
            "bid",
            {"talon": {"when": "contract == 'high'"}},
            "discard",
            "play",
        ]

    ruleset = load_ruleset(edited(GAMES / "flow-base.yaml", tmp_path, skipped))
    assert supports(ruleset) == []
    _records, kinds, _fired = replayed(ruleset, 5, 120)  # each hand replayed, payment by payment
    assert kinds["bid"] and kinds["discard"]


def test_the_batch_back_end_names_a_step_kind_it_does_not_run(monkeypatch) -> None:
    """It runs every kind of step today; one it did not run would be named."""
    assert set(STEP_KINDS) <= support.BATCH_STEPS
    ruleset = load_ruleset(GAMES / "announcements.yaml")
    assert not any("step kind" in why for why in supports(ruleset))
    monkeypatch.setattr(support, "BATCH_STEPS", support.BATCH_STEPS - {Phase.ANNOUNCE})
    assert "flow[7]: the step kind `announce`" in supports(ruleset)


def test_the_auction_starts_where_first_says_after_an_ask_step(tmp_path: Path) -> None:
    """`bidding.first` is worked out on reaching the `bid` step: it sees the answers of an
    `ask` step before it (here the auction starts on the left of the seat that said yes)."""

    def change(document: dict) -> None:
        document["flow"] = [
            "deal",
            {"ask": {"id": "picks", "name": "Pick the first bidder's neighbour?"}},
            "bid",
            "talon",
            "discard",
            "play",
        ]
        document["bidding"]["first"] = (
            "[s in seats if any(t in seats: declared(t, 'picks') and next_seat(t) == s)]"
        )
        del document["redeal"]

    ruleset = load_ruleset(edited(GAMES / "flow-base.yaml", tmp_path, change))
    for yes in range(3):
        state = deal_hand(ruleset, 5, 1)
        while state.phase == Phase.ASK:
            seat = state.current_player()
            state.apply_action("picks:yes" if seat == yes else "picks:no")
        assert state.phase == Phase.BID
        assert state.current_player() == (yes + 1) % 3


def test_uneven_hands_stop_the_hand_saying_which_seat_has_no_card(tmp_path: Path) -> None:
    """A flow whose discards leave one seat more cards than the others (Cego's first discard
    step without its count): the seat that runs out is not asked to choose among nothing; the
    hand stops with a message naming it and what to check."""
    from tarot.engine.game import play_game
    from tarot.expressions import EvaluationError
    from tarot.load import paths
    from tarot.players.random_agent import RandomAgent

    document = yaml.safe_load(paths.find_builtin("cego").read_text(encoding="utf-8"))
    del document["flow"][5]["discard"]["count"]
    path = tmp_path / "uneven.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    ruleset = load_ruleset(path)
    with pytest.raises(EvaluationError) as stopped:
        play_game(ruleset, 1, [RandomAgent(s) for s in range(3)], 1)
    message = str(stopped.value)
    assert "is to play but has no card left" in message and "discard.counts" in message
    assert "(hand 1, during trick" in message
