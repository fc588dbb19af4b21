"""Seals on a results store's hands: which hands this user's tool played and kept.

Where it sits: under `measure.store`, which seals every hand it keeps and checks the seal of
every hand it reads. A store's checks (`store_check`) refuse what cannot be a hand; a made-up
hand that fits the ruleset would pass them. The seal tells it apart: an HMAC-SHA256, made
with the user's store key (`user_cache.store_key`, 32 random bytes readable by the user
alone), over the run's key as the store writes it (ruleset hash, options, agents, seed,
results version, back end), the hand's number and its summary text. A hand copied under
another run or number, edited, or written with another key fails. The store itself says
whose it is (`owner`: a digest of the key that names no secret), so a store sealed by
someone else is recognised when it is opened, before a hand is read.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence

from tarot.errors import TarotError
from tarot.user_cache import KEY_BYTES, STORE_KEY_FILE, keys_folder, store_key, unfit

_HAND = b"tarot-store-hand\0"
_OWNER = b"tarot-store-owner"


class NoKey(TarotError):
    """The user's store key cannot be used or made: what is wrong, and what to do."""


class Sealer:
    """Seals made and checked with the user's store key."""

    def __init__(self) -> None:
        folder = keys_folder()
        if folder is None:
            raise NoKey(
                "a store's hands are sealed with a key of yours, kept in "
                "~/.local/share/tarot/keys (or $XDG_DATA_HOME/tarot/keys), and that folder "
                "cannot be made private to you"
            )
        path = folder / STORE_KEY_FILE
        why = unfit(path, KEY_BYTES)
        if why is None and path.exists() and path.stat().st_size != KEY_BYTES:
            why = f"a key is {KEY_BYTES} bytes"
        if why is not None:  # never replaced here: the user's stores are sealed with it
            raise NoKey(
                f"your store key {path} cannot be used ({why}): make it a file of yours "
                "readable by you alone (chmod 600), or remove it to make a new one (your "
                "stores would then need --trust-store once)"
            )
        key = store_key()
        if key is None:
            raise NoKey(f"your store key cannot be made in {folder}")
        self._key = key
        self.owner = hmac.new(key, _OWNER, hashlib.sha256).hexdigest()[:32]

    def seal(self, run: str, number: int, summary: str) -> str:
        """The seal of hand `number` (its summary text `summary`) of the run whose key
        `run_text` wrote as `run`."""
        message = _HAND + run.encode() + b"\0" + str(number).encode() + b"\0" + summary.encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()

    def fits(self, seal: object, run: str, number: int, summary: str) -> bool:
        """Whether `seal` is this user's for that hand."""
        if not isinstance(seal, str):
            return False
        expected = self.seal(run, number, summary).encode()
        return hmac.compare_digest(seal.encode(errors="replace"), expected)


def run_text(values: Sequence[object]) -> str:
    """A run's key as the seal covers it: the values of its row in the store's `runs`."""
    return json.dumps(list(values), separators=(",", ":"))
