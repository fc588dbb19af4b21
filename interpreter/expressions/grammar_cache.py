"""lark's analysis of the expression grammar, kept between processes as sealed JSON.

Where it sits: under the parser (`expressions.parser`), which asks here for its lark parser
once a process. Analysing the grammar (the LALR tables) costs far more than reading the
result back. lark's own cache is a pickle, which runs code when read: it is not
used. What is kept instead is lark's serialized form of the parser (`Lark.memo_serialize`:
names, patterns, numbers, the tables), written as JSON with every mapping's keys marked
with their type so that whole-number keys come back as numbers, sealed with the user's key
(`tarot.user_cache`) over the grammar's text, lark's version and the parser's settings, in
the user's private cache folder. Anything wrong with the file (missing, not the user's, too
large, a seal or a form that fails) is the same as no file: the grammar is analysed and the
file written again.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from tarot.user_cache import cache_folder, read_private, seal, unseal, write_private

GRAMMAR = Path(__file__).with_name("grammar.lark")
MAX_FILE = 2 * 2**20  # bytes; the analysis is about 50 kB


def grammar_parser(positions: bool) -> Lark:
    """The expression grammar's LALR parser (`positions`: every node knows its place)."""
    path, purpose = _place(positions)
    if path is not None:
        sealed = read_private(path, MAX_FILE)
        payload = None if sealed is None else unseal(purpose, sealed)
        if payload is not None:
            try:
                return Lark.load(json.loads(payload, object_pairs_hook=_keys_back))
            except Exception:  # noqa: BLE001 - any form lark cannot load: analyse afresh
                pass
    parser = Lark.open(
        GRAMMAR.name, rel_to=str(GRAMMAR), parser="lalr", propagate_positions=positions
    )
    if path is not None:
        try:
            data, memo = parser.memo_serialize([TerminalDef, Rule])
            payload = json.dumps(_marked({"data": data, "memo": memo})).encode("utf-8")
        except (TypeError, ValueError):  # a form this module does not know: not kept
            return parser
        sealed = seal(purpose, payload)
        if sealed is not None:
            write_private(path, sealed)
    return parser


def _place(positions: bool) -> tuple[Path | None, bytes]:
    """The file and the purpose its seal is made for (the grammar, lark, the settings)."""
    folder = cache_folder()
    try:
        grammar = hashlib.sha256(GRAMMAR.read_bytes()).hexdigest()[:16]
    except OSError:
        return None, b""
    kind = "positions" if positions else "plain"
    python = "{}.{}".format(*sys.version_info[:2])
    name = f"expression-grammar-{kind}-lark-{lark.__version__}-python-{python}-{grammar}.json"
    return (None if folder is None else folder / name), f"grammar/{name}".encode()


def _marked(value: Any) -> Any:
    """JSON data of lark's serialized parser: a mapping's keys as `s:TEXT` or `i:NUMBER`."""
    if isinstance(value, dict):
        marked = {}
        for key, item in value.items():
            if isinstance(key, bool) or not isinstance(key, str | int):
                raise TypeError(f"a key {key!r}")
            marked[f"{'s' if isinstance(key, str) else 'i'}:{key}"] = _marked(item)
        return marked
    if isinstance(value, list | tuple):
        return [_marked(item) for item in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"a value {type(value).__name__}")


def _keys_back(pairs: list[tuple[str, Any]]) -> dict:
    back: dict = {}
    for key, value in pairs:
        kind, _, text = key.partition(":")
        if kind == "i":
            back[int(text)] = value
        elif kind == "s":
            back[text] = value
        else:
            raise ValueError(f"an unmarked key {key[:20]!r}")
    return back
