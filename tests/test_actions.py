"""Typed actions inside the engine and their text at the boundary; the phases a hand walks.

Every decision's typed actions (`legal_moves`) and texts (`legal_actions`) stand side by side,
`action_text` and `parse_action` turn one into the other, a hand played with typed actions is
recorded exactly as the same hand played with texts, and the phases come in the ruleset's
order."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.core.actions import (
    PASS,
    Announce,
    Answer,
    Bid,
    Declare,
    Double,
    Hold,
    IllegalAction,
    NoDeclaration,
    Redeal,
    TakePacket,
    action_text,
    parse_action,
    read_action,
)
from tarot.engine.game import deal_hand
from tarot.engine.phases import Phase

# rulesets and seeds that between them ask for every kind of decision: bids and a call,
# discards, declarations, a redeal request (jeu-de-tarot, seed 243), cards shown for a
# declaration (wickson, seed 11), a card given back for one handed over (seed 4)
CASES = [
    ("french-tarot-5", (0, 1, 2)),
    ("marolles-1637", (0, 1, 2)),
    ("jeu-de-tarot", (0, 243)),
    ("marolles-1637-wickson", (0, 11)),
    ("marolles-1637-wickson-third-handed-over", (0, 4)),
]
KINDS = {"bid", "call", "discard", "declare", "redeal", "show", "give", "play"}


def _play(ruleset, seed: int, typed: bool) -> tuple[list[dict], list[Phase]]:
    """A hand played with the same random choices, given as typed actions or as texts; its
    decisions as recorded and the phases it passed through."""
    state = deal_hand(ruleset, seed, 1)
    rng = random.Random(seed)
    phases = [state.phase]
    while not state.is_terminal():
        index = rng.randrange(len(state.legal_actions()))
        state.apply_action(state.legal_moves()[index] if typed else state.legal_actions()[index])
        if state.phase != phases[-1]:
            phases.append(state.phase)
    return state.decisions, phases


@pytest.mark.parametrize(("name", "seeds"), CASES)
def test_typed_actions_and_their_texts_stand_side_by_side(name: str, seeds) -> None:
    ruleset = load_ruleset(name)
    deck = ruleset.deck
    for seed in seeds:
        state = deal_hand(ruleset, seed, 1)
        while not state.is_terminal():
            moves, texts = state.legal_moves(), state.legal_actions()
            assert [action_text(move, deck) for move in moves] == texts
            assert [parse_action(text, moves, deck) for text in texts] == moves
            state.apply_action(moves[-1])


def test_a_hand_played_with_typed_actions_is_recorded_as_with_texts() -> None:
    kinds = set()
    for name, seeds in CASES:
        ruleset = load_ruleset(name)
        for seed in seeds:
            typed = _play(ruleset, seed, typed=True)
            assert typed == _play(ruleset, seed, typed=False)
            kinds.update(decision["kind"] for decision in typed[0])
    assert kinds == KINDS


@pytest.mark.parametrize(("name", "seeds"), CASES)
def test_the_phases_come_in_the_ruleset_order(name: str, seeds) -> None:
    ruleset = load_ruleset(name)
    order = [step.phase for step in ruleset.flow] + [Phase.DONE]
    assert order[0] == Phase.DEAL and order[-2] == Phase.PLAY
    assert (Phase.BID in order) == (ruleset.bidding is not None)
    first_asked = next(i for i, phase in enumerate(order) if phase != Phase.DEAL)
    for seed in seeds:
        _decisions, seen = _play(ruleset, seed, typed=True)
        positions = [order.index(phase) for phase in seen]
        # a deal thrown in and dealt again starts over, at the first step that asks
        for before, after in zip(positions, positions[1:], strict=False):
            assert after >= before or after <= max(
                first_asked, order.index(Phase.BID) if Phase.BID in order else first_asked
            )


def test_an_illegal_typed_action_is_refused_and_changes_nothing() -> None:
    state = deal_hand(load_ruleset("marolles-1637"), 1, 1)
    legal = state.legal_moves()
    illegal = next(card for card in range(len(state.ruleset.deck)) if card not in legal)
    before = (state.legal_actions(), list(state.decisions), [list(h) for h in state.hands])
    for action in (illegal, Bid("no such contract"), PASS):
        with pytest.raises(IllegalAction):
            state.apply_action(action)
    assert (state.legal_actions(), state.decisions, [list(h) for h in state.hands]) == before


def test_texts_of_each_kind_of_action() -> None:
    deck = load_ruleset("marolles-1637").deck
    assert action_text(0, deck) == deck.cards[0].id
    assert action_text(Bid("garde"), deck) == "garde"
    assert action_text(PASS, deck) == "pass"
    assert action_text(Declare("tarots", "four"), deck) == "tarots:four"
    assert action_text(NoDeclaration("tarots"), deck) == "tarots:none"
    assert action_text(Redeal("few_trumps", True), deck) == "few_trumps:redeal"
    assert action_text(Redeal("few_trumps", False), deck) == "few_trumps:play_on"
    with pytest.raises(IllegalAction):
        parse_action("garde", [PASS], deck)


def test_read_action_is_the_way_back_from_every_text() -> None:
    """`read_action` gives, from a decision's kind and a text, the action `action_text` wrote:
    for every decision of hands that ask every kind (and a doubling, an announcement, a
    question, a packet and a hold in the flow and auction games)."""
    rulesets = [(load_ruleset(name), seeds) for name, seeds in CASES]
    rulesets += [
        (load_ruleset(Path(__file__).parent / "data" / "rulesets" / f"{name}.yaml"), (0, 1, 2, 3))
        for name in ("auction-packets-doubling", "announcement-rounds", "flow-two-stage-auction")
    ]
    kinds = set()
    for ruleset, seeds in rulesets:
        deck = ruleset.deck
        for seed in seeds:
            state = deal_hand(ruleset, seed, 1)
            rng = random.Random(seed)
            while not state.is_terminal():
                decision = state.decision
                assert decision is not None
                for action, text in zip(decision.actions, decision.choices, strict=True):
                    assert read_action(decision.kind, text, deck) == action
                kinds.add(decision.kind.value)
                state.apply_action(rng.choice(state.legal_moves()))
    assert kinds >= KINDS | {"double", "announce", "ask", "packet"}


def test_read_action_refuses_a_text_of_another_form() -> None:
    deck = load_ruleset("marolles-1637").deck
    assert read_action("bid", "hold:garde", deck) == Hold("garde")
    assert read_action("double", "pass:game", deck) == Double("game", None)
    assert read_action("announce", "announce:ultimo", deck) == Announce("ultimo")
    assert read_action("ask", "knock:yes", deck) == Answer("knock", True)
    assert read_action("packet", "packet:2", deck) == TakePacket(2)
    for kind, text in (("play", "no-such-card"), ("declare", "tarots"), ("packet", "packet:x")):
        with pytest.raises(ValueError, match="not"):
            read_action(kind, text, deck)
