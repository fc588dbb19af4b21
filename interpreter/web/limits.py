"""The bounds `tarot serve` keeps whoever its clients are: one object, given to `create_app`.

Where it sits: made by `tarot.web.serve` from the command line (or by a test), read by the
guard in front of the app (`tarot.web.guard`), by the tables (`tarot.web.tables`) and by
the computer players' thinking (`tarot.web.thinking`), and by the server's configuration
(`tarot.web.connections.server_config`), so that the command and a test start the same
server.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Computer players may think at most this long per decision at a table, by default.
THINK_SECONDS = 10.0
#: `tarot serve --think-seconds` may raise it to at most this.
MAX_THINK_SECONDS = 600.0
#: Megabytes the tables' folders may take on disk, by default (`--tables-cap`).
TABLES_MB = 1000


@dataclass(frozen=True)
class ServeLimits:
    """Every bound of one server."""

    #: host names the server answers to besides the loopback ones (`--allow-host`)
    allowed_hosts: tuple[str, ...] = ()
    #: bytes of a request's body
    max_body: int = 2_000_000
    #: tables held in memory at once; the least recently used leaves memory (not its folder)
    open_tables: int = 32
    #: uploaded tables among them (an uploaded ruleset compiles to a few MB)
    open_uploaded: int = 8
    #: bytes the tables' folders take on disk (`tarot.web.tables_disk`: `--tables-cap`)
    tables_bytes: int = TABLES_MB * 1_000_000
    #: seconds a computer player may think per decision at a table
    think_seconds: float = THINK_SECONDS
    #: decisions of computer players run at once, and waiting to run, over all tables
    thinkers: int = 2
    waiting: int = 8
    #: connections at once (past it, the one longest waiting for its request is closed:
    #: `tarot.web.connections`), seconds a request may take to arrive whole, seconds a
    #: connection may stay idle between requests, bytes of headers not yet complete, seconds
    #: to finish answering on SIGTERM
    connections: int = 200
    request_seconds: float = 10.0
    keep_alive: int = 5
    incomplete_headers: int = 16_384
    graceful_seconds: int = 5
