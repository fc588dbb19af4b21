"""The Python API: `import tarot`, then load a ruleset, step or play hands, simulate, compare.

Where it sits: on top of the whole pipeline (load, check, compile, play, measure, diff), a
thin layer that reuses what the command line runs and hands back plain values. The package
exports these names lazily (`interpreter/__init__.py`); `docs/api.md` describes them:

- `load(name_or_path, options=...)` -> `Ruleset`; `Ruleset.new_hand(seed)` -> `State`
  (`new_hand(deal=...)`: a chosen deal); `Ruleset.option_readings`; `rulesets()`, every
  ruleset a name finds;
- `State`: `current_player`, `legal_actions()`, `apply(action)`, `is_terminal()`,
  `returns()`, `observation(seat)`, `clone()`, `record()`, `transcript()`;
- `Card` (a `str`, equal to its id), `Action` (`str()` is the record's text), `Payment`,
  `Observation`;
- `play(...)` -> a finished `State`; `simulate(...)` -> `Simulation`; `diff(...)` -> `Diff`;
- `Agent` to subclass, and the built-in players `RandomAgent`, `HeuristicAgent`,
  `SearchAgent`;
- the errors: `RulesetError` (a ruleset that does not load), `IllegalAction` (an action
  that is not legal now; the state is left unchanged), `AgentError` (players that cannot be
  seated), `HandNotOver`, `EvaluationError` (a rule's expression failed during a hand),
  `DealError` (a chosen deal that does not fit the ruleset).
"""

from tarot.api.agents import Agent, HeuristicAgent, RandomAgent, SearchAgent
from tarot.api.cards import Action, Card
from tarot.api.hand import HandNotOver, State
from tarot.api.rulesets import Ruleset, load, rulesets
from tarot.api.runs import Diff, Simulation, diff, play, simulate
from tarot.api.view import Observation, Payment
from tarot.core.actions import IllegalAction
from tarot.engine.chosen_deal import DealError
from tarot.errors import RulesetError
from tarot.expressions import EvaluationError
from tarot.players.lineup import LineupError as AgentError

__all__ = [
    "Action",
    "Agent",
    "AgentError",
    "Card",
    "DealError",
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
    "rulesets",
    "simulate",
]
