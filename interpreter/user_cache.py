"""The user's cache folder, where work is kept between processes so that loading is quick.

Where it sits: under the expression parser (the parsing tables of the grammar and the trees
of expressions: `expressions.grammar_cache`, `expressions.tree_store`) and the schema check
(the documents already found valid, `check.known_valid`). The folder is
``$XDG_CACHE_HOME/tarot`` or ``~/.cache/tarot``, made private to the user, never in the
package or beside a ruleset.

Nothing read back from it is trusted as it stands. It holds data only (JSON, SQLite rows,
lines of hex), never a pickle; and every entry is sealed with an HMAC-SHA256 made with a key
of 32 random bytes kept in the folder (`signing-key`, made on first use, readable by the user
alone), over what the entry says and what it is for. An entry that someone else wrote (a
cache folder checked out with a project, a file planted or swapped) fails the seal and is
ignored. The folder is used only when it is a real folder (not a link), the user's own, and
closed to everyone else; a file in it only when it is a regular file of the user's, of a
bounded size. A folder or file that fails is passed over with a note on standard error
(once a process), and the cache rebuilt where it can be.

One key lives elsewhere, since a cache may be emptied at any time: the key that seals the
hands of the user's results stores (`store_key`, in ``$XDG_DATA_HOME/tarot/keys`` or
``~/.local/share/tarot/keys``, made and checked the same way).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
import sys
from functools import cache
from pathlib import Path

KEY_FILE = "signing-key"
STORE_KEY_FILE = "store-key"
KEY_BYTES = 32
MAC_BYTES = 32  # SHA-256
_noted: set[str] = set()


def note(message: str) -> None:
    """Say once a process, on standard error, why a cache was passed over or rebuilt."""
    if message not in _noted:
        _noted.add(message)
        print(f"tarot: note: {message}", file=sys.stderr)


def _private(info: os.stat_result, kind: int) -> bool:
    own = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    closed = not info.st_mode & (stat.S_IRWXG | stat.S_IRWXO)
    return stat.S_IFMT(info.st_mode) == kind and own and closed


def cache_folder() -> Path | None:
    """The private cache folder, made if need be; None when there is no safe place."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return _private_folder(
        Path(base) / "tarot", "the cache folder", "nothing is cached (loading is slower)"
    )


def keys_folder() -> Path | None:
    """The private folder of the keys that must outlive the cache (`store_key`):
    ``$XDG_DATA_HOME/tarot/keys`` or ``~/.local/share/tarot/keys``; None when there is no
    safe place."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return _private_folder(Path(base) / "tarot" / "keys", "the keys folder", "no key is kept")


def _private_folder(folder: Path, what: str, otherwise: str) -> Path | None:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.lstat()
    except (OSError, RuntimeError):  # no home, read-only file system...
        return None
    if not _private(info, stat.S_IFDIR):
        note(f"{what} {folder} is not a folder of yours closed to others: {otherwise}")
        return None
    return folder


def unfit(path: Path, limit: int) -> str | None:
    """Why a cache file may not be used (not a regular file of the user's closed to others,
    or larger than `limit` bytes); None when it may, or is not there."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None
    except OSError as error:
        return error.strerror or str(error)
    if not _private(info, stat.S_IFREG):
        return "it is not a regular file of yours closed to others"
    if info.st_size > limit:
        return f"it holds {info.st_size:,} bytes, more than {limit:,}"
    return None


def create_private(path: Path) -> None:
    """Make an empty cache file readable by the user alone, unless it is there."""
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        os.close(os.open(path, flags, 0o600))
    except OSError:
        pass


def read_private(path: Path, limit: int) -> bytes | None:
    """The bytes of a cache file, or None when it is missing; a file that is not a regular
    file of the user's closed to others, or holds more than `limit` bytes, is removed with a
    note, and None."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError:  # a link (O_NOFOLLOW), a file not readable...
        return _refused(path, "it is not a regular file of yours")
    with os.fdopen(descriptor, "rb") as file:
        info = os.fstat(file.fileno())
        if not _private(info, stat.S_IFREG):
            return _refused(path, "it is not a regular file of yours closed to others")
        if info.st_size > limit:
            return _refused(path, f"it holds {info.st_size:,} bytes, more than {limit:,}")
        data = file.read(limit + 1)
    if len(data) > limit:
        return _refused(path, f"it holds more than {limit:,} bytes")
    return data


def write_private(path: Path, data: bytes) -> None:
    """Replace a cache file at once (readable by the user alone); nothing on failure."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(partial, flags, 0o600), "wb") as file:
            file.write(data)
        os.replace(partial, path)
    except OSError:
        try:
            partial.unlink()
        except OSError:
            pass


def discard(path: Path, why: str) -> None:
    """Remove a cache file that cannot be used, with a note; it is made again."""
    note(f"the cache file {path} is passed over and made again: {why}")
    try:
        path.unlink()
    except OSError:
        pass


def _refused(path: Path, why: str) -> bytes | None:
    """`discard` the file; no bytes."""
    discard(path, why)
    return None


def signing_key() -> bytes | None:
    """The user's key that seals cache entries (made on first use); None without a folder."""
    folder = cache_folder()
    return None if folder is None else _key_in(folder)


def store_key() -> bytes | None:
    """The user's key that seals the hands of results stores (made on first use), kept in
    the keys folder rather than the cache: emptying the cache must not make the user's own
    stores look like someone else's. None without a private folder for it."""
    folder = keys_folder()
    return None if folder is None else _key_in(folder, STORE_KEY_FILE)


@cache
def _key_in(folder: Path, name: str = KEY_FILE) -> bytes | None:
    path = folder / name
    key = read_private(path, KEY_BYTES)
    if key is not None and len(key) == KEY_BYTES:
        return key
    if key is not None:
        discard(path, "a key is 32 bytes")
    key = os.urandom(KEY_BYTES)
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(path, flags, 0o600), "wb") as file:
            file.write(key)
    except FileExistsError:  # another process made it meanwhile: use that one
        made = read_private(path, KEY_BYTES)
        return made if made is not None and len(made) == KEY_BYTES else None
    except OSError:
        return None
    return key


def seal(purpose: bytes, payload: bytes, key: bytes | None = None) -> bytes | None:
    """`payload` with its seal in front, for `purpose` (what it is, and for what key of the
    cache), made with `key` (by default the user's); None when there is no key."""
    key = key or signing_key()
    if key is None:
        return None
    return hmac.new(key, purpose + b"\0" + payload, hashlib.sha256).digest() + payload


def unseal(purpose: bytes, sealed: bytes, key: bytes | None = None) -> bytes | None:
    """The payload of a sealed entry, or None when its seal is not this user's for `purpose`
    (`key`: the user's, when it is known already)."""
    key = key or signing_key()
    if key is None or len(sealed) < MAC_BYTES:
        return None
    mac, payload = sealed[:MAC_BYTES], sealed[MAC_BYTES:]
    expected = hmac.new(key, purpose + b"\0" + payload, hashlib.sha256).digest()
    return payload if hmac.compare_digest(mac, expected) else None


def mac_hex(purpose: bytes, text: bytes) -> str | None:
    """The seal of `text` alone, in hex (an entry that is only its seal); None without a key."""
    key = signing_key()
    if key is None:
        return None
    return hmac.new(key, purpose + b"\0" + text, hashlib.sha256).hexdigest()
