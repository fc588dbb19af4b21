"""Stopping a command from outside: Ctrl-C, SIGTERM and SIGHUP all stop a run the same way.

Where it sits: `tarot.cli.main` runs every command inside `signals_stop_the_run()`.
While it is active, SIGTERM and SIGHUP raise `Stopped` (a `KeyboardInterrupt`) in the main
thread just as Ctrl-C does, so the one place where each command handles Ctrl-C (report what
finished, keep it, say so) serves all three. `exit_status()` is then 128 + the number of the
signal that stopped the run (130 for Ctrl-C), as shells report a process killed by it.
Worker processes do not take part: `tarot.measure.runner` has them ignore these
signals and stops them itself.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: The signals that stop a run like Ctrl-C (SIGHUP: the terminal was closed).
STOPPING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)

_received: int = signal.SIGINT


class Stopped(KeyboardInterrupt):
    """The run was asked to stop by a signal other than Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _stop(signum: int, _frame: object) -> None:
    global _received
    _received = signum
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Stopped(signum)


def raise_received() -> None:
    """Raise again what the last stopping signal raised (for C code that swallowed it: an
    SQLite query stopped by it, `measure.store_check`)."""
    _stop(_received, None)


def exit_status() -> int:
    """128 + the signal that stopped the run (130 when it was Ctrl-C or no signal at all)."""
    return 128 + _received


@contextmanager
def signals_stop_the_run() -> Iterator[None]:
    """Within the block, every stopping signal raises in the main thread; outside it the
    handlers are as they were (so the command can run inside a test process)."""
    global _received
    _received = signal.SIGINT
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {signum: signal.getsignal(signum) for signum in STOPPING}
    for signum, handler in before.items():
        if handler is not signal.SIG_IGN:  # ignored by whoever started us (nohup): keep it so
            signal.signal(signum, _stop)
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
