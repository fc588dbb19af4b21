"""A search player for any ruleset: perfect-information Monte Carlo (PIMC).

Where it sits: beside the random and heuristic agents, chosen with `--agents search` (with
settings: `--agents search:samples=40:rollout=random`). At each decision with more than one
legal action it deals the cards it cannot see again at random, consistently with what it has
seen (`tarot.players.sampling`), tries every legal action on a clone of that deal, plays
the hand out with a fast default policy for every seat, and scores the action by the
ruleset's own result for its seat (`HandState.returns`, payments made during play included).
Every kind of decision (bids, calls, discards, declarations, redeal answers, cards, whatever
the engine asks) is handled the same way, by `tarot.players.judging`: the action with
the best mean over the deals is chosen, ties drawn at random from the agent's seed, and a
pass or "no declaration" is kept unless another answer beats it by more than a standard
error. In the play-outs every seat follows the policy's habits for every kind of decision
(`tarot.players.playouts`: later bidders pass, nothing is announced that is not worth
more than silence), so a bid is judged by the play that follows it.

Each deal is played out with the same random numbers after each action (common random
numbers), so the actions are compared on equal terms and the sample count can stay small.
Decisions that set the course of the hand and have few answers (bids, calls, declarations,
redeal answers) are judged on more deals: as many play-outs as a card decision with a full
hand costs (samples x the cards in hand / the answers), so a bid costs no more than the first
card of the hand. Bids judged on eight deals bid on weak hands whose few lucky deals looked
good.

Settings:
  samples=N   deals per decision (default DEFAULT_SAMPLES); a game is then reproducible from
              the seed and settings.
  seconds=S   deal and play out until S seconds have passed (at least one deal) instead;
              with samples=N also given, stop at whichever comes first. Not reproducible.
  rollout=P   the default policy of the play-outs: `greedy` (default), `random`, or
              `heuristic` (the heuristic agent itself, much slower).
  screen=S    `on` (default): a decision of many actions is judged in two stages, every
              action on a quarter of the deals (at least one), then only the best quarter
              of them (at least SCREEN_KEEP, and the pass or "no declaration" where there
              is one) on the rest, each kept action's mean taken over all the deals it
              was played on; `off`: every action on every deal. Only with a fixed number
              of samples.
  race=R      `on` (default): a widened decision (above) is judged in stages of `samples`
              deals, and an action that another beats by more than RACE standard errors
              of their paired differences (or on every deal by the same amount) is dropped
              at the end of a stage; judging stops once one action is left, or at the
              widened count of deals. `off`: every action on every widened deal (and a
              widened decision of many actions screened as any other). Only with a fixed
              number of samples and `screen=on`.
  batch=B     `auto` (default): the trick play of the play-outs of one decision runs as one
              batch in the batch back end (`tarot.players.batched_playouts`), where the ruleset
              and the moment allow and the rollout has an array form (greedy, random), with
              a fixed number of samples; `off`: every play-out on the scalar engine.
              Batched, a decision can also be taken as a coroutine (`deciding`), which
              yields its play-outs so that a run of many hands batches those of all its
              hands at once (`tarot.players.together`), with the same choices.

Why these defaults, and what each setting was measured to gain and cost, with the commands
that measure it: the documentation site's page on the players' strength
(`docs/players/strength.md`, "How the search player's defaults were chosen").
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, ClassVar

from tarot.core.actions import DecisionKind
from tarot.core.agent import decision_deadline
from tarot.engine.state import HandState
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.judging import clearly_better, pick, play_each, survivors
from tarot.players.playouts import Policy, greedy_policy, random_policy
from tarot.players.sampling import Sampler

if TYPE_CHECKING:
    from tarot.players.batched_playouts import Pending

DEFAULT_SAMPLES = 8
SCREEN_SHARE = 4  # screened: a quarter of the deals for every action, a quarter kept
SCREEN_KEEP = 3  # screened: at least this many actions kept for the rest of the deals
SCREEN = ("on", "off")
RACE = 3.0  # raced: standard errors by which an action is beaten to be dropped
RACES = ("on", "off")
MAX_SAMPLES = 10_000  # deals per decision: more would take hours a hand
MAX_SECONDS = 3600.0  # time per decision
ROLLOUTS = ("greedy", "random", "heuristic")
BATCHED_ROLLOUTS = ("greedy", "random")  # the rollouts with an array form
BATCH = ("auto", "off")
# decisions that set the course of the hand, with few answers: judged on more deals, as many
# play-outs as a card decision with a full hand costs
WIDENED = frozenset(
    {
        DecisionKind.BID,
        DecisionKind.CALL,
        DecisionKind.DECLARE,
        DecisionKind.REDEAL,
        DecisionKind.ASK,
    }
)


class SearchAgent:
    """Chooses by playing every legal action out on sampled deals."""

    SETTINGS: ClassVar[dict[str, type]] = {
        "samples": int,
        "seconds": float,
        "rollout": str,
        "screen": str,
        "race": str,
        "batch": str,
    }

    def __init__(
        self,
        seed: int | str = 0,
        samples: int | None = None,
        seconds: float | None = None,
        rollout: str = "greedy",
        screen: str = "on",
        race: str = "on",
        batch: str = "auto",
    ) -> None:
        if samples is not None and not 1 <= samples <= MAX_SAMPLES:
            raise ValueError(f"samples must be from 1 to {MAX_SAMPLES:,}, not {samples}")
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError(
                f"seconds must be more than 0 and at most {MAX_SECONDS:g}, not {seconds}"
            )
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if screen not in SCREEN:
            raise ValueError(f"screen must be one of {', '.join(SCREEN)}, not {screen!r}")
        if race not in RACES:
            raise ValueError(f"race must be one of {', '.join(RACES)}, not {race!r}")
        if batch not in BATCH:
            raise ValueError(f"batch must be one of {', '.join(BATCH)}, not {batch!r}")
        self.samples = samples if samples is not None or seconds is not None else DEFAULT_SAMPLES
        self.seconds = seconds
        #: at most this many seconds per decision whatever the settings (a table of `tarot
        #: serve` sets it); the batched play-outs of one stage run whole
        self.time_cap: float | None = None
        self.rollout = rollout
        self.screen = screen == "on"
        self.race = race == "on"
        self.batch = batch == "auto" and rollout in BATCHED_ROLLOUTS and seconds is None
        self.rng = random.Random(f"tarot-agent/search/{seed}")
        self.policy = _policy(rollout, seed)
        settings = [
            f"{key}={value}"
            for key, value, default in (
                ("samples", samples, None),
                ("seconds", seconds, None),
                ("rollout", rollout, "greedy"),
                ("screen", screen, "on"),
                ("race", race, "on"),
                ("batch", batch, "auto"),
            )
            if value != default
        ]
        self.name = f"search({', '.join(settings)})" if settings else "search"

    def choose(self, state: HandState, seat: int) -> str:
        deciding = self.deciding(state, seat)
        try:
            pending = next(deciding)
            while True:
                from tarot.players import batched_playouts as playouts  # numpy: on use

                playouts.finish([pending])
                pending = deciding.send(None)
        except StopIteration as done:
            return str(done.value)

    def deciding(self, state: HandState, seat: int) -> Generator[Pending, None, str]:
        """`choose` as a coroutine: it yields its batched play-outs (`batched_playouts.Pending`),
        once a stage, for the caller to play with others (`batched_playouts.finish`), and
        returns the choice. The choice is the same however the play-outs are batched."""
        decision = state.decision
        assert decision is not None  # an agent is asked only while a decision is open
        choices, actions = decision.choices, decision.actions
        if len(choices) == 1:
            return choices[0]
        samples = self.samples
        widened = decision.kind in WIDENED
        if samples is not None and widened:
            samples = max(samples, samples * len(state.zones.hands[seat]) // len(choices))
        deadline = decision_deadline(self.seconds, self.time_cap)
        if samples is None:  # as many deals as time allows
            timed = play_each(state, seat, self.policy, self.rng, _until(None, deadline))
            return choices[pick(actions, timed, self.rng)]
        screened = self.screen and self.seconds is None
        sampler = Sampler(state, seat)
        if screened and widened and self.race:
            kept, results = yield from self._race(sampler, samples, deadline)
            return choices[kept[pick([actions[i] for i in kept], results, self.rng)]]
        first, keep = _screening(len(actions), samples) if screened else (samples, 0)
        results = yield from self._judge(sampler, first, None, deadline)
        if first == samples:
            return choices[pick(actions, results, self.rng)]
        kept = survivors(actions, results, keep, self.rng)
        rest = yield from self._judge(sampler, samples - first, kept, deadline)
        results = [results[i] + later for i, later in zip(kept, rest, strict=True)]
        return choices[kept[pick([actions[i] for i in kept], results, self.rng)]]

    def _race(
        self, sampler: Sampler, samples: int, deadline: float | None
    ) -> Generator[Pending, None, tuple[list[int], list[list[float]]]]:
        """`samples` deals judged in stages of the agent's own count, the actions clearly
        beaten by the best so far (`RACE`) dropped after each stage: the actions left (their
        indexes) and their results on every deal of the stages."""
        decision = sampler.state.decision
        assert decision is not None  # a decision is judged only while it is open
        assert self.samples is not None  # racing is for a fixed number of deals
        left = list(range(len(decision.actions)))
        results: list[list[float]] = [[] for _ in left]
        judged = 0
        while judged < samples and len(left) > 1:
            stage = min(self.samples, samples - judged)
            found = yield from self._judge(sampler, stage, left, deadline)
            for index, more in zip(left, found, strict=True):
                results[index] += more
            judged += stage
            best = max(left, key=lambda i: sum(results[i]))  # the first of equal means
            left = [i for i in left if not clearly_better(results[best], results[i], RACE)]
        return left, [results[i] for i in left]

    def _judge(
        self,
        sampler: Sampler,
        samples: int,
        only: list[int] | None,
        deadline: float | None,
    ) -> Generator[Pending, None, list[list[float]]]:
        """Each action's (or each of `only`'s) results on `samples` guessed deals: batched,
        its play-outs yielded to the caller until played."""
        state, seat = sampler.state, sampler.view.seat
        if self.batch and _batched(state):  # (`batch` is off when `seconds` is given)
            from tarot.players import batched_playouts as playouts  # numpy: on use

            pending = playouts.prepare(
                state, seat, self.rollout, self.policy, self.rng, samples, only, sampler
            )
            if pending.waiting:
                yield pending
            return pending.results
        more = _until(samples, deadline)
        return play_each(state, seat, self.policy, self.rng, more, only, sampler)


def _screening(actions: int, samples: int) -> tuple[int, int]:
    """The deals every action is played on first, and how many actions are kept for the
    rest; (samples, 0) where screening would keep them all or leave no deal for the first."""
    first = samples // SCREEN_SHARE
    keep = max(SCREEN_KEEP, -(-actions // SCREEN_SHARE))
    if first < 1 or keep + 1 >= actions:
        return samples, 0
    return first, keep


def _until(samples: int | None, deadline: float | None) -> Callable[[int], bool]:
    """Whether to guess another deal after `done`: fewer than `samples`, before `deadline`."""

    def more(done: int) -> bool:
        if samples is not None and done >= samples:
            return False
        return deadline is None or time.perf_counter() < deadline

    return more


def _batched(state: HandState) -> bool:
    """Whether the batch back end runs the ruleset's trick play (`batched_playouts.runs`)."""
    from tarot.players.batched_playouts import runs

    return runs(state.ruleset)


def _policy(rollout: str, seed: int | str) -> Policy:
    if rollout == "random":
        return random_policy
    if rollout == "greedy":
        return greedy_policy
    heuristic = HeuristicAgent(f"rollout/{seed}")

    def heuristic_policy(state: HandState, rng: random.Random) -> str:
        decision = state.decision
        assert decision is not None  # `play_out` asks a policy only while a decision is open
        return heuristic.choose(state, decision.seat)

    return heuristic_policy
