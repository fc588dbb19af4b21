"""The user's cache folder, where work is kept between processes so that loading is quick.

Where it sits: under the expression parser (lark's analysis of the grammar) and the schema
check (the documents already found valid, `check.schema_check`). The folder is
``$XDG_CACHE_HOME/tarot`` or ``~/.cache/tarot``, made private to the user, never in the
package or beside a ruleset, and used only when it is the user's own and no one else can
write to it: what is read back from it is trusted (lark's cache file is a pickle).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def cache_folder() -> Path | None:
    """The private cache folder, made if need be; None when there is no safe place."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "tarot"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.lstat()
    except (OSError, RuntimeError):  # no home, read-only file system...
        return None
    own = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    private = not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    if not (stat.S_ISDIR(info.st_mode) and own and private):
        return None
    return folder
