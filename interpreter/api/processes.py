"""How the Python API starts worker processes (`jobs=2` and more), so that a call at the top
level of a user's script does not run that script again.

Where it sits: between `tarot.api.runs` (`simulate`, `diff`) and `tarot.measure.runner`,
which starts the workers with the start method chosen here. Python's "spawn" method starts a
fresh interpreter that imports the caller's main module again (as `__mp_main__`): a script
that calls `tarot.simulate(..., jobs=2)` at its top level, not under
`if __name__ == "__main__":`, would start it again in every worker. So:

- where "fork" is the platform's safe choice (Linux), a script's workers are forked copies
  of it, which run nothing of the script again;
- in a notebook or an interactive session (a main module without a file) "spawn" imports
  nothing of the user's, and is kept;
- elsewhere (macOS, Windows: "spawn" only, or "fork" unsafe), a worker that finds itself
  starting while the script is being imported again ends at once, and the caller gets
  `WorkerDied` saying what to write (`GUARD_HINT`).

The command line forks its workers wherever that is safe, "spawn" elsewhere
(`tarot.measure.runner.quick_start`: `tarot` is not a user's script, so only speed decides).
"""

from __future__ import annotations

import multiprocessing
import sys

GUARD_HINT = (
    "tarot: jobs > 1 at the top level of a script, on a system whose worker processes run the "
    "script again (Python's 'spawn' start method): put the script's calls under "
    '`if __name__ == "__main__":`, or give jobs=1'
)


def script_main() -> bool:
    """Whether the main module is a file (a script, or `python -m`), which "spawn" imports
    again in each worker; a notebook's or an interactive session's is not."""
    main = sys.modules.get("__main__")
    return getattr(main, "__file__", None) is not None


def start_method() -> str:
    """The start method for the API's worker processes (see the module's docstring)."""
    if script_main() and sys.platform.startswith("linux"):
        if "fork" in multiprocessing.get_all_start_methods():
            return "fork"
    return "spawn"


def refuse_in_a_starting_worker() -> None:
    """In a worker process that is still starting (its main module, the caller's script,
    being imported again by "spawn"), end that worker at once and quietly: the caller's
    process then says what to write (`GUARD_HINT`), once, rather than every worker printing
    multiprocessing's traceback."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise SystemExit(1)
