"""Documents already found valid against a schema, remembered between processes.

Where it sits: beside the schema check (`check.schema_check.validation_errors`), which asks
here before validating and tells here what it found valid. Validating the largest built-in
rulesets takes about 25 ms, a quarter of what loading them may take; a document is the same
from one load to the next far more often than not. A document is known by a SHA-256 of its
canonical JSON together with the schema's (and of how integers are checked), so any change
to either is a new document. Only plain JSON data is remembered: a document holding anything
else YAML can give (a date, say) is validated every time. The list lives in the user's
private cache folder (`tarot.user_cache`); without one, nothing is remembered.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from tarot.user_cache import cache_folder

#: what the check does beyond the schema itself (its own integer rule): a change here is a
#: change of every key
CHECK_VERSION = "integers-as-written-1"
FILE = "valid-documents.txt"
KEEP = 2000  # keys kept in the file; older ones are dropped when it grows past twice this


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
    path = _file()
    try:
        lines = path.read_text(encoding="ascii").split() if path else []
    except (OSError, UnicodeDecodeError):
        lines = []
    return {line for line in lines if len(line) == 64}


def is_known_valid(key: str | None) -> bool:
    return key is not None and key in _known()


def remember_valid(key: str | None) -> None:
    """Add the key of a document found valid (nothing is written when there is no cache)."""
    if key is None or key in _known():
        return
    _known().add(key)
    path = _file()
    if path is None:
        return
    try:
        with path.open("a", encoding="ascii") as out:
            out.write(key + "\n")
        if path.stat().st_size > 2 * KEEP * 65:
            kept = path.read_text(encoding="ascii").split()[-KEEP:]
            path.write_text("\n".join(kept) + "\n", encoding="ascii")
    except OSError:
        pass  # a cache that cannot be written is a cache that is not used
