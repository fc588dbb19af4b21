"""YAML 1.2's core schema for PyYAML, which reads YAML 1.1: what a plain scalar means.

Where it sits: the resolver of every loader that reads a ruleset
(:mod:`~tarot.load.yaml_limits`, :mod:`~tarot.load.listing`), so that `tarot
validate` reads a file as the editors do (yaml-language-server, check-jsonschema and
ruamel.yaml read YAML 1.2). A plain scalar is null (``~``, ``null``, empty), a boolean
(``true``/``false`` in three cases), an integer (decimal, ``0o`` octal, ``0x`` hex), a
float (with a point or an exponent; ``.inf``, ``.nan``) or else text. Unlike YAML 1.1,
``yes``/``no``/``on``/``off`` are text, and so are ``1:30`` (1.1: base 60), ``0b101``,
``1_000`` and dates; ``<<`` merge keys are kept.

:func:`yaml11_reading` says what YAML 1.1 made of a text that YAML 1.2 leaves as text, for
the message of a value whose type changed (see `tarot.check.schema_check`); and
:func:`leading_zero_problem` refuses ``017``, an integer in both versions but 15 in one
and 17 in the other.
"""

from __future__ import annotations

import re

import yaml
from yaml.nodes import ScalarNode
from yaml.resolver import BaseResolver, Resolver

__all__ = ["CoreResolver", "leading_zero_problem", "yaml11_reading"]

_TAG = "tag:yaml.org,2002:"


class CoreResolver(BaseResolver):
    """The implicit tags of the YAML 1.2 core schema (and ``<<``)."""


for _tag, _pattern, _first in [
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+.0123456789"),
    ),
    ("merge", r"^(?:<<)$", ["<"]),
]:
    CoreResolver.add_implicit_resolver(_TAG + _tag, re.compile(_pattern), _first)

#: The table a loader class puts in place of YAML 1.1's (`yaml_implicit_resolvers`).
CORE_RESOLVERS = CoreResolver.yaml_implicit_resolvers

_LEADING_ZERO = re.compile(r"[-+]?0[0-9]+")


def leading_zero_problem(text: str) -> str | None:
    """Why the integer written ``text`` is refused (``017``), or None."""
    if not _LEADING_ZERO.fullmatch(text):
        return None
    sign = "-" if text.startswith("-") else ""
    digits = text.lstrip("+-").lstrip("0") or "0"
    as_octal = f" or {sign}{int(digits, 8)}" if set(digits) <= set("01234567") else ""
    return (
        f"{text} has a leading zero, read as octal by YAML 1.1 and as decimal by YAML 1.2: "
        f"write {sign}{digits}{as_octal}, without it"
    )


_YAML11 = Resolver()


def yaml11_reading(text: str) -> str | None:
    """For a text YAML 1.1 read as a boolean or a number (``yes``, ``1:30``, ``1_000``):
    what to write now; None for a text both versions read alike."""
    tag = _YAML11.resolve(ScalarNode, text, (True, False)).removeprefix(_TAG)
    if tag not in ("bool", "int", "float"):
        return None
    meant = yaml.safe_load(text)  # the YAML 1.1 reading, for the message
    written = str(meant).lower() if isinstance(meant, bool) else str(meant)
    return f"YAML 1.2 reads {text!r} as text (YAML 1.1 read it as {written}): write {written}"
