"""Helpers shared by the engine and Marolles tests: seeded Marolles hands and agents."""

from __future__ import annotations

from functools import cache

from tarot.compile.loader import load_ruleset
from tarot.engine.game import deal_hand, play_hand
from tarot.engine.state import HandState, Phase
from tarot.players.random_agent import RandomAgent

SEATS = 3


@cache
def ruleset_with(**choices: str):
    """A Marolles ruleset with some options chosen (cached: loading takes a moment)."""
    return load_ruleset("marolles-1637", choices=choices)


def agents_for(seed: int) -> list[RandomAgent]:
    return [RandomAgent(f"{seed}/{seat}") for seat in range(SEATS)]


def new_hand(ruleset, seed: int, number: int = 1) -> HandState:
    return deal_hand(ruleset, seed, number)


def into_play(ruleset, seed: int, tricks: int = 0) -> HandState:
    """A hand with random players, up to the first card of trick `tricks` + 1."""
    state = new_hand(ruleset, seed)
    agents = agents_for(seed)
    while state.phase != Phase.PLAY or len(state.tricks) < tricks or state.trick:
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, seat))
    return state


def play_checking(state: HandState, agents) -> list[str]:
    """Play the hand out, checking every choice is legal; the choices made, in order."""
    seen = []
    while not state.is_terminal():
        seat = state.current_player()
        action = agents[seat].choose(state, seat)
        assert action in state.legal_actions()
        state.apply_action(action)
        seen.append(action)
    return seen


def played_hand(ruleset, seed: int) -> HandState:
    return play_hand(new_hand(ruleset, seed), agents_for(seed))


def built_pack(ruleset, hands: dict[int, list[str]], talon: list[str] = ()) -> list[int]:
    """A pack that deals seat `s` (seat 0 deals) the cards `hands[s]` and the talon `talon`,
    in the ruleset's own packets; every other card goes where it falls, with an empty card
    at the bottom so that the cut card is not a Tarot."""
    deck = ruleset.deck
    n = len(deck)
    where = HandState(ruleset, 0, list(range(n)))  # the identity pack: card = position
    positions = {s: sorted(where.deal.hands_dealt[s]) for s in range(ruleset.players)}
    positions["talon"] = sorted(where.deal.talon_dealt)
    wanted = {**hands, "talon": list(talon)}
    pack: list[int | None] = [None] * n
    for key, cards in wanted.items():
        for position, card in zip(positions[key], cards, strict=False):
            pack[position] = deck.by_id[card]
    placed = {c for c in pack if c is not None}
    rest = [c for c in range(n) if c not in placed]
    plain = [c for c in rest if c not in deck.sets["tarots"]]
    bottom = next((c for c in plain if isinstance(deck.cards[c].rank, int)), plain[0])
    if pack[n - 1] is None:
        rest.remove(bottom)
        rest.append(bottom)
    others = iter(rest)
    return [c if c is not None else next(others) for c in pack]


def empties(ruleset, count: int, avoid: tuple[str, ...] = ("coins-1",)) -> list[str]:
    """Numeral cards, which make no declaration (la Belle left out)."""
    cards = [c.id for c in ruleset.deck.cards if isinstance(c.rank, int) and c.id not in avoid]
    return cards[:count]


def discard_plainly(state: HandState) -> None:
    """The dealer lays away the first numeral cards offered."""
    cards = state.ruleset.deck.cards
    while state.phase == "discard":
        legal = state.legal_actions()
        plain = [c for c in legal if isinstance(cards[state.ruleset.deck.by_id[c]].rank, int)]
        state.apply_action((plain or legal)[0])


def offers(state: HandState, seat: int) -> dict[str, float]:
    """Every declaration offered to `seat` with its value; everyone declares nothing."""
    discard_plainly(state)
    offered = {}
    while state.phase == "declare":
        decision = state.decision
        if decision.seat == seat:
            offered.update(
                {f"{decision.declaration.id}:{k}": v for k, v in decision.level_values.items()}
            )
        state.apply_action(next(c for c in decision.choices if c.endswith(":none")))
    return offered


def declare_all(state: HandState, seat: int) -> None:
    """`seat` declares every combination offered (at its highest level); others nothing."""
    discard_plainly(state)
    while state.phase == "declare":
        choices = state.legal_actions()
        if state.current_player() == seat:
            state.apply_action(choices[0])
        else:
            state.apply_action(next(c for c in choices if c.endswith(":none")))


# Marolles extended to four players: a different player count on the same pack, for the
# comparisons that cannot pair their hands.
FOUR_PLAYERS = """\
extends: marolles-1637
title: Marolles for four
players:
  count: 4
deal:
  packets:
    - {rounds: 3, each: 5}
    - {rounds: 1, others: 1, dealer: 3}
discard:
  counts: {dealer: 3, others: 1}
"""
