"""Who sits where at a table of `tarot serve`: the seats people take, and the secret token
each seat's link carries.

Where it sits: between the web app (`tarot.web.app`), which reads a request's token, and a
`Table` (`tarot.web.table`), whose setup keeps the tokens. Whoever opens a table chooses the
seats people will take (their own among them); each such seat gets a token drawn by
`secrets`, and its link (`/t/ID?token=...`) gives that seat and nothing else: its view, its
actions, its live updates. A table with one person and no tokens (kept before there were
any) is reached by its id alone, as it always was.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable

from tarot.web.table import Refused, Table

TOKEN_BYTES = 16  # of randomness in a seat's token (22 characters in the link)


def new_tokens(people: Iterable[int]) -> dict[int, str]:
    """A fresh secret token for each seat a person takes."""
    return {seat: secrets.token_urlsafe(TOKEN_BYTES) for seat in sorted(set(people))}


def seat_of(table: Table, token: str | None, claimed: int | None = None) -> int:
    """The seat a request speaks for: the one its token opens (`claimed`, the seat the
    request names, if any, must be it)."""
    tokens = table.setup.tokens
    if token:
        found = [seat for seat, known in tokens.items() if hmac.compare_digest(known, token)]
        if not found:
            raise Refused(403, "this link's token opens no seat of this table")
        seat = found[0]
    elif len(table.people) > 1:
        raise Refused(403, "several people sit at this table: open it from your seat's link")
    else:
        seat = table.seat
    if claimed is not None and claimed != seat:
        whose = "another person's" if claimed in table.people else "played by the computer"
        raise Refused(403, f"you sit at seat {seat}; seat {claimed} is {whose}")
    return seat


def links(table: Table) -> list[dict]:
    """Each person's seat with the path of its link (for whoever opened the table)."""
    return [
        {"seat": seat, "path": f"/t/{table.id}?token={token}"}
        for seat, token in sorted(table.setup.tokens.items())
    ]
