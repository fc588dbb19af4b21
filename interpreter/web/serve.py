"""`tarot serve`: start the web app on this machine and open the page in a browser.

Where it sits: called by `tarot.cli`, which parses the arguments; runs
`tarot.web.app` under uvicorn (with the connection bounds of `tarot.web.connections`) until
Ctrl-C or SIGTERM. Starlette and uvicorn are the optional `web` extra: without them the
command says how to install them. The server answers to the loopback names, and to the
names given with `--allow-host` (needed when it listens on another interface); a built-in
ruleset that a user's ruleset of the same name hides is noted when it starts (tables named
so play the user's).
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
import threading
import webbrowser
from pathlib import Path

INSTALL = "tarot serve needs the web extra: pip install 'tarot-rules[web]'"


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from tarot.web.app import create_app
    except ImportError as error:
        print(f"tarot: {INSTALL} ({error})", file=sys.stderr)
        return 1
    from tarot.web.connections import server_config
    from tarot.web.limits import ServeLimits
    from tarot.web.tables import default_folder

    folder = Path(args.tables) if args.tables else default_folder()
    try:
        note = private_folder(folder)
    except OSError as error:
        print(f"tarot: --tables {folder}: {error.strerror or error}", file=sys.stderr)
        return 1
    if note:
        print(f"tarot: {note}", file=sys.stderr)
    allowed = tuple(args.allow_host or ())
    if args.host not in ("0.0.0.0", "::", ""):
        allowed += (args.host,)
    limits = ServeLimits(
        allowed_hosts=allowed,
        think_seconds=float(args.think_seconds),
        tables_bytes=args.tables_cap * 1_000_000,
    )
    address = f"http://{_shown_host(args.host)}:{args.port}/"
    print(f"tarot: the table is at {address} (tables kept in {folder}); Ctrl-C stops")
    _note_shadowed()
    if not args.no_browser:
        threading.Timer(1.0, webbrowser.open, [address]).start()
    server = uvicorn.Server(server_config(create_app(folder, limits), args.host, args.port, limits))
    server.run()
    return 0


def private_folder(folder: Path) -> str | None:
    """Make the tables' folder, readable by this user alone: it holds every table's seed and
    seat links, and its list of folders is the list of tables' addresses. A folder that was
    open to others is closed, and a note says so (None when nothing was changed)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    mode = stat.S_IMODE(folder.stat().st_mode)
    if os.name != "posix" or not mode & 0o077:
        return None
    folder.chmod(mode & 0o700)
    return (
        f"the tables' folder {folder} was open to other users of this machine (mode "
        f"{mode:o}), who could read the tables' seeds and seat links: it is now yours alone"
    )


def _note_shadowed() -> None:
    """A note for each built-in ruleset a user's ruleset hides: tables so named play it."""
    from tarot.load import paths

    for name in paths.shadowed():
        note = paths.shadowing_note(name)
        print(f"{note}; tables of that name play the built-in one", file=sys.stderr)


def _shown_host(host: str) -> str:
    """The host a browser on this machine reaches the server at."""
    if host in ("0.0.0.0", "::", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host
