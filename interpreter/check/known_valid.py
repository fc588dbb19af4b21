"""Documents already found valid against a schema, remembered between processes.

Where it sits: beside the schema check (`check.schema_check.validation_errors`), which asks
here before validating and tells here what it found valid. Validating a large ruleset is a
good part of what loading it costs; a document is the same
from one load to the next far more often than not. A document is known by a SHA-256 of its
canonical JSON together with the schema's (and of how integers are checked), so any change
to either is a new document. Only plain JSON data is remembered: a document holding anything
else YAML can give (a date, say) is validated every time. The list lives in the user's
private cache folder (`tarot.user_cache`); without one, nothing is remembered.

The file is read as a stranger's: each line is not the key itself but its seal made with the
user's key (`user_cache.mac_hex`), so a line that someone else wrote, even the key of a
document they know, never says a document is valid; a file that is not a regular file of the
user's, or is longer than the list ever grows, is removed with a note and begun again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from tarot.user_cache import cache_folder, discard, mac_hex, read_private, write_private

#: what the check does beyond the schema itself (its own integer rule): a change here is a
#: change of every key
CHECK_VERSION = "integers-as-written-1"
FILE = "valid-documents-2.txt"
KEEP = 2000  # keys kept in the file; older ones are dropped when it grows past twice this
LINE = 65  # bytes of a line: 64 hex digits and its end
PURPOSE = b"valid-document"


class _NotJson(Exception):
    """The document holds a value that plain JSON does not."""


def _refuse(_value: object) -> object:
    raise _NotJson


def document_key(data: Any, schema: Mapping[str, Any]) -> str | None:
    """The document's key with this schema, or None when it is not plain JSON data."""
    try:
        text = json.dumps(
            [CHECK_VERSION, schema, data],
            sort_keys=True,
            separators=(",", ":"),
            default=_refuse,
            allow_nan=True,
        )
    except (_NotJson, TypeError, ValueError, RecursionError):
        return None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _file() -> Path | None:
    folder = cache_folder()
    return None if folder is None else folder / FILE


@cache
def _known() -> set[str]:
    """The seals in the file (read once a process), and those added since."""
    path = _file()
    data = read_private(path, 2 * KEEP * LINE + LINE) if path else None
    try:
        lines = data.decode("ascii").split() if data else []
    except UnicodeDecodeError:
        assert path is not None
        discard(path, "it is not a list of seals")
        lines = []
    return {line for line in lines if len(line) == 64}


def _entry(key: str) -> tuple[str, bool]:
    """The key's seal, and whether it may be written (without a user's key, the key itself,
    remembered for the process only)."""
    sealed = mac_hex(PURPOSE, key.encode("ascii"))
    return (key, False) if sealed is None else (sealed, True)


def is_known_valid(key: str | None) -> bool:
    return key is not None and _entry(key)[0] in _known()


def remember_valid(key: str | None) -> None:
    """Add the key of a document found valid (nothing is written when there is no cache)."""
    if key is None:
        return
    entry, kept = _entry(key)
    if entry in _known():
        return
    _known().add(entry)
    path = _file()
    if path is None or not kept:
        return
    try:
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(path, flags, 0o600), "a", encoding="ascii") as out:
            out.write(entry + "\n")
        if path.stat().st_size > 2 * KEEP * LINE:
            latest = path.read_text(encoding="ascii").split()[-KEEP:]
            write_private(path, ("\n".join(latest) + "\n").encode("ascii"))
    except OSError:
        pass  # a cache that cannot be written is a cache that is not used
