"""A cheap player for any ruleset: it looks one action ahead with the ruleset's own payments
and otherwise follows card-play habits built from the ruleset's card values.

Where it sits: beside the random agent, chosen with `--agents heuristic`. For each legal
action it tries the action on a copy of the hand (`HandState.clone`) and counts what that
action alone pays it at once: a penalised discard, a declaration's bonus, the payments of a
trick it completes. Among actions that pay the same it prefers, for cards, to win a trick
that holds card points with the cheapest card that wins it, and otherwise to give away as
few points as possible; for discards, to lay away its least valuable cards. Remaining ties
are broken by a seeded random choice, so a game is reproducible.

Decisions whose worth shows only at the end of the hand (a bid, a partner call, asking for a
redeal, a declaration paid only at the settlement, such as an announcement) are looked at
differently: each choice is played out on a few guessed deals with the greedy habits of
`tarot.players.playouts`, and chosen as `tarot.players.judging.pick` chooses, a
pass or no declaration kept unless another answer is clearly better: judged by what they pay
at once, such decisions all pay nothing and would be taken at random (what the look-ahead
was measured to gain: `docs/players/strength.md`).
"""

from __future__ import annotations

import random

from tarot.core.actions import Decision, DecisionKind, Pass
from tarot.engine.state import HandState
from tarot.players.judging import conservative, pick, play_each
from tarot.players.playouts import card_scores, greedy_policy

POINTS_WEIGHT = 0.1  # card points count for less than what is paid at once
LOOKAHEAD_SAMPLES = 4  # guessed deals played out for a decision that pays nothing at once
# ... and for one a pass answers, where a bid is also judged by the share of deals on which
# it comes out ahead of the pass (`judging.BIDDING`): enough deals for that share to be read
# as set (three in ten), not as two of four
BIDDING_SAMPLES = 10
# decisions judged by what they pay at once and by habit, without looking ahead
LOCAL_KINDS = frozenset(
    {
        DecisionKind.PLAY,
        DecisionKind.DISCARD,
        DecisionKind.DECLARE,
        DecisionKind.SHOW,
        DecisionKind.GIVE,
        DecisionKind.NAME,
    }
)


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(f"tarot-agent/heuristic/{seed}")

    def choose(self, state: HandState, seat: int) -> str:
        choices = state.legal_actions()
        if len(choices) == 1:
            return choices[0]
        decision = state.decision
        assert decision is not None  # an agent is asked only while a decision is open
        if decision.kind not in LOCAL_KINDS or _paid_later(decision):  # a bid, a call...
            return self._look_ahead(state, seat, choices)
        before = state.returns()[seat]
        scored = []
        for action, habit in zip(choices, _habits(state, seat), strict=True):
            trial = state.clone()
            trial.apply_action(action)
            score = trial.returns()[seat] - before + POINTS_WEIGHT * habit
            scored.append((score, self.rng.random(), action))
        return max(scored)[2]

    def _look_ahead(self, state: HandState, seat: int, choices: list[str]) -> str:
        """For a choice whose worth shows only at the end of the hand: each action played
        out on a few guessed deals with the greedy habits, the same deals for every action."""
        actions = state.legal_moves()
        safe = conservative(actions)
        bidding = safe is not None and isinstance(actions[safe], Pass)
        samples = BIDDING_SAMPLES if bidding else LOOKAHEAD_SAMPLES
        results = play_each(state, seat, greedy_policy, self.rng, lambda done: done < samples)
        return choices[pick(actions, results, self.rng)]


def _habits(state: HandState, seat: int) -> list[float]:
    """How good each legal action is by habit: a card played scored as the play-outs score
    it (`card_scores`), a card laid away or given back the less the more it is worth."""
    decision = state.decision
    assert decision is not None  # an agent is asked only while a decision is open
    kind, actions = decision.kind, decision.actions
    cards = [action for action in actions if isinstance(action, int)]  # a card decision's
    if kind == DecisionKind.PLAY:
        return card_scores(state, seat, cards)
    if kind in (DecisionKind.DISCARD, DecisionKind.GIVE):
        values, pack = state.ruleset.counting.float_values, state.ruleset.deck.cards
        return [-values[card] - (1.0 if pack[card].is_trump else 0.0) for card in cards]
    if kind == DecisionKind.NAME:  # the card of most worth, a trump before a plain card
        values, pack = state.ruleset.counting.float_values, state.ruleset.deck.cards
        return [values[card] + (1.0 if pack[card].is_trump else 0.0) for card in cards]
    return [0.0] * len(actions)


def _paid_later(decision: Decision) -> bool:
    """A declaration whose value the ruleset's own rules pay at the end of the hand."""
    declaration = decision.declaration
    return declaration is not None and not declaration.paid_when_declared
