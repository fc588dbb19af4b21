"""What the web tests share: every text of a JSON answer, to look for cards in it, and a
real server on loopback for the tests that run one."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def serving(config: uvicorn.Config, wait: float) -> Iterator[str]:
    """The server of `config` run in a thread while the block runs, its address given once
    it listens (the test fails after `wait` seconds if it does not); stopped after."""
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    started = time.monotonic()
    while not running.started:
        assert thread.is_alive() and time.monotonic() - started < wait, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://{config.host}:{config.port}"
    finally:
        running.should_exit = True
        thread.join(wait)


def strings(value: object) -> set[str]:
    """Every text in a JSON value (card ids are texts; keys are not cards)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*(strings(item) for item in value))
    return set()
