"""No folder of the server in an answer of `tarot serve`: every refusal's message passes here.

Where it sits: called by the web app's error handlers (`tarot.web.app`) on every message
before it is sent. The loader names files by their paths, which is what a person at a
terminal needs; a stranger at a table needs none of them, and they tell the user's name, the
home folder and where the package is installed. A path under the tables' folder or the
built-in rulesets is shortened to what follows (an uploaded file as it was sent, a built-in
one as `family/name.yaml`); one under the package, the home folder, the working folder or
the Python installation loses its folder to `...`.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from tarot.load import paths


class Redactor:
    """Takes the server's folders out of a message."""

    def __init__(self, tables: Path) -> None:
        shortened = [tables, paths.rulesets_dir()]
        hidden = [
            paths.schemas_dir(),
            Path(__file__).resolve().parent.parent,
            Path.home(),
            Path.cwd(),
            Path(sys.prefix),
            Path(tempfile.gettempdir()),
        ]
        table_homes = [(f"{folder}{os.sep}", "") for folder in _forms(shortened)]
        # a table's own folder (tables/ID/) is shortened whole: the upload as it was sent
        self._tables = [str(form) for form in _forms([tables])]
        pairs = table_homes + [(f"{folder}{os.sep}", f"...{os.sep}") for folder in _forms(hidden)]
        pairs += [(str(folder), "...") for folder in _forms(hidden + shortened)]
        self._pairs = sorted(set(pairs), key=lambda pair: -len(pair[0]))

    def __call__(self, message: str) -> str:
        for tables in self._tables:  # tables/ID/upload.yaml -> upload.yaml
            while (start := message.find(tables + os.sep)) >= 0:
                rest = message[start + len(tables) + 1 :]
                head, sep, tail = rest.partition(os.sep)
                message = message[:start] + (tail if sep else head)
        for folder, shown in self._pairs:
            message = message.replace(folder, shown)
        return message


def _forms(folders: Iterable[Path]) -> set[str]:
    """Each folder as given and as resolved (a link, a relative path); never the root."""
    forms = set()
    for folder in folders:
        for form in (folder, folder.absolute(), folder.resolve()):
            if len(form.parts) > 1:
                forms.add(str(form))
    return forms
