"""`tarot serve`: the table in the browser.

Where it sits: a command of `tarot.cli`, which parses the command line and calls `run`; what it
needs is imported when it runs.
"""

from __future__ import annotations

import argparse

from tarot.core import whole_numbers
from tarot.web.limits import TABLES_MB


def run(args: argparse.Namespace) -> int:
    from tarot.web.serve import cmd_serve

    return cmd_serve(args)


def add_arguments(serve: argparse.ArgumentParser) -> None:
    serve.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    serve.add_argument("--port", type=whole_numbers.port, default=8000, help="default 8000")
    serve.add_argument(
        "--no-browser", action="store_true", help="do not open the page in a browser"
    )
    serve.add_argument(
        "--tables",
        metavar="DIR",
        help="keep each table's actions and record here (default ~/.local/share/tarot/tables)",
    )
    serve.add_argument(
        "--tables-cap",
        type=whole_numbers.count,
        metavar="MB",
        default=TABLES_MB,
        help=f"the tables' folders take at most this many megabytes on disk (default {TABLES_MB}); "
        "past it, tables with no finished hand are removed, the longest untouched first, "
        "else new tables are refused",
    )
    serve.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        help="a host name the page is reached at besides localhost and the loopback addresses "
        "(repeat for several); requests naming any other host are refused",
    )
    serve.add_argument(
        "--think-seconds",
        type=whole_numbers.think_seconds,
        default=10,
        help="at most this long per decision for a computer player (default 10, at most 600)",
    )
