"""The Python API: `import tarot`, then load a ruleset, step or play hands, simulate, compare.

Where it sits: on top of the whole pipeline (load, check, compile, play, measure, diff), a
thin layer that reuses what the command line runs and hands back plain values. The package
exports these names lazily (`interpreter/__init__.py`); `docs/api.md` describes them:

- `load(name_or_path, options=...)` -> `Ruleset`; `Ruleset.new_hand(seed)` -> `State`;
- `State`: `current_player`, `legal_actions()`, `apply(action)`, `is_terminal()`,
  `returns()`, `observation(seat)`, `clone()`, `record()`, `transcript()`;
- `Card` (a `str`, equal to its id), `Action` (`str()` is the record's text), `Payment`,
  `Observation`;
- `play(...)` -> a finished `State`; `simulate(...)` -> `Simulation`; `diff(...)` -> `Diff`;
- `Agent` to subclass, and the built-in players `RandomAgent`, `HeuristicAgent`,
  `SearchAgent`;
- the errors: `RulesetError` (a ruleset that does not load), `IllegalAction` (an action
  that is not legal now; the state is left unchanged), `AgentError` (players that cannot be
  seated), `HandNotOver`, `EvaluationError` (a rule's expression failed during a hand).
"""

from interpreter.agents.lineup import LineupError as AgentError
from interpreter.api.agents import Agent, HeuristicAgent, RandomAgent, SearchAgent
from interpreter.api.cards import Action, Card
from interpreter.api.hand import HandNotOver, State
from interpreter.api.rulesets import Ruleset, load
from interpreter.api.runs import Diff, Simulation, diff, play, simulate
from interpreter.api.view import Observation, Payment
from interpreter.engine.actions import IllegalAction
from interpreter.errors import RulesetError
from interpreter.expressions import EvaluationError

__all__ = [
    "Action",
    "Agent",
    "AgentError",
    "Card",
    "Diff",
    "EvaluationError",
    "HandNotOver",
    "HeuristicAgent",
    "IllegalAction",
    "Observation",
    "Payment",
    "RandomAgent",
    "Ruleset",
    "RulesetError",
    "SearchAgent",
    "Simulation",
    "State",
    "diff",
    "load",
    "play",
    "simulate",
]
