"""`tarot serve`: start the web app on this machine and open the page in a browser.

Where it sits: called by `tarot.cli`, which parses the arguments; runs
`tarot.web.app` under uvicorn until Ctrl-C. Starlette and uvicorn are the optional
`web` extra: without them the command says how to install them.
"""

from __future__ import annotations

import argparse
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
    from tarot.web.tables import default_folder

    folder = Path(args.tables) if args.tables else default_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"tarot: --tables {folder}: {error.strerror or error}", file=sys.stderr)
        return 1
    address = f"http://{_shown_host(args.host)}:{args.port}/"
    print(f"tarot: the table is at {address} (tables kept in {folder}); Ctrl-C stops")
    if not args.no_browser:
        threading.Timer(1.0, webbrowser.open, [address]).start()
    uvicorn.run(create_app(folder), host=args.host, port=args.port, log_level="warning")
    return 0


def _shown_host(host: str) -> str:
    """The host a browser on this machine reaches the server at."""
    if host in ("0.0.0.0", "::", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host
